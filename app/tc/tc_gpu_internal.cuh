/* The parts of the GPU triangle counter (tc_gpu.cu: preprocessing and the
 * run; tc_count.cu: the intersections of a class of rows; tc_hash.cu: the
 * slab-hash sets of the classes probed by hash) and what they share.
 *
 * Rows are in rank space (tc_gpu.cu): the out-row of u holds ranks above u,
 * sorted. A class's rows are a range of multisplit's output list; a launch
 * counts rows [lo, hi) of it (a hash set holds the rows of one such range).
 */
#ifndef DS_TC_GPU_INTERNAL_CUH
#define DS_TC_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include <msplit/slab_hash.h>

#include "ds/status.h"
#include "tc.h"

namespace tc {

constexpr int WARP = 32;
constexpr int BLOCK = 256;
constexpr uint32_t SHORT_CAP = 512;         /* the longest short row (warp cache) */
constexpr uint32_t LONG_CACHE = 8192;       /* long rows cached in shared memory up to this */
constexpr uint32_t BITMAP_WORDS = LONG_CACHE; /* the same shared words as a bitmap */
constexpr uint32_t BITMAP_BITS = BITMAP_WORDS * 32;
constexpr uint32_t SHORT_ROWS = 0;                 /* class 0: a warp a row */
constexpr uint32_t NO_TRIANGLE = DS_TC_GPU_CLASSES; /* fewer than two out-arcs */
constexpr uint32_t SPLIT_CLASSES = DS_TC_GPU_CLASSES + 1; /* multisplit's buckets */

/* The class of a row of len out-arcs. */
__host__ __device__ __forceinline__ uint32_t class_of(uint32_t len, uint32_t short_max) {
  if (len < 2) return NO_TRIANGLE;
  if (len <= short_max) return SHORT_ROWS;
  return len <= DS_TC_GPU_BIN1_MAX ? 1u : len <= DS_TC_GPU_BIN2_MAX ? 2u : 3u;
}

/* The oriented graph and where counts go. */
struct graph_args {
  const uint32_t *off; /* n + 1: the oriented rows in rank space */
  const uint32_t *col; /* m / 2 ranks, each row sorted */
  uint32_t n;
  unsigned long long *per; /* NULL, or n per-rank counts */
};

/* One launch: rows [lo, hi) of class cls (clipped to the class's size, read
 * on the device from multisplit's offsets), and the class's counters. */
struct class_rows {
  const uint32_t *list;   /* multisplit's output: the rows by class */
  const size_t *offsets;  /* SPLIT_CLASSES + 1 */
  uint32_t cls;
  uint32_t lo, hi;
  unsigned long long *triangles, *pairs; /* the class's counters */
};

/* Counts rows [r.lo, r.hi) of class r.cls with probe p (class 0: search, by
 * warps); table: the set of those rows' arcs for DS_TC_PROBE_HASH (keys (i -
 * r.lo) * n + w for row i of the class), else unused. grid: blocks. */
ds_status count_class(const graph_args &g, const class_rows &r, ds_tc_probe p,
                      const msplit_slab_hash *table, unsigned grid, cudaStream_t s,
                      ds_error *err);

/* Fills the set `table` with the arcs of rows [r.lo, r.hi) of class r.cls,
 * keyed as count_class probes them; *failed (device) becomes nonzero when an
 * insert found no free slab. */
ds_status build_class_set(const graph_args &g, const class_rows &r,
                          const msplit_slab_hash &table, uint32_t *failed, unsigned grid,
                          cudaStream_t s, ds_error *err);

/* The hash sets of a context: storage for the largest set (every oriented
 * arc), reused by class after class and batch after batch. */
struct hash_sets {
  void *storage;      /* device */
  size_t bytes;
  uint32_t *failed;   /* device flag: an insert ran out of slabs */
  cudaEvent_t *ev;    /* 2 a batch: build start, build end */
  uint32_t events, events_used;
};

/* Bytes of the storage for a set of up to max_keys keys (sized as
 * count_hash_class sizes it), the flag included. */
uint64_t hash_bytes(uint64_t max_keys);

/* Counts class r.cls (rows clipped to [0, rows)) of `arcs` out-arcs by hash:
 * in batches of at most (2^32 - 3) / n rows, so that every key fits 32 bits
 * below the reserved ones, each batch a fresh set, built then probed. The
 * build's events are recorded into h (read by hash_build_ms after the run). */
ds_status count_hash_class(hash_sets *h, const graph_args &g, class_rows r, uint64_t rows,
                           uint64_t arcs, unsigned grid, cudaStream_t s, uint32_t *first_event,
                           ds_error *err);

/* The build time of the batches whose events start at `first` and end before
 * `end` (after the stream has finished). */
ds_status hash_build_ms(const hash_sets *h, uint32_t first, uint32_t end, double *ms,
                        ds_error *err);

void hash_sets_free(hash_sets *h);

}  // namespace tc

#endif /* DS_TC_GPU_INTERNAL_CUH */
