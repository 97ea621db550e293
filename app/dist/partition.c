/* The 1-D partition balanced by arcs (partition.h), from a whole graph's
 * offsets or collectively from the ranks' edge slices.
 *
 * The distributed search never builds a degree array of n entries (no rank
 * holds the whole graph): it narrows, for every boundary k, a vertex range
 * [lo, hi) known to hold the vertex whose arcs straddle T_k, together with the
 * arcs before lo. A level splits every distinct range into at most B equal
 * sub-ranges, counts the slices' arcs per sub-range (one pass over the slice),
 * all-reduces the counts, and keeps the sub-range where the prefix crosses
 * T_k. A range of one vertex x gives its degree, hence the bound (x or x + 1,
 * whichever prefix is nearer T_k): the same rule as from offsets, so the two
 * agree exactly.
 */
#include "dist/partition.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* floor(k m / R) without overflow for any m. */
static uint64_t target_of(int k, uint64_t m, int ranks) {
  const uint64_t r = (uint64_t)ranks, kk = (uint64_t)k;
  return kk * (m / r) + kk * (m % r) / r;
}

/* The bound for target T (> 0) given the straddling vertex x, the arcs before
 * it and its degree: the side whose prefix is nearer T, ties to x + 1. */
static uint32_t bound_of(uint64_t target, uint32_t x, uint64_t before, uint64_t degree) {
  return before + degree - target <= target - before ? x + 1 : x;
}

static ds_status alloc_bounds(int ranks, uint32_t n, ds_partition *p, ds_error *err) {
  memset(p, 0, sizeof *p);
  if (ranks < 1)
    return ds_error_set(err, DS_ERR_ARG, "partition over %d ranks: there must be at least one",
                        ranks);
  p->bounds = calloc((size_t)ranks + 1, sizeof *p->bounds);
  if (p->bounds == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "partition: out of memory for %d bounds", ranks + 1);
  p->ranks = ranks;
  p->n = n;
  p->bounds[ranks] = n;
  return DS_OK;
}

static void fill_uniform(ds_partition *p) {
  for (int r = 1; r < p->ranks; r++)
    p->bounds[r] = (uint32_t)((uint64_t)p->n * (uint64_t)r / (uint64_t)p->ranks);
}

ds_status ds_partition_uniform(int ranks, uint32_t n, ds_partition *p, ds_error *err) {
  if (p == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_partition_uniform: p is NULL");
  ds_status st = alloc_bounds(ranks, n, p, err);
  if (st == DS_OK) fill_uniform(p);
  return st;
}

ds_status ds_partition_from_offsets(int ranks, uint32_t n, const uint64_t *offsets,
                                    ds_partition *p, ds_error *err) {
  if (p == NULL || offsets == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_partition_from_offsets: p and offsets must not be NULL");
  ds_status st = alloc_bounds(ranks, n, p, err);
  if (st != DS_OK) return st;
  const uint64_t m = offsets[n] - offsets[0];
  p->arcs = m;
  if (m == 0) {
    fill_uniform(p);
    return DS_OK;
  }
  for (int k = 1; k < ranks; k++) {
    const uint64_t t = target_of(k, m, ranks);
    if (t == 0) continue; /* bounds[k] stays 0 */
    uint32_t lo = 1, hi = n; /* the first v in [1, n] with prefix(v) >= t */
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (offsets[mid] - offsets[0] < t) lo = mid + 1;
      else hi = mid;
    }
    const uint32_t x = lo - 1;
    const uint64_t before = offsets[x] - offsets[0];
    uint32_t b = bound_of(t, x, before, offsets[x + 1] - offsets[x]);
    p->bounds[k] = b < p->bounds[k - 1] ? p->bounds[k - 1] : b;
  }
  return DS_OK;
}

void ds_partition_free(ds_partition *p) {
  if (p == NULL) return;
  free(p->bounds);
  memset(p, 0, sizeof *p);
}

/* ---- the distributed search ------------------------------------------------- */

#define PARALLEL_MIN_EDGES ((uint64_t)1 << 16) /* below this, threads cost more than they give */

typedef struct {
  uint64_t target;
  uint32_t lo, hi; /* the straddling vertex is in [lo, hi) */
  uint64_t before; /* arcs of the vertices before lo */
  int done;
} boundary;

typedef struct {
  uint32_t lo, hi, step, bins;
  size_t at; /* its first counter */
} range;

/* The distinct range holding x, or -1 (ranges sorted by lo, disjoint). */
static int range_of(const range *r, int count, uint32_t x) {
  int lo = 0, hi = count;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (r[mid].lo <= x) lo = mid;
    else hi = mid;
  }
  return count > 0 && r[lo].lo <= x && x < r[lo].hi ? lo : -1;
}

