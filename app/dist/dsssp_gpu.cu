/* The GPU engine of distributed delta-stepping (dsssp_gpu.h): the host side
 * of dsssp_gpu_kernels.cuh's round.
 *
 * Two drivers of the same kernels. Over the NCCL backend the rounds stay on
 * the GPU (rounds_on_device): the bucket the ranks agree on is a device word
 * that the next round's frontier reads, the counts go to the other ranks by
 * a queued all-to-all, and the host waits once a round, for the counts it
 * needs to size the exchange of updates. Over a host backend (tests of the
 * engine alone) the engine fills dsssp_engine.h's table and the shared rounds
 * (dsssp_rounds.c) run it as they run the CPU twin, the updates staged
 * through host memory.
 *
 * A round finds its frontier and the next bucket by scans of the rank's
 * n_local keys (no window of bucket lists). It does not reuse app/sssp/gpu's
 * persistent engines: those keep a whole graph's buckets inside one kernel
 * launch, while here every round meets the other ranks.
 *
 * Memory on the GPU: the CSR (8 + 8 bytes an arc with the offsets' share), 21
 * bytes a vertex (key, done, predecessor, changed), and the combining table:
 * a slot for twice the most distinct heads a round can offer other ranks,
 * min(n - n_local, m_local), at 12 bytes a slot (16 with predecessors), the
 * owners' lists of slots (4 bytes for each of an owner's vertices a round can
 * reach, at most that many a rank) and the updates (16 bytes a head).
 */
#include "dist/comm_nccl.h"
#include "dist/dsssp_gpu.h"

#include <stdlib.h>
#include <string.h>

#include "dist/dsssp_engine.h"
#include "ds/cuda_try.h"
#include "dsssp_gpu_kernels.cuh"

namespace {

using namespace dsdist;

constexpr int THREADS_PER_SM = 2048; /* the warp-a-vertex kernels fill the GPU once, grid-stride */

/* The phases of a round on the device's timeline (rounds_on_device's statistics). */
enum round_event { EV_START, EV_RELAXED, EV_COUNTED, EV_EXCHANGED, EV_SCANNED, EV_COUNT };

struct engine {
  ds_comm *comm;
  const ds_dgraph *g;
  ds_dsssp_result *res;
  int ranks, me, staged, want_pred, own_stream;
  int device, pred_room; /* pred_room: opened for searches with predecessors */
  uint64_t cap;          /* the combining table's slots */
  cudaStream_t s;
  part p;
  table t;
  uint64_t max_heads;    /* distinct other ranks' heads a round can offer */
  uint64_t list_slots;   /* the owners' lists together */
  int relax_grid;
  uint32_t *d_bounds;    /* ranks + 1 */
  uint64_t *d_list_base; /* ranks */
  unsigned long long *d_ctl, *h_ctl;
  uint64_t *d_off;       /* ranks + 1: the send layout */
  uint64_t *d_xfer, *h_xfer; /* the counts sent, the counts received, the agreement */
  ds_dsssp_update *d_send, *d_recv, *h_send, *h_recv; /* h_*: staging for a host communicator */
  size_t recv_cap;
  cudaEvent_t ev[2][EV_COUNT]; /* a round's and the last round's (rounds_on_device) */
  uint64_t next;         /* the bucket the last apply's scan found */
  int next_valid;
  ds_status failed;      /* a scan that failed: the next relax reports it */
  ds_error failed_err;
};

uint32_t blocks_for(uint64_t n) { return (uint32_t)((n + BLOCK - 1) / BLOCK); }

template <typename T> ds_status dev_alloc(T **p, uint64_t count, const engine *e, const char *what,
                                          ds_error *err) {
  const size_t bytes = (size_t)(count ? count : 1) * sizeof(T);
  if (cudaMalloc((void **)p, bytes) == cudaSuccess) return DS_OK;
  cudaGetLastError(); /* the failed allocation's error is not sticky: clear it */
  *p = nullptr;
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of GPU memory for %s (%zu bytes)", e->me,
                      what, bytes);
}

unsigned long long *agree_words(const engine *e) {
  return (unsigned long long *)(e->d_xfer + 2 * (size_t)e->ranks);
}

// ---- the kernels of a round, queued ------------------------------------------

/* 1.-4.: the frontier of the agreed bucket, its relaxation, the updates grouped by owner
   (d_send) and their counts (d_xfer[0, ranks)). */
