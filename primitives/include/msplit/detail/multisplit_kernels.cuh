// Multisplit kernels (the "agent" level): one tile kernel body whose compile-time parameters give
// the paper's three variants and the one-pass variant, plus the small kernels around them.
//
//   variant   passes                                           subproblem  reorder
//   DIRECT    prescan, scan of H (CUB), postscan                warp        no
//   WARP      prescan, scan of H (CUB), postscan                warp        in the warp
//   BLOCK     prescan, scan of H (CUB), postscan                block       in the block
//   ONEPASS   histogram, scan of m totals, one sweep            block       in the block
//             (the sweep publishes per-tile bucket counts with decoupled look-back)
//   SORT      labels, CUB radix sort of (label, index), gather  -           -
//
// A tile is BLOCK_THREADS * ITEMS consecutive elements, loaded warp-striped: warp w owns elements
// [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile and lane l holds element k * 32 + l of that
// chunk in item k. Ranking items in (k, l) order is therefore input order, which makes every
// variant stable. H and G are m x L, bucket-major (H[b * L + subproblem]; the thesis's Alg. 2
// writes i * m + j, an erratum).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/block_multisplit.cuh"
#include "msplit/multisplit_tuning.h"

namespace msplit {
namespace detail {

enum class pass_kind { PRESCAN, POSTSCAN, ONESWEEP };
enum class subproblem { WARP, BLOCK };

template <typename Key, typename Value, typename Op>
struct tile_args {
  const Key *keys_in;
  Key *keys_out;
  const Value *values_in;
  Value *values_out;
  size_t begin, end;  // elements [begin, end) of the input belong to this launch
  uint32_t m;
  peer_method pm;
  Op op;
  bool stage;
  size_t stage_bytes;
  // three-pass variants: H and G are m x L, L = number of subproblems
  uint32_t *H;
  const uint32_t *G;
  size_t L;
  // one-pass variant
  uint32_t *status;       // tiles x m look-back words of this portion, zeroed
  uint32_t *tile_counter; // zeroed
  const size_t *base;     // m: first output index of each bucket for this portion
};

template <pass_kind PASS, subproblem SUB, bool REORDER, int BLOCK_THREADS, int ITEMS, typename Key,
          typename Value, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS, tuning::MIN_BLOCKS_PER_SM)
    multisplit_tile_kernel(tile_args<Key, Value, Op> a) {
  constexpr bool HAS_VALUES = !std::is_same_v<Value, no_value>;
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  constexpr uint32_t TILE = BLOCK_THREADS * ITEMS;
  constexpr size_t ELEM_BYTES = sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);
  static_assert(BLOCK_THREADS % WARP_SIZE == 0, "whole warps");
  static_assert(SUB == subproblem::WARP || REORDER, "block subproblems always reorder");
  static_assert(PASS != pass_kind::ONESWEEP || SUB == subproblem::BLOCK, "one sweep is block level");

  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t m = a.m;
  const tile_layout lay = make_tile_layout<BLOCK_THREADS, ITEMS>(
      m, a.stage ? a.stage_bytes : 0, ELEM_BYTES, REORDER, SUB == subproblem::WARP, PASS != pass_kind::PRESCAN);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + lay.counts_off);
  size_t *dest = reinterpret_cast<size_t *>(smem + lay.dest_off);
  uint32_t *bucket_start = reinterpret_cast<uint32_t *>(smem + lay.scan_off);
  uint32_t *tile_counts = bucket_start + m;  // then: elements of each bucket in earlier tiles
  unsigned long long *warp_sums =
      reinterpret_cast<unsigned long long *>(smem + align_up(lay.scan_off + 2 * m * sizeof(uint32_t), 16));
  uint32_t *tile_slot = reinterpret_cast<uint32_t *>(warp_sums + 32);
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;

  // 1. stage the functor, clear the warp histograms, take a tile
  const Op op = stage_op(a.op, a.stage, smem + lay.stage_off, tid, BLOCK_THREADS);
  for (uint32_t i = tid; i < WARPS * m; i += BLOCK_THREADS) counts[i] = 0;
  size_t tile = blockIdx.x;
  if constexpr (PASS == pass_kind::ONESWEEP) {
    if (tid == 0) *tile_slot = atomicAdd(a.tile_counter, 1u);
  }
  __syncthreads();
  if constexpr (PASS == pass_kind::ONESWEEP) tile = *tile_slot;
  const size_t tile_begin = a.begin + tile * TILE;
  const uint32_t tile_valid = uint32_t(a.end - tile_begin < TILE ? a.end - tile_begin : TILE);
  const bool full = tile_valid == TILE;
  const uint32_t warp_first = warp * WARP_TILE;

  // 2. load warp-striped
  Key keys[ITEMS];
  using VReg = std::conditional_t<HAS_VALUES, Value, char>;
  VReg vals[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t idx = warp_first + k * WARP_SIZE + lane;
    if (full || idx < tile_valid) {
      keys[k] = a.keys_in[tile_begin + idx];
      if constexpr (HAS_VALUES && PASS != pass_kind::PRESCAN) vals[k] = a.values_in[tile_begin + idx];
    }
  }

  // 3. buckets, warp histograms and warp-local ranks
  uint32_t *my_counts = counts + warp * m;
  // bucket (high 16 bits) and rank (low 16 bits: < TILE) of each item, packed to save registers
  static_assert(TILE <= 0xFFFF, "ranks are packed into 16 bits");
  uint32_t br[ITEMS];
  if (!a.pm.use_match) {
    // m <= 32: ballots, each lane keeps the running count of bucket `lane` in a register
    uint32_t run = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = full || warp_first + k * WARP_SIZE + lane < tile_valid;
      const uint32_t b = valid ? clamped_bucket(op, keys[k], m) : 0;
      br[k] = (b << 16) | warp_ballot_rank_step(b, valid, a.pm.ballot_rounds, run);
    }
    if (lane < m) my_counts[lane] = run;
  } else {
    // m > 32: peers by __match_any_sync, running counts in shared memory
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = full || warp_first + k * WARP_SIZE + lane < tile_valid;
      const unsigned valid_mask = full ? FULL_WARP_MASK : __ballot_sync(FULL_WARP_MASK, valid);
      const uint32_t b = valid ? clamped_bucket(op, keys[k], m) : 0;
      br[k] = (b << 16) | warp_rank_step(b, valid, valid_mask, a.pm, my_counts);
    }
  }

  // 4. prescan: publish this tile's subproblem histograms (column of H) and stop
  if constexpr (PASS == pass_kind::PRESCAN) {
    if constexpr (SUB == subproblem::WARP) {
      __syncwarp();
      const size_t sub = tile * WARPS + warp;
      for (uint32_t b = lane; b < m; b += WARP_SIZE) a.H[b * a.L + sub] = my_counts[b];
    } else {
      __syncthreads();
      for (uint32_t b = tid; b < m; b += BLOCK_THREADS) {
        uint32_t s = 0;
        for (int w = 0; w < WARPS; ++w) s += counts[w * m + b];
        a.H[b * a.L + tile] = s;
      }
    }
    return;
  } else {
    // 5. subproblem offsets of each bucket and the global destination of each bucket's run
    if constexpr (SUB == subproblem::WARP) {
      warp_exclusive_scan_counts(my_counts, m);  // counts -> warp bucket starts
      const size_t sub = tile * WARPS + warp;
      for (uint32_t b = lane; b < m; b += WARP_SIZE) dest[warp * m + b] = size_t(a.G[b * a.L + sub]) - my_counts[b];
      __syncwarp();
    } else {
      __syncthreads();
      uint32_t tile_count = 0;
      if (tid < m) {  // m <= BLOCK_THREADS: thread b owns bucket b
        for (int w = 0; w < WARPS; ++w) {
          const uint32_t c = counts[w * m + tid];
          counts[w * m + tid] = tile_count;  // -> offset of warp w inside the tile's bucket
          tile_count += c;
        }
      }
      const uint32_t start = uint32_t(block_exclusive_scan<BLOCK_THREADS>((unsigned long long)tile_count, warp_sums));
      if (tid < m) {
        bucket_start[tid] = start;
        tile_counts[tid] = tile_count;
        if constexpr (PASS == pass_kind::POSTSCAN) dest[tid] = size_t(a.G[tid * a.L + tile]) - start;
      }
      if constexpr (PASS == pass_kind::ONESWEEP) {
        __syncthreads();
        lookback_tile<BLOCK_THREADS, tuning::LOOKBACK_ITEMS>(a.status, tile, m, tile_counts, tile_counts);
        __syncthreads();
        if (tid < m) dest[tid] = a.base[tid] + tile_counts[tid] - bucket_start[tid];
      }
      __syncthreads();
    }

    // 6. positions inside the subproblem
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const uint32_t b = br[k] >> 16;
      if constexpr (SUB == subproblem::WARP)
        br[k] += my_counts[b];
      else
        br[k] += bucket_start[b] + my_counts[b];
    }

    // 7. write: directly (DIRECT), or through shared memory so that runs are written coalesced
    if constexpr (!REORDER) {
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        if (full || warp_first + k * WARP_SIZE + lane < tile_valid) {
          const size_t out = dest[warp * m + (br[k] >> 16)] + (br[k] & 0xFFFFu);
          a.keys_out[out] = keys[k];
          if constexpr (HAS_VALUES) a.values_out[out] = vals[k];
        }
      }
    } else {
      // a warp's region starts at the same element index for keys and values, so that warps never
      // touch each other's bytes whatever the two element sizes
      const uint32_t region = SUB == subproblem::WARP ? warp_first : 0;
      Key *ex_keys = reinterpret_cast<Key *>(smem + lay.exchange_off + size_t(region) * ELEM_BYTES);
      uint8_t *ex_bucket = smem + lay.bucket_off + region;
      const uint32_t region_valid = SUB == subproblem::WARP
                                        ? (tile_valid > warp_first ? (tile_valid - warp_first < WARP_TILE ? tile_valid - warp_first : WARP_TILE) : 0)
                                        : tile_valid;
      auto region_sync = [] {
        if constexpr (SUB == subproblem::WARP)
          __syncwarp();
        else
          __syncthreads();
      };
      constexpr uint32_t STRIDE = SUB == subproblem::WARP ? WARP_SIZE : BLOCK_THREADS;
      constexpr int READS = ITEMS;  // a region holds STRIDE * ITEMS elements
      const uint32_t me = SUB == subproblem::WARP ? lane : tid;
      const size_t *my_dest = SUB == subproblem::WARP ? dest + warp * m : dest;

#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        if (full || warp_first + k * WARP_SIZE + lane < tile_valid) {
          ex_keys[br[k] & 0xFFFFu] = keys[k];
          ex_bucket[br[k] & 0xFFFFu] = uint8_t(br[k] >> 16);
        }
      }
      region_sync();
