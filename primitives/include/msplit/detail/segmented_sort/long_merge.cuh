// The long segments of the segmented sort (longer than SEGSORT_MAX_TILE_LENGTH = T): sorted as
// chunks of T by the tile kernel, then merged in passes over global memory, the run width doubling
// from T each pass, as a merge sort does (Satish, Harris and Garland, "Designing Efficient Sorting
// Algorithms for Manycore GPUs", IPDPS 2009). A segment of length len takes
// ceil(log2(ceil(len / T))) passes. The host queues one cooperative kernel that runs as many
// passes as the longest segment needs (read on the device), with a grid-wide barrier between
// passes (grid_barrier: bounded, as every wait), so that nothing waits for the host.
//
// Each pass cuts every long segment into output tiles of T: a tile finds its part of the two runs
// it merges by two merge-path searches in global memory (Green, McColl and Bader, "GPU Merge Path",
// ICS 2012), loads them into shared memory and merges them there (tile_sort.cuh), the first run
// winning ties (stable). Runs ping-pong between the output and a temporary buffer; stage s of a
// segment lies in the output when (passes - s) is even, so that its last stage is the output.
// The segments sorted by radix halves (long_radix.cuh) skip the chunks and take part in the first
// pass only: their two sorted halves, in the temporary buffer, merged into the output.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/segmented_sort/tile_kernel.cuh"
#include "msplit/detail/segmented_sort/tuning.h"

