// The longest segments of the segmented sort, sorted by radix halves.
//
// Merging chunks costs a pass over a segment per doubling of the run width: 14 passes for 2^26
// items. An LSD radix sort of 8-bit digits costs one pass per digit (4 for 32-bit keys), whatever
// the length (a sweep per pass: Adinets and Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022). Besides its second buffer a radix pass needs tables: the digit
// counts of the input, and per tile the words of the decoupled look-back. The temporary storage
// has no room for them (it is the second buffer and a few words per segment, within CUB's), but
// the segment itself has: it is sorted one half at a time, the half's passes ping-ponging between
// its stretch of the output and its stretch of the second buffer, its tables in the other half's
// stretch of the output, which holds nothing yet (half 0) or nothing any more (half 1: half 0's
// result lies in the second buffer). The merge kernel (long_merge.cuh) then merges the two sorted
// halves from the second buffer into the output, in its first pass.
//
// A segment goes this way when its merge would take at least segsort_radix<Key>::MIN_MERGE_PASSES
// passes (long_by_radix). Its halves are whole chunk tiles (radix_half_of), and a radix tile is
// a chunk tile: a tile finds its segment by the chunk tiles' scan, as the merge does.
//
// Tables of a half of c_h tiles, 32-bit words: the digit counts of every pass (PASSES x 256),
// then two look-back buffers of c_h x 256 words; pass p uses buffer p % 2 and clears its tile's
// words of the other for pass p + 1. That is 2 KB per tile of 4,096 items, against the 16 KB a
// tile of the other half offers (4-byte keys; 32 KB for 8-byte keys).
//
// Pass p reads the input (p = 0) or what pass p - 1 wrote, and writes the output's stretch (p
// even) or the second buffer's (p odd); PASSES is even (4 or 8), so each half ends in the second
// buffer. Keys move unchanged; each pass takes its digit from the key's ordered bits (sort_item.cuh),
// so that the order, -0.0 equal to +0.0 and the NaNs included, is the tile sorts' and merges'.
// Every pass is stable (ranks follow input order), so the halves are, and the merge keeps them so.
//
// Everything runs in one cooperative launch: per half, clear the tables, count the digits, then
// the passes, a grid barrier after each step (grid_barrier: bounded, as the look-back is). A
// pass's blocks take their tiles in order from a ticket counter (segsort_words::ticket), so a
// tile's look-back waits only for tiles already taken by running blocks: no deadlock. (Grid-stride
// tiles left half the blocks idle where a segment's tile count divides the grid: segments of 33
// tiles on 264 blocks, 7.7 ms for 2^26 pairs, where segments of 34 tiles took 6.4.)
#pragma once
#include <cuda/atomic>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/lookback.cuh"
#include "msplit/detail/radix_sort/sweep.cuh"
#include "msplit/detail/segmented_sort/tile_kernel.cuh"
#include "msplit/detail/warp_rank.cuh"
#include "msplit/detail/radix_sort/tuning.h"
#include "msplit/detail/segmented_sort/tuning.h"

