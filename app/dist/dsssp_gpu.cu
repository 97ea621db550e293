/* The GPU engine of distributed delta-stepping (dsssp_gpu.h): the host side
 * of dsssp_gpu_kernels.cuh's round, behind dsssp_engine.h's table, run by the
 * shared rounds (dsssp_rounds.c) exactly as the CPU twin is.
 *
 * A first version, simple and correct rather than fast: a round finds its
 * frontier and the next bucket by scans of the rank's n_local keys (no window
 * of bucket lists), and relaxes a warp a frontier vertex. It does not reuse
 * app/sssp/gpu's persistent engines: those keep a whole graph's buckets inside one
 * kernel launch, while here every round ends on the host for the exchange.
 *
 * Memory on the GPU: the CSR (8 + 8 bytes an arc with the offsets' share), 21
 * bytes a vertex (key, done, predecessor, changed), and the combining table:
 * a slot for twice the most distinct heads a round can offer other ranks,
 * min(n - n_local, m_local), at 16 bytes a slot, with 28 bytes a head for the
 * grouping and the updates. Host syncs a round: the count of combined heads
 * (the multisplit's size), the owners' offsets, and the next bucket.
 */
#include "dist/comm_nccl.h"
#include "dist/dsssp_gpu.h"

#include <msplit/multisplit.h>

#include <stdlib.h>
#include <string.h>

#include "dist/comm_backend.h" /* ds_comm_now */
#include "dist/dsssp_engine.h"
#include "ds/cuda_try.h"
#include "dsssp_gpu_kernels.cuh"

