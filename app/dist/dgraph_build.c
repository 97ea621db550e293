/* The distributed CSR build (dgraph.h): check, partition, group by owner,
 * exchange, local CSR. The rules of the local CSR are those of the one-graph
 * build (graph/src/csr_build.c): an arc travels as (tail, head, weight bits),
 * a row sorts its (head << 32 | weight bits) keys, whose order for a float
 * weight is that of its value (non-negative floats order like their bits;
 * -0 is sent as +0), and keeps the first key of every head: the least weight.
 * Self-loops never leave their slice. Each step that can fail on one rank is
 * followed by an agreement, so that no rank waits in an exchange that a
 * failed rank will not join.
 */
#include "dist/dgraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist/comm_backend.h" /* ds_comm_now */

#define WEIGHT_BITS 32
#define ARC_WORDS 3                  /* tail, head, weight bits */
#define ARC_BYTES (ARC_WORDS * sizeof(uint32_t))
#define INSERTION_SORT_MAX 24        /* rows up to this length sort by insertion */

/* The kinds of weight a slice can hold; the ranks must agree on it. */
enum { KIND_U32 = DS_WEIGHT_U32, KIND_F32 = DS_WEIGHT_F32, KIND_PATTERN = 2 };

static double ms_since(double t0) { return 1e3 * (ds_comm_now() - t0); }

static void insertion_sort(uint64_t *k, uint64_t len) {
  for (uint64_t i = 1; i < len; i++) {
    uint64_t x = k[i], j = i;
    for (; j > 0 && k[j - 1] > x; j--) k[j] = k[j - 1];
    k[j] = x;
  }
}

/* LSD radix sort of k by the bytes in which its keys differ (a row's keys share their high head
 * bits, often more), through tmp (len words). */
static void radix_sort(uint64_t *k, uint64_t *tmp, uint64_t len) {
  uint64_t differ = 0;
  for (uint64_t i = 1; i < len; i++) differ |= k[i] ^ k[0];
  uint64_t *src = k, *dst = tmp;
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differ >> shift) & 0xFF) == 0) continue;
    uint64_t count[257] = {0};
    for (uint64_t i = 0; i < len; i++) count[((src[i] >> shift) & 0xFF) + 1]++;
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    for (uint64_t i = 0; i < len; i++) dst[count[(src[i] >> shift) & 0xFF]++] = src[i];
    uint64_t *t = src;
    src = dst, dst = t;
  }
  if (src != k) memcpy(k, src, (size_t)len * sizeof *k);
}

/* A row's keys (head << 32 | weight bits) in increasing order: by insertion up to
 * INSERTION_SORT_MAX, else by radix through tmp (RADIX_MIN and more) or quicksort. Kronecker
 * graphs put most arcs in long rows, where qsort's comparisons through a callback took seconds
 * a rank at scale 24. */
