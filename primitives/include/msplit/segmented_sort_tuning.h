// msplit segmented sort tuning constants (sm_90, the H100). Change here, nowhere else.
//
// Segments are binned by length (Hou, Liu, Wang and Feng, "Fast Segmented Sort on GPUs", ICS
// 2017): bin b >= 1 holds the segments whose length lies in (L(b) / 2, L(b)], L(b) = 2^(b + 1),
// except bin 1, which holds lengths 1 to 4; bin 0 the empty segments (nothing to do); the last
// bin the segments longer than MAX_TILE_LENGTH. Each bin is sorted by a tile of
// BLOCK_THREADS x ITEMS slots: groups of G = L(b) / ITEMS threads sort one segment each, padded to
// L(b) with keys that sort last.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace msplit {
namespace segsort_tuning {

// BLOCK_THREADS, ITEMS, the tiny bins and MAX_TILE_LENGTH are the design's first choice, not yet
// measured against others (segsort_bench times the whole sort only).
//
// Threads per block of every segmented sort kernel.
constexpr int BLOCK_THREADS = 256;
// Items per thread of the medium tiles (bins 16 .. 4,096) and of the long path: a thread sorts 16
// items in registers (bitonic network), then its group merges runs in shared memory. A tile is
// BLOCK_THREADS x ITEMS = 4,096 slots.
constexpr int ITEMS = 16;
// The two tiny bins sort one segment per thread (G = 1) from registers: lengths 1..4 with 4
// items, 5..8 with 8 items, so that a length-8 segment moves through one thread once.
constexpr int TINY_ITEMS_4 = 4;
constexpr int TINY_ITEMS_8 = 8;
// Longest segment a tile sorts; longer ones are sorted as tiles of this size, then merged in
// passes over global memory (run width doubling per pass).
constexpr size_t MAX_TILE_LENGTH = size_t(BLOCK_THREADS) * ITEMS;
// Loads a thread issues before it stores them to shared memory (its loads in flight; a plain
// loop has one, as a load cannot pass a shared-memory store that might alias it). Batched loads,
// this cap and the merge changes of the same commit, u32 pairs, 2^26, G pairs/s (segsort_bench,
// H100, 46700d7 -> 56cb010): length 8 91.3 -> 108.0, 32 68.8 -> 92.7, 128 53.4 -> 70.2, 4,096
// 36.0 -> 40.6, power law 14.9 -> 19.2. 4 rather than 8 by ptxas alone (not timed): at 8 the
// 8-item tile kernel of u32 pairs spilled 24 bytes under the cap below, at 4 it fits 56 registers.
constexpr int LOAD_BATCH = 4;
// Blocks per SM that the tile and merge kernels are compiled for: as many as their shared memory
// allows, at most this many (the register cap that follows: 65,536 / (256 x blocks)). Without a
// cap, loading all 16 items of a thread at once took 150 registers in the 16-item tile kernel of u32 pairs and 212 in the
// merge kernel: one block per SM. 4 blocks of 256 threads with 4 loads each keep 16 KB of keys
// and 16 KB of values in flight per SM.
constexpr int MAX_BLOCKS_PER_SM = 4;
// Shared memory per SM on sm_90, for the blocks-per-SM estimate above.
constexpr size_t SHARED_BYTES_PER_SM = 228 * 1024;
// Number of length bins (empty, 4, 8, 16, ..., 4,096, long).
constexpr int NUM_BINS = 13;

}  // namespace segsort_tuning
}  // namespace msplit
