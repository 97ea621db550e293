// msplit histogram tuning constants (measured on an H100, sm_90). Change here, nowhere else.
// The measurements are hist_bench's (bench/results/hist-NVIDIA_H100_80GB_HBM3.json, f32 samples,
// n = 2^28, uniform; docs/performance.md, "Histogram").
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace msplit {
namespace tuning {

// Threads per block of the counting kernels.
constexpr int HIST_BLOCK_THREADS = 256;
// 16-byte loads each thread issues before it counts their samples (loads in flight per thread).
constexpr int HIST_LOADS_PER_THREAD = 2;
// Up to this m the bins are counted with warp votes (ceil(log2 m) + 1 __ballot_sync per 32
// samples, one counter per lane in a register, as in Ashkiani's thesis, section 3.7.3); above
// it with one shared-memory atomicAdd per sample. At most 32 (one bin per lane).
constexpr uint32_t HIST_BALLOT_MAX_BINS = 32;
// Most bins one block counts in shared memory (4 bytes each: 64 KB, 3 blocks of 256 threads
// per SM). Above it the bins are cut into slices of at most this many, one slice per block, and
// every slice's blocks read all the samples (the blocks of one stretch of samples run side by
// side, so the later reads mostly hit L2).
constexpr uint32_t HIST_MAX_SLICE_BINS = 16384;
// Above this many slices, every sample goes straight to the histogram with a global atomicAdd
// (reading the samples once beats reading them once per slice).
constexpr uint32_t HIST_MAX_SLICES = 8;
// Functor tables (range boundaries) up to this size are staged into shared memory; larger
// ones are searched in global memory (through L1 and L2).
constexpr size_t HIST_MAX_STAGE_BYTES = 32 * 1024;
// Samples one block counts at most: its shared 32-bit counters cannot overflow.
constexpr size_t HIST_MAX_SAMPLES_PER_BLOCK = size_t(1) << 31;

}  // namespace tuning
}  // namespace msplit
