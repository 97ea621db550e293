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
 * launch, while here every round meets the other ranks. The engine is set up,
 * started for a search and freed in dsssp_gpu_setup.cu.
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

/* A round's first half: the agreed bucket relaxed (the captured graph where there is one), the
   updates grouped, the counts exchanged and copied back with the agreement words. */
ds_status queue_first_half(engine *e, ds_comm *comm, cudaEvent_t *ev, cudaGraphExec_t relax,
                           ds_error *err) {
  DS_CUDA_TRY(cudaEventRecord(ev[EV_START], e->s));
  if (relax != nullptr) DS_CUDA_TRY(cudaGraphLaunch(relax, e->s));
  else DS_TRY(queue_relax(e, err));
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

/* A search's relaxations (queue_relax: LOCAL_STEPS frontiers and relaxations, the offsets and
 * the gather, some 36 launches) as one CUDA graph, captured on a stream of its own once the
 * search's delta is set (the kernels take the part by value), so that a round costs the host one
 * launch instead of 36 while it waits for the round's counts. *exec stays NULL where the capture
 * failed: the round then queues the kernels one by one, as it did before the graph. */
void capture_relax(engine *e, cudaGraphExec_t *exec) {
  *exec = nullptr;
  cudaStream_t cs = nullptr;
  cudaGraph_t graph = nullptr;
  if (cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  const cudaStream_t s = e->s;
  e->s = cs; /* queue_relax queues on e->s */
  bool ok = cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
  ds_error ignored;
  if (ok) {
    ok = queue_relax(e, &ignored) == DS_OK;
    ok = cudaStreamEndCapture(cs, &graph) == cudaSuccess && ok; /* ends the capture either way */
  }
  e->s = s;
  if (ok) ok = cudaGraphInstantiate(exec, graph, 0) == cudaSuccess;
  if (!ok) *exec = nullptr;
  if (graph != nullptr) cudaGraphDestroy(graph);
  cudaStreamDestroy(cs);
  cudaGetLastError(); /* a failed capture's error is not the search's */
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
  cudaGraphExec_t relax = nullptr;
  capture_relax(e, &relax);
  ds_status s = queue_apply_scan(e, 0, err); /* the first bucket */
  if (s == DS_OK) s = ds_comm_nccl_queue_min_u64(comm, (uint64_t *)agree_words(e), AGREE_WORDS, err);
  uint64_t current = DS_DSSSP_NO_BUCKET;
  for (uint64_t r = 0; s == DS_OK; r++) {
    // 1. relax the agreed bucket, exchange the counts, wait for them
    s = queue_first_half(e, comm, e->ev[r % 2], relax, err);
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
  if (relax != nullptr) cudaGraphExecDestroy(relax); /* freed once a launch in flight ends */
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
  if (local == DS_OK) local = engine_start(e, source, params, err);
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
