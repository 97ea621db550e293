// Moving a tile between global memory and registers or shared memory: loads of a thread's items
// (blocked or warp-striped), a loop over a thread's items with the bounds test only on partial
// tiles, and the coalesced write of a tile that was reordered by bucket in shared memory.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/warp.cuh"

namespace msplit {
namespace detail {

// Loads ITEMS elements of one thread: `blocked` (elements first .. first + ITEMS - 1 of the
// tile, with 16-byte loads where the run is aligned) or warp-striped (element first + k * 32 of
// the tile in item k). Elements at or past `valid` are not read.
template <int ITEMS, typename T>
__device__ __forceinline__ void load_items(T (&items)[ITEMS], const T *tile_in, uint32_t first, uint32_t valid,
                                           bool full, bool blocked) {
  constexpr bool VECTOR = (ITEMS * sizeof(T)) % 16 == 0 && sizeof(T) <= 16;
  if (blocked) {
    const T *in = tile_in + first;
    if constexpr (VECTOR) {
      if (full && reinterpret_cast<uintptr_t>(in) % 16 == 0) {
        constexpr int VECS = ITEMS * sizeof(T) / 16;
        uint4 v[VECS];
#pragma unroll
        for (int i = 0; i < VECS; ++i) v[i] = reinterpret_cast<const uint4 *>(in)[i];
        static_assert(sizeof(v) == sizeof(items), "whole items");
        __builtin_memcpy(&items, &v, sizeof(v));
        return;
      }
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (full || first + k < valid) items[k] = in[k];
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (full || first + k * WARP_SIZE < valid) items[k] = tile_in[first + k * WARP_SIZE];
  }
}

// f(k) for each item k of a thread; on full tiles without the per-item bounds test (and the
// branch around each item that it costs).
template <int ITEMS, typename Valid, typename F>
__device__ __forceinline__ void for_each_item(bool full, Valid valid, F f) {
  if (full) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) f(k);
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (valid(k)) f(k);
  }
}

// Writes a region reordered in shared memory: element i (< valid) of `ex`, whose bucket is
// ex_bucket[i], goes to dest[bucket] + i (dest: the global start of the bucket's run minus its
// start in the region). Thread `me` of STRIDE writes elements me, me + STRIDE, ...: consecutive
// threads write consecutive places of a run.
template <int STRIDE, int READS, typename T>
__device__ __forceinline__ void write_runs(T *out, const T *ex, const uint8_t *ex_bucket, const size_t *dest,
                                           uint32_t me, uint32_t valid) {
#pragma unroll
  for (int k = 0; k < READS; ++k) {
    const uint32_t i = k * STRIDE + me;
    if (i < valid) out[dest[ex_bucket[i]] + i] = ex[i];
  }
}

}  // namespace detail
}  // namespace msplit
