// The binned tile kernel of the segmented sort: sorts every segment of a range of length bins, a
// tile of SEGSORT_BLOCK_THREADS x ITEMS slots at a time (tile_sort.cuh), and, with `chunks`, the
// SEGSORT_MAX_TILE_LENGTH-long chunks of the long segments that long_merge.cuh then merges.
//
// Work items, handed out grid-stride: first the chunks, then the bins from the longest lengths down
// (the longest work first, so that the short items fill the tail). A work item of bin b is
// SEGSORT_BLOCK_THREADS / G consecutive segments of the bin's list (G = L(b) / ITEMS threads each).
// Loads and stores are by slot, so that a warp reads and writes whole runs of each segment
// (coalesced however short the segments are); the sort itself is in shared memory and registers.
// Invariant: nothing is written when the offsets check flagged an error.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/segmented_sort/tile_sort.cuh"
#include "msplit/error_record.cuh"
#include "msplit/grid_barrier.cuh"
#include "msplit/detail/radix_sort/tuning.h"
#include "msplit/detail/segmented_sort/tuning.h"

namespace msplit {
namespace detail {

// The start of the temporary storage, zeroed before the first kernel: the call's error record
// (msplit/core.h: a bad segment's offsets, a wait that gave up), then the segmented sort's own
// words. Every kernel after the offsets check returns without writing once the record holds an
// error.
struct segsort_words {
  unsigned long long bad;     // ~(the first segment whose offsets are bad), 0 while none (atomicMax)
  unsigned long long ticket;  // the radix-halves kernel's tile tickets (long_radix.cuh)
  grid_barrier_state radix_barrier, merge_barrier;  // the cooperative kernels' barriers, from 0
};
struct segsort_head {
  msplit_error_record record;
  segsort_words words;
};

// The long segments (longer than SEGSORT_MAX_TILE_LENGTH), gathered on the device: the first chunk
// tile of each (exclusive scan of their tile counts; 32 bits, so that the temporary storage stays
// within CUB's: n is at most 2^43), and totals. Their start, length and passes are read again from
// the binned ids and the caller's offsets (long_segment_of).
// The word LONG_MAX_PASSES holds in its low 32 bits the merge passes the merge kernel runs (1 for
// a segment sorted by radix halves: its one merge), in its high 32 bits the number of segments
// sorted by radix halves (one word rather than two: the storage stays within CUB's).
enum { LONG_COUNT = 0, LONG_TILES = 1, LONG_MAX_PASSES = 2, LONG_META_WORDS = 3 };
struct long_plan {
  uint32_t *tile_start;
  size_t *meta;
};
constexpr int SEGSORT_LONG_BIN = tuning::SEGSORT_NUM_BINS - 1;

template <typename Key, typename Value, typename Offset>
struct segsort_args {
  const Key *keys_in;
  Key *keys_out;
  const Value *values_in;
  Value *values_out;
  Key *tmp_keys;  // the long path's second buffer (n elements, indexed as the output)
  Value *tmp_values;
  const Offset *begin, *end;
  const uint32_t *bin_ids;     // segment ids grouped by bin (the multisplit's output)
  const size_t *bin_offsets;   // SEGSORT_NUM_BINS + 1
  error_record *record;        // the call's (segsort_head)
  segsort_words *words;
  typename key_order<Key>::bits flip;  // 0 ascending, all ones descending
  long_plan lng;
  size_t n;
};

// Merge passes of a long segment of len items: ceil(log2(its chunks of SEGSORT_MAX_TILE_LENGTH)).
__device__ __forceinline__ uint32_t long_passes(size_t len) {
  const size_t tiles = (len + tuning::SEGSORT_MAX_TILE_LENGTH - 1) / tuning::SEGSORT_MAX_TILE_LENGTH;  // >= 2
  return 64 - __clzll((long long)(tiles - 1));
}

// The 8-bit digit passes of a radix sort of Key, and the merge passes from which a long segment
// is sorted by radix halves instead (long_radix.cuh).
template <typename Key>
struct segsort_radix {
  static constexpr uint32_t PASSES = uint32_t(sizeof(Key) * 8) / uint32_t(tuning::RADIX_BITS);
  static constexpr uint32_t MIN_MERGE_PASSES = PASSES + tuning::SEGSORT_RADIX_SAVED_PASSES;
  // the shortest such segment: more than SEGSORT_MAX_TILE_LENGTH << (MIN_MERGE_PASSES - 1) items
  static constexpr size_t MIN_LENGTH = (tuning::SEGSORT_MAX_TILE_LENGTH << (MIN_MERGE_PASSES - 1)) + 1;
};
__device__ __forceinline__ bool long_by_radix(size_t len, uint32_t min_merge_passes) {
  return len <= tuning::SEGSORT_RADIX_MAX_LENGTH && long_passes(len) >= min_merge_passes;
}

// Half h (0 or 1) of a segment of len items sorted by radix halves: its chunk tiles (the first
// c / 2 of the segment's c chunk tiles, or the rest), its items, and where in the segment's
// stretch of the output its tables lie (the other half's stretch).
struct radix_half {
  size_t start, len;         // items [start, start + len) of the segment
  size_t first_tile, tiles;  // chunk tiles of the segment
  size_t tables_at;          // item offset within the segment, in the output
};
__device__ __forceinline__ radix_half radix_half_of(size_t len, int h) {
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  const size_t c = (len + T - 1) / T, c0 = c / 2, h0 = c0 * T;
  return h == 0 ? radix_half{0, h0, 0, c0, h0} : radix_half{h0, len - h0, c0, c - c0, 0};
}

// Long segment j, in the long bin's order: its start and length in the caller's offsets.
struct long_segment {
  size_t begin, len;
};
template <typename Key, typename Value, typename Offset>
__device__ __forceinline__ long_segment long_segment_of(const segsort_args<Key, Value, Offset> &a, size_t j) {
  const uint32_t s = a.bin_ids[a.bin_offsets[SEGSORT_LONG_BIN] + j];
  const size_t b = size_t(a.begin[s]);
  return long_segment{b, size_t(a.end[s]) - b};
}

// Length bin b >= 1 holds lengths up to 2^(b + 1).
__host__ __device__ constexpr int bin_log2_length(int b) { return b + 1; }

// The long segment that chunk tile t belongs to: the last j with tile_start[j] <= t.
__device__ __forceinline__ size_t find_long_segment(const uint32_t *tile_start, size_t count, size_t t) {
  size_t lo = 0, hi = count;
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (tile_start[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Stage s of long segment j (after s merge passes) lives in the output when passes - s is even,
// so that the last stage is the output.
__device__ __forceinline__ bool long_stage_in_tmp(uint32_t passes, uint32_t stage) { return ((passes - stage) & 1) != 0; }

template <int ITEMS, typename Key, typename Value, typename Offset>
__global__ void __launch_bounds__(tuning::SEGSORT_BLOCK_THREADS, (segsort_tile_layout<ITEMS, Key, Value>::MIN_BLOCKS))
    segsort_tile_kernel(segsort_args<Key, Value, Offset> a, int bin_lo, int bin_hi, bool chunks) {
  constexpr int BT = tuning::SEGSORT_BLOCK_THREADS;
  constexpr bool HAS_VALUES = !std::is_same<Value, no_value>::value;
  constexpr int LOG_ITEMS = ITEMS == 4 ? 2 : ITEMS == 8 ? 3 : ITEMS == 16 ? 4 : -1;
  static_assert(LOG_ITEMS > 0, "ITEMS is 4, 8 or 16");
  using traits = item_traits<Key>;
  using item = typename traits::type;
  using layout = segsort_tile_layout<ITEMS, Key, Value>;
  extern __shared__ __align__(16) unsigned char segsort_smem[];
  item *items = layout::items(segsort_smem);
  Key *keys = layout::keys(segsort_smem);
  Value *values = layout::values(segsort_smem);
  __shared__ size_t seg_begin[BT];
  __shared__ uint32_t seg_len[BT];
  __shared__ bool to_tmp;
  const uint32_t tid = threadIdx.x;

  // 1. nothing to do (and nothing may be written) after a bad offset
  if (error_raised(a.record)) return;
  const size_t chunk_tiles = chunks ? a.lng.meta[LONG_TILES] : 0;
  size_t work = chunk_tiles;
  for (int b = bin_hi; b >= bin_lo; --b) {
    const int log2_segs = LOG_ITEMS + 8 - bin_log2_length(b);  // log2(BT / G)
    const size_t count = a.bin_offsets[b + 1] - a.bin_offsets[b];
    work += (count + (size_t(1) << log2_segs) - 1) >> log2_segs;
  }
  static_assert(BT == 256, "log2_segs above assumes 256 threads");
  constexpr int LOAD_BATCH = ITEMS < tuning::SEGSORT_LOAD_BATCH ? ITEMS : tuning::SEGSORT_LOAD_BATCH;
  static_assert(ITEMS % LOAD_BATCH == 0 && LOAD_BATCH <= 32, "loads go in whole batches (a 32-bit mask)");

  for (size_t w = blockIdx.x; w < work; w += gridDim.x) {
    // 2. this work item's segments (start and length per group) and group size; a long
    //    segment's chunk is skipped when the segment is sorted by radix halves (every thread
    //    reads the same words, so the skip is uniform and needs no barrier)
    int log2_g;
    if (w < chunk_tiles) {
      log2_g = 8;  // one group of the whole block
      const size_t j = find_long_segment(a.lng.tile_start, a.lng.meta[LONG_COUNT], w);
      const long_segment g = long_segment_of(a, j);
      if (long_by_radix(g.len, segsort_radix<Key>::MIN_MERGE_PASSES)) continue;
      if (tid == 0) {
        const size_t first = (w - a.lng.tile_start[j]) * tuning::SEGSORT_MAX_TILE_LENGTH;
        const size_t rest = g.len - first;
        seg_begin[0] = g.begin + first;
        seg_len[0] = uint32_t(rest < tuning::SEGSORT_MAX_TILE_LENGTH ? rest : tuning::SEGSORT_MAX_TILE_LENGTH);
        to_tmp = long_stage_in_tmp(long_passes(g.len), 0);
      }
    } else {
      size_t rest = w - chunk_tiles;
      int b = bin_hi;
      for (;; --b) {
        const int log2_segs = LOG_ITEMS + 8 - bin_log2_length(b);
        const size_t count = a.bin_offsets[b + 1] - a.bin_offsets[b];
        const size_t groups = (count + (size_t(1) << log2_segs) - 1) >> log2_segs;
        if (rest < groups || b == bin_lo) break;
        rest -= groups;
      }
      log2_g = bin_log2_length(b) - LOG_ITEMS;
      const uint32_t segs = uint32_t(BT) >> log2_g;
      if (tid < segs) {
        const size_t j = rest * segs + tid, count = a.bin_offsets[b + 1] - a.bin_offsets[b];
        uint32_t len = 0;
        size_t first = 0;
        if (j < count) {
          const uint32_t s = a.bin_ids[a.bin_offsets[b] + j];
          first = size_t(a.begin[s]);
          len = uint32_t(size_t(a.end[s]) - first);
        }
        seg_begin[tid] = first;
        seg_len[tid] = len;
      }
      if (tid == 0) to_tmp = false;
    }
    __syncthreads();

    // 3. load by slot: slot q = r x BT + tid is position q mod L of the tile's segment q / L. A
    //    batch of loads is issued before its shared-memory stores (memory-level parallelism: the
    //    compiler cannot move a load past a store that might alias it, so a plain loop has one
    //    load in flight per thread).
    const int log2_len = log2_g + LOG_ITEMS;
    const uint32_t len_mask = (1u << log2_len) - 1;
#pragma unroll
    for (int r0 = 0; r0 < ITEMS; r0 += LOAD_BATCH) {
      Key k[LOAD_BATCH];
      Value v[LOAD_BATCH];
      uint32_t valid = 0;
#pragma unroll
      for (int r = 0; r < LOAD_BATCH; ++r) {
        const uint32_t q = uint32_t(r0 + r) * BT + tid, seg = q >> log2_len, pos = q & len_mask;
        if (pos < seg_len[seg]) {
          const size_t i = seg_begin[seg] + pos;
          k[r] = a.keys_in[i];
          if constexpr (HAS_VALUES) v[r] = a.values_in[i];
          valid |= 1u << r;
        }
      }
#pragma unroll
      for (int r = 0; r < LOAD_BATCH; ++r) {
        const uint32_t q = uint32_t(r0 + r) * BT + tid;
        if (valid & (1u << r)) {
          keys[q] = k[r];
          if constexpr (HAS_VALUES) values[q] = v[r];
          items[padded_slot<ITEMS>(q)] = traits::make(key_order<Key>::ordered(k[r]) ^ a.flip, q);
        } else {
          items[padded_slot<ITEMS>(q)] = traits::pad(q);
        }
      }
    }
    __syncthreads();

    // 4. sort each group's segment
    sort_groups<ITEMS, traits>(items, log2_g);

    // 5. store by slot: the key and value that the sorted item names
    Key *keys_out = to_tmp ? a.tmp_keys : a.keys_out;
    Value *values_out = to_tmp ? a.tmp_values : a.values_out;
#pragma unroll 1
    for (int r = 0; r < ITEMS; ++r) {
      const uint32_t q = uint32_t(r) * BT + tid, seg = q >> log2_len, pos = q & len_mask;
      if (pos < seg_len[seg]) {
        const size_t i = seg_begin[seg] + pos;
        const uint32_t from = traits::slot(items[padded_slot<ITEMS>(q)]);
        keys_out[i] = keys[from];
        if constexpr (HAS_VALUES) values_out[i] = values[from];
      }
    }
    __syncthreads();  // before the next work item overwrites shared memory
  }
}

}  // namespace detail
}  // namespace msplit
