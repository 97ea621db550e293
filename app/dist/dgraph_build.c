/* The distributed CSR build (dgraph.h): check, partition, group by owner,
 * exchange, local CSR. The rules of the local CSR are those of the one-graph
 * build (graph/src/csr_build.c): an arc travels as (tail, head, weight bits),
 * a row sorts its (head << 32 | weight bits) keys, whose order for a float
 * weight is that of its value (non-negative floats order like their bits;
 * -0 is sent as +0), and keeps the first key of every head: the least weight.
 * Self-loops never leave their slice. Each step that can fail on one rank is
 * followed by an agreement, so that no rank waits in an exchange that a
 * failed rank will not join.
 * A rank's O(m) steps (the weights' check, the grouping by owner, the local
 * CSR) run on OpenMP threads, their work cut into pieces whose results go in
 * piece order: the arcs sent and the CSR do not depend on the thread count.
 * In CUDA builds the local CSR is built on the rank's GPU (the calling
 * thread's current device) where there is one and the arcs fit its free
 * memory, with the same result (dgraph_csr_gpu.cu); on the host otherwise.
 */
#include "dist/dgraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dgraph_local.h"

#define ARC_WORDS DS_DGRAPH_ARC_WORDS
#define ARC_BYTES (ARC_WORDS * sizeof(uint32_t))
#define PARALLEL_MIN_ARCS ((uint64_t)1 << 16) /* below this, threads cost more than they give */

/* The kinds of weight a slice can hold; the ranks must agree on it. */
enum { KIND_U32 = DS_WEIGHT_U32, KIND_F32 = DS_WEIGHT_F32, KIND_PATTERN = 2 };

static double ms_since(double t0) { return 1e3 * (ds_comm_now() - t0); }

/* The OpenMP threads of a rank's local work on count arcs (ds_comm_threads); one for small
 * inputs, where threads cost more than they give. */
static int build_threads(const ds_comm *comm, uint64_t count) {
  return count < PARALLEL_MIN_ARCS ? 1 : ds_comm_threads(comm);
}


static uint32_t weight_bits_of(const ds_edge_list *s, const ds_load_options *opt, uint64_t i) {
  if (s->weights == NULL)
    return ds_pattern_weight(opt->seed, s->src[i], s->dst[i], opt->weight_min, opt->weight_max,
                             opt->weight_dist);
  if (s->weight_type == DS_WEIGHT_F32) {
    float w = ((const float *)s->weights)[i];
    if (w == 0.0f) w = 0.0f; /* -0 as +0 */
    uint32_t b;
    memcpy(&b, &w, sizeof b);
    return b;
  }
  return ((const uint32_t *)s->weights)[i];
}

/* 1. the weights of a slice (its ids are checked by the partition); the first bad one named */
static ds_status check_weights(int rank, const ds_edge_list *s, const ds_load_options *opt,
                               int threads, ds_error *err) {
  (void)threads; /* unused without OpenMP */
  if (s->weight_type != DS_WEIGHT_U32 && s->weight_type != DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_ARG, "rank %d's edge slice: unknown weight type %d", rank,
                        (int)s->weight_type);
  if (s->weights == NULL) return ds_weight_dist_check(opt->weight_dist, opt->weight_min,
                                                      opt->weight_max, err);
  if (s->weight_type != DS_WEIGHT_F32) return DS_OK;
  const float *w = s->weights;
  uint64_t bad = s->count;
#pragma omp parallel for num_threads(threads) reduction(min : bad)
  for (uint64_t i = 0; i < s->count; i++)
    if ((!(w[i] >= 0.0f) || !isfinite(w[i])) && i < bad) bad = i;
  if (bad < s->count)
    return ds_error_set(err, DS_ERR_ARG, "rank %d's edge %llu (%u, %u) has weight %g: weights "
                        "must be finite and non-negative", rank, (unsigned long long)bad,
                        s->src[bad], s->dst[bad], (double)w[bad]);
  return DS_OK;
}

