// The three-pass multisplit of Ashkiani et al. ("GPU Multisplit", PPoPP 2016): one tile kernel
// body whose compile-time parameters give the prescan and postscan of the DIRECT, WARP and BLOCK
// variants, and the kernel that reads the bucket offsets out of the scanned histogram table G.
//
// A tile is BLOCK_THREADS * ITEMS consecutive elements, loaded warp-striped: warp w owns elements
// [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile and lane l holds element k * 32 + l of that
// chunk in item k. Ranking items in (k, l) order is therefore input order, which makes every
// variant stable. H and G are m x L, bucket-major (H[b * L + subproblem]; the thesis's Alg. 2
// writes i * m + j, an erratum).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/multisplit/tile.cuh"
#include "msplit/detail/tile_io.cuh"
#include "msplit/detail/warp_rank.cuh"
#include "msplit/detail/warp_scan.cuh"
#include "msplit/detail/multisplit/tuning.h"

namespace msplit {
namespace detail {

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

  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t m = a.m;
  const tile_layout lay = make_tile_layout<BLOCK_THREADS, ITEMS>(
      m, a.stage ? a.stage_bytes : 0, ELEM_BYTES, REORDER, SUB == subproblem::WARP, PASS != pass_kind::PRESCAN);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + lay.counts_off);
  size_t *dest = reinterpret_cast<size_t *>(smem + lay.dest_off);
  uint32_t *bucket_start = reinterpret_cast<uint32_t *>(smem + lay.scan_off);
  unsigned long long *warp_sums =
      reinterpret_cast<unsigned long long *>(smem + align_up(lay.scan_off + 2 * m * sizeof(uint32_t), 16));
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;

  // 1. stage the functor, clear the warp histograms, take a tile
  const Op op = stage_op(a.op, a.stage, smem + lay.stage_off, tid, BLOCK_THREADS);
  for (uint32_t i = tid; i < WARPS * m; i += BLOCK_THREADS) counts[i] = 0;
  const size_t tile = blockIdx.x;
  __syncthreads();
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

  // 4. prescan: publish this tile's subproblem histograms (column of H) and stop; the call's
  //    first kernel, so it clears the error record (nothing in these passes can record one)
  if constexpr (PASS == pass_kind::PRESCAN) {
    if (tile == 0 && tid == 0) a.stall.record->code = MSPLIT_SUCCESS;
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
        if constexpr (PASS == pass_kind::POSTSCAN) dest[tid] = size_t(a.G[tid * a.L + tile]) - start;
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
      write_runs<STRIDE, READS>(a.keys_out, ex_keys, ex_bucket, my_dest, me, region_valid);
      if constexpr (HAS_VALUES) {
        Value *ex_vals = reinterpret_cast<Value *>(smem + lay.exchange_off + size_t(region) * ELEM_BYTES);
        region_sync();
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
          if (full || warp_first + k * WARP_SIZE + lane < tile_valid) ex_vals[br[k] & 0xFFFFu] = vals[k];
        region_sync();
        write_runs<STRIDE, READS>(a.values_out, ex_vals, ex_bucket, my_dest, me, region_valid);
      }
    }
  }
}

// ---- three-pass: offsets from G --------------------------------------------------------------
template <typename = void>
__global__ void multisplit_offsets_from_g_kernel(const uint32_t *G, size_t L, uint32_t m, size_t n,
                                                        size_t *offsets) {
  const size_t b = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < m) offsets[b] = G[b * L];
  if (b == m) offsets[m] = n;
}

}  // namespace detail
}  // namespace msplit
