/* A graph distributed over R ranks: each rank holds the CSR of the out-arcs of
 * the vertices it owns (a 1-D partition balanced by arcs, partition.h), and
 * builds it from the edges it was given, collectively:
 *   1. every slice is checked (ids, weights), and the ranks agree on it;
 *   2. the partition, from the slices' degrees (ds_partition_by_arcs);
 *   3. the slice's arcs are grouped by owner rank: a counting sort by owner
 *      (the multisplit with bucket = owner, on the CPU), each arc packed as
 *      (tail, head, weight bits); or by a grouper the caller gives, that
 *      returns the same arcs in the same order (the GPU's, dkron_gpu.h);
 *   4. one exchange: counts, then the arcs (ds_comm_exchange);
 *   5. the CSR of the arcs that arrived, by the rules of the one-graph build
 *      (ds_csr_build): self-loops dropped, duplicates keep the least weight,
 *      rows sorted by head. Heads stay global vertex ids.
 * No rank holds more than its slice, its arcs and O(R) counts: nothing of
 * size n. A GPU build does step 3 on the device (ds_dgraph_build_grouped);
 * in CUDA builds step 5 runs on the rank's GPU (the calling thread's current
 * device) where there is one and the arcs fit its free memory, else on the
 * host, with the same CSR (info->csr_on_gpu says where).
 */
#ifndef DS_DIST_DGRAPH_H
#define DS_DIST_DGRAPH_H

#include <stdint.h>

#include "dist/comm.h"
#include "dist/partition.h"
#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int rank, ranks;
  ds_partition part;     /* the whole partition: every rank holds the bounds */
  uint32_t n;            /* vertices of the whole graph */
  uint64_t m;            /* arcs of the whole graph, after the CSR rules */
  uint32_t first;        /* this rank owns [first, first + n_local) */
  uint32_t n_local;
  uint64_t m_local;      /* arcs stored here */
  uint64_t *row_offsets; /* n_local + 1 */
  uint32_t *col;         /* m_local global vertex ids, increasing within a row */
  ds_weight_type weight_type;
  void *weights;         /* m_local uint32_t or float */
  int symmetric;         /* built with both directions of every edge */
} ds_dgraph;

/* What a build did on this rank (for the tests of the exchange, and reports). */
typedef struct {
  uint64_t *arcs_to;   /* [out] if not NULL, R values: arcs of this slice grouped for each rank
                          (its own included) */
  uint64_t *arcs_from; /* [out] if not NULL, R values: arcs that arrived from each rank */
  uint64_t slice_arcs; /* arcs of the slice: self-loops dropped, symmetric edges twice */
  double partition_ms, group_ms, exchange_ms, build_ms;
  int grouped_by_grouper; /* the arcs came grouped from the caller's grouper, not the CPU's */
  int csr_on_gpu;         /* step 5 ran on the rank's GPU (CUDA builds), not on the host */
  double csr_gpu_ms;      /* of build_ms, the GPU's part of step 5 (copies included), whether it
                             built the CSR or declined to the host; 0 without CUDA */
} ds_dgraph_build_info;

/* The arcs of a slice grouped by owner somewhere else than the CPU loop of
 * ds_dgraph_build (the GPU: dkron_gpu.h), once the partition is known.
 * run(ctx, part, slice, symmetric, counts, arcs, err):
 *   [in]  part, slice, symmetric  the build's partition and arguments
 *   [out] counts  part->ranks values: the arcs for each rank
 *   [out] arcs    a malloc'd host array of the sum of counts arcs, 3 uint32_t
 *                 each (tail, head, weight bits: a float's bits with -0 as
 *                 +0), rank 0's first: for edge i in slice order its arc
 *                 (src, dst) then, if symmetric, (dst, src), self-loops
 *                 dropped. The build frees it. Exactly the CPU grouping's arcs
 *                 and order, so that the parts do not depend on who grouped.
 *   Returns DS_OK with *arcs NULL to decline (the CPU grouping runs then), or
 *   an error, which fails the build on every rank. Local: no collective. */
typedef struct {
  void *ctx;
  ds_status (*run)(void *ctx, const ds_partition *part, const ds_edge_list *slice, int symmetric,
                   uint64_t *counts, uint32_t **arcs, ds_error *err);
} ds_dgraph_grouper;

/* Builds this rank's part of the graph whose edges the ranks hold in slices
 * (collective: every rank of comm calls it).
 * [in] slice      this rank's edges (0-based global ids, slice->n the whole
 *                 graph's vertex count on every rank); weights NULL for a
 *                 pattern graph, whose weights come from opt (seed, range,
 *                 distribution: ds_pattern_weight, so that every rank draws
 *                 the same weight for an edge, as the one-graph build does).
 * [in] symmetric  store both directions of every edge.
 * [in] opt        NULL for ds_load_options_default (used for pattern weights).
 * [out] g         on success owns its arrays (ds_dgraph_free); zeroed on failure.
 * [out] info      may be NULL.
 * Errors, on every rank: DS_ERR_ARG (a bad slice: ids, negative or non-finite
 * float weights, the pattern options; slices that disagree on n or the weight
 * type), DS_ERR_NOMEM, the communicator's errors. */
ds_status ds_dgraph_build(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                          const ds_load_options *opt, ds_dgraph *g, ds_dgraph_build_info *info,
                          ds_error *err);

/* ds_dgraph_build with step 3 (the arcs grouped by owner) done by grouper
 * (NULL, or a NULL run: the CPU's); info->grouped_by_grouper says whether it
 * did or declined. The same parts as ds_dgraph_build. Slices with pattern
 * weights are always grouped on the CPU (their weights are drawn there). */
ds_status ds_dgraph_build_grouped(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                                  const ds_load_options *opt, const ds_dgraph_grouper *grouper,
                                  ds_dgraph *g, ds_dgraph_build_info *info, ds_error *err);

void ds_dgraph_free(ds_dgraph *g);

/* This rank's part of a graph that the process holds whole (a CSR loaded on
 * the host, as a program that reads one file has it): no exchange, the
 * partition of ds_partition_from_offsets on the CSR's degrees (the bounds a
 * build from slices of the same arcs gives), and the rank's rows taken as
 * they are, since a loaded CSR already follows the build's rules.
 * [in] whole  a valid CSR (ds_csr_check); it must outlive the view.
 * [out] g     the rank's rows: row_offsets copied and rebased to 0 (n_local + 1
 *             values, the one array of size n_local it owns), col and weights
 *             pointing into whole's arrays. Free with ds_dgraph_view_free,
 *             never ds_dgraph_free; zeroed on failure.
 * Local: no communicator, so each rank (thread or process) calls it alone.
 * Errors: DS_ERR_ARG (rank out of 0..ranks-1, ranks out of
 * 1..DS_COMM_MAX_RANKS), DS_ERR_NOMEM. */
ds_status ds_dgraph_view(const ds_graph *whole, int rank, int ranks, ds_dgraph *g,
                         ds_error *err);

void ds_dgraph_view_free(ds_dgraph *g);

/* Whether this rank owns v. */
static inline int ds_dgraph_owns(const ds_dgraph *g, uint32_t v) {
  return v - g->first < g->n_local;
}

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DGRAPH_H */
