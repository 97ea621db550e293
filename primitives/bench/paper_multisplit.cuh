// The paper's WMS and BMS multisplits (Ashkiani, Davidson, Meyer and Owens, "GPU Multisplit",
// PPoPP 2016), reproduced for msplit_bench: three passes like the library's DIRECT variant, but
// each tile is reordered by bucket in shared memory before it is written, so that a warp's (WMS)
// or the whole block's (BMS) run of a bucket goes out coalesced. The library does not ship them:
// its one-pass sweep outruns both at every m (the table in msplit/detail/multisplit/dispatch.cuh).
// msplit_bench checks every run of them against the library's result.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include <msplit/multisplit.cuh>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/cub_backend.h"
#include "msplit/detail/tile_io.cuh"

namespace paper {

using msplit::detail::no_value;
using msplit::detail::pass_kind;
using msplit::detail::tile_args;
using msplit::detail::tile_layout;
using msplit::detail::WARP_SIZE;

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

// The steps both reordering kernels begin with: stage the functor, clear the warp histograms, load
// the tile warp-striped (values only if LOAD_VALUES) and bucket and rank its elements within their
// warp; the library's DIRECT kernel (msplit/detail/multisplit/three_pass.cuh) takes the same steps
// in its own body, which sharing this function made slower.
template <bool LOAD_VALUES, int BLOCK_THREADS, int ITEMS, typename Key, typename Value, typename Op, typename VReg>
__device__ __forceinline__ void load_and_rank_tile(const tile_args<Key, Value, Op> &a, unsigned char *smem,
                                                   const tile_layout &lay, uint32_t *counts,
                                                   ranked_tile<ITEMS, Key, VReg> &t) {
  using namespace msplit::detail;
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

// Where a tile's runs are formed: per warp (WMS, a subproblem per warp) or per block (BMS).
enum class level { WARP, BLOCK };

template <level LV, pass_kind PASS, int BLOCK_THREADS, int ITEMS, typename Key, typename Value, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS, msplit::tuning::MULTISPLIT_MIN_BLOCKS_PER_SM)
    reorder_tile_kernel(tile_args<Key, Value, Op> a) {
  using namespace msplit::detail;
  constexpr bool HAS_VALUES = !std::is_same_v<Value, no_value>;
  constexpr bool WARP_SUB = LV == level::WARP;
  constexpr int WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  constexpr size_t ELEM_BYTES = sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);

  extern __shared__ __align__(16) unsigned char smem[];
  const uint32_t m = a.m;
  const tile_layout lay = make_tile_layout<BLOCK_THREADS, ITEMS>(m, a.stage ? a.stage_bytes : 0, ELEM_BYTES, true,
                                                                 WARP_SUB, PASS != pass_kind::PRESCAN);
  uint32_t *counts = reinterpret_cast<uint32_t *>(smem + lay.counts_off);
  size_t *dest = reinterpret_cast<size_t *>(smem + lay.dest_off);
  uint32_t *bucket_start = reinterpret_cast<uint32_t *>(smem + lay.scan_off);
  unsigned long long *warp_sums =
      reinterpret_cast<unsigned long long *>(smem + align_up(lay.scan_off + 2 * m * sizeof(uint32_t), 16));
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const size_t tile = blockIdx.x;
  using VReg = std::conditional_t<HAS_VALUES, Value, char>;
  ranked_tile<ITEMS, Key, VReg> t;
  load_and_rank_tile<HAS_VALUES && PASS != pass_kind::PRESCAN, BLOCK_THREADS>(a, smem, lay, counts, t);
  uint32_t *my_counts = counts + warp * m;

  if constexpr (PASS == pass_kind::PRESCAN) {
    // this tile's subproblem histograms: a column of H per warp (WMS) or per tile (BMS)
    if (tile == 0 && tid == 0) a.stall.record->code = MSPLIT_SUCCESS;
    if constexpr (WARP_SUB) {
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
    // the subproblem's bucket starts and each bucket run's global destination
    if constexpr (WARP_SUB) {
      warp_exclusive_scan_counts(my_counts, m);
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
        dest[tid] = size_t(a.G[tid * a.L + tile]) - start;
      }
      __syncthreads();
    }
    // each element's place in its subproblem, bucket-major
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const uint32_t b = t.br[k] >> 16;
      if constexpr (WARP_SUB)
        t.br[k] += my_counts[b];
      else
        t.br[k] += bucket_start[b] + my_counts[b];
    }
    // reorder in shared memory, then write the runs coalesced. A warp's region starts at the same
    // element index for keys and values, so that warps never touch each other's bytes whatever
    // the two element sizes.
    const uint32_t region = WARP_SUB ? t.warp_first : 0;
    Key *ex_keys = reinterpret_cast<Key *>(smem + lay.exchange_off + size_t(region) * ELEM_BYTES);
    uint8_t *ex_bucket = smem + lay.bucket_off + region;
    const uint32_t region_valid =
        WARP_SUB ? (t.valid > t.warp_first ? (t.valid - t.warp_first < WARP_TILE ? t.valid - t.warp_first : WARP_TILE)
                                           : 0)
                 : t.valid;
    auto region_sync = [] {
      if constexpr (WARP_SUB)
        __syncwarp();
      else
        __syncthreads();
    };
    constexpr uint32_t STRIDE = WARP_SUB ? WARP_SIZE : BLOCK_THREADS;
    const uint32_t me = WARP_SUB ? lane : tid;
    const size_t *my_dest = WARP_SUB ? dest + warp * m : dest;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      if (t.full || t.warp_first + k * WARP_SIZE + lane < t.valid) {
        ex_keys[t.br[k] & 0xFFFFu] = t.keys[k];
        ex_bucket[t.br[k] & 0xFFFFu] = uint8_t(t.br[k] >> 16);
      }
    }
    region_sync();
    write_runs<STRIDE, ITEMS>(a.keys_out, ex_keys, ex_bucket, my_dest, me, region_valid);
    if constexpr (HAS_VALUES) {
      Value *ex_vals = reinterpret_cast<Value *>(smem + lay.exchange_off + size_t(region) * ELEM_BYTES);
      region_sync();
#pragma unroll
      for (int k = 0; k < ITEMS; ++k)
        if (t.full || t.warp_first + k * WARP_SIZE + lane < t.valid) ex_vals[t.br[k] & 0xFFFFu] = t.vals[k];
      region_sync();
      write_runs<STRIDE, ITEMS>(a.values_out, ex_vals, ex_bucket, my_dest, me, region_valid);
    }
  }
}

