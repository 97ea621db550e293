/* msplit C API: a static 2-D range tree over n points, answering batches of orthogonal range
 * counts, range reports and range skylines.
 *
 * Design (Maramreddy and Kothapalli, "GPU Accelerated Range Trees with Applications"): the
 * tree is pointer-free. The primary tree is the points sorted by x (msplit's radix sort of
 * (x, index) pairs); level l of the secondary structure holds the same n points cut into nodes of
 * 2^l consecutive x-ranks (the last one shorter when n is not a power of two), each node's points
 * sorted by y (ties in x-rank order). Level 0 is the x order itself; level l + 1 is level l with
 * each pair of sibling nodes merged, every point placing itself by one binary search in its
 * sibling. There are floor(log2 n) + 1 levels of n entries (a y coordinate and an x-rank each),
 * no fractional cascading: each canonical node costs two binary searches.
 *
 * A query box is closed, [x_lo, x_hi] x [y_lo, y_hi]; a box with x_lo > x_hi or y_lo > y_hi is
 * empty. Two binary searches in the x order give the box's x-ranks [lo, hi); the O(log n)
 * canonical nodes covering them are found bottom-up (a node whose sibling straddles an end is
 * taken), and in each node two binary searches give the points with y in [y_lo, y_hi].
 *
 * Skyline: the points p of the box that no point q of the box dominates, where q dominates p when
 * q.x > p.x and q.y > p.y (the paper's definition of maximal points, strict in both coordinates:
 * points that tie in x or in y do not dominate each other, so equal points are all reported).
 * Unlike the paper, which stores each node's skyline and merges the canonical skylines, a query
 * walks the staircase from the top on the same levels: the highest y in the remaining region
 * (O(log^2 n): the highest y <= bound in each canonical node), every point at that y (all of them
 * are maximal), then the region narrows to x >= the rightmost of them and y below them.
 *
 * Outputs are point indices: the position of the point in the d_x, d_y arrays of the build.
 * Reporting is two calls, like CUB's: a count (each query's number of points, and their
 * exclusive scan: n + 1 offsets) and a report that writes query i's indices at
 * [d_offsets[i], d_offsets[i + 1]), in no particular order (grouped by canonical node); a
 * skyline's in decreasing y (increasing x), points of equal y grouped by canonical node.
 *
 * Cost and bound (n points, q queries, k points reported by a query, h the number of distinct y
 * values in a skyline):
 *   storage  (sizeof(T) + 4) (floor(log2 n) + 2) n bytes: the x order and the point indices,
 *            and each level's y coordinates and x-ranks.
 *   build    a radix sort of n (x, index) pairs; a gather of y; floor(log2 n) merges, each n
 *            binary searches of up to l steps in a sibling of 2^l points and 8 + 2 sizeof(T)
 *            bytes read and written per point.
 *   count    a thread per query: 2 log2 n steps in the x order, then two binary searches in at
 *            most 2 log2 n nodes: O(log^2 n) dependent loads, latency-bound.
 *   report   a warp per query: the same searches, then the k indices copied (8 bytes per point:
 *            its x-rank, then its index), coalesced within each node.
 *   skyline  a thread per query: O(h log^2 n) searches and the points written.
 *
 * The tree lives in device memory the caller provides (msplit_range_tree_storage_bytes); the
 * build and the queries take two-phase temporary storage (with d_temp == NULL only *temp_bytes
 * is written, from n or q alone: no pointer, and no tree, is looked at), begin it with the error
 * record (msplit/core.h) and are asynchronous on `stream`; msplit_check_sync reports what the
 * device found. Coordinates are uint32_t or float; a NaN coordinate in a point is not supported
 * (which boxes find it is unspecified), a NaN bound makes its box empty.
 *
 * Example (examples/range_tree_c.c, built and run by CTest, which checks what it prints):
 *
 *     CHECK(msplit_range_tree_storage_bytes(n, MSPLIT_TYPE_U32, &bytes));
 *     CHECK(msplit_range_tree_build(NULL, &temp_bytes, NULL, NULL, 0, NULL, NULL, n, MSPLIT_TYPE_U32, NULL));
 *     CHECK(msplit_range_tree_build(d_temp, &temp_bytes, &tree, d_storage, bytes, d_x, d_y, n, MSPLIT_TYPE_U32, NULL));
 *     CHECK(msplit_range_tree_count(d_temp, &temp_bytes, &tree, d_boxes, q, d_counts, d_offsets, NULL));
 *     CHECK(msplit_range_tree_report(d_temp, &temp_bytes, &tree, d_boxes, q, d_offsets, d_out, NULL));
 *     CHECK(msplit_range_tree_skyline_count(d_temp, &temp_bytes, &tree, d_boxes, q, NULL, d_offsets, NULL));
 *     CHECK(msplit_range_tree_skyline_report(d_temp, &temp_bytes, &tree, d_boxes, q, d_offsets, d_out, NULL));
 *     CHECK(msplit_check_sync(d_temp, temp_bytes, NULL));
 *
 * prints
 *
 *     counts: 3 8 0 4
 *     box 0 [2, 7] x [2, 5]: 1 2 5
 *     box 1 [0, 10] x [0, 10]: 0 1 2 3 4 5 6 7
 *     box 2 [5, 3] x [0, 10]: (none)
 *     box 3 [4, 9] x [1, 4]: 2 3 5 7
 *     skyline 0: 2 5
 *     skyline 1: 6 7
 *     skyline 2: (none)
 *     skyline 3: 2 7
 */
