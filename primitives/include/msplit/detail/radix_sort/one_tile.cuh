// A sort of at most one sweep tile (radix_shape<U, V>::TILE elements) by one block, every pass in
// shared memory: no histogram, no look-back and no second buffer, so the call needs no temporary
// storage (it asks for 1 byte, so that the storage pointer of the second call is not NULL, as CUB
// does for the inputs it sorts in one tile). Each pass ranks the keys by their digit as the sweep
// does (warp votes, the warps' counters scanned per digit), exchanges keys and values through
// shared memory into the pass's order, and loads them back for the next pass; the last pass's
// order is written out, coalesced.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/radix_sort/sweep.cuh"
#include "msplit/detail/tile_io.cuh"

namespace msplit {
namespace detail {

template <typename U, typename V>
struct radix_one_tile_args {
  const U *keys_in;
  U *keys_out;
  const V *values_in;
  V *values_out;
  uint32_t n;  // at most THREADS x ITEMS
  key_codec<U> codec;
  int begin_bit, end_bit;
  error_record *record;  // the call's, cleared here: the call's only kernel, which cannot fail
};

// One block of THREADS; the shared memory of a sweep block (radix_sweep_smem), whose exchange
// buffers hold the whole input. Element e is item k of lane l of warp w where e = w * 32 * ITEMS +
// k * 32 + l, in every pass: the ranks count in that order, so each pass is stable.
template <int THREADS, int ITEMS, typename U, typename V>
__global__ void __launch_bounds__(THREADS) radix_one_tile_kernel(radix_one_tile_args<U, V> a) {
  using L = radix_sweep_smem<THREADS, ITEMS, U, V>;
  constexpr bool HAS_VALUES = L::HAS_VALUES;
  constexpr int WARPS = THREADS / WARP_SIZE;
  constexpr uint32_t WARP_TILE = WARP_SIZE * ITEMS;
  static_assert(THREADS % WARP_SIZE == 0 && THREADS >= int(RADIX_DIGITS), "a thread per digit, whole warps");
  static_assert(L::TILE <= 0xFFFF, "ranks and positions are packed into 16 bits");

  extern __shared__ __align__(16) unsigned char smem[];
  U *ex_keys = reinterpret_cast<U *>(smem + L::KEYS);
  uint32_t *warp_hist = reinterpret_cast<uint32_t *>(smem + L::HIST);  // WARPS x RADIX_DIGITS
  uint32_t *warp_sums = reinterpret_cast<uint32_t *>(smem + L::WARP_SUMS);
  using VReg = std::conditional_t<HAS_VALUES, V, char>;
  VReg *ex_vals = reinterpret_cast<VReg *>(smem + L::VALUES);
  const unsigned tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const uint32_t first = warp * WARP_TILE + lane;
  const bool full = a.n == uint32_t(L::TILE);
  auto item_valid = [&](int k) { return full || first + k * WARP_SIZE < a.n; };
  if (tid == 0) a.record->code = MSPLIT_SUCCESS;

  U keys[ITEMS];
  VReg vals[ITEMS];
  load_items(keys, a.keys_in, first, a.n, full, false);
  if constexpr (HAS_VALUES) load_items(vals, a.values_in, first, a.n, full, false);
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) keys[k] = item_valid(k) ? a.codec.encode(keys[k]) : U(0);
  uint32_t *my_hist = warp_hist + warp * RADIX_DIGITS;

  for (int shift = a.begin_bit; shift < a.end_bit; shift += tuning::RADIX_BITS) {
    const int bits = a.end_bit - shift < tuning::RADIX_BITS ? a.end_bit - shift : tuning::RADIX_BITS;
    const uint32_t mask = (1u << bits) - 1;
    for (uint32_t i = tid; i < WARPS * RADIX_DIGITS; i += THREADS) warp_hist[i] = 0;
    __syncthreads();
    // 1. rank, 2. each warp's place in each digit's run
    uint32_t dr[ITEMS];
    radix_rank_items<false>(keys, dr, full, item_valid, a.codec, uint32_t(shift), mask, my_hist);
    __syncthreads();
    const uint32_t count = radix_warp_offsets<WARPS>(warp_hist, tid);
    radix_add_start<WARPS>(warp_hist, tid, block_exclusive_scan<THREADS>(count, warp_sums));
    __syncthreads();
    // 3. exchange into the pass's order, then load back by element
    for_each_item<ITEMS>(full, item_valid, [&](int k) {
      const uint32_t pos = (dr[k] & 0xFFFFu) + my_hist[dr[k] >> 16];
      ex_keys[pos] = keys[k];
      if constexpr (HAS_VALUES) ex_vals[pos] = vals[k];
    });
    __syncthreads();
    for_each_item<ITEMS>(full, item_valid, [&](int k) {
      keys[k] = ex_keys[first + k * WARP_SIZE];
      if constexpr (HAS_VALUES) vals[k] = ex_vals[first + k * WARP_SIZE];
    });
    __syncthreads();  // the next pass clears the counters and exchanges again
  }

  for_each_item<ITEMS>(full, item_valid, [&](int k) {
    a.keys_out[first + k * WARP_SIZE] = a.codec.decode(keys[k]);
    if constexpr (HAS_VALUES) a.values_out[first + k * WARP_SIZE] = vals[k];
  });
}

}  // namespace detail
}  // namespace msplit