template <level LV, pass_kind PASS, typename Key, typename Value, typename Op>
msplit_status launch_reorder(const tile_args<Key, Value, Op> &a, size_t grid, cudaStream_t stream) {
  using namespace msplit::detail;
  constexpr int BT = msplit::tuning::MULTISPLIT_BLOCK_THREADS;
  constexpr int ITEMS = msplit::tuning::multisplit_items_per_thread<sizeof(Key),
                                                                    std::is_same_v<Value, no_value> ? 0 : sizeof(Value)>::value;
  constexpr size_t ELEM = sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);
  const tile_layout lay = make_tile_layout<BT, ITEMS>(a.m, a.stage ? a.stage_bytes : 0, ELEM, true,
                                                      LV == level::WARP, PASS != pass_kind::PRESCAN);
  auto kernel = reorder_tile_kernel<LV, PASS, BT, ITEMS, Key, Value, Op>;
  MSPLIT_TRY(prepare_kernel(kernel, lay.total));
  kernel<<<unsigned(grid), BT, lay.total, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

// WMS (LV = WARP) or BMS (LV = BLOCK) of keys (Value = no_value) or pairs, with the library's
// conventions: a size query with d_temp == NULL, the error record first in d_temp; m <= 256 and
// n < 2^32.
template <level LV, typename Key, typename Value, typename Op>
msplit_status multisplit(void *d_temp, size_t *temp_bytes, const Key *keys_in, Key *keys_out, const Value *values_in,
                         Value *values_out, size_t n, uint32_t m, Op op, size_t *offsets, cudaStream_t stream) {
  using namespace msplit::detail;
  constexpr int BT = msplit::tuning::MULTISPLIT_BLOCK_THREADS;
  constexpr int ITEMS = msplit::tuning::multisplit_items_per_thread<sizeof(Key),
                                                                    std::is_same_v<Value, no_value> ? 0 : sizeof(Value)>::value;
  constexpr size_t TILE = size_t(BT) * ITEMS;
  if (m == 0 || m > msplit::tuning::MULTISPLIT_MAX_FAST_BUCKETS || n > 0xFFFFFFFFull)
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "paper multisplit: m = %u, n = %zu (need 1 <= m <= %u, n < 2^32)", m,
                     n, msplit::tuning::MULTISPLIT_MAX_FAST_BUCKETS);
  const size_t tiles = (n + TILE - 1) / TILE;
  const size_t L = LV == level::BLOCK ? tiles : tiles * (BT / WARP_SIZE);
  const size_t table = align_up(m * L * sizeof(uint32_t), TEMP_ALIGN);
  size_t cub_bytes = 0;
  MSPLIT_TRY(exclusive_sum_u32(nullptr, &cub_bytes, nullptr, nullptr, m * L, 0));
  const size_t total = RECORD_BYTES + 2 * table + align_up(cub_bytes, TEMP_ALIGN);
  if (!d_temp) {
    *temp_bytes = total;
    return MSPLIT_SUCCESS;
  }
  if (*temp_bytes < total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "paper multisplit: temp_bytes is %zu, %zu needed", *temp_bytes, total);
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  if (n == 0) return clear_record(temp, stream);
  uint32_t *H = reinterpret_cast<uint32_t *>(temp + RECORD_BYTES);
  uint32_t *G = reinterpret_cast<uint32_t *>(temp + RECORD_BYTES + table);
  size_t stage_bytes = stage_bytes_of(op);
  const bool stage = msplit::detail::is_staged<Op>::value && stage_bytes <= msplit::tuning::MULTISPLIT_MAX_STAGE_BYTES;
  if (!stage) stage_bytes = 0;
  const peer_method pm = choose_peer_method(m);
  tile_args<Key, Value, Op> a{keys_in, keys_out, values_in, values_out, 0, n, m, pm, op, stage,
                              stage_bytes, H, G, L, nullptr, nullptr, nullptr,
                              lookback_stall{temp_record(temp), 0, MSPLIT_PRIMITIVE_MULTISPLIT}};
  MSPLIT_TRY((launch_reorder<LV, pass_kind::PRESCAN>(a, tiles, stream)));
  MSPLIT_TRY(exclusive_sum_u32(temp + RECORD_BYTES + 2 * table, &cub_bytes, H, G, size_t(m) * L, stream));
  MSPLIT_TRY((launch_reorder<LV, pass_kind::POSTSCAN>(a, tiles, stream)));
  if (offsets) {
    multisplit_offsets_from_g_kernel<><<<unsigned((m + 1 + 255) / 256), 256, 0, stream>>>(G, L, m, n, offsets);
    MSPLIT_LAUNCH_CHECK();
  }
  return MSPLIT_SUCCESS;
}

}  // namespace paper