#ifndef MSPLIT_RANGE_TREE_H
#define MSPLIT_RANGE_TREE_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A built tree: its storage and shape. Filled by msplit_range_tree_build; read by the queries. */
typedef struct {
  void *d_storage;
  uint64_t n;             /* points */
  uint32_t num_levels;    /* floor(log2 n) + 1, 0 for n == 0 */
  msplit_type coord_type; /* MSPLIT_TYPE_U32 or MSPLIT_TYPE_F32 */
} msplit_range_tree;

/* Bytes of device storage for a tree of n points (see the top). Errors:
 * MSPLIT_ERROR_INVALID_ARGUMENT (bytes NULL, n >= 2^32), MSPLIT_ERROR_UNSUPPORTED (a type other
 * than U32 and F32). */
msplit_status msplit_range_tree_storage_bytes(size_t n, msplit_type coord_type, size_t *bytes);

/* Builds the tree of the n points (d_x[i], d_y[i]) (arrays of coord_type) in d_storage (at least
 * msplit_range_tree_storage_bytes, 256-byte aligned as cudaMalloc gives) and fills *tree.
 * [in] d_temp, temp_bytes  temporary storage: the radix sort's (its error record first, which is
 *                          the call's) and n 32-bit indices; a size query reads n and the type only
 * Synchronisation: none. Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes, tree or d_storage NULL,
 * a NULL array with n > 0, misaligned storage, n >= 2^32), MSPLIT_ERROR_TEMP_STORAGE (either size
 * too small), MSPLIT_ERROR_UNSUPPORTED, MSPLIT_ERROR_CUDA. On the device (msplit_check_sync): the
 * sort's MSPLIT_ERROR_STALLED. */
msplit_status msplit_range_tree_build(void *d_temp, size_t *temp_bytes, msplit_range_tree *tree, void *d_storage,
                                      size_t storage_bytes, const void *d_x, const void *d_y, size_t n,
                                      msplit_type coord_type, void *stream /* cudaStream_t */);

/* For each of the q boxes (d_boxes: 4 q coordinates of the tree's type, each box x_lo, x_hi, y_lo,
 * y_hi), the number of points inside: d_counts[i] (may be NULL), and d_offsets (may be NULL; q + 1
 * entries) their exclusive scan, d_offsets[q] the total: the slices of msplit_range_tree_report.
 * Temporary storage: the error record, q counts and the scan's 8 q / 2048 bytes (from q alone).
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes or tree NULL, a tree not built, d_boxes NULL
 * with q > 0, both outputs NULL), MSPLIT_ERROR_TEMP_STORAGE, MSPLIT_ERROR_UNSUPPORTED,
 * MSPLIT_ERROR_CUDA. */
msplit_status msplit_range_tree_count(void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                                      const void *d_boxes, size_t q, uint32_t *d_counts, uint64_t *d_offsets,
                                      void *stream);

/* The indices of the points inside each box into d_indices_out at [d_offsets[i], d_offsets[i + 1]):
 * the offsets msplit_range_tree_count gave for the same boxes and tree. Temporary storage: the
 * error record (256 bytes). On the device: a box with more points than its slice holds writes
 * the first ones and records MSPLIT_ERROR_INVALID_ARGUMENT (detail: the query, its points, the
 * slice). Other errors: as count's, with d_offsets or d_indices_out NULL and q > 0. */
msplit_status msplit_range_tree_report(void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                                       const void *d_boxes, size_t q, const uint64_t *d_offsets,
                                       uint32_t *d_indices_out, void *stream);

/* msplit_range_tree_count for the skylines of the boxes (the points of the box that no point of
 * the box dominates: see the top). */
msplit_status msplit_range_tree_skyline_count(void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                                              const void *d_boxes, size_t q, uint32_t *d_counts,
                                              uint64_t *d_offsets, void *stream);

/* msplit_range_tree_report for the skylines: each box's maximal points, in decreasing y, into its
 * slice of the offsets msplit_range_tree_skyline_count gave. */
msplit_status msplit_range_tree_skyline_report(void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                                               const void *d_boxes, size_t q, const uint64_t *d_offsets,
                                               uint32_t *d_indices_out, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_RANGE_TREE_H */