#define RADIX_MIN 1024
static void sort_keys(uint64_t *k, uint64_t len, uint64_t *tmp) {
  while (len > INSERTION_SORT_MAX) {
    if (len >= RADIX_MIN && tmp != NULL) {
      radix_sort(k, tmp, len);
      return;
    }
    // quicksort: median of three, the smaller side recursively, the larger in this loop
    uint64_t a = k[0], b = k[len / 2], c = k[len - 1];
    const uint64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
    uint64_t i = 0, j = len - 1;
    for (;;) {
      while (k[i] < pivot) i++;
      while (k[j] > pivot) j--;
      if (i >= j) break;
      const uint64_t t = k[i];
      k[i++] = k[j], k[j--] = t;
    }
    /* [0, j] <= pivot <= [j + 1, len) */
    const uint64_t left = j + 1, right = len - left;
    if (left < right) {
      sort_keys(k, left, tmp);
      k += left, len = right;
    } else {
      sort_keys(k + left, right, tmp);
      len = left;
    }
  }
  insertion_sort(k, len);
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

/* 1. the weights of a slice (its ids are checked by the partition) */
static ds_status check_weights(int rank, const ds_edge_list *s, const ds_load_options *opt,
                               ds_error *err) {
  if (s->weight_type != DS_WEIGHT_U32 && s->weight_type != DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_ARG, "rank %d's edge slice: unknown weight type %d", rank,
                        (int)s->weight_type);
  if (s->weights == NULL) return ds_weight_dist_check(opt->weight_dist, opt->weight_min,
                                                      opt->weight_max, err);
  if (s->weight_type == DS_WEIGHT_F32)
    for (uint64_t i = 0; i < s->count; i++) {
      float w = ((const float *)s->weights)[i];
      if (!(w >= 0.0f) || !isfinite(w))
        return ds_error_set(err, DS_ERR_ARG, "rank %d's edge %llu (%u, %u) has weight %g: "
                            "weights must be finite and non-negative", rank,
                            (unsigned long long)i, s->src[i], s->dst[i], (double)w);
    }
  return DS_OK;
}

/* 3. the slice's arcs grouped by owner: counts, then a stable scatter */
static ds_status group_by_owner(const ds_partition *part, const ds_edge_list *s, int symmetric,
                                const ds_load_options *opt, uint64_t *counts, uint32_t **out,
                                ds_error *err) {
  const int ranks = part->ranks;
  memset(counts, 0, (size_t)ranks * sizeof *counts);
  for (uint64_t i = 0; i < s->count; i++) {
    const uint32_t u = s->src[i], v = s->dst[i];
    if (u == v) continue;
    counts[ds_partition_owner(part, u)]++;
    if (symmetric) counts[ds_partition_owner(part, v)]++;
  }
  uint64_t total = 0;
  uint64_t *pos = malloc((size_t)ranks * sizeof *pos);
  for (int r = 0; r < ranks && pos != NULL; r++) {
    pos[r] = total;
    total += counts[r];
  }
  uint32_t *arcs = malloc((total ? (size_t)total : 1) * ARC_BYTES);
  if (pos == NULL || arcs == NULL) {
    free(pos);
    free(arcs);
    return ds_error_set(err, DS_ERR_NOMEM, "distributed build: out of memory grouping %llu arcs "
                        "by owner", (unsigned long long)total);
  }
  for (uint64_t i = 0; i < s->count; i++) {
    const uint32_t u = s->src[i], v = s->dst[i];
    if (u == v) continue;
    const uint32_t wb = weight_bits_of(s, opt, i);
    uint32_t *a = arcs + ARC_WORDS * pos[ds_partition_owner(part, u)]++;
    a[0] = u, a[1] = v, a[2] = wb;
    if (!symmetric) continue;
    a = arcs + ARC_WORDS * pos[ds_partition_owner(part, v)]++;
    a[0] = v, a[1] = u, a[2] = wb;
  }
  free(pos);
  *out = arcs;
  return DS_OK;
}

/* 5. the CSR of the arcs that arrived: counting sort by row, sort each row,
 *    keep the first key of every head, split keys into heads and weights */
static ds_status build_local(ds_dgraph *g, const uint32_t *arcs, uint64_t count, ds_error *err) {
  uint64_t *off = calloc((size_t)g->n_local + 1, sizeof *off);
  uint64_t *pos = malloc(((size_t)g->n_local + 1) * sizeof *pos);
  uint64_t *keys = malloc((count ? (size_t)count : 1) * sizeof *keys);
  uint32_t *col = NULL, *w = NULL;
  if (off == NULL || pos == NULL || keys == NULL) goto nomem;
  for (uint64_t i = 0; i < count; i++) {
    const uint32_t u = arcs[ARC_WORDS * i];
    if (!ds_dgraph_owns(g, u)) {
      free(off), free(pos), free(keys);
      return ds_error_set(err, DS_ERR_ARG, "rank %d received an arc of vertex %u, which it does "
                          "not own ([%u, %u)): the ranks disagree on the partition", g->rank, u,
                          g->first, g->first + g->n_local);
    }
    off[u - g->first + 1]++;
  }
  for (uint32_t r = 0; r < g->n_local; r++) off[r + 1] += off[r];
  memcpy(pos, off, ((size_t)g->n_local + 1) * sizeof *pos);
  for (uint64_t i = 0; i < count; i++) {
    const uint32_t *a = arcs + ARC_WORDS * i;
    keys[pos[a[0] - g->first]++] = ((uint64_t)a[1] << WEIGHT_BITS) | a[2];
  }
  // the radix sort's buffer: the longest row's length (none if no row reaches RADIX_MIN, or no
  // memory: the quicksort then takes every row)
  uint64_t longest = 0;
  for (uint32_t r = 0; r < g->n_local; r++)
    if (off[r + 1] - off[r] > longest) longest = off[r + 1] - off[r];
  uint64_t *tmp = longest >= RADIX_MIN ? malloc((size_t)longest * sizeof *tmp) : NULL;
  uint64_t kept = 0;
  for (uint32_t r = 0; r < g->n_local; r++) {
    const uint64_t b = off[r], e = off[r + 1];
    sort_keys(keys + b, e - b, tmp);
    off[r] = kept;
    for (uint64_t j = b; j < e; j++)
      if (j == b || (keys[j] >> WEIGHT_BITS) != (keys[j - 1] >> WEIGHT_BITS)) keys[kept++] = keys[j];
  }
  off[g->n_local] = kept;
  free(tmp);
  col = malloc((kept ? (size_t)kept : 1) * sizeof *col);
  w = malloc((kept ? (size_t)kept : 1) * sizeof *w);
  if (col == NULL || w == NULL) goto nomem;
  for (uint64_t j = 0; j < kept; j++) {
    col[j] = (uint32_t)(keys[j] >> WEIGHT_BITS);
    w[j] = (uint32_t)keys[j];
  }
  free(pos);
  free(keys);
  g->row_offsets = off;
  g->col = col;
  g->weights = w;
  g->m_local = kept;
  return DS_OK;
nomem:
  free(off), free(pos), free(keys), free(col), free(w);
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory building the CSR of %u "
                      "vertices and %llu arcs", g->rank, g->n_local, (unsigned long long)count);
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
  g->rank = rank;
  g->ranks = ranks;
  g->symmetric = symmetric != 0;
  double t0 = ds_comm_now();

  // 1. the weights of every slice, of one kind on all ranks
  st = ds_comm_agree(comm, check_weights(rank, slice, opt, err), err);
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
    local = group_by_owner(&g->part, slice, symmetric, opt, counts, &send, err);
  st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto fail;
  if (info != NULL) {
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

  // 5. the local CSR, and the whole graph's arc count
  t0 = ds_comm_now();
  local = build_local(g, recv, arrived, err);
  free(recv);
  recv = NULL;
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
