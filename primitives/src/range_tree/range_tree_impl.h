// What the range tree's sources share: the type tag of a coordinate type, the check of a built
// tree against the instantiation's type, and grid sizes. msplit/range_tree.h describes the
// structure; msplit/detail/range_tree/search.cuh its layout and searches.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/error.cuh"
#include "msplit/detail/range_tree/search.cuh"
#include "msplit/detail/range_tree/tuning.h"

namespace msplit {
namespace detail {

template <typename T>
constexpr msplit_type rt_type_tag() {
  return std::is_same_v<T, float> ? MSPLIT_TYPE_F32 : MSPLIT_TYPE_U32;
}

inline unsigned rt_blocks(uint64_t items, int per_block) { return unsigned((items + per_block - 1) / per_block); }

// The tree exists, was built for this type, and its shape is a build's.
template <typename T>
msplit_status rt_check_tree(const char *fn, const msplit_range_tree *h) {
  if (!h) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: tree is NULL", fn);
  if (h->coord_type != rt_type_tag<T>())
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: the tree holds coordinate type %d, the call was made for %d",
                     fn, int(h->coord_type), int(rt_type_tag<T>()));
  if (!h->d_storage || h->num_levels != rt_levels(h->n))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: tree is not built (msplit_range_tree_build)", fn);
  return MSPLIT_SUCCESS;
}

}  // namespace detail
}  // namespace msplit