#pragma unroll
      for (int k = 0; k < READS; ++k) {
        const uint32_t i = k * STRIDE + me;
        if (i < region_valid) a.keys_out[my_dest[ex_bucket[i]] + i] = ex_keys[i];
      }
      if constexpr (HAS_VALUES) {
        Value *ex_vals = reinterpret_cast<Value *>(smem + lay.exchange_off + size_t(region) * ELEM_BYTES);
        region_sync();
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
          if (full || warp_first + k * WARP_SIZE + lane < tile_valid) ex_vals[br[k] & 0xFFFFu] = vals[k];
        region_sync();
#pragma unroll
        for (int k = 0; k < READS; ++k) {
          const uint32_t i = k * STRIDE + me;
          if (i < region_valid) a.values_out[my_dest[ex_bucket[i]] + i] = ex_vals[i];
        }
      }
    }
  }
}

// ---- one-pass, pass 1: bucket totals of one portion ------------------------------------------
template <typename Key, typename Op>
struct histogram_args {
  const Key *keys_in;
  size_t begin, end;
  uint32_t m;
  peer_method pm;
  Op op;
  bool stage;
  size_t stage_bytes;
  uint32_t *hist;  // m counters, zeroed
};

template <int BLOCK_THREADS, int ITEMS, typename Key, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS) multisplit_histogram_kernel(histogram_args<Key, Op> a) {
  constexpr uint32_t TILE = BLOCK_THREADS * ITEMS;
  extern __shared__ __align__(16) unsigned char smem[];
  const size_t counts_off = align_up(a.stage ? a.stage_bytes : 0, 16);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + counts_off);
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const Op op = stage_op(a.op, a.stage, smem, tid, BLOCK_THREADS);
  for (uint32_t i = tid; i < a.m; i += BLOCK_THREADS) counts[i] = 0;
  __syncthreads();

  // m <= 32: ballot histogram (seed 000, Alg. 2), lane l counts bucket l in a register;
  // m > 32: warp-aggregated shared atomics (__match_any_sync peers)
  uint32_t owned = 0;
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
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = full || warp_first + k * WARP_SIZE + lane < tile_valid;
      const uint32_t b = valid ? clamped_bucket(op, keys[k], a.m) : 0;
      if (!a.pm.use_match)
        warp_ballot_count_step(b, valid, a.pm.ballot_rounds, owned);
      else
        warp_count_step(b, valid, full ? FULL_WARP_MASK : __ballot_sync(FULL_WARP_MASK, valid), a.pm, counts);
    }
  }
  if (!a.pm.use_match && lane < a.m && owned) atomicAdd(&counts[lane], owned);
  __syncthreads();
  for (uint32_t b = tid; b < a.m; b += BLOCK_THREADS)
    if (counts[b]) atomicAdd(&a.hist[b], counts[b]);
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

