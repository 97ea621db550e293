// Block-level pieces of the segmented sort: a tile of SEGSORT_BLOCK_THREADS x ITEMS sort items in
// shared memory, split into groups of G threads, each group sorting the G x ITEMS slots of one
// segment.
//
// 1. Every thread sorts its ITEMS consecutive slots in registers with a bitonic network (the
//    "register sort" of Hou et al., "Fast Segmented Sort on GPUs", ICS 2017, here on one thread).
// 2. The group merges runs of ITEMS, 2 ITEMS, ... in shared memory: each thread finds where its
//    ITEMS outputs start by a merge-path search (Green, McColl and Bader, "GPU Merge Path", ICS
//    2012) and merges them serially into registers.
// Items are distinct (sort_item.cuh), so neither step needs to be stable for the result to be.
// Shared memory holds the items with one padding entry per ITEMS slots, so that a thread's
// consecutive slots and consecutive threads' first slots fall into different banks.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/segmented_sort/sort_item.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/segmented_sort/tuning.h"

namespace msplit {
namespace detail {

// Index in shared memory of slot q (one padding entry per ITEMS slots).
template <int ITEMS>
__device__ __forceinline__ uint32_t padded_slot(uint32_t q) {
  return q + q / ITEMS;
}

// Shared memory of a tile: the items (padded), then the tile's original keys and values by slot.
template <int ITEMS, typename Key, typename Value>
struct segsort_tile_layout {
  using item = typename item_traits<Key>::type;
  static constexpr uint32_t SLOTS = uint32_t(tuning::SEGSORT_BLOCK_THREADS) * ITEMS;
  static constexpr size_t ITEM_BYTES = align_up(sizeof(item) * (SLOTS + SLOTS / ITEMS), 16);
  static constexpr size_t KEY_BYTES = align_up(sizeof(Key) * SLOTS, 16);
  static constexpr size_t VALUE_BYTES = std::is_same<Value, no_value>::value ? 0 : align_up(sizeof(Value) * SLOTS, 16);
  static constexpr size_t BYTES = ITEM_BYTES + KEY_BYTES + VALUE_BYTES;
  // Resident blocks the shared memory allows (with 4 KB for the static part and the system's),
  // capped: the kernels' minimum blocks per SM for __launch_bounds__.
  static constexpr int SMEM_BLOCKS = int(tuning::SEGSORT_SHARED_BYTES_PER_SM / (BYTES + 4096));
  static constexpr int MIN_BLOCKS = SMEM_BLOCKS < 1 ? 1
                                    : SMEM_BLOCKS > tuning::SEGSORT_MAX_BLOCKS_PER_SM ? tuning::SEGSORT_MAX_BLOCKS_PER_SM
                                                                                       : SMEM_BLOCKS;
  static __device__ __forceinline__ item *items(unsigned char *smem) { return reinterpret_cast<item *>(smem); }
  static __device__ __forceinline__ Key *keys(unsigned char *smem) { return reinterpret_cast<Key *>(smem + ITEM_BYTES); }
  static __device__ __forceinline__ Value *values(unsigned char *smem) {
    return reinterpret_cast<Value *>(smem + ITEM_BYTES + KEY_BYTES);
  }
};

// Sorts x ascending (x holds distinct items). N is a power of two.
template <typename Traits, int N, typename T>
__device__ __forceinline__ void register_bitonic_sort(T (&x)[N]) {
  static_assert((N & (N - 1)) == 0, "the bitonic network needs a power of two");
#pragma unroll
  for (int k = 2; k <= N; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
#pragma unroll
      for (int i = 0; i < N; ++i) {
        const int l = i ^ j;
        if (l > i) {
          const bool up = (i & k) == 0;  // this pair's half of the bitonic sequence runs up
          const T a = x[i], b = x[l];
          const bool swap = Traits::less(b, a) == up;
          x[i] = swap ? b : a;
          x[l] = swap ? a : b;
        }
      }
    }
  }
}

// How many of the first `diag` outputs of merging the sorted runs A = items[a0, a0 + a_len) and
// B = items[b0, b0 + b_len) (slots) come from A.
template <int ITEMS, typename Traits, typename T>
__device__ __forceinline__ uint32_t merge_path(const T *items, uint32_t a0, uint32_t a_len, uint32_t b0,
                                               uint32_t b_len, uint32_t diag) {
  uint32_t lo = diag > b_len ? diag - b_len : 0, hi = diag < a_len ? diag : a_len;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (Traits::less(items[padded_slot<ITEMS>(b0 + diag - 1 - mid)], items[padded_slot<ITEMS>(a0 + mid)])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// The next ITEMS outputs of merging A = items[ai, a_end) and B = items[bi, b_end) into x. Outputs
// past the end of both runs are left unspecified.
template <int ITEMS, typename Traits, typename T>
__device__ __forceinline__ void serial_merge(const T *items, uint32_t ai, uint32_t a_end, uint32_t bi, uint32_t b_end,
                                             T (&x)[ITEMS]) {
  T a{}, b{};
  if (ai < a_end) a = items[padded_slot<ITEMS>(ai)];
  if (bi < b_end) b = items[padded_slot<ITEMS>(bi)];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const bool take_b = bi < b_end && (ai >= a_end || Traits::less(b, a));
    x[k] = take_b ? b : a;
    if (take_b) {
      if (++bi < b_end) b = items[padded_slot<ITEMS>(bi)];
    } else {
      if (++ai < a_end) a = items[padded_slot<ITEMS>(ai)];
    }
  }
}

// Sorts each group's G x ITEMS slots of `items` (G = 2^log2_g threads, the same for the whole
// block). Called by every thread of the block after the items are in shared memory; on return
// (after a barrier) the sorted items are back in place.
template <int ITEMS, typename Traits, typename T>
__device__ __forceinline__ void sort_groups(T *items, int log2_g) {
  const uint32_t tid = threadIdx.x;
  T x[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) x[i] = items[padded_slot<ITEMS>(tid * ITEMS + i)];
  register_bitonic_sort<Traits>(x);
  const uint32_t g = 1u << log2_g, rank = tid & (g - 1), group_first = (tid - rank) * ITEMS;
  for (uint32_t w = ITEMS; w < g * ITEMS; w *= 2) {  // merge runs of w into runs of 2w
    __syncthreads();  // the last round's reads are done
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) items[padded_slot<ITEMS>(tid * ITEMS + i)] = x[i];
    __syncthreads();
    const uint32_t pair_threads = 2 * w / ITEMS;
    const uint32_t a0 = group_first + (rank / pair_threads) * 2 * w;
    const uint32_t diag = (rank % pair_threads) * ITEMS;
    const uint32_t from_a = merge_path<ITEMS, Traits>(items, a0, w, a0 + w, w, diag);
    serial_merge<ITEMS, Traits>(items, a0 + from_a, a0 + w, a0 + w + diag - from_a, a0 + 2 * w, x);
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) items[padded_slot<ITEMS>(tid * ITEMS + i)] = x[i];
  __syncthreads();
}

}  // namespace detail
}  // namespace msplit
