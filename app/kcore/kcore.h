/* k-core decomposition of an undirected graph: the core number of every
 * vertex, the largest k such that the vertex belongs to a subgraph in which
 * every vertex has at least k neighbours.
 *
 * Library ds_kcore (C11, OpenMP). Nothing here prints or exits; errors come
 * back as a ds_status with a message naming the function and the argument.
 *
 * Example:
 *   uint32_t *core = malloc(g.n * sizeof *core), degeneracy;
 *   ds_error err;
 *   if (ds_kcore_cpu(&g, 0, core, &err) != DS_OK) fprintf(stderr, "%s\n", err.msg);
 *   ds_kcore_summary(core, g.n, &degeneracy, NULL);
 *   uint64_t *sizes = malloc((degeneracy + 1ull) * sizeof *sizes);
 *   ds_kcore_summary(core, g.n, &degeneracy, sizes);
 */
#ifndef DS_KCORE_H
#define DS_KCORE_H

#include <stdint.h>

#include "ds/graph.h" /* ds_graph: CSR, rows sorted, no self loops, no duplicates */
#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Core numbers by the serial O(n + m) peeling of Batagelj and Zaversnik, "An
 * O(m) Algorithm for Cores Decomposition of Networks": the oracle of the
 * parallel backend.
 * [in]  g     an undirected graph (g->symmetric == 1); weights are ignored.
 * [out] core  n entries, caller-allocated (may be NULL when g->n == 0).
 * Scratch: 8 n bytes plus 4 (max degree + 1), allocated and freed here.
 * Errors: DS_ERR_ARG (NULL graph or core, a graph that is not symmetric),
 * DS_ERR_NOMEM. */
ds_status ds_kcore_oracle(const ds_graph *g, uint32_t *core, ds_error *err);

/* Core numbers by parallel peeling in rounds (the bucketed peeling of
 * Dhulipala, Blelloch and Shun, "Julienne: A Framework for Parallel Graph
 * Algorithms using Work-efficient Bucketing"): every round peels all the
 * vertices of degree k at once.
 * [in]  threads  OpenMP threads; <= 0: OpenMP's default.
 * Otherwise as ds_kcore_oracle; the result is the same for any thread count.
 * Scratch: 20 n bytes plus a few per thread. */
ds_status ds_kcore_cpu(const ds_graph *g, int threads, uint32_t *core, ds_error *err);

/* Summary of a core array: *degeneracy, the largest core number (0 when n is
 * 0), and, when sizes != NULL, sizes[k] = the number of vertices whose core
 * number is exactly k, for k = 0..degeneracy (degeneracy + 1 entries,
 * caller-allocated: call once with sizes == NULL to learn the degeneracy). */
void ds_kcore_summary(const uint32_t *core, uint32_t n, uint32_t *degeneracy, uint64_t *sizes);

/* The GPU backend (kcore_gpu.cu; kcore_gpu_stub.c in builds without CUDA,
 * where every call but _bytes and _options_default returns DS_ERR_DEVICE): bucketed peeling whose
 * degree buckets are kept by msplit's multisplit. The graph is uploaded once
 * by _open; each _run computes every core number again.
 *
 * Example:
 *   ds_kcore_gpu *gpu = NULL;
 *   double ms;
 *   if (ds_kcore_gpu_open(0, &g, NULL, &gpu, &err) == DS_OK &&
 *       ds_kcore_gpu_run(gpu, core, &ms, NULL, &err) == DS_OK) ...
 *   ds_kcore_gpu_close(gpu);
 */
typedef struct ds_kcore_gpu ds_kcore_gpu;

typedef struct {
  uint32_t windows;  /* multisplits of the vertices left into degree buckets */
  uint32_t levels;   /* core numbers that some vertex has */
  uint64_t rounds;   /* peeling sub-rounds (a vertex's degree falls to the level: next one) */
  uint64_t solo_rounds; /* of rounds, those one block ran alone (small ones) */
  /* where the peeling kernel's time went (its global timer, thread 0 of block
   * 0): runs of solo sub-rounds, sub-rounds of the whole grid, the levels'
   * filters and barriers; the rest of the run is the windows' host loop and
   * multisplits */
  double solo_ms, grid_ms, level_ms;
  double arc_pass_ms; /* one pass over the arcs (every arc's neighbour's degree), apart */
  uint64_t local_peels; /* vertices peeled at once by the lane that lowered them (local_arcs) */
} ds_kcore_gpu_stats;

