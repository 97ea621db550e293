/* The distributed GPU engine set up on a rank's GPU (dsssp_gpu_engine.cuh):
 * room checked before anything is allocated, the part's CSR copied there,
 * the per-vertex state, the combining table and the owners' lists; a
 * search's start; the frees. dsssp_gpu.cu runs the rounds on it.
 *
 * Memory on the GPU: the CSR (8 + 8 bytes an arc with the offsets' share), 21
 * bytes a vertex (key, done, predecessor, changed), and the combining table:
 * a key for each of the other ranks' vertices (8 bytes, 12 with predecessors),
 * the owners' lists of indices (4 bytes for each of an owner's vertices a round
 * can reach, at most the heads a round can offer, min(n - n_local, m_local))
 * and the updates (16 bytes a head).
 */
#include "dist/comm_nccl.h"

#include <stdlib.h>
#include <string.h>

#include "ds/cuda_try.h"
#include "dsssp_gpu_engine.cuh"

namespace dsdist {
namespace {

constexpr double GB = 1e9;

/* The combining table's keys, and the owners' lists (owner p's: the fewer of its vertices and
 * the heads a round can offer). */
void plan_table(engine *e, const ds_dgraph *g) {
  e->others = (uint64_t)g->n - g->n_local;
  e->max_heads = e->others < g->m_local ? e->others : g->m_local;
  e->list_slots = 0;
  for (int q = 0; q < g->ranks; q++) {
    if (q == g->rank) continue;
    const uint64_t nq = (uint64_t)g->part.bounds[q + 1] - g->part.bounds[q];
    e->list_slots += nq < e->max_heads ? nq : e->max_heads;
  }
}

/* What the search allocates on the GPU before its first round, against what is
 * free there: a graph too large is refused before anything is allocated. */
ds_status check_room(const engine *e, const ds_dgraph *g, int dev, ds_error *err) {
  const uint64_t n = g->n_local, m = g->m_local, pred = e->want_pred ? 4 : 0;
  const double csr = 8.0 * (double)(n + 1) + 8.0 * (double)m;
  const double state = (double)n * (8 + 8 + 1 + 4 + pred); /* key, done, changed, frontier */
  const double table = (double)e->others * (8 + pred) + 4.0 * (double)e->list_slots +
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
ds_status table_init(engine *e, const ds_dgraph *g, ds_error *err) {
  const int R = e->ranks;
  table &t = e->t;
  t.ranks = R;
  t.first = g->first;
  t.n_local = g->n_local;
  DS_TRY(dev_alloc(&t.key, e->others, e, "the combining table", err));
  if (e->want_pred) DS_TRY(dev_alloc(&t.pred, e->others, e, "the combining table", err));
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

} // namespace

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
  plan_table(e, g);
  DS_TRY(check_room(e, g, cur, err));

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
  DS_TRY(table_init(e, g, err));
  DS_TRY(dev_alloc(&e->d_ctl, CTL_WORDS, e, "the counters", err));
  DS_CUDA_TRY(cudaMallocHost((void **)&e->h_ctl, CTL_WORDS * sizeof *e->h_ctl));
  /* the copies above ran on the legacy stream, which the engine's does not wait for */
  DS_CUDA_TRY(cudaDeviceSynchronize());
  return DS_OK;
}

/* A search's start from source: its width of buckets, every vertex unreached and not relaxed
 * but the source at 0, the table and the counters empty (a failed search may have left them
 * otherwise), on the engine's stream, waited for. */
ds_status engine_start(engine *e, uint32_t source, const ds_dsssp_params *prm, ds_error *err) {
  if (prm->want_pred && !e->pred_room)
    return ds_error_set(err, DS_ERR_ARG, "rank %d: a search with predecessors on an engine opened "
                        "without them", e->me);
  DS_CUDA_TRY(cudaSetDevice(e->device));
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
  DS_CUDA_TRY(cudaMemsetAsync(e->t.key, 0xff, e->others * 8, e->s)); /* KEY_INF: no offer */
  DS_CUDA_TRY(cudaMemsetAsync(e->t.owner_count, 0, (size_t)e->ranks * sizeof *e->t.owner_count, e->s));
  DS_CUDA_TRY(cudaMemsetAsync(e->d_ctl, 0, CTL_WORDS * sizeof *e->d_ctl, e->s));
  DS_CUDA_TRY(cudaStreamSynchronize(e->s));
  return DS_OK;
}

void engine_free(engine *e) {
  const part &p = e->p;
  void *dev[] = {(void *)p.off, (void *)p.col, (void *)p.w, p.key, p.done, p.changed, p.frontier,
                 p.pred, e->t.key, e->t.pred, e->t.list, e->t.owner_count, e->d_list_base,
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

} // namespace dsdist
