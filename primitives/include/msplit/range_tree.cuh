// msplit: the static 2-D range tree, CUDA C++ API (Maramreddy and Kothapalli, "GPU Accelerated
// Range Trees with Applications"). Batched orthogonal range counts, range reports and range
// skylines over closed boxes. msplit/range_tree.h, the C API of the same structure, describes the
// layout, the skyline's definition, the output order and the cost of each operation; each method
// here is the C call of the same name, typed.
//
// Types: range_tree<uint32_t> and range_tree<float> (the library is compiled for these). A box is
// msplit::range_box<T>{x_lo, x_hi, y_lo, y_hi}, closed; inverted bounds make it empty.
//
// Conventions (CUB's): the tree's storage and every operation's temporary storage are the
// caller's (with d_temp == nullptr only *temp_bytes is written, from n or q alone), the work is
// queued on `stream`, nothing synchronises, every error is a status (msplit_last_error_message()
// says what was wrong), and what the device finds is reported by msplit::check_sync(d_temp,
// temp_bytes, stream) (msplit/error_record.cuh).
//
// Example (examples/range_tree_points.cu, built and run by CTest, which checks what it prints):
// hotels as (rating, value) points; the hotels of a rating and value window, and the ones of the
// window that no other beats on both (the skyline, best value first).
//
//     msplit::range_tree<float> tree;
//     CHECK(msplit::range_tree<float>::storage_bytes(n, &bytes));
//     CHECK(tree.build(nullptr, &temp_bytes, nullptr, 0, nullptr, nullptr, n, stream));
//     CHECK(tree.build(d_temp, &temp_bytes, d_storage, bytes, d_rating, d_value, n, stream));
//     CHECK(tree.count(d_temp, &temp_bytes, d_boxes, q, d_counts, d_offsets, stream));
//     CHECK(tree.report(d_temp, &temp_bytes, d_boxes, q, d_offsets, d_out, stream));
//     CHECK(tree.skyline_count(d_temp, &temp_bytes, d_boxes, q, nullptr, d_offsets, stream));
//     CHECK(tree.skyline_report(d_temp, &temp_bytes, d_boxes, q, d_offsets, d_out, stream));
//     CHECK(msplit::check_sync(d_temp, temp_bytes, stream));
//
// prints
//
//     window [3, 4.5] x [50, 90]: 5 hotels: 1 2 3 5 6
//     window [4.5, 3] x [50, 90]: 0 hotels:
//     skyline of [3, 4.5] x [50, 90]: 6 (3.5, 90) 5 (4, 85) 2 (4.5, 70)
//     skyline of [4.5, 3] x [50, 90]:
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/error.cuh"
#include "msplit/detail/range_tree/dispatch.h"
#include "msplit/error_record.cuh"
#include "msplit/range_tree.h"

namespace msplit {

template <typename T>
class range_tree {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, float>, "coordinates are uint32_t or float");

 public:
  using coord_type = T;
  using box = range_box<T>;

  // Bytes of device storage for n points (msplit_range_tree_storage_bytes).
  static msplit_status storage_bytes(size_t n, size_t *bytes) {
    return detail::rt_storage_bytes_run<T>("range_tree::storage_bytes", n, bytes);
  }
  // Temporary storage enough for the build of n points and for every query call on q boxes: the
  // largest of their size queries (one allocation for them all).
  static msplit_status temp_bytes_for(size_t n, size_t q, size_t *bytes) {
    if (!bytes) return detail::set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "range_tree::temp_bytes_for: bytes is NULL");
    size_t build = 0, count = 0, report = 0;
    range_tree t;
    MSPLIT_TRY(t.build(nullptr, &build, nullptr, 0, nullptr, nullptr, n));
    MSPLIT_TRY(t.count(nullptr, &count, nullptr, q, nullptr, nullptr));
    MSPLIT_TRY(t.report(nullptr, &report, nullptr, q, nullptr, nullptr));
    *bytes = std::max(build, std::max(count, report));
    return MSPLIT_SUCCESS;
  }
  // Builds the tree of the points (d_x[i], d_y[i]) in d_storage (msplit_range_tree_build).
  msplit_status build(void *d_temp, size_t *temp_bytes, void *d_storage, size_t storage_bytes, const T *d_x,
                      const T *d_y, size_t n, cudaStream_t stream = 0) {
    return detail::rt_build_run<T>("range_tree::build", d_temp, temp_bytes, &h_, d_storage, storage_bytes, d_x, d_y,
                                   n, stream);
  }
  // The points in each box: counts and/or their exclusive scan (q + 1 offsets).
  msplit_status count(void *d_temp, size_t *temp_bytes, const box *d_boxes, size_t q, uint32_t *d_counts,
                      uint64_t *d_offsets, cudaStream_t stream = 0) const {
    return detail::rt_count_run<T>("range_tree::count", detail::rt_query::RANGE, d_temp, temp_bytes, &h_, d_boxes, q,
                                   d_counts, d_offsets, stream);
  }
  // The point indices of each box into its slice [d_offsets[i], d_offsets[i + 1]).
  msplit_status report(void *d_temp, size_t *temp_bytes, const box *d_boxes, size_t q, const uint64_t *d_offsets,
                       uint32_t *d_indices_out, cudaStream_t stream = 0) const {
    return detail::rt_report_run<T>("range_tree::report", detail::rt_query::RANGE, d_temp, temp_bytes, &h_, d_boxes,
                                    q, d_offsets, d_indices_out, stream);
  }
  // count for the skylines of the boxes (the points of a box no point of it dominates).
  msplit_status skyline_count(void *d_temp, size_t *temp_bytes, const box *d_boxes, size_t q, uint32_t *d_counts,
                              uint64_t *d_offsets, cudaStream_t stream = 0) const {
    return detail::rt_count_run<T>("range_tree::skyline_count", detail::rt_query::SKYLINE, d_temp, temp_bytes, &h_,
                                   d_boxes, q, d_counts, d_offsets, stream);
  }
  // report for the skylines, each in decreasing y.
  msplit_status skyline_report(void *d_temp, size_t *temp_bytes, const box *d_boxes, size_t q,
                               const uint64_t *d_offsets, uint32_t *d_indices_out, cudaStream_t stream = 0) const {
    return detail::rt_report_run<T>("range_tree::skyline_report", detail::rt_query::SKYLINE, d_temp, temp_bytes, &h_,
                                    d_boxes, q, d_offsets, d_indices_out, stream);
  }

  // The C handle (for the C API, or to read the shape).
  const msplit_range_tree &handle() const { return h_; }

 private:
  msplit_range_tree h_{};
};

}  // namespace msplit