static void count_endpoint(const range *r, int count, uint64_t *hist, uint32_t x) {
  int j = range_of(r, count, x);
  if (j >= 0) hist[r[j].at + (x - r[j].lo) / r[j].step]++;
}

/* Step 1's local check of a slice: ids in range (the first edge that is not named). */
static ds_status check_slice(const ds_comm *comm, const ds_edge_list *s, int threads,
                             ds_error *err) {
  if (s->count > 0 && (s->src == NULL || s->dst == NULL))
    return ds_error_set(err, DS_ERR_ARG, "rank %d's edge slice: src and dst must not be NULL "
                        "(%llu edges)", ds_comm_rank(comm), (unsigned long long)s->count);
  uint64_t bad = s->count;
#pragma omp parallel for num_threads(threads) reduction(min : bad)
  for (uint64_t i = 0; i < s->count; i++)
    if ((s->src[i] >= s->n || s->dst[i] >= s->n) && i < bad) bad = i;
  if (bad == s->count) return DS_OK;
  return ds_error_set(err, DS_ERR_ARG, "rank %d's edge %llu (%u, %u) is out of range: the graph "
                      "has %u vertices", ds_comm_rank(comm), (unsigned long long)bad, s->src[bad],
                      s->dst[bad], s->n);
}

/* Step 3b: this slice's arcs per bin of the ranges, on `threads` threads, each counting a
 * piece of the edges into its own copy of the total bins (tmp: threads - 1 copies), summed
 * into hist. */
static void count_bins(const ds_edge_list *s, int symmetric, const range *rg, int count,
                       uint64_t *hist, uint64_t *tmp, size_t total, int threads) {
#pragma omp parallel num_threads(threads)
  {
    int t = 0, nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
    uint64_t *h = t == 0 ? hist : tmp + (size_t)(t - 1) * total;
    memset(h, 0, total * sizeof *h);
    uint64_t lo, hi;
    ds_partition_share(s->count, t, nt, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
      const uint32_t u = s->src[i], v = s->dst[i];
      if (u == v) continue;
      count_endpoint(rg, count, h, u);
      if (symmetric) count_endpoint(rg, count, h, v);
    }
#pragma omp barrier
#pragma omp for
    for (size_t b = 0; b < total; b++)
      for (int q = 1; q < nt; q++) hist[b] += tmp[(size_t)(q - 1) * total + b];
  }
}

