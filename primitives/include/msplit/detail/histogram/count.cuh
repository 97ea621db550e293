// Histogram counting kernels: each block counts its share of the samples into private counters
// and adds them to the histogram once, at the end.
//
// The samples are read with 16-byte loads in a grid-stride loop over a grid sized to the SMs;
// the few samples before the first 16-byte boundary and after the last whole vector (fewer
// than 32 in all) are counted by one warp. Three ways to count, chosen per call (dispatch.cuh):
//   SHARED  a slice of at most HIST_MAX_SLICE_BINS bins in shared memory, one atomicAdd per
//           sample in the slice. With more bins than that, the grid is num_slices copies of
//           the same walk over the samples, block b counting slice b % num_slices.
//   GLOBAL  straight into the histogram in global memory, one atomicAdd per bin per warp (the
//           lanes of one bin found with __match_any_sync).
//   BYTE    8-bit samples: 256 shared counters by sample value, no bin computed per sample;
//           the end maps each value to its bin (as CUB does for 8-bit samples), summing them
//           per bin in 256 more shared counters when m <= 256.
// Invariants: a block counts fewer than 2^31 samples (its 32-bit counters cannot overflow);
// every lane of a warp runs the same iterations (GLOBAL's __match_any_sync needs the whole
// warp); counters
// that stay zero are not added.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/detail/warp.cuh"
#include "msplit/error_record.cuh"
#include "msplit/detail/histogram/tuning.h"