namespace msplit {
namespace detail {

// Shared memory of the radix-halves kernel: the exchanged keys and values of a tile, the warps'
// digit counters (the digit counting step's PASSES x 256 counters share them), the digits'
// destinations and two scans' warp sums.
template <typename Key, typename Value>
struct radix_halves_smem {
  static constexpr bool HAS_VALUES = !std::is_same<Value, no_value>::value;
  static constexpr size_t TILE = tuning::SEGSORT_MAX_TILE_LENGTH;
  static constexpr size_t WARPS = tuning::SEGSORT_BLOCK_THREADS / WARP_SIZE;
  static constexpr size_t HIST_WORDS = WARPS * RADIX_DIGITS > segsort_radix<Key>::PASSES * RADIX_DIGITS
                                           ? WARPS * RADIX_DIGITS
                                           : segsort_radix<Key>::PASSES * RADIX_DIGITS;
  static constexpr size_t KEYS = 0;
  static constexpr size_t VALUES = align_up(KEYS + TILE * sizeof(Key), 16);
  static constexpr size_t HIST = align_up(VALUES + (HAS_VALUES ? TILE * sizeof(Value) : 0), 16);
  static constexpr size_t DEST = align_up(HIST + HIST_WORDS * sizeof(uint32_t), 16);
  static constexpr size_t SUMS = DEST + RADIX_DIGITS * sizeof(size_t);
  static constexpr size_t TOTAL = align_up(SUMS + 2 * WARP_SIZE * sizeof(uint32_t), 16);
};

// Whether a half's tables (PASSES x 256 digit counts, two look-back buffers of 256 words a tile)
// fit the other half's stretch of the output for every segment the radix way takes. The shortest
// such segment is the tightest case (its c chunk tiles, c0 = c / 2 in half 0; the tables grow
// by 2 KB a tile, the stretch by 4,096 keys): half 0's tables lie in at least (c - c0 - 1) x
// 4,096 + 1 keys, half 1's in c0 x 4,096.
template <typename Key>
__host__ __device__ constexpr bool radix_tables_fit() {
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH, P = segsort_radix<Key>::PASSES;
  constexpr size_t c = (size_t(1) << (segsort_radix<Key>::MIN_MERGE_PASSES - 1)) + 1, c0 = c / 2;
  constexpr size_t words0 = P * RADIX_DIGITS + 2 * c0 * RADIX_DIGITS;
  constexpr size_t words1 = P * RADIX_DIGITS + 2 * (c - c0) * RADIX_DIGITS;
  return words0 * sizeof(uint32_t) <= ((c - c0 - 1) * T + 1) * sizeof(Key) &&
         words1 * sizeof(uint32_t) <= c0 * T * sizeof(Key) && sizeof(Key) % sizeof(uint32_t) == 0;
}

// Chunk tile t in half h of a segment sorted by radix halves, or nothing (returns false).
struct radix_tile {
  size_t begin;      // the half's first item, as an index of the output and the second buffer
  size_t len;        // the half's items
  size_t tile;       // the tile's index within the half
  size_t tiles;      // the half's tiles
  uint32_t *tables;  // the half's tables
};
template <typename Key, typename Value, typename Offset>
__device__ __forceinline__ bool radix_tile_of(const segsort_args<Key, Value, Offset> &a, size_t count, size_t t, int h,
                                              radix_tile &rt) {
  const size_t j = find_long_segment(a.lng.tile_start, count, t);
  const long_segment g = long_segment_of(a, j);
  if (!long_by_radix(g.len, segsort_radix<Key>::MIN_MERGE_PASSES)) return false;
  const radix_half half = radix_half_of(g.len, h);
  const size_t i = t - a.lng.tile_start[j];
  if (i < half.first_tile || i >= half.first_tile + half.tiles) return false;
  rt.begin = g.begin + half.start;
  rt.len = half.len;
  rt.tile = i - half.first_tile;
  rt.tiles = half.tiles;
  rt.tables = reinterpret_cast<uint32_t *>(a.keys_out + g.begin + half.tables_at);
  return true;
}

template <typename Key>
__device__ __forceinline__ uint32_t radix_digit(Key k, typename key_order<Key>::bits flip, uint32_t shift) {
  return uint32_t((key_order<Key>::ordered(k) ^ flip) >> shift) & (RADIX_DIGITS - 1);
}

// Adds the block's digit counts (PASSES x 256 in shared memory) to a half's tables, and clears
// them. Called by the whole block.
template <uint32_t PASSES>
__device__ __forceinline__ void radix_flush_counts(uint32_t *counts, uint32_t *tables) {
  __syncthreads();
  if (tables) {
    for (uint32_t i = threadIdx.x; i < PASSES * RADIX_DIGITS; i += blockDim.x) {
      if (counts[i]) atomicAdd(&tables[i], counts[i]);
      counts[i] = 0;
    }
  }
  __syncthreads();
}

// One tile of digit pass p of a half (radix_sweep_kernel's steps, radix_sort/sweep.cuh, with the
// segment's own tables, raw keys and digits of their ordered bits). Called by the whole block.
template <typename Key, typename Value, typename Offset>
__device__ __forceinline__ void radix_halves_sweep_tile(const segsort_args<Key, Value, Offset> &a,
                                                        const radix_tile &rt, uint32_t p, unsigned char *smem) {
  using L = radix_halves_smem<Key, Value>;
  constexpr bool HAS_VALUES = L::HAS_VALUES;
  constexpr int BT = tuning::SEGSORT_BLOCK_THREADS;
  constexpr int ITEMS = tuning::SEGSORT_ITEMS;
  constexpr int WARPS = BT / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  constexpr uint32_t PASSES = segsort_radix<Key>::PASSES;
  static_assert(BT == int(RADIX_DIGITS), "a thread per digit");
  static_assert(L::TILE <= 0xFFFF, "ranks and positions are packed into 16 bits");
  Key *ex_keys = reinterpret_cast<Key *>(smem + L::KEYS);
  Value *ex_vals = reinterpret_cast<Value *>(smem + L::VALUES);
  uint32_t *warp_hist = reinterpret_cast<uint32_t *>(smem + L::HIST);
  size_t *dest = reinterpret_cast<size_t *>(smem + L::DEST);
  uint32_t *sums = reinterpret_cast<uint32_t *>(smem + L::SUMS);
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const uint32_t shift = p * uint32_t(tuning::RADIX_BITS);
  const Key *src_keys = p == 0 ? a.keys_in : (p & 1) ? a.keys_out : a.tmp_keys;
  const Value *src_vals = p == 0 ? a.values_in : (p & 1) ? a.values_out : a.tmp_values;
  Key *dst_keys = (p & 1) ? a.tmp_keys : a.keys_out;
  Value *dst_vals = (p & 1) ? a.tmp_values : a.values_out;
  uint32_t *status = rt.tables + PASSES * RADIX_DIGITS + (p & 1) * rt.tiles * RADIX_DIGITS;
  uint32_t *status_next = rt.tables + PASSES * RADIX_DIGITS + ((p + 1) & 1) * rt.tiles * RADIX_DIGITS;

  const size_t tile_begin = rt.begin + rt.tile * L::TILE;
  const size_t rest = rt.len - rt.tile * L::TILE;
  const uint32_t tile_valid = uint32_t(rest < L::TILE ? rest : L::TILE);
  const bool full = tile_valid == L::TILE;
  const uint32_t first = warp * WARP_TILE + lane;  // item k of the lane: element first + k * 32

  // 1. load warp-striped and rank: dr[k] = digit << 16 | rank among the warp's keys of the digit
  for (uint32_t i = tid; i < WARPS * RADIX_DIGITS; i += BT) warp_hist[i] = 0;
  Key keys[ITEMS];
  const Key *my_keys = src_keys + tile_begin + first;  // one base: the items' offsets are immediates
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (full || first + k * WARP_SIZE < tile_valid) keys[k] = my_keys[k * WARP_SIZE];
  __syncthreads();
  uint32_t *my_hist = warp_hist + warp * RADIX_DIGITS;
  uint32_t dr[ITEMS];
  uint32_t run = 0;  // unused by 8-bit ranks
  // a full tile is ranked without the per-item bounds test and the ballot of the valid lanes. The
  // compiler made this split itself until the kernel gained its error record and bounded waits;
  // since, it ranked every tile as a partial one (147 votes in the kernel's SASS instead of 553)
  auto rank = [&](auto full_tile) {
    constexpr bool FULL = decltype(full_tile)::value;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = FULL || first + k * WARP_SIZE < tile_valid;
      const unsigned valid_mask = FULL ? FULL_WARP_MASK : __ballot_sync(FULL_WARP_MASK, valid);
      const uint32_t d = valid ? radix_digit(keys[k], a.flip, shift) : 0u;
      dr[k] = (d << 16) | warp_rank_bits<tuning::RADIX_BITS>(d, valid_mask, run, my_hist);
    }
  };
  if (full)
    rank(std::true_type{});
  else
    rank(std::false_type{});
  __syncthreads();

