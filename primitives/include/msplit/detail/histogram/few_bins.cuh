// Range bins of few boundaries (m <= 15): every thread holds the boundaries in registers and a
// sample's bin is the number of boundaries <= it, less one, by compares alone. The search tree
// of splitter_bucket costs a chain of dependent shared-memory loads per sample, which share the
// shared-memory pipe with the counters' atomics: f32 range bins at m = 2 ran at half the speed
// of even bins that way.
//
// The boundaries are padded to REG (4, 8 or 16) with copies of the last one, which only raises
// the count of samples at or above it, and those are in no bin anyway; NaN compares false with
// every boundary, so its count is 0 and its bin OUT_OF_RANGE, as below the first boundary.
// (A type of its own, not a member array of splitter_bucket: with the array there, nvcc 13.0
// took splitter_bucket's shared-memory tree pointer for a global one.)
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "msplit/bucket.cuh"

namespace msplit {
namespace detail {

template <typename Key>
struct few_splitter_bins {
  static constexpr uint32_t MAX_SPLITTERS = 16;
  const Key *splitters{nullptr};  // num_splitters sorted boundaries in device memory
  uint32_t num_splitters{0};      // 1..MAX_SPLITTERS
  Key reg[MAX_SPLITTERS]{};       // set by stage_bins
  uint32_t reg_count{0};          // 0 before stage_bins, then the padded length: 4, 8 or 16

  // Staged into registers, not shared memory; the bytes only make the kernel call stage_bins.
  using msplit_bin_staged = void;
  size_t bin_stage_bytes(size_t max_bytes) const { return max_bytes >= 16 ? 16 : 0; }
  __device__ few_splitter_bins stage_bins(void *, unsigned, unsigned, size_t) const {
    few_splitter_bins staged = *this;
#pragma unroll
    for (uint32_t i = 0; i < MAX_SPLITTERS; ++i)
      staged.reg[i] = splitters[i < num_splitters ? i : num_splitters - 1];
    staged.reg_count = num_splitters <= 4 ? 4 : num_splitters <= 8 ? 8 : MAX_SPLITTERS;
    return staged;
  }
  template <uint32_t R>
  __device__ __forceinline__ uint32_t reg_bin(const Key &k) const {
    uint32_t c = 0;
#pragma unroll
    for (uint32_t i = 0; i < R; ++i) c += reg[i] <= k ? 1u : 0u;
    return c - 1u;  // no boundary <= k: OUT_OF_RANGE
  }
  __device__ __forceinline__ uint32_t bin(const Key &k) const {
    if (reg_count == 4) return reg_bin<4>(k);
    if (reg_count == 8) return reg_bin<8>(k);
    if (reg_count == MAX_SPLITTERS) return reg_bin<MAX_SPLITTERS>(k);
    uint32_t c = 0;  // not staged (a few bins mapped once per block): from device memory
    for (uint32_t i = 0; i < num_splitters; ++i) c += splitters[i] <= k ? 1u : 0u;
    return c - 1u;
  }
};

}  // namespace detail
}  // namespace msplit
