/* 1-D partition of the vertices over R ranks, balanced by arcs.
 *
 * Rank r owns the contiguous vertex range [bounds[r], bounds[r+1]) and the
 * out-arcs of those vertices. The bounds put close to m/R arcs on each rank:
 * boundary k (1..R-1) falls at the vertex whose arcs straddle the target
 * T_k = floor(k m / R) in the prefix sum of the out-degrees, on the side of it
 * nearer the target. So each rank's share is within one vertex's degree of
 * m/R (a 1-D partition cannot split a vertex), and the partition depends on
 * the degree sequence alone: every rank computes the same bounds, whatever
 * the rank count of the slices it came from. A graph without arcs is split by
 * vertex count. Ranks may own no vertex (more ranks than vertices, or a vertex
 * that holds more than a share).
 *
 * owner(v) is a binary search over the R + 1 bounds: every rank holds them.
 */
#ifndef DS_DIST_PARTITION_H
#define DS_DIST_PARTITION_H

#include <stdint.h>

#include "dist/comm.h"
#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int ranks;
  uint32_t n;        /* vertices of the whole graph */
  uint64_t arcs;     /* the arcs the balance was computed on */
  uint32_t *bounds;  /* ranks + 1 values, bounds[0] = 0, bounds[ranks] = n, non-decreasing */
} ds_partition;

/* The rank that owns v (< p->n): the r with bounds[r] <= v < bounds[r + 1]. */
static inline int ds_partition_owner(const ds_partition *p, uint32_t v) {
  int lo = 0, hi = p->ranks; /* the first r with bounds[r] > v lies in (lo, hi] */
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (p->bounds[mid] <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Histogram bins per level of the distributed search for the bounds: each
 * level reads the slice once and all-reduces this many counters; a level
 * narrows every boundary's range by this factor (3 levels for 2^32 vertices). */
#define DS_PARTITION_BINS (1u << 16)

/* By vertex count: rank r gets [floor(r n / R), floor((r+1) n / R)).
 * Errors: DS_ERR_ARG (ranks < 1), DS_ERR_NOMEM. */
ds_status ds_partition_uniform(int ranks, uint32_t n, ds_partition *p, ds_error *err);

/* Balanced by arcs, from the prefix sums of the out-degrees (offsets[v] = arcs
 * of the vertices before v, n + 1 values: a CSR's row_offsets): the reference
 * that the distributed search must reproduce, and the partition of a graph
 * that one process holds whole. Errors: DS_ERR_ARG, DS_ERR_NOMEM. */
ds_status ds_partition_from_offsets(int ranks, uint32_t n, const uint64_t *offsets,
                                    ds_partition *p, ds_error *err);

/* Balanced by arcs, collectively, from the edges that each rank holds: the
 * arcs counted are those of the slices, self-loops dropped and both
 * directions of a symmetric edge counted (duplicates are counted: the CSR
 * rules apply only after the edges reach their owners). Every rank gets the
 * same bounds, those of ds_partition_from_offsets on the slices' degrees.
 * Costs 4 small all-reduces and, per level, a pass over the slice and an
 * all-reduce of at most DS_PARTITION_BINS counters.
 * [in] slice  this rank's edges; every rank's slice->n must be the same.
 * Errors, on every rank: DS_ERR_ARG (slices that disagree on n, a vertex id
 * out of range: the message names the rank and the edge), DS_ERR_NOMEM, the
 * communicator's errors. */
ds_status ds_partition_by_arcs(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                               ds_partition *p, ds_error *err);

void ds_partition_free(ds_partition *p);

/* Rank r's share of count items cut in R contiguous shares: [*begin, *end) =
 * [floor(r count / R), floor((r + 1) count / R)); shares differ by at most
 * one item (the edges a rank generates, the bytes of a file it reads). */
void ds_partition_share(uint64_t count, int rank, int ranks, uint64_t *begin, uint64_t *end);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_PARTITION_H */