  // 2. thread d: the warps' offsets in digit d's run and the tile's count of d (published at
  //    once), the run's start in the tile, and the digit's first position in the half (the
  //    sweep's radix_warp_offsets and radix_add_start, without their guard for the threads
  //    beyond the digits: every thread of this block serves one)
  uint32_t count = 0;
#pragma unroll
  for (int w = 0; w < WARPS; ++w) {
    const uint32_t c = warp_hist[w * RADIX_DIGITS + tid];
    warp_hist[w * RADIX_DIGITS + tid] = count;
    count += c;
  }
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(status[rt.tile * RADIX_DIGITS + tid])
      .store((rt.tile == 0 ? LOOKBACK_FLAG_PREFIX : LOOKBACK_FLAG_AGGREGATE) | count, cuda::memory_order_relaxed);
  const uint32_t start = block_exclusive_scan<BT>(count, sums);
  const uint32_t digit_first = block_exclusive_scan<BT>(rt.tables[p * RADIX_DIGITS + tid], sums + WARP_SIZE);
#pragma unroll
  for (int w = 0; w < WARPS; ++w) warp_hist[w * RADIX_DIGITS + tid] += start;
  __syncthreads();

  // 3. exchange through shared memory (the values are loaded only now: fewer live registers
  //    through the scans); the digit threads walk back meanwhile
  using VReg = std::conditional_t<HAS_VALUES, Value, char>;
  VReg vals[ITEMS];
  if constexpr (HAS_VALUES) {
    const Value *my_vals = src_vals + tile_begin + first;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (full || first + k * WARP_SIZE < tile_valid) vals[k] = my_vals[k * WARP_SIZE];
  }
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    if (full || first + k * WARP_SIZE < tile_valid) {
      const uint32_t pos = (dr[k] & 0xFFFFu) + my_hist[dr[k] >> 16];
      dr[k] = pos;
      ex_keys[pos] = keys[k];
    }
  }
  if constexpr (HAS_VALUES) {
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (full || first + k * WARP_SIZE < tile_valid) ex_vals[dr[k]] = vals[k];
  }
  const uint32_t before =
      rt.tile == 0 ? 0u
                   : lookback_walk<tuning::RADIX_LOOKBACK_ITEMS>(
                         status, rt.tile, RADIX_DIGITS, tid, 0, 1, true,
                         lookback_stall{a.record, MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_SEGMENTED_SORT});
  if (rt.tile != 0)
    cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(status[rt.tile * RADIX_DIGITS + tid])
        .store(LOOKBACK_FLAG_PREFIX | (before + count), cuda::memory_order_relaxed);
  status_next[rt.tile * RADIX_DIGITS + tid] = 0;  // for pass p + 1 (its previous user, pass p - 1, is done)
  dest[tid] = rt.begin + digit_first + before - start;  // modular: dest + position in the tile is right
  __syncthreads();

