// msplit histogram tuning: the shapes of the counting kernels, the bin slicing and staging.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: measured on the H100 (sm_90); on another GPU the values are a starting point, not a tuning.
// The measurements are hist_bench's (f32 samples, n = 2^28, uniform).
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace msplit {
namespace tuning {

// Threads per block of the counting kernels.
constexpr int HIST_BLOCK_THREADS = 256;
// 16-byte loads each thread issues before it counts their samples (loads in flight per thread).
constexpr int HIST_LOADS_PER_THREAD = 2;
// Small m is counted with one shared-memory atomicAdd per sample, not with warp votes (Ashkiani's
// thesis, section 3.7.3: six __ballot_sync per 32 samples, a counter per lane): on the H100 the
// votes ran at about half the speed (f32 even bins, G samples/s, votes vs shared atomics: m = 2:
// 396 vs 742, 16: 395 vs 742, 32: 396 vs 738, uniform or every sample equal; range bins: m = 2:
// 248 vs 389, 16: 188 vs 259, 32: 169 vs 226), so they are not in the library.
// Most bins one block counts in shared memory (4 bytes each: 64 KB, 3 blocks of 256 threads
// per SM). Above it the bins are cut into slices of at most this many, one slice per block, and
// every slice's blocks read all the samples (the blocks of one stretch of samples run side by
// side, so the later reads mostly hit L2). f32 even bins, m = 65536, G samples/s: slices of 8K
// 92, 16K 146, 32K 107 (1 block per SM); global atomics 71.
constexpr uint32_t HIST_MAX_SLICE_BINS = 16384;
// Above this many slices (m > 131072), or above one slice when a bin reads global memory (range
// boundaries too many to stage), the counts go straight to global memory (GLOBAL): computing
// each bin once beats reading the samples once per slice. f32 range bins, m = 65536: 4 slices
// 9.9, global atomics 18.4 G samples/s; even bins at m = 262144: global atomics 85.
constexpr uint32_t HIST_MAX_SLICES = 8;
// Functor tables up to this size are staged into shared memory; range boundaries stage the
// top levels of their search tree that fit (2^levels keys), and the rest of each search reads
// global memory. f32 range bins, G samples/s, tree vs sorted layout (32-way bank conflicts):
// m = 256: 191 vs 168, 1024: 170 vs 86, 4096: 137 vs 54.
constexpr size_t HIST_MAX_STAGE_BYTES = 32 * 1024;
// Samples one block counts at most: its shared 32-bit counters cannot overflow.
constexpr size_t HIST_MAX_SAMPLES_PER_BLOCK = size_t(1) << 31;

}  // namespace tuning
}  // namespace msplit
