// The range tree's queries (msplit/range_tree.h): counts of the points in boxes or of their
// skylines, with the exclusive scan of the counts (the scan is the GPU LSM's: a count per query
// in, offsets out), and the reports that write each box's point indices into its slice.
//
// Temporary storage: a count takes the error record, q counts (used when the caller passes none)
// and the scan's tile sums; a report the error record.
#include "../lsm/lsm_impl.h"
#include "range_tree_impl.h"

namespace msplit {
namespace detail {
namespace {

constexpr int THREADS = tuning::RANGE_TREE_THREADS, REPORT_WARPS = tuning::RANGE_TREE_REPORT_WARPS;

constexpr msplit_primitive RT_PRIMITIVE = MSPLIT_PRIMITIVE_RANGE_TREE;
constexpr msplit_error_site RT_SITE_SLICE = MSPLIT_SITE_RANGE_TREE_SLICE;

struct rt_no_emit {
  __device__ void operator()(uint64_t, uint32_t) const {}
};

// A thread per query: the number of points in its box, or in the box's skyline.
template <typename T, rt_query KIND>
__global__ void __launch_bounds__(THREADS)
    rt_count_kernel(rt_view<T> t, const range_box<T> *boxes, uint64_t q, uint32_t *counts) {
  const uint64_t i = uint64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= q) return;
  const range_box<T> b = boxes[i];
  counts[i] = uint32_t(KIND == rt_query::RANGE ? rt_count_box(t, b) : rt_skyline_box(t, b, rt_no_emit{}));
}

// A warp per query: every lane runs the same searches (the same addresses: one load per warp),
// then the lanes copy each canonical node's slice of x-ranks, as point indices, into the output.
template <typename T>
__global__ void __launch_bounds__(REPORT_WARPS * 32)
    rt_report_kernel(rt_view<T> t, const range_box<T> *boxes, uint64_t q, const uint64_t *offsets, uint32_t *out,
                     error_record *record) {
  const uint64_t i = uint64_t(blockIdx.x) * REPORT_WARPS + threadIdx.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  if (i >= q) return;
  const range_box<T> b = boxes[i];
  const uint64_t at = offsets[i], end = offsets[i + 1], room = end > at ? end - at : 0;
  uint64_t lo, hi, got = 0;
  if (!rt_x_ranks(t, b, &lo, &hi)) return;
  rt_for_canonical(lo, hi, [&](uint32_t l, uint64_t first, uint64_t last) {
    const T *ys = t.ys + l * t.ys_stride;
    const uint32_t *ranks = t.ranks + l * t.ranks_stride;
    const uint64_t s = rt_lower_bound(ys, first, last, b.y_lo), e = rt_upper_bound(ys, first, last, b.y_hi);
    if (s >= e) return;
    const uint64_t take = got < room ? (e - s < room - got ? e - s : room - got) : 0;
    for (uint64_t k = lane; k < take; k += 32) out[at + got + k] = t.ids[ranks[s + k]];
    got += e - s;
  });
  if (got > room && lane == 0)
    record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, RT_PRIMITIVE, RT_SITE_SLICE, i, got, room);
}

// Writes a skyline's points into its slice, the ones beyond the slice dropped.
struct rt_slice_emit {
  uint32_t *out;
  uint64_t at, room;
  __device__ void operator()(uint64_t j, uint32_t index) const {
    if (j < room) out[at + j] = index;
  }
};

// A thread per query: the skyline walk, writing.
template <typename T>
__global__ void __launch_bounds__(THREADS)
    rt_skyline_report_kernel(rt_view<T> t, const range_box<T> *boxes, uint64_t q, const uint64_t *offsets,
                             uint32_t *out, error_record *record) {
  const uint64_t i = uint64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= q) return;
  const uint64_t at = offsets[i], end = offsets[i + 1], room = end > at ? end - at : 0;
  const uint64_t got = rt_skyline_box(t, boxes[i], rt_slice_emit{out, at, room});
  if (got > room) record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, RT_PRIMITIVE, RT_SITE_SLICE, i, got, room);
}

struct rt_count_of {
  const uint32_t *counts;
  __device__ uint64_t operator()(uint64_t i) const { return counts[i]; }
};
struct rt_offset_to {
  uint64_t *offsets;
  __device__ void operator()(uint64_t i, uint64_t at, uint64_t) const { offsets[i] = at; }
};

