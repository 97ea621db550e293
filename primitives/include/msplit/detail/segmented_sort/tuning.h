// msplit segmented sort tuning: the length bins, tile shapes and launch bounds of its kernels.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: measured on the H100 (sm_90); on another GPU the values are a starting point, not a tuning.
//
// Segments are binned by length (Hou, Liu, Wang and Feng, "Fast Segmented Sort on GPUs", ICS
// 2017): bin b >= 1 holds the segments whose length lies in (L(b) / 2, L(b)], L(b) = 2^(b + 1),
// except bin 1, which holds lengths 1 to 4; bin 0 the empty segments (nothing to do); the last
// bin the segments longer than SEGSORT_MAX_TILE_LENGTH. Each bin is sorted by a tile of
// SEGSORT_BLOCK_THREADS x SEGSORT_ITEMS slots: groups of G = L(b) / SEGSORT_ITEMS threads sort one
// segment each, padded to L(b) with keys that sort last.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/arch.h"

namespace msplit {
namespace tuning {

// SEGSORT_BLOCK_THREADS, SEGSORT_ITEMS, the tiny bins and SEGSORT_MAX_TILE_LENGTH are the design's
// first choice, not yet measured against others (segsort_bench times the whole sort only).
//
// Threads per block of every segmented sort kernel.
constexpr int SEGSORT_BLOCK_THREADS = 256;
// Items per thread of the medium tiles (bins 16 .. 4,096) and of the long path: a thread sorts 16
// items in registers (bitonic network), then its group merges runs in shared memory. A tile is
// SEGSORT_BLOCK_THREADS x SEGSORT_ITEMS = 4,096 slots.
constexpr int SEGSORT_ITEMS = 16;
// The two tiny bins sort one segment per thread (G = 1) from registers: lengths 1..4 with 4
// items, 5..8 with 8 items, so that a length-8 segment moves through one thread once.
constexpr int SEGSORT_TINY_ITEMS_4 = 4;
constexpr int SEGSORT_TINY_ITEMS_8 = 8;
// Longest segment a tile sorts; longer ones are sorted as tiles of this size, then merged in
// passes over global memory (run width doubling per pass).
constexpr size_t SEGSORT_MAX_TILE_LENGTH = size_t(SEGSORT_BLOCK_THREADS) * SEGSORT_ITEMS;
// Loads a thread issues before it stores them to shared memory (its loads in flight; a plain
// loop has one, as a load cannot pass a shared-memory store that might alias it). Batched loads,
// this cap and the merge changes of the same commit, u32 pairs, 2^26, G pairs/s (segsort_bench,
// H100, before -> after): length 8 91.3 -> 108.0, 32 68.8 -> 92.7, 128 53.4 -> 70.2, 4,096
// 36.0 -> 40.6, power law 14.9 -> 19.2. 4 rather than 8 by ptxas alone (not timed): at 8 the
// 8-item tile kernel of u32 pairs spilled 24 bytes under the cap below, at 4 it fits 56 registers.
constexpr int SEGSORT_LOAD_BATCH = 4;
// Blocks per SM that the tile and merge kernels are compiled for: as many as their shared memory
// allows, at most this many (the register cap that follows: 65,536 / (256 x blocks)). Without a
// cap, loading all 16 items of a thread at once took 150 registers in the 16-item tile kernel of u32 pairs and 212 in the
// merge kernel: one block per SM. 4 blocks of 256 threads with 4 loads each keep 16 KB of keys
// and 16 KB of values in flight per SM.
constexpr int SEGSORT_MAX_BLOCKS_PER_SM = 4;
// Shared memory per SM of the architecture being compiled, for the blocks-per-SM estimate above.
constexpr size_t SEGSORT_SHARED_BYTES_PER_SM = detail::shared_bytes_per_sm(MSPLIT_COMPILED_ARCH);
// Number of length bins (empty, 4, 8, 16, ..., 4,096, long).
constexpr int SEGSORT_NUM_BINS = 13;
// A long segment is sorted by radix halves (detail/segmented_sort/long_radix.cuh) rather than by
// chunks and merge passes when the merge would take at least this many passes more than its key
// has 8-bit digits: 4 + 2 = 6 merge passes (longer than 2^17 items) for 32-bit keys, 10 (2^21)
// for 64-bit ones. The radix way costs a pass per digit, a read of the keys and one merge.
constexpr uint32_t SEGSORT_RADIX_SAVED_PASSES = 2;
// Longest segment sorted by radix halves: a half's digit counts must fit the look-back words' 30
// bits. Longer segments take the merge passes.
constexpr size_t SEGSORT_RADIX_MAX_LENGTH = size_t(1) << 30;
// Blocks per SM the radix-halves kernel is compiled for, by key bytes (its registers: 65,536 /
// (256 x blocks)). 4-byte keys: 3 (80 registers, 64-364 bytes of spills) rather than 2 (128, no
// spill for 32-bit values): u32 pairs, 2^26 in segments of 2^17 + 1 / 139,264 / 196,609 / 2^18 /
// 2^20 / 2^26 items, ms: 4.72-4.77 / 4.54-4.61 / 4.61-4.65 / 4.33-4.37 / 4.48-4.49 / 4.42-4.45
// against 4.91 / 4.81-4.87 / 4.87-4.92 / 4.51-4.58 / 4.66-4.69 / 4.28 (H100, two runs each).
// 8-byte keys spilled 628 bytes at 3 and get 2.
template <size_t KEY_BYTES>
struct segsort_radix_blocks_per_sm {
  static constexpr int value = KEY_BYTES == 4 ? 3 : 2;
};

}  // namespace tuning
}  // namespace msplit