/* 3a. a piece's arcs (slice edges [lo, hi)) for every owner */
static void count_owners(const ds_partition *part, const ds_edge_list *s, int symmetric,
                         uint64_t lo, uint64_t hi, uint64_t *at) {
  memset(at, 0, (size_t)part->ranks * sizeof *at);
  for (uint64_t i = lo; i < hi; i++) {
    const uint32_t u = s->src[i], v = s->dst[i];
    if (u == v) continue;
    at[ds_partition_owner(part, u)]++;
    if (symmetric) at[ds_partition_owner(part, v)]++;
  }
}

/* 3b. a piece's arcs to their places (at: where its first arc of every owner goes) */
static void scatter_owners(const ds_partition *part, const ds_edge_list *s, int symmetric,
                           const ds_load_options *opt, uint64_t lo, uint64_t hi, uint64_t *at,
                           uint32_t *arcs) {
  for (uint64_t i = lo; i < hi; i++) {
    const uint32_t u = s->src[i], v = s->dst[i];
    if (u == v) continue;
    const uint32_t wb = weight_bits_of(s, opt, i);
    uint32_t *a = arcs + ARC_WORDS * at[ds_partition_owner(part, u)]++;
    a[0] = u, a[1] = v, a[2] = wb;
    if (!symmetric) continue;
    a = arcs + ARC_WORDS * at[ds_partition_owner(part, v)]++;
    a[0] = v, a[1] = u, a[2] = wb;
  }
}

/* 3. the slice's arcs grouped by owner, in slice order within an owner (what a grouper must
 *    match): one task a piece of the slice, whose arcs of an owner follow the earlier pieces' */
static ds_status group_by_owner(const ds_partition *part, const ds_edge_list *s, int symmetric,
                                const ds_load_options *opt, int threads, uint64_t *counts,
                                uint32_t **out, ds_error *err) {
  const int ranks = part->ranks, pieces = threads;
  uint64_t *at = malloc((size_t)pieces * (size_t)ranks * sizeof *at);
  if (at == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "distributed build: out of memory for %d x %d counts",
                        pieces, ranks);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int p = 0; p < pieces; p++)
    count_owners(part, s, symmetric, ds_dgraph_piece_start(s->count, p, pieces),
                 ds_dgraph_piece_start(s->count, p + 1, pieces), at + (size_t)p * ranks);
  uint64_t total = 0;
  for (int r = 0; r < ranks; r++) {
    counts[r] = 0;
    for (int p = 0; p < pieces; p++) {
      const uint64_t c = at[(size_t)p * ranks + r];
      at[(size_t)p * ranks + r] = total;
      total += c;
      counts[r] += c;
    }
  }
  uint32_t *arcs = malloc((total ? (size_t)total : 1) * ARC_BYTES);
  if (arcs == NULL) {
    free(at);
    return ds_error_set(err, DS_ERR_NOMEM, "distributed build: out of memory grouping %llu arcs "
                        "by owner", (unsigned long long)total);
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int p = 0; p < pieces; p++)
    scatter_owners(part, s, symmetric, opt, ds_dgraph_piece_start(s->count, p, pieces),
                   ds_dgraph_piece_start(s->count, p + 1, pieces), at + (size_t)p * ranks, arcs);
  free(at);
  *out = arcs;
  return DS_OK;
}

/* 5. the local CSR from the count arcs that arrived (this function's to free, failed or not):
 *    on the calling thread's GPU in CUDA builds, unless it declines (DS_ERR_DEVICE: no device,
 *    no room, dgraph_local.h), on the host then or in builds without CUDA. The same CSR either
 *    way; info says which ran and the GPU's time. */