// Shared checks of counts and reports: the tree, and the boxes.
template <typename T>
msplit_status rt_check_queries(const char *fn, const msplit_range_tree *h, const range_box<T> *boxes, size_t q) {
  MSPLIT_TRY(rt_check_tree<T>(fn, h));
  if (q > 0 && !boxes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_boxes is NULL with q = %zu", fn, q);
  return MSPLIT_SUCCESS;
}

}  // namespace

template <typename T>
msplit_status rt_count_run(const char *fn, rt_query kind, void *d_temp, size_t *temp_bytes,
                           const msplit_range_tree *h, const range_box<T> *boxes, size_t q, uint32_t *counts,
                           uint64_t *offsets, cudaStream_t stream) {
  // 1. check arguments; lay out the temporary storage (from q alone)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  lsm_temp lay;
  const size_t o_counts = lay.add(q * sizeof(uint32_t)), o_tiles = lay.add(lsm_scan_tiles(q) * sizeof(uint64_t));
  if (!d_temp) {
    *temp_bytes = lay.total;
    return MSPLIT_SUCCESS;
  }
  MSPLIT_TRY(lsm_check_temp(fn, *temp_bytes, lay.total));
  MSPLIT_TRY(rt_check_queries<T>(fn, h, boxes, q));
  if (!counts && !offsets)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_counts and d_offsets are both NULL", fn);
  MSPLIT_TRY(clear_record(d_temp, stream));
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  uint32_t *c = counts ? counts : reinterpret_cast<uint32_t *>(temp + o_counts);
  // 2. the counts; 3. their scan (the total at offsets[q])
  if (q > 0) {
    const rt_view<T> t = make_rt_view<T>(*h);
    if (kind == rt_query::RANGE)
      rt_count_kernel<T, rt_query::RANGE><<<rt_blocks(q, THREADS), THREADS, 0, stream>>>(t, boxes, q, c);
    else
      rt_count_kernel<T, rt_query::SKYLINE><<<rt_blocks(q, THREADS), THREADS, 0, stream>>>(t, boxes, q, c);
    MSPLIT_LAUNCH_CHECK();
  }
  if (!offsets) return MSPLIT_SUCCESS;
  if (q == 0) {  // the total alone, without a launch
    MSPLIT_CUDA_TRY(cudaMemsetAsync(offsets, 0, sizeof(uint64_t), stream));
    return MSPLIT_SUCCESS;
  }
  return lsm_scan_launch(rt_count_of{c}, rt_offset_to{offsets}, lsm_length{q, nullptr}, q,
                         reinterpret_cast<uint64_t *>(temp + o_tiles), offsets + q, stream);
}

template <typename T>
msplit_status rt_report_run(const char *fn, rt_query kind, void *d_temp, size_t *temp_bytes,
                            const msplit_range_tree *h, const range_box<T> *boxes, size_t q,
                            const uint64_t *offsets, uint32_t *out, cudaStream_t stream) {
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  if (!d_temp) {
    *temp_bytes = RECORD_BYTES;
    return MSPLIT_SUCCESS;
  }
  MSPLIT_TRY(lsm_check_temp(fn, *temp_bytes, RECORD_BYTES));
  MSPLIT_TRY(rt_check_queries<T>(fn, h, boxes, q));
  if (q > 0 && !offsets) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_offsets is NULL with q = %zu", fn, q);
  if (q > 0 && !out) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_indices_out is NULL with q = %zu", fn, q);
  MSPLIT_TRY(clear_record(d_temp, stream));
  if (q == 0) return MSPLIT_SUCCESS;
  const rt_view<T> t = make_rt_view<T>(*h);
  if (kind == rt_query::RANGE)
    rt_report_kernel<T><<<rt_blocks(q, REPORT_WARPS), REPORT_WARPS * 32, 0, stream>>>(t, boxes, q, offsets, out,
                                                                                      temp_record(d_temp));
  else
    rt_skyline_report_kernel<T><<<rt_blocks(q, THREADS), THREADS, 0, stream>>>(t, boxes, q, offsets, out,
                                                                               temp_record(d_temp));
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

#define MSPLIT_RT_QUERY_INST(T, TAG)                                                                           \
  template msplit_status rt_count_run<T>(const char *, rt_query, void *, size_t *, const msplit_range_tree *,  \
                                         const range_box<T> *, size_t, uint32_t *, uint64_t *, cudaStream_t);  \
  template msplit_status rt_report_run<T>(const char *, rt_query, void *, size_t *, const msplit_range_tree *, \
                                          const range_box<T> *, size_t, const uint64_t *, uint32_t *,          \
                                          cudaStream_t);
MSPLIT_RANGE_TREE_TYPES(MSPLIT_RT_QUERY_INST)

}  // namespace detail
}  // namespace msplit