namespace msplit {
namespace detail {

enum class hist_mode { SHARED, GLOBAL, BYTE };

// BYTE: 8-bit samples are counted by value, then each value's count goes to its bin.
constexpr uint32_t BYTE_VALUES = 256;

template <typename Sample, typename Op>
struct hist_args {
  const Sample *samples;
  size_t n;
  Op op;
  uint32_t num_bins;
  uint32_t slice_bins;      // bins per slice (SHARED); num_bins otherwise
  uint32_t num_slices;      // 1 unless SHARED with m > HIST_MAX_SLICE_BINS
  uint32_t stage_bytes;     // 0, or the bytes of the functor's staged table (histogram_stage_op)
  uint32_t stage_offset;    // where in shared memory: bytes, a multiple of 16
  void *hist;               // m counters of 4 or 8 bytes
  bool wide;                // 8-byte counters
  error_record *record;     // the call's error record (HISTOGRAM_TEMP_BYTES); NULL: none (a forced
                            // plan of a test or benchmark, without boundaries)
  bool levels_checked;      // the boundary check ran before: count nothing if it recorded an error
};

__device__ __forceinline__ void add_to_histogram(void *hist, bool wide, uint32_t bin, uint32_t count) {
  if (wide) atomicAdd(static_cast<unsigned long long *>(hist) + bin, static_cast<unsigned long long>(count));
  else atomicAdd(static_cast<unsigned *>(hist) + bin, count);
}

template <hist_mode MODE, typename Sample, typename Key, typename Op>
__global__ void __launch_bounds__(tuning::HIST_BLOCK_THREADS) histogram_kernel(const hist_args<Sample, Op> a) {
  constexpr int BT = tuning::HIST_BLOCK_THREADS, WARPS = BT / WARP_SIZE;
  constexpr int VEC = 16 / sizeof(Sample), LOADS = tuning::HIST_LOADS_PER_THREAD;
  static_assert(16 % sizeof(Sample) == 0, "samples of 1, 2, 4, 8 or 16 bytes");
  static_assert(BT % WARP_SIZE == 0, "whole warps");
  extern __shared__ uint4 hist_smem[];
  uint32_t *counts = reinterpret_cast<uint32_t *>(hist_smem);

  // 0. the boundaries were found unsorted: the histogram stays as it is. Without boundaries to
  //    check this is the call's first kernel, and block 0 clears the error record.
  if (a.levels_checked) {
    if (error_raised(a.record)) return;
  } else if (a.record && blockIdx.x == 0 && threadIdx.x == 0) {
    a.record->code = MSPLIT_SUCCESS;
  }
  const unsigned tid = threadIdx.x, lane = lane_id(), warp = tid / WARP_SIZE;
  const uint32_t slice = blockIdx.x % a.num_slices;
  const uint32_t part = blockIdx.x / a.num_slices, parts = gridDim.x / a.num_slices;
  const uint32_t first_bin = slice * a.slice_bins;
  const uint32_t bins = min(a.slice_bins, a.num_bins - first_bin);

  // 1. zero the block's counters and stage the functor's table
  if constexpr (MODE != hist_mode::GLOBAL) {
    const uint32_t counters = MODE == hist_mode::BYTE ? BYTE_VALUES : bins;
    for (uint32_t i = tid; i < counters; i += BT) counts[i] = 0;
  }
  const Op op =
      histogram_stage_op(a.op, a.stage_bytes, reinterpret_cast<unsigned char *>(hist_smem) + a.stage_offset, tid, BT);
  __syncthreads();

  // 2. count; `count` takes one bin per lane and is called by whole warps
  auto count = [&](uint32_t b) {
    if constexpr (MODE == hist_mode::SHARED) {
      const uint32_t local = b - first_bin;  // wraps above `bins` for bins of other slices
      if (local < bins) atomicAdd(&counts[local], 1u);
    } else if constexpr (MODE == hist_mode::BYTE) {
      if (b < BYTE_VALUES) atomicAdd(&counts[b], 1u);
    } else {  // one atomicAdd per bin per warp: skewed samples would queue on one address
      const uint32_t peers = __match_any_sync(FULL_WARP_MASK, b);
      if (b < a.num_bins && lane == uint32_t(__ffs(peers) - 1)) add_to_histogram(a.hist, a.wide, b, __popc(peers));
    }
  };
  auto take = [&](const Sample &s, bool valid) {
    if constexpr (MODE == hist_mode::BYTE) {
      uint8_t byte;
      __builtin_memcpy(&byte, &s, 1);
      count(valid ? uint32_t(byte) : OUT_OF_RANGE);
    } else {
      count(valid ? histogram_bin(op, Key(s)) : OUT_OF_RANGE);
    }
  };

  const Sample *in = a.samples;
  size_t head = ((16 - reinterpret_cast<uintptr_t>(in) % 16) % 16) / sizeof(Sample);
  if (head > a.n) head = a.n;
  const uint4 *vin = reinterpret_cast<const uint4 *>(in + head);
  const size_t nvec = (a.n - head) / VEC;
  // 2a. whole 16-byte vectors: LOADS per thread in flight, warp-uniform trip count
  const size_t step = size_t(parts) * WARPS * LOADS * WARP_SIZE;
  for (size_t base = (size_t(part) * WARPS + warp) * LOADS * WARP_SIZE; base < nvec; base += step) {
    uint4 v[LOADS];
#pragma unroll
    for (int u = 0; u < LOADS; ++u) {
      const size_t idx = base + u * WARP_SIZE + lane;
      v[u] = idx < nvec ? vin[idx] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < LOADS; ++u) {
      const bool valid = base + u * WARP_SIZE + lane < nvec;
      Sample s[VEC];
      static_assert(sizeof(s) == sizeof(uint4), "a vector of whole samples");
      __builtin_memcpy(&s, &v[u], sizeof(s));
#pragma unroll
      for (int k = 0; k < VEC; ++k) take(s[k], valid);
    }
  }
  // 2b. the head (before the first 16-byte boundary) and the tail (after the last vector):
  // fewer than VEC samples each, so one sample per lane of one warp
  if (part == 0 && warp == 0) {
    const size_t tail_first = head + nvec * VEC;
    const size_t i = lane < head ? lane : tail_first + (lane - head);
    const bool valid = lane < head || i < a.n;
    take(valid ? in[i] : Sample(), valid);
  }

  // 3. add the block's counts to the histogram
  if constexpr (MODE == hist_mode::BYTE) {
    static_assert(sizeof(Sample) == 1, "BYTE counts 8-bit samples");
    // With at most 256 bins the values' counts are summed per bin in shared memory first: 256
    // global atomics a block on m = 2 addresses queued behind each other (u8 even bins ran at
    // 0.6x CUB's speed at m <= 8, against 1.1x at m = 256).
    uint32_t *by_bin = counts + BYTE_VALUES;
    const bool few_bins = a.num_bins <= BYTE_VALUES;
    if (few_bins)
      for (uint32_t i = tid; i < a.num_bins; i += BT) by_bin[i] = 0;
    __syncthreads();
    for (uint32_t i = tid; i < BYTE_VALUES; i += BT) {
      const uint32_t c = counts[i];
      const uint8_t byte = uint8_t(i);
      Sample value;
      __builtin_memcpy(&value, &byte, 1);
      const uint32_t b = c ? histogram_bin(op, Key(value)) : OUT_OF_RANGE;
      if (b < a.num_bins) {
        if (few_bins) atomicAdd(&by_bin[b], c);
        else add_to_histogram(a.hist, a.wide, b, c);
      }
    }
    if (few_bins) {  // block-uniform
      __syncthreads();
      for (uint32_t i = tid; i < a.num_bins; i += BT)
        if (by_bin[i]) add_to_histogram(a.hist, a.wide, i, by_bin[i]);
    }
  } else if constexpr (MODE != hist_mode::GLOBAL) {
    __syncthreads();
    for (uint32_t i = tid; i < bins; i += BT) {
      const uint32_t c = counts[i];
      if (c) add_to_histogram(a.hist, a.wide, first_bin + i, c);
    }
  }
}

// A boundary's bits for the error record, widened (signed integers sign-extended), and its
// msplit_type, by which the host prints it.
template <typename Key>
__device__ __forceinline__ unsigned long long level_bits(Key v) {
  if constexpr (std::is_same_v<Key, float>) return __float_as_uint(v);
  else if constexpr (std::is_same_v<Key, double>) return (unsigned long long)__double_as_longlong(v);
  else if constexpr (std::is_signed_v<Key>) return (unsigned long long)(long long)v;
  else return (unsigned long long)v;
}
template <typename Key>
__host__ __device__ constexpr msplit_type level_type() {
  if constexpr (std::is_same_v<Key, float>) return MSPLIT_TYPE_F32;
  else if constexpr (std::is_same_v<Key, double>) return MSPLIT_TYPE_F64;
  else if constexpr (std::is_signed_v<Key>) return MSPLIT_TYPE_I64;
  else return MSPLIT_TYPE_U64;
}

// Range bins, the call's first kernel: checks that the m + 1 boundaries are sorted (a NaN counts
// as unsorted) and writes the verdict to the error record (the first unsorted pair), which the
// counting kernel reads; zeroes the histogram first when the boundaries are sorted and `zero` is
// set. One block: the verdict must be known before anything is written.
template <typename Key>
__global__ void histogram_check_levels_kernel(const Key *levels, uint32_t m, error_record *record, void *hist,
                                              bool wide, bool zero) {
  constexpr uint32_t SORTED = 0xFFFFFFFFu;
  __shared__ uint32_t first_unsorted;
  if (threadIdx.x == 0) first_unsorted = SORTED;
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < m; i += blockDim.x)
    if (!(levels[i] <= levels[i + 1])) atomicMin(&first_unsorted, i);
  __syncthreads();
  const uint32_t i = first_unsorted;
  if (threadIdx.x == 0) {
    record->code = MSPLIT_SUCCESS;  // this call's record starts here
    if (i != SORTED)
      record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_HISTOGRAM, MSPLIT_SITE_HISTOGRAM_LEVELS, i,
                   level_bits(levels[i]), level_bits(levels[i + 1]), level_type<Key>());
  }
  if (i != SORTED || !zero) return;
  for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) {
    if (wide) static_cast<unsigned long long *>(hist)[i] = 0;
    else static_cast<unsigned *>(hist)[i] = 0;
  }
}

}  // namespace detail
}  // namespace msplit