static ds_status build_local(ds_dgraph *g, uint32_t *arcs, uint64_t count, int threads,
                             ds_dgraph_build_info *info, ds_error *err) {
  ds_status st = DS_ERR_DEVICE;
  if (info != NULL) {
    info->csr_on_gpu = 0;
    info->csr_gpu_ms = 0;
  }
#ifdef DS_DIST_CSR_GPU
  const double t0 = ds_comm_now();
  st = ds_dgraph_build_local_gpu(g, arcs, count, err);
  if (info != NULL) {
    info->csr_on_gpu = st == DS_OK;
    info->csr_gpu_ms = ms_since(t0);
  }
#endif
  if (st != DS_ERR_DEVICE) {
    free(arcs);
    return st;
  }
  return ds_dgraph_build_local(g, arcs, count, threads, err);
}

ds_status ds_dgraph_build(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                          const ds_load_options *opt, ds_dgraph *g, ds_dgraph_build_info *info,
                          ds_error *err) {
  return ds_dgraph_build_grouped(comm, slice, symmetric, opt, NULL, g, info, err);
}

ds_status ds_dgraph_build_grouped(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                                  const ds_load_options *opt, const ds_dgraph_grouper *grouper,
                                  ds_dgraph *g, ds_dgraph_build_info *info, ds_error *err) {
  ds_load_options defaults;
  uint64_t *counts = NULL;
  uint32_t *send = NULL;
  void *recv = NULL;
  size_t recv_cap = 0;
  ds_status st;
  if (comm == NULL || slice == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_build: comm, slice and g must not be NULL");
  memset(g, 0, sizeof *g);
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  const int rank = ds_comm_rank(comm), ranks = ds_comm_size(comm);
  const int threads = build_threads(comm, slice->count);
  g->rank = rank;
  g->ranks = ranks;
  g->symmetric = symmetric != 0;
  double t0 = ds_comm_now();

  // 1. the weights of every slice, of one kind on all ranks
  st = ds_comm_agree(comm, check_weights(rank, slice, opt, threads, err), err);
  if (st != DS_OK) return st;
  const uint64_t kind = slice->weights == NULL ? KIND_PATTERN : (uint64_t)slice->weight_type;
  uint64_t kinds[2] = {kind, ~kind};
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_MIN, kinds, kinds, 2, err);
  if (st != DS_OK) return st;
  if (kinds[0] != ~kinds[1])
    return ds_error_set(err, DS_ERR_ARG, "the ranks' edge slices hold different kinds of weight "
                        "(integer, float, none)");
  g->weight_type = kind == KIND_F32 ? DS_WEIGHT_F32 : DS_WEIGHT_U32;

  // 2. the partition (checks the ids, and that the slices agree on n)
  st = ds_partition_by_arcs(comm, slice, symmetric, &g->part, err);
  if (st != DS_OK) return st;
  g->n = g->part.n;
  g->first = g->part.bounds[rank];
  g->n_local = g->part.bounds[rank + 1] - g->first;
  if (info != NULL) info->partition_ms = ms_since(t0);

  // 3. group the slice's arcs by owner: the grouper's (unless it declines), else the CPU's
  t0 = ds_comm_now();
  ds_status local = DS_OK;
  const int by_grouper = grouper != NULL && grouper->run != NULL && kind != KIND_PATTERN;
  counts = malloc(2 * (size_t)ranks * sizeof *counts);
  if (counts == NULL)
    local = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %d counts", rank, ranks);
  else if (by_grouper)
    local = grouper->run(grouper->ctx, &g->part, slice, symmetric, counts, &send, err);
  const int grouped = send != NULL;
  if (local == DS_OK && send == NULL)
    local = group_by_owner(&g->part, slice, symmetric, opt, threads, counts, &send, err);
  st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto fail;
  if (info != NULL) {
    info->group_ms = ms_since(t0);
    info->grouped_by_grouper = grouped;
    info->slice_arcs = 0;
    for (int r = 0; r < ranks; r++) info->slice_arcs += counts[r];
    if (info->arcs_to != NULL) memcpy(info->arcs_to, counts, (size_t)ranks * sizeof *counts);
  }

  // 4. one exchange: counts, then the arcs
  t0 = ds_comm_now();
  uint64_t *bytes = counts + ranks;
  for (int r = 0; r < ranks; r++) bytes[r] = counts[r] * ARC_BYTES;
  st = ds_comm_exchange(comm, send, bytes, &recv, &recv_cap, bytes, err);
  free(send);
  send = NULL;
  if (st != DS_OK) goto fail;
  uint64_t arrived = 0;
  for (int r = 0; r < ranks; r++) {
    if (info != NULL && info->arcs_from != NULL) info->arcs_from[r] = bytes[r] / ARC_BYTES;
    arrived += bytes[r] / ARC_BYTES;
  }
  if (info != NULL) info->exchange_ms = ms_since(t0);

  // 5. the local CSR (on the rank's GPU where it has one and the arcs fit, else on the host),
  //    and the whole graph's arc count
  t0 = ds_comm_now();
  local = build_local(g, recv, arrived, build_threads(comm, arrived), info, err);
  recv = NULL; /* build_local's to free */
  st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto fail;
  g->m = g->m_local;
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, &g->m, &g->m, 1, err);
  if (st != DS_OK) goto fail;
  if (info != NULL) info->build_ms = ms_since(t0);
  free(counts);
  return DS_OK;

