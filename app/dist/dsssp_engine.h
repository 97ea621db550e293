/* The engine under the rounds of distributed delta-stepping: what a rank does
 * on its own vertices, apart from the communication that every engine shares.
 *
 * ds_dsssp_rounds (dsssp_rounds.c) is the loop of dsssp.h's rounds over any
 * communicator: it asks the engine for its least bucket, agrees on the next
 * one, has the engine relax it, exchanges what the engine grouped for each
 * owner, hands what arrived back to the engine, and stops when no rank has a
 * bucket. The CPU twin's engine is in dsssp_cpu.c; the GPU engine fills the
 * same table with device code over a host communicator (its updates staged
 * through host memory), and over NCCL runs the same rounds with the same
 * collectives on the device, waiting once a round (dsssp_gpu.cu).
 */
#ifndef DS_DIST_DSSSP_ENGINE_H
#define DS_DIST_DSSSP_ENGINE_H

#include <stdint.h>

#include "dist/comm.h"
#include "dist/dsssp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No bucket: nothing left to relax on this rank (or anywhere, after the
 * all-reduce). */
#define DS_DSSSP_NO_BUCKET UINT64_MAX

/* A distance offered to a vertex by an arc from another rank. key orders like
 * the distance: an integer distance itself, or the bits of a non-negative
 * float. */
typedef struct {
  uint32_t head; /* global id of the vertex offered the distance */
  uint32_t pred; /* global id of the arc's tail */
  uint64_t key;
} ds_dsssp_update;

typedef struct {
  void *self;
  /* The least bucket holding a vertex of this rank to relax (one whose
   * distance dropped since it was last relaxed), or DS_DSSSP_NO_BUCKET. */
  uint64_t (*next_bucket)(void *self);
  /* Relaxes this rank's vertices of bucket b (the least over the ranks):
   * [out] *send  updates for other ranks, combined per head and grouped by
   *              owner rank (rank 0's first), in the backend's memory; valid
   *              until the next call;
   * [out] send_counts  R counts of updates, 0 for this rank itself. */
  ds_status (*relax)(void *self, uint64_t bucket, const void **send, uint64_t *send_counts,
                     ds_error *err);
  /* Room for `updates` arriving (> 0), in the backend's memory. */
  ds_status (*receive_buffer)(void *self, uint64_t updates, void **buf, ds_error *err);
  /* Applies the updates that arrived (grouped by source rank). */
  ds_status (*apply)(void *self, const void *recv, uint64_t updates, ds_error *err);
} ds_dsssp_engine;

typedef struct {
  uint64_t rounds, buckets;
  uint64_t updates_sent, updates_received;
  double relax_ms, exchange_ms, reduce_ms;
} ds_dsssp_round_stats;

/* The rounds, until no rank has a bucket (collective).
 * Per round: one ds_comm_alltoall_u64 (counts), one ds_comm_alltoallv (the
 * updates), one ds_comm_allreduce of two words (next bucket, failure); plus
 * one all-reduce before the first round. An engine call that fails on one
 * rank ends the search on every rank at the round's all-reduce, with that
 * rank's message (ds_comm_agree); a rank that cannot receive aborts the
 * communicator.
 * [out] stats  may be NULL. */
ds_status ds_dsssp_rounds(ds_comm *comm, const ds_dsssp_engine *engine,
                          ds_dsssp_round_stats *stats, ds_error *err);

/* ---- what every engine's search shares --------------------------------------- */

/* The keys of every engine: an integer distance itself (exact in 64 bits, a
 * sum beyond saturating at KEY_SAT), or the bits of a non-negative float
 * distance (float sums, FLT_MAX for one that overflowed); KEY_INF while
 * unreached. */
#define DS_DSSSP_KEY_INF UINT64_MAX
#define DS_DSSSP_KEY_SAT (UINT64_MAX - 1)

/* The start of a search on this rank: res cleared (but for its dist and pred
 * pointers), and the checks of ds_dsssp_cpu's arguments (the caller agrees). */
ds_status ds_dsssp_begin(const ds_comm *comm, const ds_dgraph *g, uint32_t source,
                         const ds_dsssp_params *p, ds_dsssp_result *res, ds_error *err);

/* This rank's keys (g->n_local, host memory) as distances of the width asked
 * for in res->dist, counting the reached vertices and their arcs.
 * [out] bad  the global id of the first distance that does not fit.
 * Errors: DS_ERR_RANGE (that vertex). */
ds_status ds_dsssp_write_keys(const ds_dgraph *g, const uint64_t *key, ds_dist_width width,
                              ds_dsssp_result *res, uint64_t *bad, ds_error *err);

/* The rounds' statistics into res. */
void ds_dsssp_result_rounds(ds_dsssp_result *res, const ds_dsssp_round_stats *rs);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DSSSP_ENGINE_H */
