// The three-pass multisplit of Ashkiani et al. ("GPU Multisplit", PPoPP 2016) as the library runs
// it: its DIRECT variant (warp subproblems, each element written straight to its place), whose
// prescan publishes the warp histograms into H and whose postscan reads the scanned table G, and
// the kernel that reads the bucket offsets out of G. (The paper's WARP and BLOCK variants, which
// reorder in shared memory first, measured slower than the one-pass sweep at every m where they
// beat DIRECT; they are reproduced for the benchmark only, in primitives/bench.)
//
// A tile is BLOCK_THREADS * ITEMS consecutive elements, loaded warp-striped: warp w owns elements
// [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile and lane l holds element k * 32 + l of that
// chunk in item k. Ranking items in (k, l) order is therefore input order, which makes the
// multisplit stable. H and G are m x L, bucket-major (H[b * L + subproblem]; the thesis's Alg. 2
// writes i * m + j, an erratum).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/bucket.cuh"
#include "msplit/detail/multisplit/tile.cuh"
#include "msplit/detail/warp_rank.cuh"
#include "msplit/detail/warp_scan.cuh"
#include "msplit/detail/multisplit/tuning.h"

namespace msplit {
namespace detail {

// The DIRECT variant's prescan (the call's first kernel, so it clears the error record: nothing
// in these passes can record one) and postscan. Steps 1-3 are written out here rather than shared
// with the benchmark's reproductions of the paper's reordering variants through a device function
// that fills a tile struct: shared, even forced inline, they cost this kernel 121 more SASS
// instructions in the postscan of u32 keys (3,764 against 3,643) and 134 in the prescan, and its
// rate in msplit_bench (DIRECT, u32 keys, m = 2) fell 9 % on the H200.
template <pass_kind PASS, int BLOCK_THREADS, int ITEMS, typename Key, typename Value, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS, tuning::MULTISPLIT_MIN_BLOCKS_PER_SM)
    multisplit_tile_kernel(tile_args<Key, Value, Op> a) {
  constexpr bool HAS_VALUES = !std::is_same_v<Value, no_value>;
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  constexpr uint32_t TILE = BLOCK_THREADS * ITEMS;
  static_assert(BLOCK_THREADS % WARP_SIZE == 0, "whole warps");

  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t m = a.m;
  const tile_layout lay =
      make_tile_layout<BLOCK_THREADS, ITEMS>(m, a.stage ? a.stage_bytes : 0, 1, false, true, PASS != pass_kind::PRESCAN);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + lay.counts_off);
  size_t *dest = reinterpret_cast<size_t *>(smem + lay.dest_off);
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

  // 2. load warp-striped (the prescan needs no values)
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

  if constexpr (PASS == pass_kind::PRESCAN) {
    // 4. prescan: publish this tile's warp histograms (a column of H per warp) and stop
    if (tile == 0 && tid == 0) a.stall.record->code = MSPLIT_SUCCESS;
    __syncwarp();
    const size_t sub = tile * WARPS + warp;
    for (uint32_t b = lane; b < m; b += WARP_SIZE) a.H[b * a.L + sub] = my_counts[b];
  } else {
    // 5. the warp's bucket starts, and the global destination of each of its bucket runs
    warp_exclusive_scan_counts(my_counts, m);  // counts -> warp bucket starts
    const size_t sub = tile * WARPS + warp;
    for (uint32_t b = lane; b < m; b += WARP_SIZE) dest[warp * m + b] = size_t(a.G[b * a.L + sub]) - my_counts[b];
    __syncwarp();
    // 6. positions inside the warp's subproblem
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) br[k] += my_counts[br[k] >> 16];
    // 7. write each element straight to its place
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (full || warp_first + k * WARP_SIZE + lane < tile_valid) {
        const size_t out = dest[warp * m + (br[k] >> 16)] + (br[k] & 0xFFFFu);
        a.keys_out[out] = keys[k];
        if constexpr (HAS_VALUES) a.values_out[out] = vals[k];
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