namespace msplit {
namespace detail {

// One block: gathers the long segments (their chunk tiles, passes, and those sorted by radix
// halves: merge passes >= min_merge_passes), and records a bad segment's offsets in the error
// record when the offsets check flagged one.
template <typename Offset>
__global__ void __launch_bounds__(tuning::SEGSORT_BLOCK_THREADS)
    segsort_long_setup_kernel(const Offset *begin, const Offset *end, const uint32_t *bin_ids,
                              const size_t *bin_offsets, error_record *record, const segsort_words *words,
                              long_plan lng, size_t n, size_t max_long, uint32_t min_merge_passes) {
  constexpr int BT = tuning::SEGSORT_BLOCK_THREADS;
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  __shared__ unsigned long long warp_sums[32];
  __shared__ unsigned long long carry_out;
  __shared__ uint32_t max_passes, by_radix;
  const unsigned tid = threadIdx.x;
  // 1. a bad offset: record what it was (the sort kernels will not run)
  auto record_bad = [&](unsigned long long s) {
    record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_SEGMENTED_SORT, MSPLIT_SITE_SEGMENT_OFFSETS,
                 s, (unsigned long long)begin[s], (unsigned long long)end[s], n);
  };
  if (words->bad != 0) {
    if (tid == 0) {
      record_bad(~words->bad);
      for (int i = 0; i < LONG_META_WORDS; ++i) lng.meta[i] = 0;
    }
    return;
  }
  // 2. the long segments, a block-wide scan of their tile counts per round of BT
  const size_t first = bin_offsets[SEGSORT_LONG_BIN], count = bin_offsets[SEGSORT_LONG_BIN + 1] - first;
  if (count > max_long) {  // only overlapping segments hold more than n / (T + 1) long ones
    if (tid == 0) record_bad(bin_ids[first + max_long]);
    return;
  }
  if (tid == 0) max_passes = by_radix = 0;
  __syncthreads();
  unsigned long long carry = 0;
  for (size_t round = 0; round < count; round += BT) {
    const size_t j = round + tid;
    unsigned long long tiles = 0;
    if (j < count) {
      const uint32_t s = bin_ids[first + j];
      const size_t len = size_t(end[s]) - size_t(begin[s]);
      tiles = (len + T - 1) / T;  // >= 2: a long segment is longer than T
      const bool radix = long_by_radix(len, min_merge_passes);
      atomicMax(&max_passes, radix ? 1u : long_passes(len));  // radix halves: one merge
      if (radix) atomicAdd(&by_radix, 1u);
    }
    const unsigned long long before = block_exclusive_scan<BT>(tiles, warp_sums);
    if (j < count) lng.tile_start[j] = uint32_t(carry + before);
    if (tid == BT - 1) carry_out = carry + before + tiles;
    __syncthreads();
    carry = carry_out;
  }
  __syncthreads();
  if (tid == 0) {
    lng.tile_start[count] = uint32_t(carry);
    lng.meta[LONG_COUNT] = count;
    lng.meta[LONG_TILES] = carry;
    lng.meta[LONG_MAX_PASSES] = size_t(max_passes) | size_t(by_radix) << 32;
  }
}

// How many of the first `diag` outputs of the stable merge of A and B (global memory) come from A.
// Called by a whole warp with the same arguments; every lane gets the answer. The merge path is a
// search for the first i where B[diag - 1 - i] < A[i]; each round the 32 lanes test 32 evenly
// spaced candidates at once, shrinking the range 33-fold, so that a search over 2^16 items costs
// four rounds of loads instead of sixteen dependent ones.
template <typename Key>
__device__ size_t warp_merge_path_global(const Key *A, size_t a_len, const Key *B, size_t b_len, size_t diag,
                                         typename key_order<Key>::bits flip) {
  const unsigned lane = threadIdx.x % WARP_SIZE;
  size_t lo = diag > b_len ? diag - b_len : 0, hi = diag < a_len ? diag : a_len;  // the answer is in [lo, hi]
  while (lo < hi) {
    const size_t range = hi - lo;
    const bool few = range <= WARP_SIZE;
    const size_t probe = few ? lo + lane : lo + (size_t(lane) + 1) * range / (WARP_SIZE + 1);
    bool after = false;  // the answer is at or before probe
    if (!few || lane < range)
      after = (key_order<Key>::ordered(B[diag - 1 - probe]) ^ flip) < (key_order<Key>::ordered(A[probe]) ^ flip);
    const unsigned votes = __ballot_sync(FULL_WARP_MASK, after);
    if (few) return votes ? lo + __ffs(votes) - 1 : hi;
    if (votes == 0) {
      lo = lo + size_t(WARP_SIZE) * range / (WARP_SIZE + 1) + 1;  // past the last probe
    } else {
      const size_t first = __ffs(votes) - 1;
      hi = lo + (first + 1) * range / (WARP_SIZE + 1);
      if (first > 0) lo = lo + first * range / (WARP_SIZE + 1) + 1;
    }
  }
  return lo;
}

// One output tile of a merge: outputs [d0, d1) of the stable merge of the runs A = [0, a_len)
// and B = [a_len, a_len + b_len), which start at index `at` of the source arrays; the outputs go
// to the same indices of the destination arrays (at + d0 on).
template <typename Key, typename Value>
struct merge_job {
  const Key *src_keys;
  const Value *src_values;
  Key *dst_keys;
  Value *dst_values;
  size_t at, a_len, b_len, d0, d1;
};

// The job of the output tile at out0 (within segment g) in merge pass `pass` (runs of T << (pass
// - 1) into runs of twice that), the runs ping-ponging between the output and the second buffer.
template <typename Key, typename Value, typename Offset>
__device__ __forceinline__ merge_job<Key, Value> merge_pass_job(const segsort_args<Key, Value, Offset> &a,
                                                                 const long_segment &g, uint32_t pass, size_t out0) {
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  const uint32_t passes = long_passes(g.len);
  const size_t width = T << (pass - 1), pair0 = out0 / (2 * width) * (2 * width);
  const size_t a_len = g.len - pair0 < width ? g.len - pair0 : width;
  const size_t b_rest = g.len - pair0 - a_len, b_len = b_rest < width ? b_rest : width;
  const bool src_tmp = long_stage_in_tmp(passes, pass - 1), dst_tmp = long_stage_in_tmp(passes, pass);
  const size_t d0 = out0 - pair0, d1 = d0 + T < a_len + b_len ? d0 + T : a_len + b_len;
  return merge_job<Key, Value>{src_tmp ? a.tmp_keys : a.keys_out, src_tmp ? a.tmp_values : a.values_out,
                               dst_tmp ? a.tmp_keys : a.keys_out, dst_tmp ? a.tmp_values : a.values_out,
                               g.begin + pair0, a_len, b_len, d0, d1};
}

// The job of the output tile at out0 of a segment sorted by radix halves: its two sorted halves,
// in the second buffer, merged into the output.
template <typename Key, typename Value, typename Offset>
__device__ __forceinline__ merge_job<Key, Value> merge_halves_job(const segsort_args<Key, Value, Offset> &a,
                                                                   const long_segment &g, size_t out0) {
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  const size_t a_len = radix_half_of(g.len, 0).len;
  return merge_job<Key, Value>{a.tmp_keys, a.tmp_values, a.keys_out, a.values_out, g.begin, a_len, g.len - a_len,
                               out0, out0 + T < g.len ? out0 + T : g.len};
}

// Merges one output tile (at most T items). Called by the whole block.
template <typename Key, typename Value>
__device__ __forceinline__ void merge_tile(const merge_job<Key, Value> &m, typename key_order<Key>::bits flip,
                                           unsigned char *smem, size_t *split) {
  constexpr int BT = tuning::SEGSORT_BLOCK_THREADS;
  constexpr int ITEMS = tuning::SEGSORT_ITEMS;
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  static_assert(T == size_t(BT) * ITEMS, "a merge tile is one tile of slots");
  constexpr bool HAS_VALUES = !std::is_same<Value, no_value>::value;
  using traits = item_traits<Key>;
  using item = typename traits::type;
  using layout = segsort_tile_layout<ITEMS, Key, Value>;
  item *items = layout::items(smem);
  Key *keys = layout::keys(smem);
  Value *values = layout::values(smem);
  const uint32_t tid = threadIdx.x;
  const Key *src_keys = m.src_keys + m.at;
  const size_t a_len = m.a_len, b_len = m.b_len, d0 = m.d0, d1 = m.d1;

  // 1. where the tile's output starts and ends in A and B: warp 0 and warp 1 search at once
  const unsigned warp = tid / WARP_SIZE;
  if (warp < 2) {
    const size_t at = warp_merge_path_global(src_keys, a_len, src_keys + a_len, b_len, warp == 0 ? d0 : d1, flip);
    if (tid % WARP_SIZE == 0) split[warp] = at;
  }
  __syncthreads();
  const size_t a0 = split[0], b0 = d0 - split[0];
  const uint32_t na = uint32_t(split[1] - a0), total = uint32_t(d1 - d0), nb = total - na;

  // 2. load the tile's parts of A then B (slots 0..na-1, na..total-1), in batches (tile_kernel.cuh)
#pragma unroll
  for (int r0 = 0; r0 < ITEMS; r0 += tuning::SEGSORT_LOAD_BATCH) {
    Key k[tuning::SEGSORT_LOAD_BATCH];
    Value v[tuning::SEGSORT_LOAD_BATCH];
#pragma unroll
    for (int r = 0; r < tuning::SEGSORT_LOAD_BATCH; ++r) {
      const uint32_t q = uint32_t(r0 + r) * BT + tid;
      if (q < total) {
        const size_t i = q < na ? a0 + q : a_len + b0 + (q - na);
        k[r] = src_keys[i];
        if constexpr (HAS_VALUES) v[r] = m.src_values[m.at + i];
      }
    }
#pragma unroll
    for (int r = 0; r < tuning::SEGSORT_LOAD_BATCH; ++r) {
      const uint32_t q = uint32_t(r0 + r) * BT + tid;
      if (q < total) {
        keys[q] = k[r];
        if constexpr (HAS_VALUES) values[q] = v[r];
        items[padded_slot<ITEMS>(q)] = traits::make(key_order<Key>::ordered(k[r]) ^ flip, q);
      }
    }
  }
  __syncthreads();

  // 3. merge: this thread's ITEMS outputs from slot diag on
  const uint32_t diag = tid * ITEMS;
  item x[ITEMS];
  if (diag < total) {
    const uint32_t from_a = merge_path<ITEMS, traits>(items, 0, na, na, nb, diag);
    serial_merge<ITEMS, traits>(items, from_a, na, na + diag - from_a, total, x);
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (diag + k < total) items[padded_slot<ITEMS>(diag + k)] = x[k];
  __syncthreads();

  // 4. store the merged tile
  Key *dst_keys = m.dst_keys + m.at + d0;
#pragma unroll 1
  for (int r = 0; r < ITEMS; ++r) {
    const uint32_t q = uint32_t(r) * BT + tid;
    if (q < total) {
      const uint32_t from = traits::slot(items[padded_slot<ITEMS>(q)]);
      dst_keys[q] = keys[from];
      if constexpr (HAS_VALUES) m.dst_values[m.at + d0 + q] = values[from];
    }
  }
  __syncthreads();  // before the next tile overwrites shared memory
}

// Every merge pass, in one cooperative launch: the passes that the longest segment needs (read on
// the device), a grid-wide barrier between passes; a segment sorted by radix halves takes part in
// the first pass only, merging its halves. Launched with at most the resident blocks.
template <typename Key, typename Value, typename Offset>
__global__ void __launch_bounds__(tuning::SEGSORT_BLOCK_THREADS,
                                  (segsort_tile_layout<tuning::SEGSORT_ITEMS, Key, Value>::MIN_BLOCKS))
    segsort_merge_kernel(segsort_args<Key, Value, Offset> a) {
  extern __shared__ __align__(16) unsigned char segsort_smem[];
  __shared__ size_t split[2];
  // nothing to do after a bad offset, or without long segments (the same answer for every block)
  if (error_raised(a.record)) return;
  const uint32_t max_passes = uint32_t(a.lng.meta[LONG_MAX_PASSES]);
  if (max_passes == 0) return;
  grid_barrier grid;  // bounded: a block that never arrives ends the kernel, recorded
  grid.init_at(&a.words->merge_barrier, 0, a.record, MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_SEGMENTED_SORT);
  const size_t count = a.lng.meta[LONG_COUNT], tiles = a.lng.meta[LONG_TILES];
  for (uint32_t pass = 1; pass <= max_passes; ++pass) {
    if (pass > 1) grid.sync();  // the previous pass's runs are complete
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {  // the branches are uniform over the block
      const size_t j = find_long_segment(a.lng.tile_start, count, t);
      const long_segment g = long_segment_of(a, j);
      const size_t out0 = (t - a.lng.tile_start[j]) * tuning::SEGSORT_MAX_TILE_LENGTH;  // within the segment
      if (long_by_radix(g.len, segsort_radix<Key>::MIN_MERGE_PASSES)) {
        if (pass == 1) merge_tile(merge_halves_job(a, g, out0), a.flip, segsort_smem, split);
      } else if (long_passes(g.len) >= pass) {
        merge_tile(merge_pass_job(a, g, pass, out0), a.flip, segsort_smem, split);
      }
    }
  }
}

}  // namespace detail
}  // namespace msplit