ds_status ds_partition_by_arcs(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                               ds_partition *p, ds_error *err) {
  boundary *bd = NULL;
  range *rg = NULL;
  uint64_t *hist = NULL, *tmp = NULL;
  ds_status st;
  if (comm == NULL || slice == NULL || p == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_partition_by_arcs: comm, slice and p must not be NULL");
  memset(p, 0, sizeof *p);
  const int ranks = ds_comm_size(comm);

  // 1. every slice valid, and all of them of the same graph
  const int threads = slice->count < PARALLEL_MIN_EDGES ? 1 : ds_comm_threads(comm);
  st = ds_comm_agree(comm, check_slice(comm, slice, threads, err), err);
  if (st != DS_OK) return st;
  uint64_t nn[2] = {slice->n, ~(uint64_t)slice->n};
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_MIN, nn, nn, 2, err);
  if (st != DS_OK) return st;
  if (nn[0] != ~nn[1])
    return ds_error_set(err, DS_ERR_ARG, "the ranks' edge slices disagree on the vertex count "
                        "(%llu to %llu)", (unsigned long long)nn[0], (unsigned long long)~nn[1]);
  const uint32_t n = slice->n;

  // 2. the arcs of all slices; none (or one rank): nothing to balance
  uint64_t m = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : m)
  for (uint64_t i = 0; i < slice->count; i++)
    if (slice->src[i] != slice->dst[i]) m += symmetric ? 2 : 1;
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, &m, &m, 1, err);
  if (st != DS_OK) return st;
  ds_status local = alloc_bounds(ranks, n, p, err);
  if (local == DS_OK && ranks > 1) {
    bd = calloc((size_t)ranks - 1, sizeof *bd);
    rg = calloc((size_t)ranks - 1, sizeof *rg);
    hist = malloc(DS_PARTITION_BINS * sizeof *hist);
    tmp = threads > 1 ? malloc((size_t)(threads - 1) * DS_PARTITION_BINS * sizeof *tmp) : NULL;
    if (bd == NULL || rg == NULL || hist == NULL || (threads > 1 && tmp == NULL))
      local = ds_error_set(err, DS_ERR_NOMEM, "partition: out of memory for the search of %d "
                           "bounds", ranks - 1);
  }
  st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto done;
  p->arcs = m;
  if (m == 0) {
    fill_uniform(p);
    goto done;
  }
  int active = 0;
  for (int k = 1; k < ranks; k++) {
    boundary *b = &bd[k - 1];
    *b = (boundary){target_of(k, m, ranks), 0, n, 0, 0};
    b->done = b->target == 0; /* bounds[k] stays 0 */
    active += !b->done;
  }

  // 3. levels: narrow every boundary's range until it holds one vertex
  while (active > 0) {
    // 3a. the distinct ranges (boundaries in order have ranges in order), B bins each
    int count = 0;
    for (int k = 0; k < ranks - 1; k++) {
      if (bd[k].done || (count > 0 && rg[count - 1].lo == bd[k].lo)) continue;
      rg[count++] = (range){bd[k].lo, bd[k].hi, 0, 0, 0};
    }
    const uint32_t bins = DS_PARTITION_BINS / (uint32_t)count;
    size_t total = 0;
    for (int j = 0; j < count; j++) {
      const uint32_t width = rg[j].hi - rg[j].lo;
      rg[j].step = width / bins + (width % bins != 0);
      rg[j].bins = width / rg[j].step + (width % rg[j].step != 0);
      rg[j].at = total;
      total += rg[j].bins;
    }
    // 3b. this slice's arcs per bin, summed over the ranks
    count_bins(slice, symmetric, rg, count, hist, tmp, total, threads);
    st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, hist, hist, total, err);
    if (st != DS_OK) goto done;
    // 3c. each boundary keeps the bin where the prefix crosses its target
    for (int k = 0; k < ranks - 1; k++) {
      boundary *b = &bd[k];
      if (b->done) continue;
      const range *r = &rg[range_of(rg, count, b->lo)];
      uint64_t acc = b->before; /* < target, and the range's arcs reach it */
      for (uint32_t i = 0; i < r->bins; i++) {
        const uint64_t c = hist[r->at + i];
        if (acc + c < b->target) {
          acc += c;
          continue;
        }
        b->lo = r->lo + i * r->step;
        b->hi = b->lo + r->step < r->hi ? b->lo + r->step : r->hi;
        b->before = acc;
        if (b->hi - b->lo == 1) {
          p->bounds[k + 1] = bound_of(b->target, b->lo, acc, c);
          b->done = 1;
          active--;
        }
        break;
      }
    }
  }
  for (int k = 1; k < ranks; k++)
    if (p->bounds[k] < p->bounds[k - 1]) p->bounds[k] = p->bounds[k - 1];

done:
  free(bd);
  free(rg);
  free(hist);
  free(tmp);
  if (st != DS_OK) ds_partition_free(p);
  return st;
}

/* floor(r count / R) without the product: r (q R + rem) / R = r q + r rem / R,
 * and r rem < R^2 fits 64 bits where r count may not. */
static uint64_t share_start(uint64_t count, uint64_t r, uint64_t ranks) {
  return r * (count / ranks) + r * (count % ranks) / ranks;
}

void ds_partition_share(uint64_t count, int rank, int ranks, uint64_t *begin, uint64_t *end) {
  *begin = share_start(count, (uint64_t)rank, (uint64_t)ranks);
  *end = share_start(count, (uint64_t)rank + 1, (uint64_t)ranks);
}
