// The range tree's dispatch (the "device" level): argument checks, temporary storage and launches,
// one template per operation over the coordinate type. The library holds the instantiations of
// uint32_t and float (src/range_tree/); the C API (msplit/range_tree.h) and the C++ class
// (msplit/range_tree.cuh) are thin layers over them. `fn` names the public call in messages.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/range_tree.h"

namespace msplit {

// A query box, closed on every side: the points with x_lo <= x <= x_hi and y_lo <= y <= y_hi
// (none when x_lo > x_hi or y_lo > y_hi). The C API's d_boxes are arrays of these.
template <typename T>
struct range_box {
  T x_lo, x_hi, y_lo, y_hi;
};

namespace detail {

// What a query pass answers: the points in the box, or the box's skyline (msplit/range_tree.h).
enum class rt_query { RANGE, SKYLINE };

// Levels of a tree over n points: floor(log2 n) + 1 (level l holds the nodes of 2^l points), 0
// for n == 0.
uint32_t rt_levels(uint64_t n);

template <typename T>
msplit_status rt_storage_bytes_run(const char *fn, size_t n, size_t *bytes);
template <typename T>
msplit_status rt_build_run(const char *fn, void *d_temp, size_t *temp_bytes, msplit_range_tree *tree,
                           void *d_storage, size_t storage_bytes, const T *x, const T *y, size_t n,
                           cudaStream_t stream);
template <typename T>
msplit_status rt_count_run(const char *fn, rt_query kind, void *d_temp, size_t *temp_bytes,
                           const msplit_range_tree *tree, const range_box<T> *boxes, size_t q, uint32_t *counts,
                           uint64_t *offsets, cudaStream_t stream);
template <typename T>
msplit_status rt_report_run(const char *fn, rt_query kind, void *d_temp, size_t *temp_bytes,
                            const msplit_range_tree *tree, const range_box<T> *boxes, size_t q,
                            const uint64_t *offsets, uint32_t *indices_out, cudaStream_t stream);

// The coordinate types the library is compiled for: X(T, msplit_type).
#define MSPLIT_RANGE_TREE_TYPES(X) \
  X(uint32_t, MSPLIT_TYPE_U32)     \
  X(float, MSPLIT_TYPE_F32)

}  // namespace detail
}  // namespace msplit
