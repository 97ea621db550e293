/* Triangle counting in an undirected graph: the number of triangles, and
 * optionally the number through each vertex. 64-bit counts everywhere.
 *
 * Library ds_tc (C11, OpenMP). Nothing here prints or exits; errors come back
 * as a ds_status with a message naming the function and the argument.
 *
 * Example:
 *   uint64_t total;
 *   ds_error err;
 *   if (ds_tc_cpu(&g, 0, &total, NULL, &err) != DS_OK) fprintf(stderr, "%s\n", err.msg);
 */
#ifndef DS_TC_H
#define DS_TC_H

#include <stdint.h>

#include "ds/graph.h" /* ds_graph: CSR, rows sorted, no self loops, no duplicates */
#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Triangles by a plain serial count: for each edge (u, v) with u < v, the
 * common neighbours w > v by merging the two sorted rows. The oracle of the
 * parallel backend.
 * [in]  g           an undirected graph (g->symmetric == 1); weights are ignored.
 * [out] total       the number of triangles.
 * [out] per_vertex  NULL, or n entries (caller-allocated): triangles through each vertex
 *                   (they sum to 3 * total).
 * Scratch: none.
 * Errors: DS_ERR_ARG (NULL graph or total, a graph that is not symmetric). */
ds_status ds_tc_oracle(const ds_graph *g, uint64_t *total, uint64_t *per_vertex, ds_error *err);

/* Triangles on the OpenMP threads: each edge is oriented from the endpoint of
 * lower (degree, id) to the higher, and each oriented edge (u, v) counts the
 * common out-neighbours of u and v (a bitmap of u's out-row, probed with v's),
 * so every triangle is found once, from its lowest vertex, and no out-row is
 * longer than sqrt(2m).
 * [in]  threads  OpenMP threads; <= 0: OpenMP's default.
 * Otherwise as ds_tc_oracle; the result is the same for any thread count.
 * Scratch: 16 n + 2 m bytes (the oriented graph, renumbered by rank),
 * ds_tc_cpu_thread_bytes(n) a thread (the bitmaps: n / 8 bytes), 8 (max
 * degree + 2) bytes (the ranking), allocated and freed here.
 * Errors: as ds_tc_oracle, and DS_ERR_NOMEM (naming the oriented graph or the
 * bitmaps). */
ds_status ds_tc_cpu(const ds_graph *g, int threads, uint64_t *total, uint64_t *per_vertex,
                    ds_error *err);

/* What ds_tc_cpu allocates for each of its threads on a graph of n vertices:
 * the bitmap over the ranks (one bit a vertex, in 64-bit words, one spare)
 * and the thread's block total; for a memory check before a run. */
uint64_t ds_tc_cpu_thread_bytes(uint32_t n);

/* The GPU backend (tc_gpu.cu; tc_gpu_stub.c in builds without CUDA, where
 * every call but _bytes and _options_default returns DS_ERR_DEVICE): edges
 * oriented by rank of (degree, id) on the GPU, the oriented rows renumbered by
 * rank and sorted with msplit's segmented sort, binned by length with msplit's
 * multisplit, and intersected by a warp (short rows) or a block (long rows),
 * probing by binary search, a shared-memory bitmap or msplit's slab hash.
 * The graph is uploaded once by _open; each _run counts again, everything
 * from the ranking on inside its time.
 *
 * Example:
 *   ds_tc_gpu *gpu = NULL;
 *   uint64_t total;
 *   if (ds_tc_gpu_open(0, &g, NULL, &gpu, &err) == DS_OK &&
 *       ds_tc_gpu_run(gpu, &total, NULL, NULL, NULL, &err) == DS_OK) ...
 *   ds_tc_gpu_close(gpu);
 */
typedef struct ds_tc_gpu ds_tc_gpu;

/* How a long row's out-neighbours are probed: binary search of a sorted copy in
 * shared memory (or of the row in global memory when it is longer than the
 * copy's 8,192 entries); a bitmap in shared memory of the ranks above the
 * row's vertex where they are at most 262,144 (the search elsewhere); or a set
 * in msplit's slab hash in global memory of every out-neighbour of the class's
 * rows, built before the class is counted (keys: the row's place in the
 * class, times n, plus the neighbour). */
