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
// Number of length bins (empty, 4, 8, 16, ..., 4,096, long).
constexpr int NUM_BINS = 13;

}  // namespace segsort_tuning
}  // namespace msplit
