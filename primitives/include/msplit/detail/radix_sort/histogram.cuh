// The radix sort's upfront pass: one read of the keys counts the digits of every pass (Adinets
// and Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022), then one
// block per pass turns its counts into the digits' first output positions.
//
// Invariant: hist is passes x RADIX 64-bit counters, zeroed before the histogram kernel; the scan
// replaces hist[p][d] by the exclusive scan of hist[p] at d: the first output position of digit d
// in pass p (what the sweeps of the first portion read).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/radix_sort/key_codec.cuh"
#include "msplit/detail/radix_sort/tuning.h"

namespace msplit {
namespace detail {

constexpr uint32_t RADIX_DIGITS = 1u << tuning::RADIX_BITS;

// Bits [begin_bit, end_bit) are sorted in passes of RADIX_BITS, the last one narrower.
inline int radix_passes(int begin_bit, int end_bit) {
  return (end_bit - begin_bit + tuning::RADIX_BITS - 1) / tuning::RADIX_BITS;
}

template <typename U>
struct radix_histogram_args {
  const U *keys;
  size_t n;
  key_codec<U> codec;
  int begin_bit, end_bit, passes;
  unsigned long long *hist;  // passes x RADIX_DIGITS, zeroed
};

// Grid-stride over tiles of THREADS x ITEMS keys (item k of thread t is key k * THREADS + t of
// the tile: coalesced); each block counts into its own passes x RADIX table in shared memory and
// adds it to the global counters once at the end.
template <int THREADS, int ITEMS, typename U>
__global__ void __launch_bounds__(THREADS) radix_histogram_kernel(radix_histogram_args<U> a) {
  constexpr int MAX_PASSES = int(sizeof(U) * 8) / tuning::RADIX_BITS;
  constexpr size_t TILE = size_t(THREADS) * ITEMS;
  __shared__ uint32_t counts[MAX_PASSES * RADIX_DIGITS];
  const unsigned tid = threadIdx.x;
  const uint32_t words = uint32_t(a.passes) * RADIX_DIGITS;
  for (uint32_t i = tid; i < words; i += THREADS) counts[i] = 0;
  __syncthreads();

  const size_t tiles = (a.n + TILE - 1) / TILE;
  for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const size_t tile_begin = tile * TILE;
    const bool full = a.n - tile_begin >= TILE;
    U keys[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (full || tile_begin + k * THREADS + tid < a.n) keys[k] = a.keys[tile_begin + k * THREADS + tid];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (!full && tile_begin + k * THREADS + tid >= a.n) continue;
      const U code = a.codec.encode(keys[k]);
#pragma unroll
      for (int p = 0; p < MAX_PASSES; ++p) {
        if (p >= a.passes) break;
        const int shift = a.begin_bit + p * tuning::RADIX_BITS;
        const int bits = min(tuning::RADIX_BITS, a.end_bit - shift);
        const uint32_t digit = uint32_t(code >> shift) & ((1u << bits) - 1);
        atomicAdd(&counts[p * RADIX_DIGITS + digit], 1u);
      }
    }
  }
  __syncthreads();
  for (uint32_t i = tid; i < words; i += THREADS)
    if (counts[i]) atomicAdd(&a.hist[i], (unsigned long long)counts[i]);
}

// One block of RADIX_DIGITS threads per pass: thread d of block p turns the count of digit d in
// pass p into the digit's first output position, in place. (A template so that every
// translation unit may hold it.)
template <int THREADS = int(RADIX_DIGITS)>
__global__ void __launch_bounds__(THREADS) radix_digit_starts_kernel(unsigned long long *counts) {
  static_assert(THREADS == int(RADIX_DIGITS), "a thread per digit");
  __shared__ unsigned long long warp_sums[32];
  unsigned long long *mine = counts + blockIdx.x * RADIX_DIGITS + threadIdx.x;
  *mine = block_exclusive_scan<THREADS>(*mine, warp_sums);  // each thread reads, then writes, its own
}

}  // namespace detail
}  // namespace msplit