fail:
  free(counts);
  free(send);
  free(recv);
  ds_dgraph_free(g);
  return st;
}

void ds_dgraph_free(ds_dgraph *g) {
  if (g == NULL) return;
  ds_partition_free(&g->part);
  free(g->row_offsets);
  free(g->col);
  free(g->weights);
  memset(g, 0, sizeof *g);
}

ds_status ds_dgraph_view(const ds_graph *whole, int rank, int ranks, ds_dgraph *g,
                         ds_error *err) {
  if (g != NULL) memset(g, 0, sizeof *g);
  if (whole == NULL || g == NULL || (whole->n > 0 && whole->row_offsets == NULL))
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_view: whole and g must not be NULL");
  if (ranks < 1 || ranks > DS_COMM_MAX_RANKS || rank < 0 || rank >= ranks)
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_view: rank %d of %d ranks (1..%d)", rank,
                        ranks, DS_COMM_MAX_RANKS);
  // 1. the partition, the one every rank computes from the same degrees
  static const uint64_t no_arcs[1] = {0};
  const uint64_t *off = whole->n > 0 ? whole->row_offsets : no_arcs;
  ds_status st = ds_partition_from_offsets(ranks, whole->n, off, &g->part, err);
  if (st != DS_OK) return st;
  // 2. the rank's rows: offsets rebased, heads and weights shared with whole
  g->rank = rank;
  g->ranks = ranks;
  g->n = whole->n;
  g->m = whole->m;
  g->first = g->part.bounds[rank];
  g->n_local = g->part.bounds[rank + 1] - g->first;
  const uint64_t base = off[g->first];
  g->m_local = off[g->first + g->n_local] - base;
  g->row_offsets = malloc(((size_t)g->n_local + 1) * sizeof *g->row_offsets);
  if (g->row_offsets == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %u row offsets", rank,
                      g->n_local + 1);
    ds_dgraph_view_free(g);
    return st;
  }
  for (uint32_t v = 0; v <= g->n_local; v++) g->row_offsets[v] = off[g->first + v] - base;
  g->col = whole->col != NULL ? whole->col + base : NULL;
  g->weight_type = whole->weight_type;
  g->weights = whole->weights != NULL ? (char *)whole->weights + base * sizeof(uint32_t) : NULL;
  g->symmetric = whole->symmetric;
  return DS_OK;
}

void ds_dgraph_view_free(ds_dgraph *g) {
  if (g == NULL) return;
  ds_partition_free(&g->part);
  free(g->row_offsets);
  memset(g, 0, sizeof *g);
}
