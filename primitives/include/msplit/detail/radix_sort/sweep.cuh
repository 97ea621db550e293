// One radix pass as one sweep (Adinets and Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022): tiles taken in order from an atomic counter rank their keys by
// digit, publish each digit's tile count at once, find the count of each digit in all earlier
// tiles of the portion by decoupled look-back (lookback.cuh), and scatter through shared memory
// so that the global writes are runs of consecutive positions per digit. 8 bytes moved per key
// (a read and a write), plus the values.
//
// Invariants: status (portion tiles x RADIX words) and tile_counter are zero before the launch;
// base[d] is the first output position of digit d for this portion (all earlier portions' keys of
// digit d included); the portion's last tile writes base_next[d] = base[d] + the portion's count
// of digit d, which is the next portion's base (a separate array: other tiles still read base).
// Keys travel as codes (key_codec.cuh): encoded on load, decoded on store.
#pragma once
#include <cuda/atomic>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/lookback.cuh"
#include "msplit/detail/radix_sort/histogram.cuh"
#include "msplit/detail/radix_sort/key_codec.cuh"
#include "msplit/detail/tile_io.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/warp_rank.cuh"
#include "msplit/detail/radix_sort/tuning.h"

namespace msplit {
namespace detail {

template <typename U, typename V>
struct radix_sweep_args {
  const U *keys_in;
  U *keys_out;
  const V *values_in;
  V *values_out;
  size_t begin, end;       // the portion: elements [begin, end) of keys_in
  uint32_t *status;        // look-back words of the portion, zeroed
  uint32_t *tile_counter;  // zeroed
  const size_t *base;      // RADIX_DIGITS
  size_t *base_next;       // RADIX_DIGITS, or NULL for the last portion
  key_codec<U> codec;
  uint32_t shift, mask;    // digit = (code >> shift) & mask
  lookback_stall stall;    // where a look-back that waits too long records it
};

// Shared memory of a sweep block: the exchanged keys, the exchanged values, the warps' digit
// counters (then their offsets), the digits' global destinations, the scan's warp sums and the
// tile index.
template <int THREADS, int ITEMS, typename U, typename V>
struct radix_sweep_smem {
  static constexpr bool HAS_VALUES = !std::is_same_v<V, no_value>;
  static constexpr size_t TILE = size_t(THREADS) * ITEMS;
  static constexpr size_t WARPS = THREADS / WARP_SIZE;
  static constexpr size_t KEYS = 0;
  static constexpr size_t VALUES = align_up(KEYS + TILE * sizeof(U), 16);
  static constexpr size_t HIST = align_up(VALUES + (HAS_VALUES ? TILE * sizeof(V) : 0), 16);
  static constexpr size_t DEST = align_up(HIST + WARPS * RADIX_DIGITS * sizeof(uint32_t), 16);
  static constexpr size_t WARP_SUMS = DEST + RADIX_DIGITS * sizeof(size_t);
  static constexpr size_t TILE_SLOT = WARP_SUMS + WARP_SIZE * sizeof(uint32_t);
  static constexpr size_t TOTAL = align_up(TILE_SLOT + sizeof(uint32_t), 16);
};

// Step 1 of a pass over a tile held warp-striped in registers (the sweep and the one-block
// sort): each valid key's digit and its rank among the warp's earlier keys of that digit, as
// dr[k] = digit << 16 | rank, counted into the warp's digit counters my_hist. ENCODE: the keys
// are turned into their order codes on the way (invalid items become 0).
template <bool ENCODE, int ITEMS, typename U, typename Valid>
__device__ __forceinline__ void radix_rank_items(U (&keys)[ITEMS], uint32_t (&dr)[ITEMS], bool full, Valid item_valid,
                                                 key_codec<U> codec, uint32_t shift, uint32_t mask,
                                                 uint32_t *my_hist) {
  uint32_t run = 0;  // unused by 8-bit ranks (the counters are in shared memory)
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const bool valid = item_valid(k);
    const unsigned valid_mask = full ? FULL_WARP_MASK : __ballot_sync(FULL_WARP_MASK, valid);
    if constexpr (ENCODE) keys[k] = valid ? codec.encode(keys[k]) : U(0);
    const uint32_t d = uint32_t(keys[k] >> shift) & mask;
    dr[k] = (d << 16) | warp_rank_bits<tuning::RADIX_BITS>(d, valid_mask, run, my_hist);
  }
}

// Step 2, by thread d < RADIX_DIGITS: the warps' counts of digit d become each warp's offset in
// the digit's run; returns the tile's count of d (0 for the other threads).
template <int WARPS>
__device__ __forceinline__ uint32_t radix_warp_offsets(uint32_t *warp_hist, unsigned tid) {
  uint32_t count = 0;
  if (tid < RADIX_DIGITS) {
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
      const uint32_t c = warp_hist[w * RADIX_DIGITS + tid];
      warp_hist[w * RADIX_DIGITS + tid] = count;
      count += c;
    }
  }
  return count;
}

// ... then, with `start` the digit's first position in the tile, the warps' positions of it.
template <int WARPS>
__device__ __forceinline__ void radix_add_start(uint32_t *warp_hist, unsigned tid, uint32_t start) {
  if (tid < RADIX_DIGITS) {
#pragma unroll
    for (int w = 0; w < WARPS; ++w) warp_hist[w * RADIX_DIGITS + tid] += start;
  }
}

