// msplit C API for the range tree: the coordinate type tags onto the dispatch's instantiations
// (msplit/detail/range_tree/dispatch.h), and the stream.
#include "msplit/detail/error.cuh"
#include "msplit/detail/range_tree/dispatch.h"
#include "msplit/range_tree.h"

using msplit::range_box;
using msplit::detail::rt_query;
using msplit::detail::set_error;

namespace {

// Calls f(T{}) for the instantiated coordinate type.
template <typename F>
msplit_status by_type(const char *fn, msplit_type coord_type, F f) {
#define MSPLIT_RT_CASE(T, TAG) \
  if (coord_type == TAG) return f(T{});
  MSPLIT_RANGE_TREE_TYPES(MSPLIT_RT_CASE)
#undef MSPLIT_RT_CASE
  return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: coordinate type %d is not supported (U32 or F32)", fn,
                   int(coord_type));
}

// The same for a tree's type. A size query (d_temp NULL) reads no tree: its size depends on q
// alone, so any instantiation answers it.
template <typename F>
msplit_status by_tree(const char *fn, const void *d_temp, const msplit_range_tree *tree, F f) {
  if (!d_temp) return f(uint32_t{});
  if (!tree) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: tree is NULL", fn);
  return by_type(fn, tree->coord_type, f);
}

cudaStream_t as_stream(void *s) { return static_cast<cudaStream_t>(s); }

template <typename T>
const range_box<T> *as_boxes(const void *p) {
  return static_cast<const range_box<T> *>(p);
}

msplit_status count(const char *fn, rt_query kind, void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                    const void *d_boxes, size_t q, uint32_t *d_counts, uint64_t *d_offsets, void *stream) {
  return by_tree(fn, d_temp, tree, [&](auto t) {
    using T = decltype(t);
    return msplit::detail::rt_count_run<T>(fn, kind, d_temp, temp_bytes, tree, as_boxes<T>(d_boxes), q, d_counts,
                                           d_offsets, as_stream(stream));
  });
}

msplit_status report(const char *fn, rt_query kind, void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                     const void *d_boxes, size_t q, const uint64_t *d_offsets, uint32_t *d_out, void *stream) {
  return by_tree(fn, d_temp, tree, [&](auto t) {
    using T = decltype(t);
    return msplit::detail::rt_report_run<T>(fn, kind, d_temp, temp_bytes, tree, as_boxes<T>(d_boxes), q, d_offsets,
                                            d_out, as_stream(stream));
  });
}

}  // namespace

extern "C" msplit_status msplit_range_tree_storage_bytes(size_t n, msplit_type coord_type, size_t *bytes) {
  constexpr const char *FN = "msplit_range_tree_storage_bytes";
  return by_type(FN, coord_type,
                 [&](auto t) { return msplit::detail::rt_storage_bytes_run<decltype(t)>(FN, n, bytes); });
}

extern "C" msplit_status msplit_range_tree_build(void *d_temp, size_t *temp_bytes, msplit_range_tree *tree,
                                                 void *d_storage, size_t storage_bytes, const void *d_x,
                                                 const void *d_y, size_t n, msplit_type coord_type, void *stream) {
  constexpr const char *FN = "msplit_range_tree_build";
  return by_type(FN, coord_type, [&](auto t) {
    using T = decltype(t);
    return msplit::detail::rt_build_run<T>(FN, d_temp, temp_bytes, tree, d_storage, storage_bytes,
                                           static_cast<const T *>(d_x), static_cast<const T *>(d_y), n,
                                           as_stream(stream));
  });
}

extern "C" msplit_status msplit_range_tree_count(void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                                                 const void *d_boxes, size_t q, uint32_t *d_counts,
                                                 uint64_t *d_offsets, void *stream) {
  return count("msplit_range_tree_count", rt_query::RANGE, d_temp, temp_bytes, tree, d_boxes, q, d_counts, d_offsets,
               stream);
}

extern "C" msplit_status msplit_range_tree_report(void *d_temp, size_t *temp_bytes, const msplit_range_tree *tree,
                                                  const void *d_boxes, size_t q, const uint64_t *d_offsets,
                                                  uint32_t *d_indices_out, void *stream) {
  return report("msplit_range_tree_report", rt_query::RANGE, d_temp, temp_bytes, tree, d_boxes, q, d_offsets,
                d_indices_out, stream);
}

extern "C" msplit_status msplit_range_tree_skyline_count(void *d_temp, size_t *temp_bytes,
                                                         const msplit_range_tree *tree, const void *d_boxes, size_t q,
                                                         uint32_t *d_counts, uint64_t *d_offsets, void *stream) {
  return count("msplit_range_tree_skyline_count", rt_query::SKYLINE, d_temp, temp_bytes, tree, d_boxes, q, d_counts,
               d_offsets, stream);
}

extern "C" msplit_status msplit_range_tree_skyline_report(void *d_temp, size_t *temp_bytes,
                                                          const msplit_range_tree *tree, const void *d_boxes,
                                                          size_t q, const uint64_t *d_offsets,
                                                          uint32_t *d_indices_out, void *stream) {
  return report("msplit_range_tree_skyline_report", rt_query::SKYLINE, d_temp, temp_bytes, tree, d_boxes, q,
                d_offsets, d_indices_out, stream);
}
