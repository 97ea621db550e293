// The one-pass multisplit (ONEPASS): a histogram kernel counts the buckets of each portion, one
// block scans the totals into bucket starts, and one sweep per portion reorders every tile and
// finds the tile's global offsets by decoupled look-back (lookback.cuh): 12 bytes moved per key.
#pragma once
#include <cuda/atomic>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/lookback.cuh"
#include "msplit/detail/multisplit/tile.cuh"
#include "msplit/detail/tile_io.cuh"
#include "msplit/detail/warp_rank.cuh"
#include "msplit/detail/warp_scan.cuh"
#include "msplit/detail/multisplit/tuning.h"

namespace msplit {
namespace detail {

// ---- one-pass, pass 1: bucket totals of one portion ------------------------------------------
template <typename Key, typename Op>
struct histogram_args {
  const Key *keys_in;
  size_t begin, end;
  uint32_t m;
  peer_method pm;  // unused by the lane-column histogram (dropping it changes the kernel parameters: with a GPU run)
  Op op;
  bool stage;
  size_t stage_bytes;
  uint32_t *hist;  // m counters, zeroed
};

// Shared memory of the histogram kernel.
inline size_t histogram_smem_bytes(uint32_t m, size_t stage_bytes) {
  return align_up(stage_bytes, 16) + size_t(m) * WARP_SIZE * sizeof(uint32_t);
}

// Every lane counts into its own column of an m x 32 table in shared memory (counts[b * 32 +
// lane]), so the 32 atomics of a warp instruction always fall into 32 different banks whatever
// the distribution: one shared atomic per key, no votes. (Warp-aggregated counting by ballots or
// __match_any_sync took 3-7x the read bound in ncu on the H100: 282 us at m = 32 and 681 us at
// m = 256 for 2^26 keys, against 90 us; this table: 105 and 106 us.)
template <int BLOCK_THREADS, int ITEMS, typename Key, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS) multisplit_histogram_kernel(histogram_args<Key, Op> a) {
  constexpr uint32_t TILE = BLOCK_THREADS * ITEMS;
  extern __shared__ __align__(16) unsigned char smem[];
  const size_t counts_off = align_up(a.stage ? a.stage_bytes : 0, 16);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + counts_off);
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const uint32_t m = a.m;
  const Op op = stage_op(a.op, a.stage, smem, tid, BLOCK_THREADS);
  for (uint32_t i = tid; i < m * WARP_SIZE; i += BLOCK_THREADS) counts[i] = 0;
  __syncthreads();

  uint32_t *column = counts + lane;
  const size_t tiles = (a.end - a.begin + TILE - 1) / TILE;
  for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const size_t tile_begin = a.begin + tile * TILE;
    const uint32_t tile_valid = uint32_t(a.end - tile_begin < TILE ? a.end - tile_begin : TILE);
    const bool full = tile_valid == TILE;
    const uint32_t warp_first = warp * WARP_SIZE * ITEMS;
    Key keys[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const uint32_t idx = warp_first + k * WARP_SIZE + lane;
      if (full || idx < tile_valid) keys[k] = a.keys_in[tile_begin + idx];
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (full || warp_first + k * WARP_SIZE + lane < tile_valid)
        atomicAdd(&column[clamped_bucket(op, keys[k], m) * WARP_SIZE], 1u);
  }
  __syncthreads();
  // thread b adds up row b, starting at a different bank than its neighbours
  for (uint32_t b = tid; b < m; b += BLOCK_THREADS) {
    uint32_t sum = 0;
    for (uint32_t l = 0; l < WARP_SIZE; ++l) sum += counts[b * WARP_SIZE + ((l + b) % WARP_SIZE)];
    if (sum) atomicAdd(&a.hist[b], sum);
  }
}

// ---- one-pass, pass 2: bucket starts (and offsets) from the portions' totals ------------------
// One block; m <= BLOCK_THREADS. hist and base are portions x m.
template <int BLOCK_THREADS>
__global__ void __launch_bounds__(BLOCK_THREADS)
    multisplit_bucket_starts_kernel(const uint32_t *hist, size_t *base, size_t *offsets, uint32_t m,
                                    uint32_t portions, size_t n) {
  __shared__ unsigned long long warp_sums[32];
  const unsigned b = threadIdx.x;
  unsigned long long total = 0;
  if (b < m)
    for (uint32_t p = 0; p < portions; ++p) total += hist[size_t(p) * m + b];
  const unsigned long long start = block_exclusive_scan<BLOCK_THREADS>(total, warp_sums);
  if (b < m) {
    unsigned long long run = start;
    for (uint32_t p = 0; p < portions; ++p) {
      base[size_t(p) * m + b] = run;
      run += hist[size_t(p) * m + b];
    }
    if (offsets) offsets[b] = start;
  }
  if (offsets && b == 0) offsets[m] = n;
}

