// Warp-wide scans: of one value per lane (msplit/warp_scan.cuh), and of a warp's table of counters
// in shared memory.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include "msplit/detail/warp.cuh"
#include "msplit/warp_scan.cuh"

namespace msplit {
namespace detail {

// Inclusive scan of one value per lane over the warp (public: msplit/warp_scan.cuh).
using msplit::warp_inclusive_scan;

// In-place exclusive scan of a warp's m counters (shared memory, this warp only); returns the
// total. Each lane scans a run of ceil(m / 32) consecutive counters, then the runs are combined
// with __shfl_up_sync.
__device__ __forceinline__ uint32_t warp_exclusive_scan_counts(uint32_t *counts, uint32_t m) {
  __syncwarp();  // the counters were last written by other lanes' atomics
  const unsigned lane = lane_id();
  const uint32_t per_lane = (m + WARP_SIZE - 1) / WARP_SIZE;
  const uint32_t first = lane * per_lane;
  uint32_t sum = 0;
  for (uint32_t i = 0; i < per_lane; ++i)
    if (first + i < m) sum += counts[first + i];
  const uint32_t incl = warp_inclusive_scan(sum, lane);
  uint32_t run = incl - sum;
  for (uint32_t i = 0; i < per_lane; ++i) {
    if (first + i < m) {
      const uint32_t c = counts[first + i];
      counts[first + i] = run;
      run += c;
    }
  }
  const uint32_t total = __shfl_sync(FULL_WARP_MASK, incl, WARP_SIZE - 1);
  __syncwarp();
  return total;
}

}  // namespace detail
}  // namespace msplit