// One block per tile. Thread d < RADIX_DIGITS serves digit d (its scan and its look-back).
//   1. load the tile warp-striped (item k of lane l of warp w is element w * 32 * ITEMS + k * 32
//      + l: input order is (warp, item, lane)) and rank each key among the warp's keys of its
//      digit by RADIX_BITS votes (warp_rank_bits), counting into the warp's digit counters
//   2. thread d: the warps' offsets inside digit d's run and the tile's count of d, published at
//      once; a block scan of the counts gives where each digit's run starts in the tile
//   3. every key (and value) goes to its place in shared memory, while the digit threads walk
//      back for the tile's global offsets (the walk overlaps the exchange)
//   4. threads write consecutive shared elements to their global places (coalesced runs)
template <int THREADS, int ITEMS, typename U, typename V>
__global__ void __launch_bounds__(THREADS, tuning::RADIX_SWEEP_BLOCKS_PER_SM)
    radix_sweep_kernel(radix_sweep_args<U, V> a) {
  using L = radix_sweep_smem<THREADS, ITEMS, U, V>;
  constexpr bool HAS_VALUES = L::HAS_VALUES;
  constexpr int WARPS = THREADS / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  constexpr uint32_t TILE = uint32_t(L::TILE);
  static_assert(THREADS % WARP_SIZE == 0 && THREADS >= int(RADIX_DIGITS), "a thread per digit, whole warps");
  static_assert(RADIX_DIGITS % WARP_SIZE == 0, "the digit threads are whole warps");
  static_assert(TILE <= 0xFFFF, "ranks and positions are packed into 16 bits");

  extern __shared__ __align__(16) unsigned char smem[];
  U *ex_keys = reinterpret_cast<U *>(smem + L::KEYS);
  uint32_t *warp_hist = reinterpret_cast<uint32_t *>(smem + L::HIST);  // WARPS x RADIX_DIGITS
  size_t *dest = reinterpret_cast<size_t *>(smem + L::DEST);
  uint32_t *warp_sums = reinterpret_cast<uint32_t *>(smem + L::WARP_SUMS);
  uint32_t *tile_slot = reinterpret_cast<uint32_t *>(smem + L::TILE_SLOT);
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;

  // take a tile; clear the counters
  for (uint32_t i = tid; i < WARPS * RADIX_DIGITS; i += THREADS) warp_hist[i] = 0;
  if (tid == 0) *tile_slot = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  const size_t tile = *tile_slot;
  const size_t tile_begin = a.begin + tile * TILE;
  const uint32_t tile_valid = uint32_t(a.end - tile_begin < TILE ? a.end - tile_begin : TILE);
  const bool full = tile_valid == TILE;
  const uint32_t first = warp * WARP_TILE + lane;
  auto item_valid = [&](int k) { return full || first + k * WARP_SIZE < tile_valid; };

  // 1. load and rank: dr[k] = digit << 16 | rank in the warp
  U keys[ITEMS];
  load_items(keys, a.keys_in + tile_begin, first, tile_valid, full, false);
  uint32_t *my_hist = warp_hist + warp * RADIX_DIGITS;
  uint32_t dr[ITEMS];
  radix_rank_items<true>(keys, dr, full, item_valid, a.codec, a.shift, a.mask, my_hist);
  using VReg = std::conditional_t<HAS_VALUES, V, char>;
  VReg vals[ITEMS];  // loaded after the ranking, which does not need them (fewer live registers)
  if constexpr (HAS_VALUES) load_items(vals, a.values_in + tile_begin, first, tile_valid, full, false);
  __syncthreads();

  // 2. per digit: the warps' offsets in its run, the tile's count (published), the run's start
  const uint32_t count = radix_warp_offsets<WARPS>(warp_hist, tid);
  if (tid < RADIX_DIGITS) {
    cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(a.status[tile * RADIX_DIGITS + tid])
        .store((tile == 0 ? LOOKBACK_FLAG_PREFIX : LOOKBACK_FLAG_AGGREGATE) | count, cuda::memory_order_relaxed);
  }
  const uint32_t start = block_exclusive_scan<THREADS>(count, warp_sums);
  radix_add_start<WARPS>(warp_hist, tid, start);
  __syncthreads();

  // 3. exchange through shared memory; the digit threads walk back meanwhile
  for_each_item<ITEMS>(full, item_valid, [&](int k) {
    const uint32_t pos = (dr[k] & 0xFFFFu) + my_hist[dr[k] >> 16];
    dr[k] = pos;
    ex_keys[pos] = keys[k];
  });
  if constexpr (HAS_VALUES) {
    V *ex_vals = reinterpret_cast<V *>(smem + L::VALUES);
    for_each_item<ITEMS>(full, item_valid, [&](int k) { ex_vals[dr[k]] = vals[k]; });
  }
  if (tid < RADIX_DIGITS) {  // whole warps (RADIX_DIGITS % 32 == 0)
    const uint32_t before =
        tile == 0 ? 0u
                  : lookback_walk<tuning::RADIX_LOOKBACK_ITEMS>(a.status, tile, RADIX_DIGITS, tid, 0, 1, true, a.stall);
    if (tile != 0)
      cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(a.status[tile * RADIX_DIGITS + tid])
          .store(LOOKBACK_FLAG_PREFIX | (before + count), cuda::memory_order_relaxed);
    dest[tid] = a.base[tid] + before - start;  // modular: dest + position in the tile is right
    if (a.base_next && tile_begin + TILE >= a.end) a.base_next[tid] = a.base[tid] + before + count;
  }
  __syncthreads();

  // 4. write runs: shared element i goes to dest[its digit] + i
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t i = k * THREADS + tid;
    if (full || i < tile_valid) {
      const U code = ex_keys[i];
      const size_t to = dest[uint32_t(code >> a.shift) & a.mask] + i;
      a.keys_out[to] = a.codec.decode(code);
      if constexpr (HAS_VALUES) a.values_out[to] = reinterpret_cast<const V *>(smem + L::VALUES)[i];
    }
  }
}

}  // namespace detail
}  // namespace msplit
