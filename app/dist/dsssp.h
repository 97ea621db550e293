/* Distributed SSSP: delta-stepping over the ranks of a 1-D partitioned graph
 * (dgraph.h), and its validation by Graph500's rules.
 *
 * A round (the same on every rank; dsssp_engine.h has the driver):
 *   1. every rank relaxes the out-arcs of its own vertices in the agreed
 *      bucket [b delta, (b+1) delta); an arc whose head it owns lowers the
 *      head's distance in place, the others are combined per head (the least
 *      distance, with its predecessor: fewer bytes on the wire) and grouped by
 *      owner rank;
 *   2. one exchange: counts, then the updates (ds_comm_alltoall_u64,
 *      ds_comm_alltoallv), 16 bytes an update (head, predecessor, distance);
 *   3. each owner applies the updates that lower a distance;
 *   4. one all-reduce (min of two words): the least bucket that holds a
 *      vertex to relax on any rank, which is the next round's bucket (the same
 *      one again while relaxations land in it), and whether any rank failed.
 *      No bucket anywhere ends the search on every rank at once.
 * The bucket structure of a rank is a window of params->buckets buckets, the
 * last holding everything beyond it (the multisplit engine's layout); when
 * the window's near buckets are empty on every rank, it moves to the least
 * bucket and splits the last one again. buckets = 2 is Near-Far.
 * Distances are those of Dijkstra (integer: exact, in 64 bits; float: float
 * sums, equal within DS_FLOAT_REL_TOL); among equal shortest paths the
 * predecessor may differ with the rank count.
 */
#ifndef DS_DIST_DSSSP_H
#define DS_DIST_DSSSP_H

#include <stdint.h>

#include "dist/comm.h"
#include "dist/dgraph.h"
#include "sssp.h" /* ds_dist_width, DS_INF_*, DS_NO_PRED, DS_FLOAT_REL_TOL */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double delta;        /* bucket width (> 0, finite); integer weights round it up
                          (ds_delta_normalize) */
  uint32_t buckets;    /* the window: DS_SSSP_MIN_BUCKETS (Near-Far) to DS_SSSP_MAX_BUCKETS */
  int want_pred;       /* fill res->pred */
  ds_dist_width dist_width; /* of res->dist; DS_DIST_WIDE needs integer weights */
} ds_dsssp_params;

/* delta 1, 10 buckets, no predecessors, natural width. */
void ds_dsssp_params_default(ds_dsssp_params *p);

typedef struct {
  void *dist;              /* [out] caller-allocated: g->n_local distances (this rank's
                              vertices, in order) of the width asked for */
  uint32_t *pred;          /* [out] g->n_local global ids, or NULL; DS_NO_PRED at the source
                              and at unreached vertices */
  /* the same on every rank */
  uint64_t rounds;         /* relaxation rounds: exchanges and all-reduces */
  uint64_t buckets;        /* distinct buckets relaxed */
  /* this rank's */
  uint64_t edges_relaxed;  /* arcs scanned, counting repeats: the work */
  uint64_t updates_local;  /* relaxations that lowered a distance of this rank's */
  uint64_t updates_remote; /* relaxations of other ranks' vertices, before combining */
  uint64_t updates_sent;   /* after combining */
  uint64_t updates_received;
  uint32_t reached;        /* of this rank's vertices */
  uint64_t reached_arcs;   /* their out-arcs: this rank's part of the TEPS numerator */
  double time_ms;          /* the whole search on this rank */
  double relax_ms, exchange_ms, reduce_ms; /* its parts: local work (relax and apply),
                              the exchange, the all-reduce (where waiting for others shows) */
} ds_dsssp_result;

/* Delta-stepping on the CPU twin (collective: every rank of comm calls it
 * with its part of the same graph and the same source and params).
 * [in] g       this rank's part (ds_dgraph_build over the same comm).
 * [in] source  a global vertex id (< g->n).
 * Errors, on every rank: DS_ERR_ARG (source, delta, buckets, width, NULL
 * arrays), DS_ERR_RANGE (a distance beyond the width: the message names the
 * vertex), DS_ERR_NOMEM, the communicator's errors. */
ds_status ds_dsssp_cpu(ds_comm *comm, const ds_dgraph *g, uint32_t source,
                       const ds_dsssp_params *params, ds_dsssp_result *res, ds_error *err);

/* Graph500's SSSP validation, run by the ranks on their own arcs
 * (collective). dist and pred are this rank's (g->n_local values each; pred
 * may be NULL, then rule 3 and 4 are skipped and rule 5 checks the distances
 * alone). Rules:
 *   1. the source has distance 0 (and no predecessor); no distance is
 *      negative or NaN;
 *   2. every arc u -> v with d(u) finite has d(v) <= d(u) + w (so every
 *      vertex that an arc from a reached one enters is reached: the
 *      unreached vertices are unreachable);
 *   3. every reached vertex but the source has a predecessor p with an arc
 *      p -> v that is tight, d(v) = d(p) + w (checked by p's owner); an
 *      unreached one has none;
 *   4. the predecessors form a tree that reaches the source: no cycle
 *      (pointer jumping, at most ceil(log2 n) + 1 exchanges);
 *   5. without predecessors: every reached vertex but the source has a tight
 *      in-arc (with 2, no vertex has a distance below its true one; with
 *      positive weights this proves them; zero-weight cycles need rule 4).
 * Integer distances exactly, float ones within DS_FLOAT_REL_TOL, as
 * ds_sssp_validate.
 * [out] bad_vertex  may be NULL: the global id the failure names, on every rank.
 * Returns DS_OK, or DS_ERR_VALIDATION on every rank with the message of the
 * least rank that found a violation ("rank 2: vertex 17 has distance 5 but
 * the arc from 3 gives 4"); DS_ERR_ARG, DS_ERR_NOMEM, the communicator's
 * errors. */
ds_status ds_dsssp_validate(ds_comm *comm, const ds_dgraph *g, uint32_t source, const void *dist,
                            ds_dist_width width, const uint32_t *pred, uint32_t *bad_vertex,
                            ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DSSSP_H */