namespace {

using namespace dsdist;

constexpr int THREADS_PER_SM = 2048; /* the warp-a-vertex kernels fill the GPU once, grid-stride */

struct engine {
  const ds_dgraph *g;
  ds_dsssp_result *res;
  int ranks, me, staged, want_pred;
  cudaStream_t s;
  part p;
  table t;
  uint64_t max_heads;    /* distinct other ranks' heads a round can offer */
  int relax_grid;
  uint32_t *d_bounds;    /* ranks + 1: the multisplit's splitters are bounds[1..ranks-1] */
  unsigned long long *d_ctl, *h_ctl;
  uint32_t *d_heads, *d_heads_out, *d_slots_out;
  size_t *d_offsets, *h_offsets;
  ds_dsssp_update *d_send, *d_recv, *h_send, *h_recv; /* h_*: staging for a host communicator */
  size_t recv_cap;
  void *d_temp;
  size_t temp_bytes;
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

// ---- the rounds -------------------------------------------------------------

/* 6. the scan: the least bucket of a live vertex, waited for. */
ds_status scan(engine *e, ds_error *err) {
  DS_CUDA_TRY(cudaMemsetAsync(e->d_ctl + CTL_NEXT_BUCKET, 0xff, sizeof *e->d_ctl, e->s));
  if (e->p.n_local > 0) scan_kernel<<<blocks_for(e->p.n_local), BLOCK, 0, e->s>>>(e->p, e->d_ctl);
  DS_LAUNCH_CHECK("scan_kernel");
  DS_CUDA_TRY(cudaMemcpyAsync(e->h_ctl, e->d_ctl, CTL_WORDS * sizeof *e->h_ctl,
                              cudaMemcpyDeviceToHost, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  if (e->h_ctl[CTL_BAD_UPDATE] != 0)
    return ds_error_set(err, DS_ERR_ARG, "rank %d received an update of vertex %llu, which it "
                        "does not own", e->me, e->h_ctl[CTL_BAD_UPDATE] - 1);
  e->next = e->h_ctl[CTL_NEXT_BUCKET];
  e->next_valid = 1;
  return DS_OK;
}

uint64_t gpu_next_bucket(void *self) {
  engine *e = (engine *)self;
  if (!e->next_valid && e->failed == DS_OK) e->failed = scan(e, &e->failed_err);
  e->next_valid = 0;
  /* a failed scan asks for one more round, whose relax reports the failure to every rank */
  return e->failed != DS_OK ? 0 : e->next;
}

/* 4. the combined updates grouped by owner into d_send; counts[p] for rank p. */
ds_status group_by_owner(engine *e, uint64_t *counts, ds_error *err) {
  memset(counts, 0, (size_t)e->ranks * sizeof *counts);
  DS_CUDA_TRY(cudaMemcpyAsync(e->h_ctl, e->d_ctl, CTL_WORDS * sizeof *e->h_ctl,
                              cudaMemcpyDeviceToHost, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  const uint64_t n = e->h_ctl[CTL_COMBINED];
  if (n == 0) return DS_OK;
  table_heads_kernel<<<blocks_for(n), BLOCK, 0, e->s>>>(e->t, e->d_ctl, e->d_heads);
  DS_LAUNCH_CHECK("table_heads_kernel");
  msplit_bucket_desc owner;
  memset(&owner, 0, sizeof owner);
  owner.kind = MSPLIT_BUCKET_SPLITTERS; /* owner(v) = the bounds[1..R-1] that are <= v */
  owner.d_splitters = e->d_bounds + 1;
  size_t need = 0;
  DS_MSPLIT_TRY(msplit_multisplit(nullptr, &need, e->d_heads, e->d_heads_out, e->t.list,
                                  e->d_slots_out, n, (uint32_t)e->ranks, owner, e->d_offsets,
                                  MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_VARIANT_AUTO, e->s));
  if (need > e->temp_bytes) {
    cudaFree(e->d_temp);
    e->temp_bytes = 0;
    DS_TRY(dev_alloc((char **)&e->d_temp, need, e, "the multisplit's temporary storage", err));
    e->temp_bytes = need;
  }
  DS_MSPLIT_TRY(msplit_multisplit(e->d_temp, &e->temp_bytes, e->d_heads, e->d_heads_out,
                                  e->t.list, e->d_slots_out, n, (uint32_t)e->ranks, owner,
                                  e->d_offsets, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32,
                                  MSPLIT_VARIANT_AUTO, e->s));
  gather_kernel<<<blocks_for(n), BLOCK, 0, e->s>>>(e->t, e->d_slots_out, n, e->want_pred,
                                                   e->d_send);
  DS_LAUNCH_CHECK("gather_kernel");
  DS_MSPLIT_TRY(msplit_copy_offsets_sync(e->h_offsets, e->d_offsets, (uint32_t)e->ranks, e->s));
  for (int r = 0; r < e->ranks; r++) counts[r] = e->h_offsets[r + 1] - e->h_offsets[r];
  if (counts[e->me] != 0)
    return ds_error_set(err, DS_ERR_ARG, "rank %d grouped %llu updates of its own vertices for "
                        "sending: the partition's bounds disagree with the owner test", e->me,
                        (unsigned long long)counts[e->me]);
  if (e->staged)
    DS_CUDA_TRY(cudaMemcpy(e->h_send, e->d_send, n * sizeof *e->h_send, cudaMemcpyDeviceToHost));
  return DS_OK;
}

ds_status gpu_relax(void *self, uint64_t b, const void **send, uint64_t *counts, ds_error *err) {
  engine *e = (engine *)self;
  if (e->failed != DS_OK) {
    if (err != nullptr) *err = e->failed_err;
    return e->failed;
  }
  e->next_valid = 0;
  // 1. the frontier; 2. relax; 3. the predecessors
  DS_CUDA_TRY(cudaMemsetAsync(e->d_ctl + CTL_FRONTIER, 0, 2 * sizeof *e->d_ctl, e->s));
  if (e->p.n_local > 0)
    frontier_kernel<<<blocks_for(e->p.n_local), BLOCK, 0, e->s>>>(e->p, b, e->d_ctl);
  DS_LAUNCH_CHECK("frontier_kernel");
  relax_kernel<false><<<e->relax_grid, BLOCK, 0, e->s>>>(e->p, e->t, e->d_ctl);
  DS_LAUNCH_CHECK("relax_kernel");
  if (e->want_pred) relax_kernel<true><<<e->relax_grid, BLOCK, 0, e->s>>>(e->p, e->t, e->d_ctl);
  DS_LAUNCH_CHECK("relax_kernel (predecessors)");
  // 4. combined per head in the table; grouped by owner
  DS_TRY(group_by_owner(e, counts, err));
  *send = e->staged ? (const void *)e->h_send : (const void *)e->d_send;
  return DS_OK;
}

ds_status gpu_receive_buffer(void *self, uint64_t n, void **buf, ds_error *err) {
  engine *e = (engine *)self;
  if (n > e->recv_cap) {
    cudaFree(e->d_recv);
    free(e->h_recv);
    e->d_recv = e->h_recv = nullptr;
    e->recv_cap = 0;
    DS_TRY(dev_alloc(&e->d_recv, n, e, "the updates arriving", err));
    if (e->staged && (e->h_recv = (ds_dsssp_update *)malloc(n * sizeof *e->h_recv)) == nullptr)
      return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %llu updates arriving",
                          e->me, (unsigned long long)n);
    e->recv_cap = n;
  }
  *buf = e->staged ? (void *)e->h_recv : (void *)e->d_recv;
  return DS_OK;
}

ds_status gpu_apply(void *self, const void *recv, uint64_t n, ds_error *err) {
  engine *e = (engine *)self;
  // 5. apply, then 6. the scan for the next bucket (next_bucket comes right after)
  if (e->staged)
    DS_CUDA_TRY(cudaMemcpyAsync(e->d_recv, recv, n * sizeof *e->d_recv, cudaMemcpyHostToDevice, e->s));
  apply_kernel<false><<<blocks_for(n), BLOCK, 0, e->s>>>(e->p, e->d_recv, n, e->d_ctl);
  DS_LAUNCH_CHECK("apply_kernel");
  if (e->want_pred) apply_kernel<true><<<blocks_for(n), BLOCK, 0, e->s>>>(e->p, e->d_recv, n, e->d_ctl);
  DS_LAUNCH_CHECK("apply_kernel (predecessors)");
  return scan(e, err);
}

// ---- setting up -------------------------------------------------------------

constexpr double GB = 1e9;

/* The combining table's capacity: room for every distinct head a round may offer. */
ds_status plan_table(engine *e, const ds_dgraph *g, uint64_t *cap, ds_error *err) {
  const uint64_t others = (uint64_t)g->n - g->n_local;
  e->max_heads = others < g->m_local ? others : g->m_local;
  *cap = 2;
  while (*cap < 2 * e->max_heads) *cap *= 2;
  if (*cap > (uint64_t)UINT32_MAX + 1) /* the grouping carries slots as 32-bit values */
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "rank %d: %llu other ranks' heads a round need "
                        "more than 2^32 combining slots", e->me, (unsigned long long)e->max_heads);
  return DS_OK;
}

/* What the search allocates on the GPU before its first round, against what is
 * free there: a graph too large is refused before anything is allocated. */
ds_status check_room(const engine *e, const ds_dgraph *g, uint64_t cap, int dev, ds_error *err) {
  const uint64_t n = g->n_local, m = g->m_local, pred = e->want_pred ? 4 : 0;
  const double csr = 8.0 * (double)(n + 1) + 8.0 * (double)m;
  const double state = (double)n * (8 + 8 + 1 + 4 + pred); /* key, done, changed, frontier */
  const double table = (double)cap * (4 + 8 + pred) +
                       (double)e->max_heads * (4 * 4 + sizeof(ds_dsssp_update)) + (double)e->temp_bytes;
  size_t free_bytes = 0, total = 0;
  DS_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
  if (csr + state + table <= (double)free_bytes) return DS_OK;
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: the search needs %.2f GB on GPU %d (the CSR %.2f, "
                      "the per-vertex state %.2f, combining and grouping %.2f) but %.2f GB of its "
                      "%.2f are free: more ranks, or a GPU with more memory", e->me,
                      (csr + state + table) / GB, dev, csr / GB, state / GB, table / GB,
                      (double)free_bytes / GB, (double)total / GB);
}

ds_status engine_init(engine *e, ds_comm *comm, const ds_dgraph *g, uint32_t source,
                      const ds_dsssp_params *prm, ds_dsssp_result *res, ds_error *err) {
  e->g = g;
  e->res = res;
  e->ranks = g->ranks;
  e->me = g->rank;
  e->staged = ds_comm_memory_kind(comm) == DS_COMM_HOST;
  e->want_pred = prm->want_pred;
  const int dev = ds_comm_nccl_device(comm);
  if (dev >= 0) DS_CUDA_TRY(cudaSetDevice(dev));
  int cur = 0, sms = 0;
  DS_CUDA_TRY(cudaGetDevice(&cur));
  DS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, cur));
  e->relax_grid = sms * (THREADS_PER_SM / BLOCK);
  DS_CUDA_TRY(cudaStreamCreateWithFlags(&e->s, cudaStreamNonBlocking));

  // 0. the combining table and the multisplit's storage for the most heads a round can send,
  //    and room for all of it
  uint64_t cap = 2;
  DS_TRY(plan_table(e, g, &cap, err));
  msplit_bucket_desc owner;
  memset(&owner, 0, sizeof owner);
  owner.kind = MSPLIT_BUCKET_SPLITTERS;
  DS_MSPLIT_TRY(msplit_multisplit(nullptr, &e->temp_bytes, nullptr, nullptr, nullptr, nullptr,
                                  e->max_heads, (uint32_t)e->ranks, owner, nullptr,
                                  MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_VARIANT_AUTO, e->s));
  DS_TRY(check_room(e, g, cap, cur, err));

  // 1. the graph
  part &p = e->p;
  p.first = g->first;
  p.n_local = g->n_local;
  p.k.is_float = g->weight_type == DS_WEIGHT_F32;
  p.k.delta = ds_delta_normalize(g->weight_type, prm->delta);
  p.k.delta_int = p.k.is_float ? 1 : (uint64_t)p.k.delta;
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

  // 2. the per-vertex state: unreached, not relaxed; the source at 0
  DS_TRY(dev_alloc(&p.key, n, e, "the keys", err));
  DS_TRY(dev_alloc(&p.done, n, e, "the keys last relaxed", err));
  DS_TRY(dev_alloc(&p.changed, n, e, "the round's flags", err));
  DS_TRY(dev_alloc(&p.frontier, n, e, "the frontier", err));
  if (e->want_pred) DS_TRY(dev_alloc(&p.pred, n, e, "the predecessors", err));
  DS_CUDA_TRY(cudaMemset(p.key, 0xff, n * 8));
  DS_CUDA_TRY(cudaMemset(p.done, 0xff, n * 8));
  DS_CUDA_TRY(cudaMemset(p.changed, 0, n));
  if (p.pred != nullptr) DS_CUDA_TRY(cudaMemset(p.pred, 0xff, n * 4)); /* DS_NO_PRED */
  if (ds_dgraph_owns(g, source)) DS_CUDA_TRY(cudaMemset(p.key + (source - g->first), 0, 8));

  // 3. combining and grouping: room for every distinct head a round may offer
  e->t.mask = cap - 1;
  DS_TRY(dev_alloc(&e->t.head, cap, e, "the combining table", err));
  DS_TRY(dev_alloc(&e->t.key, cap, e, "the combining table", err));
  if (e->want_pred) DS_TRY(dev_alloc(&e->t.pred, cap, e, "the combining table", err));
  DS_CUDA_TRY(cudaMemset(e->t.head, 0xff, cap * 4));
  DS_CUDA_TRY(cudaMemset(e->t.key, 0xff, cap * 8));
  DS_TRY(dev_alloc(&e->t.list, e->max_heads, e, "the combined heads", err));
  DS_TRY(dev_alloc(&e->d_heads, e->max_heads, e, "the combined heads", err));
  DS_TRY(dev_alloc(&e->d_heads_out, e->max_heads, e, "the grouped heads", err));
  DS_TRY(dev_alloc(&e->d_slots_out, e->max_heads, e, "the grouped heads", err));
  DS_TRY(dev_alloc(&e->d_send, e->max_heads, e, "the updates to send", err));
  DS_TRY(dev_alloc(&e->d_offsets, (uint64_t)e->ranks + 1, e, "the owners' offsets", err));
  const size_t temp = e->temp_bytes;
  e->temp_bytes = 0;
  DS_TRY(dev_alloc((char **)&e->d_temp, temp, e, "the multisplit's temporary storage", err));
  e->temp_bytes = temp;
  DS_TRY(dev_alloc(&e->d_ctl, CTL_WORDS, e, "the counters", err));
  DS_CUDA_TRY(cudaMemset(e->d_ctl, 0, CTL_WORDS * sizeof *e->d_ctl));
  DS_CUDA_TRY(cudaMallocHost((void **)&e->h_ctl, CTL_WORDS * sizeof *e->h_ctl));
  DS_CUDA_TRY(cudaMallocHost((void **)&e->h_offsets, ((size_t)e->ranks + 1) * sizeof(size_t)));
  if (e->staged &&
      (e->h_send = (ds_dsssp_update *)malloc((e->max_heads ? e->max_heads : 1) * 16)) == nullptr)
    return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for the updates to send", e->me);
  /* the copies and fills above ran on the legacy stream, which the engine's does not wait for */
  DS_CUDA_TRY(cudaDeviceSynchronize());
  return DS_OK;
}

void engine_free(engine *e) {
  const part &p = e->p;
  void *dev[] = {(void *)p.off, (void *)p.col, (void *)p.w, p.key, p.done, p.changed, p.frontier,
                 p.pred, e->t.head, e->t.key, e->t.pred, e->t.list, e->d_bounds, e->d_ctl,
                 e->d_heads, e->d_heads_out, e->d_slots_out, e->d_offsets, e->d_send,
                 e->d_recv, e->d_temp};
  for (void *q : dev) cudaFree(q);
  cudaFreeHost(e->h_ctl);
  cudaFreeHost(e->h_offsets);
  free(e->h_send);
  free(e->h_recv);
  if (e->s != nullptr) cudaStreamDestroy(e->s);
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

} // namespace

extern "C" ds_status ds_dsssp_gpu(ds_comm *comm, const ds_dgraph *g, uint32_t source,
                                  const ds_dsssp_params *params, ds_dsssp_result *res,
                                  ds_error *err) {
  if (comm == nullptr || g == nullptr || params == nullptr || res == nullptr)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_gpu: comm, g, params and res must not be NULL");
  const double t0 = ds_comm_now();
  engine e;
  memset(&e, 0, sizeof e);

  // 1. arguments and the rank's GPU state, agreed by every rank
  ds_status local = ds_dsssp_begin(comm, g, source, params, res, err);
  if (local == DS_OK) local = engine_init(&e, comm, g, source, params, res, err);
  ds_status st = ds_comm_agree(comm, local, err);

  // 2. the rounds
  if (st == DS_OK) {
    ds_dsssp_engine eng = {&e, gpu_next_bucket, gpu_relax, gpu_receive_buffer, gpu_apply};
    ds_dsssp_round_stats rs;
    st = ds_dsssp_rounds(comm, &eng, &rs, err);
    if (st == DS_OK) ds_dsssp_result_rounds(res, &rs);
  }
  // 3. the distances, in the width asked for
  if (st == DS_OK) {
    uint64_t bad = 0;
    st = ds_comm_agree_detail(comm, finish(&e, params, res, &bad, err), &bad, err);
  }
  engine_free(&e);
  res->time_ms = 1e3 * (ds_comm_now() - t0);
  return st;
}