  // 4. write runs: shared element i goes to dest[its digit] + i
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t i = uint32_t(k) * BT + tid;
    if (full || i < tile_valid) {
      const Key key = ex_keys[i];
      const size_t to = dest[radix_digit(key, a.flip, shift)] + i;
      dst_keys[to] = key;
      if constexpr (HAS_VALUES) dst_vals[to] = ex_vals[i];
    }
  }
  __syncthreads();  // before the next tile overwrites shared memory
}

// Sorts both halves of every segment sorted by radix halves (see the top of the file). Launched
// cooperatively with at most the resident blocks, after the tile kernel and before the merge.
template <typename Key, typename Value, typename Offset>
__global__ void __launch_bounds__(tuning::SEGSORT_BLOCK_THREADS, tuning::segsort_radix_blocks_per_sm<sizeof(Key)>::value)
    segsort_radix_halves_kernel(segsort_args<Key, Value, Offset> a) {
  using L = radix_halves_smem<Key, Value>;
  constexpr int BT = tuning::SEGSORT_BLOCK_THREADS;
  constexpr int ITEMS = tuning::SEGSORT_ITEMS;
  constexpr uint32_t PASSES = segsort_radix<Key>::PASSES;
  static_assert(PASSES % 2 == 0, "the halves end in the second buffer");
  static_assert(radix_tables_fit<Key>(), "a half's tables fit the other half's stretch of the output");
  extern __shared__ __align__(16) unsigned char segsort_smem[];
  // nothing to do after a bad offset, or without such segments (the same answer for every block)
  if (error_raised(a.record) || (a.lng.meta[LONG_MAX_PASSES] >> 32) == 0) return;
  grid_barrier grid;
  grid.init_at(&a.words->radix_barrier, 0, a.record, MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_SEGMENTED_SORT);
  const size_t count = a.lng.meta[LONG_COUNT], tiles = a.lng.meta[LONG_TILES];
  const unsigned tid = threadIdx.x;
  uint32_t *counts = reinterpret_cast<uint32_t *>(segsort_smem + L::HIST);
  __shared__ unsigned long long ticket[1];

  for (int h = 0; h < 2; ++h) {
    // 1. clear the half's tables: its digit counts and both look-back buffers
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      radix_tile rt;
      if (!radix_tile_of(a, count, t, h, rt)) continue;
      uint32_t *status = rt.tables + PASSES * RADIX_DIGITS;
      status[rt.tile * RADIX_DIGITS + tid] = 0;
      status[(rt.tiles + rt.tile) * RADIX_DIGITS + tid] = 0;
      if (rt.tile == 0)
        for (uint32_t i = tid; i < PASSES * RADIX_DIGITS; i += BT) rt.tables[i] = 0;
    }
    for (uint32_t i = tid; i < PASSES * RADIX_DIGITS; i += BT) counts[i] = 0;
    grid.sync();

    // 2. count the digits of every pass, per block in shared memory, added to the half's tables
    //    whenever the block moves on to another half: each block counts a contiguous range of
    //    tiles, which spans few halves (grid-stride tiles of segments of 33 tiles changed half
    //    at nearly every tile: 1,024 global atomics a tile, 8.2 against 4.2 ms for the same items
    //    in one segment)
    uint32_t *held = nullptr;
    const size_t per_block = (tiles + gridDim.x - 1) / gridDim.x;
    const size_t t_end = (blockIdx.x + 1) * per_block < tiles ? (blockIdx.x + 1) * per_block : tiles;
    for (size_t t = blockIdx.x * per_block; t < t_end; ++t) {
      radix_tile rt;
      if (!radix_tile_of(a, count, t, h, rt)) continue;
      if (rt.tables != held) {
        radix_flush_counts<PASSES>(counts, held);
        held = rt.tables;
      }
      const size_t tile_begin = rt.begin + rt.tile * L::TILE;
      const size_t rest = rt.len - rt.tile * L::TILE;
      const uint32_t tile_valid = uint32_t(rest < L::TILE ? rest : L::TILE);
      Key keys[ITEMS];
      const Key *my_keys = a.keys_in + tile_begin + tid;
#pragma unroll
      for (int k = 0; k < ITEMS; ++k)
        if (uint32_t(k) * BT + tid < tile_valid) keys[k] = my_keys[k * BT];
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        if (uint32_t(k) * BT + tid >= tile_valid) continue;
#pragma unroll
        for (uint32_t p = 0; p < PASSES; ++p)
          atomicAdd(&counts[p * RADIX_DIGITS + radix_digit(keys[k], a.flip, p * uint32_t(tuning::RADIX_BITS))], 1u);
      }
    }
    radix_flush_counts<PASSES>(counts, held);
    grid.sync();

    // 3. the digit passes, tiles by ticket: step s = h x PASSES + p hands out tickets
    //    [s x (tiles + blocks), (s + 1) x (tiles + blocks)): each tile one, each block one more
    //    that ends its step
    for (uint32_t p = 0; p < PASSES; ++p) {
      const unsigned long long base = (unsigned long long)(h * PASSES + p) * (tiles + gridDim.x);
      for (;;) {
        if (tid == 0) *ticket = atomicAdd(&a.words->ticket, 1ull) - base;
        __syncthreads();
        const size_t t = size_t(*ticket);
        __syncthreads();  // every thread has read the ticket before the next is taken
        if (t >= tiles) break;
        radix_tile rt;
        if (radix_tile_of(a, count, t, h, rt)) radix_halves_sweep_tile(a, rt, p, segsort_smem);
      }
      grid.sync();
    }
  }
}

}  // namespace detail
}  // namespace msplit