ds_status queue_relax(engine *e, ds_error *err) {
  if (e->p.n_local == 0) DS_CUDA_TRY(cudaMemsetAsync(e->d_ctl, 0, CTL_BAD_UPDATE * sizeof *e->d_ctl, e->s));
  for (int step = 0; step < LOCAL_STEPS; step++) {
    if (e->p.n_local > 0)
      frontier_kernel<<<blocks_for(e->p.n_local), BLOCK, 0, e->s>>>(e->p, agree_words(e), e->d_ctl, step);
    DS_LAUNCH_CHECK("frontier_kernel");
    relax_kernel<false><<<e->relax_grid, BLOCK, 0, e->s>>>(e->p, e->t, e->d_ctl, step);
    DS_LAUNCH_CHECK("relax_kernel");
    if (e->want_pred) relax_kernel<true><<<e->relax_grid, BLOCK, 0, e->s>>>(e->p, e->t, e->d_ctl, step);
    DS_LAUNCH_CHECK("relax_kernel (predecessors)");
  }
  offsets_kernel<<<1, WARP_SIZE, 0, e->s>>>(e->t, e->d_off, e->d_xfer);
  DS_LAUNCH_CHECK("offsets_kernel");
  gather_kernel<<<e->relax_grid, BLOCK, 0, e->s>>>(e->t, e->d_off, e->want_pred, e->d_send);
  DS_LAUNCH_CHECK("gather_kernel");
  return DS_OK;
}

/* 5.-6.: the n updates that arrived applied, then the next bucket and this rank's status into
   the agreement words. */
ds_status queue_apply_scan(engine *e, uint64_t n, ds_error *err) {
  if (n > 0) {
    apply_kernel<false><<<blocks_for(n), BLOCK, 0, e->s>>>(e->p, e->d_recv, n, e->d_ctl);
    DS_LAUNCH_CHECK("apply_kernel");
    if (e->want_pred) apply_kernel<true><<<blocks_for(n), BLOCK, 0, e->s>>>(e->p, e->d_recv, n, e->d_ctl);
    DS_LAUNCH_CHECK("apply_kernel (predecessors)");
  }
  DS_CUDA_TRY(cudaMemsetAsync(agree_words(e) + AGREE_BUCKET, 0xff, sizeof(unsigned long long), e->s));
  scan_kernel<<<blocks_for(e->p.n_local ? e->p.n_local : 1), BLOCK, 0, e->s>>>(e->p, e->d_ctl,
                                                                               agree_words(e));
  DS_LAUNCH_CHECK("scan_kernel");
  return DS_OK;
}

/* Room for n updates arriving. */
ds_status recv_room(engine *e, uint64_t n, ds_error *err) {
  if (n <= e->recv_cap) return DS_OK;
  cudaFree(e->d_recv);
  free(e->h_recv);
  e->d_recv = e->h_recv = nullptr;
  e->recv_cap = 0;
  DS_TRY(dev_alloc(&e->d_recv, n, e, "the updates arriving", err));
  if (e->staged && (e->h_recv = (ds_dsssp_update *)malloc(n * sizeof *e->h_recv)) == nullptr)
    return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %llu updates arriving",
                        e->me, (unsigned long long)n);
  e->recv_cap = n;
  return DS_OK;
}