/* Block 0 alone runs a sub-round of at most solo_items work items (pieces of
 * up to 128 arcs of a queued vertex) and solo_arcs arcs; larger ones, the
 * whole grid. 0 and 0: always the grid. */
#define DS_KCORE_GPU_SOLO_ITEMS 1024u
#define DS_KCORE_GPU_SOLO_ARCS 2048u

/* The variants below give the same core numbers; the defaults are spread,
 * aggregate, local_arcs 32 and one block an SM, and 0 everywhere turns them
 * off ("base"; kcore_peel.cuh says what each changes and why). */
typedef struct {
  uint32_t solo_items;    /* at most 2^20 */
  uint64_t solo_arcs;     /* at most 2^24 */
  uint32_t blocks_per_sm; /* blocks of the peeling kernel an SM; 0: as many as fit */
  uint32_t spread;        /* 1: a sub-round's items dealt evenly over the team's warps */
  uint32_t aggregate;     /* 1: one atomic for a warp's decrements of a vertex and its queueing */
  uint32_t local_arcs;    /* a lane peels at once the vertices it lowers to the level while
                             their arcs add up to at most this a chunk (<= 1024); 0: never */
  uint32_t window;        /* degree buckets a window opens with, 2 to 254; 0: 16 */
  /* A wait of the peeling kernel at its grid barrier that lasts longer than
   * this gives up, and the run fails with "the GPU k-core stalled" (DS_ERR_DEVICE);
   * 0: 10 s, far above any real wait (one sub-round's work). */
  uint32_t stall_ms;
  uint32_t force_stall;   /* tests only: 1, one block never arrives at its first barrier */
} ds_kcore_gpu_options;

void ds_kcore_gpu_options_default(ds_kcore_gpu_options *opt);

/* Sets the variants named in text on opt (other fields kept), word by word:
 * "+"-separated words among "base" (the variant fields to 0), "default" (the variant fields to the defaults), "spread", "agg", "localN" (local_arcs N),
 * "winN" (window N), "bpsmN" (blocks_per_sm N) and "all" (spread, agg,
 * local32: the combination under measurement). Returns 0 on an unknown word
 * or a missing number, with opt unchanged. Example: "spread+agg+local16+win64". */
int ds_kcore_gpu_options_variant(ds_kcore_gpu_options *opt, const char *text);

/* Device bytes the GPU backend needs for a graph of n vertices and m arcs
 * (the graph included): what _open checks against the device's free memory. */
uint64_t ds_kcore_gpu_bytes(uint32_t n, uint64_t m);

/* Uploads g (undirected) to CUDA device `device` and allocates the working set.
 * opt: NULL for the defaults.
 * Errors: DS_ERR_ARG (NULL g or ctx, a graph that is not symmetric, options
 * out of range),
 * DS_ERR_DEVICE (no device, or the graph does not fit: refused before any
 * device allocation, with the bytes needed and available), DS_ERR_NOMEM. */
ds_status ds_kcore_gpu_open(int device, const ds_graph *g, const ds_kcore_gpu_options *opt,
                            ds_kcore_gpu **ctx, ds_error *err);

/* The core number of every vertex into core (n entries, host); *ms (may be
 * NULL): the GPU time of the whole computation, by CUDA events, the copy of
 * core to the host excluded; *stats (may be NULL). Synchronous.
 * Errors: DS_ERR_ARG (NULL ctx, NULL core with n > 0), DS_ERR_DEVICE. */
ds_status ds_kcore_gpu_run(ds_kcore_gpu *ctx, uint32_t *core, double *ms,
                           ds_kcore_gpu_stats *stats, ds_error *err);

/* Frees ctx (NULL is fine). */
void ds_kcore_gpu_close(ds_kcore_gpu *ctx);

#ifdef __cplusplus
}
#endif
#endif /* DS_KCORE_H */
