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

// A three-pass tile: its place in the input, its elements in registers (warp-striped) and, per
// element, its bucket (high 16 bits) and its rank among the warp's elements of that bucket (low 16
// bits: < TILE), packed to save registers; the warp's bucket counts are in `counts` (WARPS x m).
template <int ITEMS, typename Key, typename VReg>
struct ranked_tile {
  size_t begin;
  uint32_t valid, warp_first;
  bool full;
  Key keys[ITEMS];
  VReg vals[ITEMS];
  uint32_t br[ITEMS];
};

// The steps every three-pass tile kernel begins with: stage the functor, clear the warp
// histograms, load the tile warp-striped (values only if LOAD_VALUES) and bucket and rank its
// elements within their warp.
template <bool LOAD_VALUES, int BLOCK_THREADS, int ITEMS, typename Key, typename Value, typename Op, typename VReg>
__device__ __forceinline__ void load_and_rank_tile(const tile_args<Key, Value, Op> &a, unsigned char *smem,
                                                   const tile_layout &lay, uint32_t *counts,
                                                   ranked_tile<ITEMS, Key, VReg> &t) {
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr uint32_t TILE = BLOCK_THREADS * ITEMS;
  static_assert(TILE <= 0xFFFF, "ranks are packed into 16 bits");
  const uint32_t m = a.m;
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const Op op = stage_op(a.op, a.stage, smem + lay.stage_off, tid, BLOCK_THREADS);
  for (uint32_t i = tid; i < WARPS * m; i += BLOCK_THREADS) counts[i] = 0;
  __syncthreads();
  t.begin = a.begin + size_t(blockIdx.x) * TILE;
  t.valid = uint32_t(a.end - t.begin < TILE ? a.end - t.begin : TILE);
  t.full = t.valid == TILE;
  t.warp_first = warp * WARP_SIZE * ITEMS;
  const bool full = t.full;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const uint32_t idx = t.warp_first + k * WARP_SIZE + lane;
    if (full || idx < t.valid) {
      t.keys[k] = a.keys_in[t.begin + idx];
      if constexpr (LOAD_VALUES) t.vals[k] = a.values_in[t.begin + idx];
    }
  }
  uint32_t *my_counts = counts + warp * m;
  if (!a.pm.use_match) {
    // m <= 32: ballots, each lane keeps the running count of bucket `lane` in a register
    uint32_t run = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = full || t.warp_first + k * WARP_SIZE + lane < t.valid;
      const uint32_t b = valid ? clamped_bucket(op, t.keys[k], m) : 0;
      t.br[k] = (b << 16) | warp_ballot_rank_step(b, valid, a.pm.ballot_rounds, run);
    }
    if (lane < m) my_counts[lane] = run;
  } else {
    // m > 32: peers by __match_any_sync, running counts in shared memory
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const bool valid = full || t.warp_first + k * WARP_SIZE + lane < t.valid;
      const unsigned valid_mask = full ? FULL_WARP_MASK : __ballot_sync(FULL_WARP_MASK, valid);
      const uint32_t b = valid ? clamped_bucket(op, t.keys[k], m) : 0;
      t.br[k] = (b << 16) | warp_rank_step(b, valid, valid_mask, a.pm, my_counts);
    }
  }
}

// The DIRECT variant's prescan (the call's first kernel, so it clears the error record: nothing
// in these passes can record one) and postscan.
template <pass_kind PASS, int BLOCK_THREADS, int ITEMS, typename Key, typename Value, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS, tuning::MULTISPLIT_MIN_BLOCKS_PER_SM)
    multisplit_tile_kernel(tile_args<Key, Value, Op> a) {
  constexpr bool HAS_VALUES = !std::is_same_v<Value, no_value>;
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  static_assert(BLOCK_THREADS % WARP_SIZE == 0, "whole warps");

  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t m = a.m;
  const tile_layout lay =
      make_tile_layout<BLOCK_THREADS, ITEMS>(m, a.stage ? a.stage_bytes : 0, 1, false, true, PASS != pass_kind::PRESCAN);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + lay.counts_off);
  size_t *dest = reinterpret_cast<size_t *>(smem + lay.dest_off);
  const unsigned lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  const size_t tile = blockIdx.x;
  using VReg = std::conditional_t<HAS_VALUES, Value, char>;
  ranked_tile<ITEMS, Key, VReg> t;
  load_and_rank_tile<HAS_VALUES && PASS != pass_kind::PRESCAN, BLOCK_THREADS>(a, smem, lay, counts, t);
  uint32_t *my_counts = counts + warp * m;
  const size_t sub = tile * WARPS + warp;
  if constexpr (PASS == pass_kind::PRESCAN) {
    // publish this tile's warp histograms (a column of H per warp)
    if (tile == 0 && threadIdx.x == 0) a.stall.record->code = MSPLIT_SUCCESS;
    __syncwarp();
    for (uint32_t b = lane; b < m; b += WARP_SIZE) a.H[b * a.L + sub] = my_counts[b];
  } else {
    // each element to G's start of its warp's run of its bucket, plus its rank in that run
    warp_exclusive_scan_counts(my_counts, m);  // counts -> warp bucket starts
    for (uint32_t b = lane; b < m; b += WARP_SIZE) dest[warp * m + b] = size_t(a.G[b * a.L + sub]) - my_counts[b];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (t.full || t.warp_first + k * WARP_SIZE + lane < t.valid) {
        const uint32_t b = t.br[k] >> 16;
        const size_t out = dest[warp * m + b] + my_counts[b] + (t.br[k] & 0xFFFFu);
        a.keys_out[out] = t.keys[k];
        if constexpr (HAS_VALUES) a.values_out[out] = t.vals[k];
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