// ---- three-pass: offsets from G --------------------------------------------------------------
template <typename = void>
__global__ void multisplit_offsets_from_g_kernel(const uint32_t *G, size_t L, uint32_t m, size_t n,
                                                        size_t *offsets) {
  const size_t b = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < m) offsets[b] = G[b * L];
  if (b == m) offsets[m] = n;
}

// ---- SORT fallback -----------------------------------------------------------------------------
template <typename Key, typename Op>
__global__ void multisplit_label_kernel(const Key *keys, size_t n, uint32_t m, Op op0, bool stage,
                                        uint32_t *labels, uint32_t *index) {
  extern __shared__ __align__(16) unsigned char smem[];
  const Op op = stage_op(op0, stage, smem, threadIdx.x, blockDim.x);
  __syncthreads();
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    labels[i] = clamped_bucket(op, keys[i], m);
    index[i] = uint32_t(i);
  }
}

template <typename Key, typename Value>
__global__ void multisplit_gather_kernel(const uint32_t *index, size_t n, const Key *keys_in, Key *keys_out,
                                         const Value *values_in, Value *values_out) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t src = index[i];
    keys_out[i] = keys_in[src];
    if constexpr (!std::is_same_v<Value, no_value>) values_out[i] = values_in[src];
  }
}

// offsets[b] = first position of a label >= b in the sorted labels (b = 0..m).
template <typename = void>
__global__ void multisplit_offsets_from_labels_kernel(const uint32_t *labels, size_t n, uint32_t m,
                                                             size_t *offsets) {
  const size_t b = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b > m) return;
  size_t lo = 0, len = n;
  while (len > 0) {
    const size_t half = len / 2;
    if (labels[lo + half] < b) {
      lo += half + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  offsets[b] = b == m ? n : lo;
}

}  // namespace detail
}  // namespace msplit