typedef enum { DS_TC_PROBE_SEARCH = 0, DS_TC_PROBE_BITMAP = 1, DS_TC_PROBE_HASH = 2 } ds_tc_probe;
#define DS_TC_PROBES 3

#define DS_TC_GPU_SHORT_MAX 16u /* default: out-rows up to this are a warp's */

/* Rows are counted in classes by out-row length, one launch each: class 0,
 * the short rows (2..short_max arcs, a warp each), and the long rows (a block
 * each) in bins of up to 256, up to 4,096 and more arcs (a bin whose range
 * lies below short_max is empty). Each class is timed on its own. */
#define DS_TC_GPU_CLASSES 4
#define DS_TC_GPU_LONG_BINS (DS_TC_GPU_CLASSES - 1)
#define DS_TC_GPU_BIN1_MAX 256u
#define DS_TC_GPU_BIN2_MAX 4096u

typedef struct {
  uint32_t short_max;                          /* out-rows of 2..short_max arcs: a warp each (2..512) */
  ds_tc_probe long_probe[DS_TC_GPU_LONG_BINS]; /* the probe of each bin of longer rows */
} ds_tc_gpu_options;

typedef struct {
  double prep_ms;              /* ranking, orientation, sorting, binning */
  double short_ms, long_ms;    /* the intersections of class 0, and of the long bins together */
  uint64_t short_rows, long_rows;
  /* per class (0: short rows, 1..3: the long bins): the time (a hash set's build
   * included), the part of it that built the hash set (0 unless probed by hash),
   * the rows, the pairs (v, w) probed, and the triangles found */
  double class_ms[DS_TC_GPU_CLASSES], class_build_ms[DS_TC_GPU_CLASSES];
  uint64_t class_rows[DS_TC_GPU_CLASSES], class_pairs[DS_TC_GPU_CLASSES];
  uint64_t class_triangles[DS_TC_GPU_CLASSES];
} ds_tc_gpu_stats;

/* The probe names: "search", "bitmap", "hash". */
const char *ds_tc_probe_name(ds_tc_probe p);

/* Sets every long bin's probe from a name: "search", "bitmap", "hash", or
 * "auto" (the defaults of ds_tc_gpu_options_default). Returns 1, or 0 for an
 * unknown name (opt unchanged). */
int ds_tc_gpu_options_intersect(ds_tc_gpu_options *opt, const char *name);

void ds_tc_gpu_options_default(ds_tc_gpu_options *opt);

/* Device bytes the GPU backend needs for a graph of n vertices and m arcs
 * (the graph included) with the default options: what _open checks against
 * the device's free memory. A hash probe needs more: room for a set of every
 * oriented arc (about 15 bytes each). */
uint64_t ds_tc_gpu_bytes(uint32_t n, uint64_t m);

/* Uploads g (undirected) to CUDA device `device` and allocates the working
 * set. opt: NULL for the defaults.
 * Errors: DS_ERR_ARG (NULL g or ctx, a graph that is not symmetric, options
 * out of range), DS_ERR_UNSUPPORTED (2^33 arcs or more), DS_ERR_DEVICE (no
 * device, or the graph does not fit: refused before any device allocation,
 * with the bytes needed and available), DS_ERR_NOMEM. */
ds_status ds_tc_gpu_open(int device, const ds_graph *g, const ds_tc_gpu_options *opt,
                         ds_tc_gpu **ctx, ds_error *err);

/* *total: the triangles; per_vertex: NULL, or n entries (host) for the
 * triangles through each vertex; *ms (may be NULL): the GPU time by CUDA
 * events, preprocessing included, the copies to the host excluded; *stats (may
 * be NULL). Synchronous.
 * Errors: DS_ERR_ARG (NULL ctx or total), DS_ERR_DEVICE (also a hash set
 * whose pool of slabs ran out, which its sizing rules out). */
ds_status ds_tc_gpu_run(ds_tc_gpu *ctx, uint64_t *total, uint64_t *per_vertex, double *ms,
                        ds_tc_gpu_stats *stats, ds_error *err);

/* Frees ctx (NULL is fine). */
void ds_tc_gpu_close(ds_tc_gpu *ctx);

#ifdef __cplusplus
}
#endif
#endif /* DS_TC_H */
