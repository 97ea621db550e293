// msplit radix sort tuning: the digit width, the sweep's tile shapes and the histogram kernel.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: measured on the H100 (sm_90); on another GPU the values are a starting point, not a tuning.
//
// The sweep's tile shapes follow first what bounds them: the look-back storage of a portion is
// 1 KB per tile (256 digit words), so a tile must hold at least as many elements as CUB's
// one-sweep tile of the same call (CUB 13.0, sm_90: 384 threads x 19-23 items, halved for 64-bit
// data) for the temporary storage to stay within CUB's. Among shapes that do, measured on the H100
// (sort_bench, 2^28, G/s, u32 keys / 8-bit range / u32 pairs / u64 + u32 pairs, CUB 48.2 / 162 /
// 28.9 / 10.8): 384 threads x 2 blocks per SM with 20 keys 37.8 / 126 / 29.2 / 10.3, with 24 keys
// 40.0 / 133, with 28 keys 41.7 / 138, with 32 keys 42.3 / 144 (kept for keys alone: measured
// again, u32 keys 39.7 / 41.6 / 42.2 G/s with 24 / 28 / 32 keys; pairs keep 23, not swept
// again); 256 x 4 33.9 / 115 / 20.4 / 7.3; 256 x 3 36.3 / 123 / 23.7 / 8.5; 384 x 3
// 37.6 / 126 / 24.1 / 8.6; 512 x 2 36.3 / 121 / 25.8 / 9.7.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace msplit {
namespace tuning {

// Bits of a radix digit: 256 digits per pass, one look-back thread per digit.
constexpr int RADIX_BITS = 8;
// Threads of a sweep block (at least 2^RADIX_BITS: a thread per digit walks back).
constexpr int RADIX_SWEEP_THREADS = 384;
// Resident sweep blocks per SM the kernel is compiled for (caps its registers: 2 x 384 threads
// leaves 85 registers a thread, enough for 23 keys, their ranks and the values loaded after).
constexpr int RADIX_SWEEP_BLOCKS_PER_SM = 2;
// Keys per thread of a sweep tile, by key and value bytes (the tile is RADIX_SWEEP_THREADS x
// this; every element is in registers between its load and the shared-memory exchange).
template <size_t KEY_BYTES, size_t VALUE_BYTES>
struct radix_items_per_thread {
  static constexpr int value = KEY_BYTES == 4 ? (VALUE_BYTES == 0 ? 32 : VALUE_BYTES == 4 ? 23 : 16)
                                              : (VALUE_BYTES == 0 ? 16 : VALUE_BYTES == 4 ? 16 : 12);
};
// Most elements of one look-back portion (one sweep launch per pass and portion; the look-back
// storage holds the words of one portion's tiles): CUB's one-sweep portion, (2^28 - 1) rounded
// down to whole tiles, so that with tiles at least as large as CUB's the look-back storage is no
// larger than CUB's for any n (2^30 - 1, the look-back counts' limit, took 4x CUB's storage for
// n >= 2^30: 8,733 vs 8,628 MB for 2^31 u32 keys).
constexpr size_t RADIX_MAX_PORTION = (size_t(1) << 28) - 1;
// Predecessor tiles each look-back lane inspects per round trip (see lookback_walk). Measured
// (u32 keys / u32 pairs, G/s, 20 keys a thread): 4: 37.8 / 29.2; 2: 37.3 / 28.4; 8: 32.5 / 28.3.
constexpr int RADIX_LOOKBACK_ITEMS = 4;
// Bit ranges up to this width sort in one pass of the one-pass multisplit (m = 2^bits buckets,
// thread-private counters; see detail/radix_sort/short_range.cuh) instead of the 256-digit
// sweep: sort_bench, 2^28 u32 keys, G keys/s, 1 / 2 / 4 / 6 bits: sweep 133 / 138 / 138 / 136,
// multisplit 156 / 180 / 166 / 144. Above 6 bits the multisplit ranks with
// votes (120 G/s at m = 128 in msplit_bench) and the sweep does as well (131 at 8 bits).
constexpr int RADIX_SHORT_MAX_BITS = 6;
// Histogram kernel (all passes' digit counts in one read): threads, keys per thread, and
// resident blocks per SM of its grid-stride loop.
constexpr int RADIX_HISTOGRAM_THREADS = 256;
constexpr int RADIX_HISTOGRAM_ITEMS = 16;
// (8 blocks per SM: the same 0.48 ms for the four digit histograms of 2^28 u32 keys.)
constexpr int RADIX_HISTOGRAM_BLOCKS_PER_SM = 4;

}  // namespace tuning
}  // namespace msplit