/* The message of an update this rank does not own (the scan's status said so). */
ds_status bad_update(engine *e, ds_error *err) {
  DS_CUDA_TRY(cudaMemcpyAsync(e->h_ctl, e->d_ctl, CTL_WORDS * sizeof *e->h_ctl,
                              cudaMemcpyDeviceToHost, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  return ds_error_set(err, DS_ERR_ARG, "rank %d received an update of vertex %llu, which it "
                      "does not own", e->me, e->h_ctl[CTL_BAD_UPDATE] - 1);
}

// ---- the rounds on the device (the NCCL backend) ------------------------------

float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0.0f;
  return cudaEventElapsedTime(&ms, a, b) == cudaSuccess ? ms : 0.0f;
}

/* The phases of round r (events ev[r % 2]) up to its counts, and the rest of round r - 1. */
void add_times(const engine *e, uint64_t r, ds_dsssp_round_stats *st) {
  cudaEvent_t const *now = e->ev[r % 2], *last = e->ev[(r + 1) % 2];
  st->relax_ms += elapsed(now[EV_START], now[EV_RELAXED]);
  st->exchange_ms += elapsed(now[EV_RELAXED], now[EV_COUNTED]);
  if (r == 0) return;
  st->exchange_ms += elapsed(last[EV_COUNTED], last[EV_EXCHANGED]);
  st->relax_ms += elapsed(last[EV_EXCHANGED], last[EV_SCANNED]);
  st->reduce_ms += elapsed(last[EV_SCANNED], now[EV_START]);
}

/* A round's first half: the agreed bucket relaxed, the updates grouped, the counts exchanged
   and copied back with the agreement words. */
ds_status queue_first_half(engine *e, ds_comm *comm, cudaEvent_t *ev, ds_error *err) {
  DS_CUDA_TRY(cudaEventRecord(ev[EV_START], e->s));
  DS_TRY(queue_relax(e, err));
  DS_CUDA_TRY(cudaEventRecord(ev[EV_RELAXED], e->s));
  DS_TRY(ds_comm_nccl_queue_alltoall_u64(comm, e->d_xfer, e->d_xfer + e->ranks, err));
  DS_CUDA_TRY(cudaEventRecord(ev[EV_COUNTED], e->s));
  DS_CUDA_TRY(cudaMemcpyAsync(e->h_xfer, e->d_xfer, (2 * (size_t)e->ranks + AGREE_WORDS) * 8,
                              cudaMemcpyDeviceToHost, e->s));
  return DS_OK;
}

/* Its second half: the updates exchanged (bytes: the four arrays of ds_comm_alltoallv) and
   applied, the next bucket scanned and agreed on. */
ds_status queue_second_half(engine *e, ds_comm *comm, cudaEvent_t *ev, const uint64_t *bytes,
                            uint64_t in, ds_error *err) {
  const int R = e->ranks;
  DS_TRY(ds_comm_nccl_queue_alltoallv(comm, e->d_send, bytes, bytes + R, e->d_recv, bytes + 2 * R,
                                      bytes + 3 * R, err));
  DS_CUDA_TRY(cudaEventRecord(ev[EV_EXCHANGED], e->s));
  DS_TRY(queue_apply_scan(e, in, err));
  DS_CUDA_TRY(cudaEventRecord(ev[EV_SCANNED], e->s));
  return ds_comm_nccl_queue_min_u64(comm, (uint64_t *)agree_words(e), AGREE_WORDS, err);
}

/* A failed status that every rank saw at the same round: the rank that failed says why. */
ds_status round_failed(engine *e, ds_comm *comm, ds_error *err) {
  ds_error lerr;
  lerr.msg[0] = '\0';
  const int mine = e->h_xfer[2 * (size_t)e->ranks + AGREE_STATUS] != ~(uint64_t)DS_OK;
  ds_status st = ds_comm_agree(comm, mine ? bad_update(e, &lerr) : DS_OK, &lerr);
  if (st == DS_OK) st = ds_error_set(&lerr, DS_ERR_DEVICE, "a rank's search failed without a message");
  if (err != nullptr) *err = lerr;
  return st;
}

/* dsssp_engine.h's rounds with one host wait a round: a round queues its relaxation and the
 * exchange of counts, waits for the counts and the bucket it relaxed, then queues the exchange
 * of updates, their application, the scan and the all-reduce of the next bucket (which the
 * next round's frontier reads on the device). The round whose agreed bucket is none relaxes
 * nothing and ends the search on every rank at once; so does a failed status. Per round: one
 * all-to-all of counts, one of updates and one all-reduce, as the shared rounds. */
ds_status rounds_on_device(engine *e, ds_comm *comm, ds_dsssp_round_stats *st, ds_error *err) {
  const int R = e->ranks;
  const uint64_t *send_n = e->h_xfer, *recv_n = e->h_xfer + R;
  uint64_t *bytes = (uint64_t *)malloc(4 * (size_t)R * sizeof *bytes);
  if (bytes == nullptr) return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory", e->me);
  uint64_t *send_b = bytes, *send_off = bytes + R, *recv_b = bytes + 2 * R, *recv_off = bytes + 3 * R;
  ds_status s = queue_apply_scan(e, 0, err); /* the first bucket */
  if (s == DS_OK) s = ds_comm_nccl_queue_min_u64(comm, (uint64_t *)agree_words(e), AGREE_WORDS, err);
  uint64_t current = DS_DSSSP_NO_BUCKET;
  for (uint64_t r = 0; s == DS_OK; r++) {
    // 1. relax the agreed bucket, exchange the counts, wait for them
    s = queue_first_half(e, comm, e->ev[r % 2], err);
    if (s == DS_OK) s = ds_comm_nccl_wait(comm, "a round", err);
    if (s != DS_OK) break;
    add_times(e, r, st);
    const uint64_t bucket = e->h_xfer[2 * R + AGREE_BUCKET];
    if (e->h_xfer[2 * R + AGREE_STATUS] != ~(uint64_t)DS_OK) {
      s = round_failed(e, comm, err);
      break;
    }
    if (bucket == DS_DSSSP_NO_BUCKET) break;
    st->rounds++;
    if (bucket != current) st->buckets++, current = bucket;
    // 2. the updates, then the next bucket (waited for in the next round)
    uint64_t out = 0, in = 0;
    for (int q = 0; q < R; q++) {
      send_b[q] = send_n[q] * sizeof(ds_dsssp_update);
      send_off[q] = out * sizeof(ds_dsssp_update);
      out += send_n[q];
      recv_b[q] = recv_n[q] * sizeof(ds_dsssp_update);
      recv_off[q] = in * sizeof(ds_dsssp_update);
      in += recv_n[q];
    }
    st->updates_sent += out;
    st->updates_received += in;
    if (in > 0 && (s = recv_room(e, in, err)) != DS_OK) { /* the others are sending */
      ds_comm_abort(comm, err != nullptr ? err->msg : "out of GPU memory");
      break;
    }
    s = queue_second_half(e, comm, e->ev[r % 2], bytes, in, err);
  }
  free(bytes);
  return s;
}

// ---- the shared rounds' engine (a host backend) -------------------------------

/* 5.-6. the n updates that arrived (in d_recv) applied, and the least bucket of a live vertex,
   waited for. */
ds_status scan(engine *e, uint64_t n, ds_error *err) {
  DS_TRY(queue_apply_scan(e, n, err));
  DS_CUDA_TRY(cudaMemcpyAsync(e->h_xfer, e->d_xfer, (2 * (size_t)e->ranks + AGREE_WORDS) * 8,
                              cudaMemcpyDeviceToHost, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  if (e->h_xfer[2 * e->ranks + AGREE_STATUS] != ~(uint64_t)DS_OK) return bad_update(e, err);
  e->next = e->h_xfer[2 * e->ranks + AGREE_BUCKET];
  e->next_valid = 1;
  return DS_OK;
}

uint64_t gpu_next_bucket(void *self) {
  engine *e = (engine *)self;
  if (!e->next_valid && e->failed == DS_OK) e->failed = scan(e, 0, &e->failed_err);
  e->next_valid = 0;
  /* a failed scan asks for one more round, whose relax reports the failure to every rank */
  return e->failed != DS_OK ? 0 : e->next;
}

ds_status gpu_relax(void *self, uint64_t b, const void **send, uint64_t *counts, ds_error *err) {
  engine *e = (engine *)self;
  if (e->failed != DS_OK) {
    if (err != nullptr) *err = e->failed_err;
    return e->failed;
  }
  e->next_valid = 0;
  const size_t at = 2 * (size_t)e->ranks + AGREE_BUCKET;
  e->h_xfer[at] = b;
  DS_CUDA_TRY(cudaMemcpyAsync(e->d_xfer + at, e->h_xfer + at, 8, cudaMemcpyHostToDevice, e->s));
  DS_TRY(queue_relax(e, err));
  DS_CUDA_TRY(cudaMemcpyAsync(e->h_xfer, e->d_xfer, (size_t)e->ranks * 8, cudaMemcpyDeviceToHost, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  uint64_t n = 0;
  for (int r = 0; r < e->ranks; r++) n += counts[r] = e->h_xfer[r];
  if (counts[e->me] != 0)
    return ds_error_set(err, DS_ERR_ARG, "rank %d grouped %llu updates of its own vertices for "
                        "sending: the partition's bounds disagree with the owner test", e->me,
                        (unsigned long long)counts[e->me]);
  if (n > 0) DS_CUDA_TRY(cudaMemcpy(e->h_send, e->d_send, n * sizeof *e->h_send, cudaMemcpyDeviceToHost));
  *send = e->h_send;
  return DS_OK;
}

ds_status gpu_receive_buffer(void *self, uint64_t n, void **buf, ds_error *err) {
  engine *e = (engine *)self;
  DS_TRY(recv_room(e, n, err));
  *buf = e->h_recv;
  return DS_OK;
}

ds_status gpu_apply(void *self, const void *recv, uint64_t n, ds_error *err) {
  engine *e = (engine *)self;
  DS_CUDA_TRY(cudaMemcpyAsync(e->d_recv, recv, n * sizeof *e->d_recv, cudaMemcpyHostToDevice, e->s));
  return scan(e, n, err);
}

// ---- setting up -------------------------------------------------------------

constexpr double GB = 1e9;

/* The combining table's capacity (room for every distinct head a round may offer) and the
 * owners' lists (owner p's: the fewer of its vertices and the heads a round can offer). */
ds_status plan_table(engine *e, const ds_dgraph *g, uint64_t *cap, ds_error *err) {
  const uint64_t others = (uint64_t)g->n - g->n_local;
  e->max_heads = others < g->m_local ? others : g->m_local;
  *cap = 2;
  while (*cap < 2 * e->max_heads) *cap *= 2;
  if (*cap > (uint64_t)UINT32_MAX + 1) /* the lists hold slots as 32-bit values */
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "rank %d: %llu other ranks' heads a round need "
                        "more than 2^32 combining slots", e->me, (unsigned long long)e->max_heads);
  e->list_slots = 0;
  for (int q = 0; q < g->ranks; q++) {
    if (q == g->rank) continue;
    const uint64_t nq = (uint64_t)g->part.bounds[q + 1] - g->part.bounds[q];
    e->list_slots += nq < e->max_heads ? nq : e->max_heads;
  }
  return DS_OK;
}

/* What the search allocates on the GPU before its first round, against what is
 * free there: a graph too large is refused before anything is allocated. */
ds_status check_room(const engine *e, const ds_dgraph *g, uint64_t cap, int dev, ds_error *err) {
  const uint64_t n = g->n_local, m = g->m_local, pred = e->want_pred ? 4 : 0;
  const double csr = 8.0 * (double)(n + 1) + 8.0 * (double)m;
  const double state = (double)n * (8 + 8 + 1 + 4 + pred); /* key, done, changed, frontier */
  const double table = (double)cap * (4 + 8 + pred) + 4.0 * (double)e->list_slots +
                       (double)e->max_heads * sizeof(ds_dsssp_update);
  size_t free_bytes = 0, total = 0;
  DS_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
  if (csr + state + table <= (double)free_bytes) return DS_OK;
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: the search needs %.2f GB on GPU %d (the CSR %.2f, "
                      "the per-vertex state %.2f, combining and grouping %.2f) but %.2f GB of its "
                      "%.2f are free: more ranks, or a GPU with more memory", e->me,
                      (csr + state + table) / GB, dev, csr / GB, state / GB, table / GB,
                      (double)free_bytes / GB, (double)total / GB);
}

/* The combining table, the owners' lists and what a round exchanges. */
ds_status table_init(engine *e, const ds_dgraph *g, uint64_t cap, ds_error *err) {
  const int R = e->ranks;
  table &t = e->t;
  t.mask = cap - 1;
  t.ranks = R;
  DS_TRY(dev_alloc(&t.head, cap, e, "the combining table", err));
  DS_TRY(dev_alloc(&t.key, cap, e, "the combining table", err));
  if (e->want_pred) DS_TRY(dev_alloc(&t.pred, cap, e, "the combining table", err));
  DS_TRY(dev_alloc(&t.list, e->list_slots, e, "the owners' lists", err));
  DS_TRY(dev_alloc(&e->d_list_base, (uint64_t)R, e, "the owners' lists", err));
  DS_TRY(dev_alloc(&t.owner_count, (uint64_t)R, e, "the owners' counts", err));
  t.list_base = e->d_list_base;
  t.bounds = e->d_bounds;
  uint64_t *base = (uint64_t *)malloc((size_t)R * sizeof *base);
  if (base == nullptr) return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory", e->me);
  for (uint64_t q = 0, at = 0; q < (uint64_t)R; q++) {
    base[q] = at;
    const uint64_t nq = (uint64_t)g->part.bounds[q + 1] - g->part.bounds[q];
    if ((int)q != e->me) at += nq < e->max_heads ? nq : e->max_heads;
  }
  const cudaError_t rc = cudaMemcpy(e->d_list_base, base, (size_t)R * 8, cudaMemcpyHostToDevice);
  free(base);
  DS_CUDA_TRY(rc);
  DS_TRY(dev_alloc(&e->d_send, e->max_heads, e, "the updates to send", err));
  DS_TRY(dev_alloc(&e->d_off, (uint64_t)R + 1, e, "the send layout", err));
  DS_TRY(dev_alloc(&e->d_xfer, 2 * (uint64_t)R + AGREE_WORDS, e, "the counts", err));
  DS_CUDA_TRY(cudaMallocHost((void **)&e->h_xfer, (2 * (size_t)R + AGREE_WORDS) * 8));
  if (e->staged &&
      (e->h_send = (ds_dsssp_update *)malloc((e->max_heads ? e->max_heads : 1) * 16)) == nullptr)
    return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for the updates to send", e->me);
  return DS_OK;
}

/* The rank's engine on its GPU, kept across searches: the part's CSR copied there and every
 * buffer a search needs, for searches with predecessors where want_pred. */
ds_status engine_open(engine *e, ds_comm *comm, const ds_dgraph *g, int want_pred, ds_error *err) {
  e->comm = comm;
  e->g = g;
  e->ranks = g->ranks;
  e->me = g->rank;
  e->staged = ds_comm_memory_kind(comm) == DS_COMM_HOST;
  e->want_pred = e->pred_room = want_pred != 0;
  const int dev = ds_comm_nccl_device(comm);
  if (dev >= 0) DS_CUDA_TRY(cudaSetDevice(dev));
  int cur = 0, sms = 0;
  DS_CUDA_TRY(cudaGetDevice(&cur));
  e->device = cur;
  DS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, cur));
  e->relax_grid = sms * (THREADS_PER_SM / BLOCK);
  /* over NCCL the kernels share the backend's stream, so that they order with its exchanges */
  e->own_stream = dev < 0;
  if (e->own_stream) DS_CUDA_TRY(cudaStreamCreateWithFlags(&e->s, cudaStreamNonBlocking));
  else e->s = (cudaStream_t)ds_comm_nccl_stream(comm);
  for (auto &round : e->ev)
    for (cudaEvent_t &x : round) DS_CUDA_TRY(cudaEventCreate(&x));

  // 0. room for all of it
  uint64_t cap = 2;
  DS_TRY(plan_table(e, g, &cap, err));
  DS_TRY(check_room(e, g, cap, cur, err));

  // 1. the graph
  part &p = e->p;
  p.first = g->first;
  p.n_local = g->n_local;
  p.k.is_float = g->weight_type == DS_WEIGHT_F32;
  const uint64_t n = g->n_local, m = g->m_local;
  DS_TRY(dev_alloc((uint64_t **)&p.off, n + 1, e, "the row offsets", err));
  DS_TRY(dev_alloc((uint32_t **)&p.col, m, e, "the heads", err));
  DS_TRY(dev_alloc((uint32_t **)&p.w, m, e, "the weights", err));
  DS_CUDA_TRY(cudaMemcpy((void *)p.off, g->row_offsets, (n + 1) * 8, cudaMemcpyHostToDevice));
  if (m > 0) {
    DS_CUDA_TRY(cudaMemcpy((void *)p.col, g->col, m * 4, cudaMemcpyHostToDevice));
    DS_CUDA_TRY(cudaMemcpy((void *)p.w, g->weights, m * 4, cudaMemcpyHostToDevice));
  }
  DS_TRY(dev_alloc(&e->d_bounds, (uint64_t)e->ranks + 1, e, "the partition's bounds", err));
  DS_CUDA_TRY(cudaMemcpy(e->d_bounds, g->part.bounds, ((size_t)e->ranks + 1) * 4,
                         cudaMemcpyHostToDevice));

  // 2. the per-vertex state (set by each search)
  DS_TRY(dev_alloc(&p.key, n, e, "the keys", err));
  DS_TRY(dev_alloc(&p.done, n, e, "the keys last relaxed", err));
  DS_TRY(dev_alloc(&p.changed, n, e, "the round's flags", err));
  DS_TRY(dev_alloc(&p.frontier, n, e, "the frontier", err));
  if (e->want_pred) DS_TRY(dev_alloc(&p.pred, n, e, "the predecessors", err));

  // 3. combining, grouping and the counters
  e->cap = cap;
  DS_TRY(table_init(e, g, cap, err));
  DS_TRY(dev_alloc(&e->d_ctl, CTL_WORDS, e, "the counters", err));
  DS_CUDA_TRY(cudaMallocHost((void **)&e->h_ctl, CTL_WORDS * sizeof *e->h_ctl));
  /* the copies above ran on the legacy stream, which the engine's does not wait for */
  DS_CUDA_TRY(cudaDeviceSynchronize());
  return DS_OK;
}

/* A search's start from source: its width of buckets, every vertex unreached and not relaxed
 * but the source at 0, the table and the counters empty (a failed search may have left them
 * otherwise), on the engine's stream, waited for. */
ds_status engine_start(engine *e, uint32_t source, const ds_dsssp_params *prm, ds_dsssp_result *res,
                       ds_error *err) {
  if (prm->want_pred && !e->pred_room)
    return ds_error_set(err, DS_ERR_ARG, "rank %d: a search with predecessors on an engine opened "
                        "without them", e->me);
  DS_CUDA_TRY(cudaSetDevice(e->device));
  e->res = res;
  e->want_pred = prm->want_pred;
  e->next_valid = 0;
  e->failed = DS_OK;
  part &p = e->p;
  p.k.delta = ds_delta_normalize(e->g->weight_type, prm->delta);
  p.k.delta_int = p.k.is_float ? 1 : (uint64_t)p.k.delta;
  const uint64_t n = p.n_local;
  DS_CUDA_TRY(cudaMemsetAsync(p.key, 0xff, n * 8, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(p.done, 0xff, n * 8, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(p.changed, 0, n, e->s));
  if (p.pred != nullptr) DS_CUDA_TRY(cudaMemsetAsync(p.pred, 0xff, n * 4, e->s)); /* DS_NO_PRED */
  if (ds_dgraph_owns(e->g, source)) DS_CUDA_TRY(cudaMemsetAsync(p.key + (source - e->g->first), 0, 8, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(e->t.head, 0xff, e->cap * 4, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(e->t.key, 0xff, e->cap * 8, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(e->t.owner_count, 0, (size_t)e->ranks * sizeof *e->t.owner_count, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(e->d_ctl, 0, CTL_WORDS * sizeof *e->d_ctl, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  return DS_OK;
}

void engine_free(engine *e) {
  const part &p = e->p;
  void *dev[] = {(void *)p.off, (void *)p.col, (void *)p.w, p.key, p.done, p.changed, p.frontier,
                 p.pred, e->t.head, e->t.key, e->t.pred, e->t.list, e->t.owner_count, e->d_list_base,
                 e->d_bounds, e->d_ctl, e->d_off, e->d_xfer, e->d_send, e->d_recv};
  for (void *q : dev) cudaFree(q);
  cudaFreeHost(e->h_ctl);
  cudaFreeHost(e->h_xfer);
  free(e->h_send);
  free(e->h_recv);
  for (auto &round : e->ev)
    for (cudaEvent_t x : round)
      if (x != nullptr) cudaEventDestroy(x);
  if (e->own_stream && e->s != nullptr) cudaStreamDestroy(e->s);
}

/* The keys and predecessors back to the host, as distances of the width asked for. */
ds_status finish(engine *e, const ds_dsssp_params *prm, ds_dsssp_result *res, uint64_t *bad,
                 ds_error *err) {
  const uint64_t n = e->p.n_local;
  uint64_t *key = (uint64_t *)malloc((n ? n : 1) * sizeof *key);
  if (key == nullptr) return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory", e->me);
  cudaError_t rc = cudaMemcpy(key, e->p.key, n * 8, cudaMemcpyDeviceToHost);
  if (rc == cudaSuccess && prm->want_pred && n > 0)
    rc = cudaMemcpy(res->pred, e->p.pred, n * 4, cudaMemcpyDeviceToHost);
  if (rc == cudaSuccess)
    rc = cudaMemcpy(e->h_ctl, e->d_ctl, CTL_WORDS * sizeof *e->h_ctl, cudaMemcpyDeviceToHost);
  ds_status st = rc != cudaSuccess
                     ? ds_error_set(err, DS_ERR_DEVICE, "rank %d: copying the result back: %s",
                                    e->me, cudaGetErrorString(rc))
                     : ds_dsssp_write_keys(e->g, key, prm->dist_width, res, bad, err);
  free(key);
  res->edges_relaxed = e->h_ctl[CTL_EDGES];
  res->updates_local = e->h_ctl[CTL_LOCAL];
  res->updates_remote = e->h_ctl[CTL_REMOTE];
  return st;
}


/* One search on an open engine (collective), its result in res. */
ds_status engine_search(engine *e, uint32_t source, const ds_dsssp_params *params,
                        ds_dsssp_result *res, ds_error *err) {
  ds_comm *comm = e->comm;
  // 1. arguments and the search's start, agreed by every rank
  ds_status local = ds_dsssp_begin(comm, e->g, source, params, res, err);
  if (local == DS_OK) local = engine_start(e, source, params, res, err);
  ds_status st = ds_comm_agree(comm, local, err);

  // 2. the rounds: on the device over NCCL, else the shared rounds with updates staged
  if (st == DS_OK) {
    ds_dsssp_round_stats rs;
    memset(&rs, 0, sizeof rs);
    if (ds_comm_nccl_device(comm) >= 0) {
      st = rounds_on_device(e, comm, &rs, err);
    } else {
      ds_dsssp_engine eng = {e, gpu_next_bucket, gpu_relax, gpu_receive_buffer, gpu_apply};
      st = ds_dsssp_rounds(comm, &eng, &rs, err);
    }
    if (st == DS_OK) ds_dsssp_result_rounds(res, &rs);
  }
  // 3. the distances, in the width asked for
  if (st == DS_OK) {
    uint64_t bad = 0;
    st = ds_comm_agree_detail(comm, finish(e, params, res, &bad, err), &bad, err);
  }
  return st;
}

} // namespace

struct ds_dsssp_gpu_engine {
  engine e;
};

extern "C" ds_status ds_dsssp_gpu_open(ds_comm *comm, const ds_dgraph *g, int want_pred,
                                       ds_dsssp_gpu_engine **out, ds_error *err) {
  if (out != nullptr) *out = nullptr;
  if (comm == nullptr || g == nullptr || out == nullptr)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_gpu_open: comm, g and out must not be NULL");
  ds_status local = DS_OK;
  auto *E = (ds_dsssp_gpu_engine *)calloc(1, sizeof(ds_dsssp_gpu_engine));
  if (E == nullptr)
    local = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory", ds_comm_rank(comm));
  else if (g->ranks != ds_comm_size(comm) || g->rank != ds_comm_rank(comm))
    local = ds_error_set(err, DS_ERR_ARG, "rank %d of %d holds the part of rank %d of a graph over "
                         "%d ranks", ds_comm_rank(comm), ds_comm_size(comm), g->rank, g->ranks);
  else
    local = engine_open(&E->e, comm, g, want_pred, err);
  const ds_status st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) {
    ds_dsssp_gpu_close(E);
    return st;
  }
  *out = E;
  return DS_OK;
}

extern "C" ds_status ds_dsssp_gpu_search(ds_dsssp_gpu_engine *E, uint32_t source,
                                         const ds_dsssp_params *params, ds_dsssp_result *res,
                                         ds_error *err) {
  if (E == nullptr || params == nullptr || res == nullptr)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_gpu_search: engine, params and res must not be NULL");
  const double t0 = ds_comm_now();
  const ds_status st = engine_search(&E->e, source, params, res, err);
  res->time_ms = 1e3 * (ds_comm_now() - t0);
  return st;
}

extern "C" void ds_dsssp_gpu_close(ds_dsssp_gpu_engine *E) {
  if (E == nullptr) return;
  engine_free(&E->e);
  free(E);
}

extern "C" ds_status ds_dsssp_gpu(ds_comm *comm, const ds_dgraph *g, uint32_t source,
                                  const ds_dsssp_params *params, ds_dsssp_result *res,
                                  ds_error *err) {
  if (comm == nullptr || g == nullptr || params == nullptr || res == nullptr)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_gpu: comm, g, params and res must not be NULL");
  const double t0 = ds_comm_now();
  ds_dsssp_gpu_engine *E = nullptr;
  ds_status st = ds_dsssp_gpu_open(comm, g, params->want_pred, &E, err);
  if (st == DS_OK) st = engine_search(&E->e, source, params, res, err);
  ds_dsssp_gpu_close(E);
  res->time_ms = 1e3 * (ds_comm_now() - t0);
  return st;
}