// ---- one-pass, pass 3: the sweep --------------------------------------------------------------
// Whether the sweep ranks a tile blocked, with thread-private counters (bucket width up to
// tuning::MULTISPLIT_ONESWEEP_BLOCKED_MAX_BITS), or warp-striped with votes (see
// multisplit_onesweep_kernel).
template <int BITS>
__host__ __device__ constexpr bool onesweep_blocked() {
  return BITS <= tuning::MULTISPLIT_ONESWEEP_BLOCKED_MAX_BITS;
}
// Counter-table words of the sweep's shared memory (0: the warp histograms): BLOCKED packs two
// 16-bit counters per word, so 2^(BITS - 1) rows of BLOCK_THREADS words.
template <int BITS, int BLOCK_THREADS>
__host__ __device__ constexpr size_t onesweep_counts_words() {
  return onesweep_blocked<BITS>() ? (size_t(1) << (BITS - 1)) * BLOCK_THREADS : 0;
}

// One block per tile, tiles in the order blocks take them from an atomic counter. BITS =
// ceil(log2 m) (1..8) is a template parameter. A tile's life:
//   1. load and rank. BLOCKED (small m): thread t holds elements t * ITEMS .. t * ITEMS +
//      ITEMS - 1 and counts them in its own column of a table of ROWS = M / 2 rows (M = 2^BITS)
//      x BLOCK_THREADS words, two 16-bit counters per word: bucket b = half * ROWS + row
//      (bank = lane, no conflicts, no votes); the ranks are the counts before each item. Else:
//      warp-striped, ranked in the warp by BITS votes (warp_rank_bits), warp histograms.
//   2. per bucket: where its run starts in the tile and the tile's count, which is published
//      at once (aggregate). BLOCKED: one exclusive scan of the table in (row, thread) order on
//      packed words, so both halves scan at once (a raking scan: thread t sums words t * ROWS ..
//      t * ROWS + ROWS - 1, visited from a per-thread rotation that keeps the 32 lanes in 32
//      banks); the upper half's buckets then follow the lower half's total. Else a scan of the
//      warp histograms.
//   3. every thread writes its keys into shared memory in bucket order, while the bucket
//      threads walk back for the tile's global offsets (the walk overlaps the reordering)
//   4. threads write consecutive shared elements to their global places (coalesced runs)
// Five barriers per tile for keys (two more for values); no barrier waits on a look-back that
// the block could have overlapped.
template <int BITS, int BLOCK_THREADS, int ITEMS, typename Key, typename Value, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS, std::is_same_v<Value, no_value> || onesweep_blocked<BITS>()
                                                     ? tuning::MULTISPLIT_ONESWEEP_BLOCKS_PER_SM
                                                     : tuning::MULTISPLIT_ONESWEEP_PAIRS_BLOCKS_PER_SM)
    multisplit_onesweep_kernel(tile_args<Key, Value, Op> a) {
  constexpr bool HAS_VALUES = !std::is_same_v<Value, no_value>;
  constexpr bool BLOCKED = onesweep_blocked<BITS>();
  constexpr uint32_t M = 1u << BITS;
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  constexpr uint32_t TILE = BLOCK_THREADS * ITEMS;
  constexpr size_t ELEM_BYTES = sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);
  static_assert(BITS >= 1 && BITS <= 8, "m <= 256");
  constexpr uint32_t ROWS = M / 2;  // BLOCKED: rows of packed counters
  static_assert(!BLOCKED || ROWS <= WARP_SIZE, "the raking rotation assumes ROWS <= 32");
  static_assert(TILE <= 0xFFFF, "positions are packed into 16 bits");

  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t m = a.m;
  const tile_layout lay = make_tile_layout<BLOCK_THREADS, ITEMS>(m, a.stage ? a.stage_bytes : 0, ELEM_BYTES, true,
                                                                 false, true,
                                                                 onesweep_counts_words<BITS, BLOCK_THREADS>());
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + lay.counts_off);  // table, or WARPS x m
  size_t *dest = reinterpret_cast<size_t *>(smem + lay.dest_off);          // m
  uint32_t *bucket_start = reinterpret_cast<uint32_t *>(smem + lay.scan_off);
  uint32_t *tile_counts = bucket_start + m;
  uint32_t *warp_sums = reinterpret_cast<uint32_t *>(smem + align_up(lay.scan_off + 2 * m * sizeof(uint32_t), 16));
  uint32_t *tile_slot = warp_sums + WARP_SIZE;
  Key *ex_keys = reinterpret_cast<Key *>(smem + lay.exchange_off);
  uint8_t *ex_bucket = smem + lay.bucket_off;
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;

  // take a tile; clear the counters
  const Op op = stage_op(a.op, a.stage, smem + lay.stage_off, tid, BLOCK_THREADS);
  if constexpr (BLOCKED) {
#pragma unroll
    for (uint32_t r = 0; r < ROWS; ++r) counts[r * BLOCK_THREADS + tid] = 0;
  } else {
    for (uint32_t i = tid; i < WARPS * m; i += BLOCK_THREADS) counts[i] = 0;
  }
  if (tid == 0) *tile_slot = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  const size_t tile = *tile_slot;
  const size_t tile_begin = a.begin + tile * TILE;
  const uint32_t tile_valid = uint32_t(a.end - tile_begin < TILE ? a.end - tile_begin : TILE);
  const bool full = tile_valid == TILE;
  // item k of this thread is element first + k * step of the tile
  const uint32_t first = BLOCKED ? tid * ITEMS : warp * WARP_TILE + lane;
  constexpr uint32_t STEP = BLOCKED ? 1 : WARP_SIZE;
  auto item_valid = [&](int k) { return full || first + k * STEP < tile_valid; };

  // 1. load and rank: br[k] = bucket << 16 | rank, then | position in the tile
  Key keys[ITEMS];
  load_items(keys, a.keys_in + tile_begin, first, tile_valid, full, BLOCKED);
  uint32_t br[ITEMS];
  if constexpr (BLOCKED) {
    uint32_t *column = counts + tid;
    auto count = [&](int k) {
      const uint32_t b = clamped_bucket(op, keys[k], m);
      const uint32_t shift = (b >> (BITS - 1)) * 16, row = b & (ROWS - 1);
      const uint32_t w = column[row * BLOCK_THREADS];
      column[row * BLOCK_THREADS] = w + (1u << shift);
      br[k] = (b << 16) | ((w >> shift) & 0xFFFFu);
    };
    for_each_item<ITEMS>(full, item_valid, count);
  } else {
    uint32_t *my_counts = counts + warp * m;
    uint32_t run = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = item_valid(k);
      const unsigned valid_mask = full ? FULL_WARP_MASK : __ballot_sync(FULL_WARP_MASK, valid);
      const uint32_t b = valid ? clamped_bucket(op, keys[k], m) : 0;
      br[k] = (b << 16) | warp_rank_bits<BITS>(b, valid_mask, run, my_counts);
    }
    if constexpr (BITS <= 5)  // the warp histogram is in the lanes' running counts
      if (lane < m) my_counts[lane] = run;
  }
  using VReg = std::conditional_t<HAS_VALUES, Value, char>;
  VReg vals[ITEMS];  // loaded after the ranking, which does not need them (fewer live registers)
  if constexpr (HAS_VALUES) load_items(vals, a.values_in + tile_begin, first, tile_valid, full, BLOCKED);
  __syncthreads();

  // 2. bucket starts and counts in the tile; publish the counts
  auto publish = [&](uint32_t b, uint32_t count) {
    cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(a.status[tile * m + b])
        .store((tile == 0 ? LOOKBACK_FLAG_PREFIX : LOOKBACK_FLAG_AGGREGATE) | count, cuda::memory_order_relaxed);
  };
  uint32_t part = 0;  // what this thread adds to the block scan
  uint32_t head = 0;  // BLOCKED: words of the thread's run before its rotation
  const uint32_t rot = BLOCKED ? (tid * ROWS / WARP_SIZE) % ROWS : 0;
  uint32_t *run_of_mine = counts + tid * ROWS;
  if constexpr (BLOCKED) {
#pragma unroll 8
    for (uint32_t i = 0; i < ROWS; ++i) {
      const uint32_t j = (i + rot) % ROWS;
      const uint32_t v = run_of_mine[j];
      part += v;
      if (j < rot) head += v;
    }
  } else {
    if (tid < m) {  // thread b: warp offsets inside bucket b's run
      for (int w = 0; w < WARPS; ++w) {
        const uint32_t c = counts[w * m + tid];
        counts[w * m + tid] = part;
        part += c;
      }
      tile_counts[tid] = part;
      publish(tid, part);
    }
  }
  const uint32_t incl = warp_inclusive_scan(part, lane);
  if (lane == WARP_SIZE - 1) warp_sums[warp] = incl;
  __syncthreads();
  uint32_t excl = incl - part, total = 0;
  for (unsigned w = 0; w < unsigned(WARPS); ++w) {
    const uint32_t ws = warp_sums[w];
    if (w < warp) excl += ws;
    total += ws;
  }
  const uint32_t low_total = total & 0xFFFFu;  // BLOCKED: elements in the lower half's buckets
  if constexpr (BLOCKED) {
    uint32_t run = excl + head;
#pragma unroll 8
    for (uint32_t i = 0; i < ROWS; ++i) {
      const uint32_t j = (i + rot) % ROWS;
      if (j == 0) run = excl;
      const uint32_t v = run_of_mine[j];
      run_of_mine[j] = run;
      run += v;
    }
  } else {
    if (tid < m) {
      bucket_start[tid] = excl;
      for (int w = 0; w < WARPS; ++w) counts[w * m + tid] += excl;
    }
  }
  __syncthreads();
  // BLOCKED: where thread t's items of bucket b start in the tile (valid after the barrier above)
  auto table_start = [&](uint32_t b, uint32_t t) {
    const uint32_t shift = (b >> (BITS - 1)) * 16, row = b & (ROWS - 1);
    return ((counts[row * BLOCK_THREADS + t] >> shift) & 0xFFFFu) + (shift ? low_total : 0u);
  };
  // where bucket b's run starts in the tile, and its count
  auto start_of = [&](uint32_t b) {
    if constexpr (BLOCKED) return table_start(b, 0);
    else return bucket_start[b];
  };
  auto count_of = [&](uint32_t b) {
    if constexpr (BLOCKED) return (b + 1 < M ? table_start(b + 1, 0) : tile_valid) - table_start(b, 0);
    else return tile_counts[b];
  };
  if constexpr (BLOCKED)
    if (tid < m) publish(tid, count_of(tid));

  // 3. positions; reorder into shared memory; bucket threads walk back meanwhile
  const uint32_t *my_counts = counts + warp * m;
  for_each_item<ITEMS>(full, item_valid, [&](int k) {
    const uint32_t b = br[k] >> 16;
    const uint32_t pos = (br[k] & 0xFFFFu) + (BLOCKED ? table_start(b, tid) : my_counts[b]);
    br[k] = (b << 16) | pos;
    ex_keys[pos] = keys[k];
    ex_bucket[pos] = uint8_t(b);
  });
  constexpr unsigned G = lookback_group_of_bits<BITS>();  // lanes per bucket (lookback.cuh)
  if (warp * WARP_SIZE < G * m) {  // warp-uniform: the warps that serve a bucket
    const uint32_t b = tid / G;
    const unsigned j = tid % G;
    const bool active = b < m;
    const uint32_t before =
        tile == 0 ? 0u : lookback_walk<tuning::MULTISPLIT_LOOKBACK_ITEMS>(a.status, tile, m, b, j, G, active, a.stall);
    if (active && j == 0) {
      if (tile != 0)
        cuda::atomic_ref<uint32_t, cuda::thread_scope_device>(a.status[tile * m + b])
            .store(LOOKBACK_FLAG_PREFIX | (before + count_of(b)), cuda::memory_order_relaxed);
      dest[b] = a.base[b] + before - start_of(b);
    }
  }
  __syncthreads();

  // 4. write runs: shared element i goes to dest[its bucket] + i
  write_runs<BLOCK_THREADS, ITEMS>(a.keys_out, ex_keys, ex_bucket, dest, tid, tile_valid);
  if constexpr (HAS_VALUES) {
    Value *ex_vals = reinterpret_cast<Value *>(smem + lay.exchange_off);
    __syncthreads();
    for_each_item<ITEMS>(full, item_valid, [&](int k) { ex_vals[br[k] & 0xFFFFu] = vals[k]; });
    __syncthreads();
    write_runs<BLOCK_THREADS, ITEMS>(a.values_out, ex_vals, ex_bucket, dest, tid, tile_valid);
  }
}

}  // namespace detail
}  // namespace msplit
