// msplit multisplit tuning: the tile shapes, ranking methods and launch bounds of its kernels.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: measured on the H100 (sm_90); on another GPU the values are a starting point, not a tuning.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace msplit {
namespace tuning {

// Threads per block of every multisplit kernel. The one-pass look-back gives one thread per
// bucket, so the fast path's largest m equals the block size.
constexpr int MULTISPLIT_BLOCK_THREADS = 256;
// Largest m on the fast (shared-memory, one bucket per thread) path; above it: the sort fallback.
constexpr uint32_t MULTISPLIT_MAX_FAST_BUCKETS = 256;
// Three-pass variants: up to this m (at most 32: one bucket per lane), ranks come from
// ceil(log2 m) __ballot_sync rounds with running counts in registers (the paper's Alg. 2 and 3);
// above it from one __match_any_sync and counters in shared memory. (The one-pass variant has
// its own ranking: MULTISPLIT_ONESWEEP_BLOCKED_MAX_BITS.)
constexpr uint32_t MULTISPLIT_BALLOT_MAX_BUCKETS = 32;
// Resident blocks per SM the three-pass tile kernel is compiled for (caps its registers).
constexpr int MULTISPLIT_MIN_BLOCKS_PER_SM = 3;
// Resident blocks per SM the one-pass sweep is compiled for (4: at most 64 registers), so that
// other tiles' work hides a tile's look-back.
constexpr int MULTISPLIT_ONESWEEP_BLOCKS_PER_SM = 4;
// The same for key-value pairs ranked with votes (3: 85 registers; at 64 the values spill).
// Pairs on the blocked ranking path fit 64 registers and run 4 per SM.
constexpr int MULTISPLIT_ONESWEEP_PAIRS_BLOCKS_PER_SM = 3;
// Up to this bucket width ceil(log2 m) the sweep ranks with thread-private counters in shared
// memory (two 16-bit counters per word: 2^(bits-1) x MULTISPLIT_BLOCK_THREADS words, 32 KB at 6
// bits); above it with warp votes. Measured (keys, 2^28, G/s): counters vs votes 181 vs 145 at
// m = 2, 162 vs 128 at m = 32, 144 vs 125 at m = 64.
constexpr int MULTISPLIT_ONESWEEP_BLOCKED_MAX_BITS = 6;
// Predecessor tiles each look-back lane inspects per round trip (see lookback_walk).
// (4 beat 8 and 16 on keys at m >= 32: 128 / 120 / 125 G/s at m = 32, 100 / 94 / 56 at 256.)
constexpr int MULTISPLIT_LOOKBACK_ITEMS = 4;
// Histogram kernel of the one-pass variant: resident blocks per SM of its grid-stride loop.
constexpr int MULTISPLIT_HISTOGRAM_BLOCKS_PER_SM = 8;
// Functor staging (splitters) larger than this reads the table from global memory instead.
constexpr size_t MULTISPLIT_MAX_STAGE_BYTES = 32 * 1024;

// Keys per thread per tile, by element size (registers hold them all; the tile is
// MULTISPLIT_BLOCK_THREADS * ITEMS elements).
template <size_t KEY_BYTES, size_t VALUE_BYTES>
struct multisplit_items_per_thread {
  static constexpr int value = (KEY_BYTES + VALUE_BYTES) <= 4 ? 16 : (KEY_BYTES + VALUE_BYTES) <= 8 ? 12 : 8;
};

}  // namespace tuning
}  // namespace msplit
