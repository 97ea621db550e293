// A sort by at most tuning::RADIX_SHORT_MAX_BITS bits is one pass over at most 64 digits, which
// is exactly a multisplit with a bit-field bucket: it runs as the one-pass multisplit
// (detail/multisplit/one_pass.cuh), whose thread-private counters rank few buckets faster than
// the 256-digit sweep's warp votes. The keys are moved as they are; only the bucket functor
// looks at their order code.
//
// Temporary storage (radix_short_plan): per portion m bucket totals (u32), a tile counter and
// m bucket starts (size_t), and m look-back words per tile of the largest portion.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/error.cuh"
#include "msplit/detail/multisplit/dispatch.cuh"
#include "msplit/detail/radix_sort/key_codec.cuh"
#include "msplit/detail/radix_sort/plan.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/multisplit/tuning.h"
#include "msplit/detail/radix_sort/tuning.h"

namespace msplit {
namespace detail {

// The bucket of a key: bits [shift, shift + log2 m) of its order code.
template <typename U>
struct radix_digit_bucket {
  key_codec<U> codec;
  uint32_t shift, mask;
  __device__ __forceinline__ uint32_t operator()(U key) const { return uint32_t(codec.encode(key) >> shift) & mask; }
};

template <typename U, typename V>
struct radix_short_shape {
  static constexpr int THREADS = tuning::MULTISPLIT_BLOCK_THREADS;
  static constexpr int ITEMS =
      tuning::multisplit_items_per_thread<sizeof(U), std::is_same_v<V, no_value> ? 0 : sizeof(V)>::value;
  static constexpr size_t TILE = size_t(THREADS) * ITEMS;
  static constexpr int HIST_ITEMS = tuning::multisplit_items_per_thread<sizeof(U), 0>::value;
};

// Pieces, after the error record's slot: 0 hist (portions x m u32) | 1 counters (portions u32) |
// 2 status (portion tiles x m u32) | 3 base (portions x m size_t); the record and 0..2 are zeroed
// before the first portion.
struct radix_short_plan : radix_portions {
  size_t off[5];
  size_t total;
};

template <typename U, typename V>
inline radix_short_plan make_radix_short_plan(size_t n, int bits) {
  constexpr size_t TILE = radix_short_shape<U, V>::TILE;
  const size_t m = size_t(1) << bits;
  radix_short_plan p{};
  static_cast<radix_portions &>(p) = split_portions(n, TILE);
  const size_t sizes[4] = {p.portions * m * sizeof(uint32_t), p.portions * sizeof(uint32_t),
                           p.portion_tiles * m * sizeof(uint32_t), p.portions * m * sizeof(size_t)};
  p.total = lay_out(sizes, p.off);
  return p;
}

// The one-pass multisplit's sweep, compiled for bucket widths 2, 4 and 6 only (a narrower range
// runs in the next width's kernel, which takes any m up to its 2^BITS): fewer instantiations.
template <typename U, typename V>
inline msplit_status launch_radix_short_sweep(const tile_args<U, V, radix_digit_bucket<U>> &a, int bits,
                                              size_t grid, cudaStream_t stream) {
  static_assert(tuning::RADIX_SHORT_MAX_BITS <= 6, "the widths compiled below");
  if (bits <= 2) return launch_onesweep_bits<2>(a, grid, stream);
  if (bits <= 4) return launch_onesweep_bits<4>(a, grid, stream);
  return launch_onesweep_bits<6>(a, grid, stream);
}

// Sorts keys_in -> keys_out (and the values) by the `bits` bits of the code from `shift` on.
template <typename U, typename V>
msplit_status radix_short_sort(const radix_short_plan &plan, unsigned char *temp, const U *keys_in, U *keys_out,
                               const V *values_in, V *values_out, size_t n, int shift, int bits,
                               key_codec<U> codec, cudaStream_t stream) {
  using S = radix_short_shape<U, V>;
  using Op = radix_digit_bucket<U>;
  constexpr int BT = S::THREADS;
  const uint32_t m = 1u << bits;
  const Op op{codec, uint32_t(shift), m - 1};
  const peer_method pm{false, bits};
  uint32_t *hist = reinterpret_cast<uint32_t *>(temp + plan.off[0]);
  uint32_t *counters = reinterpret_cast<uint32_t *>(temp + plan.off[1]);
  uint32_t *status = reinterpret_cast<uint32_t *>(temp + plan.off[2]);
  size_t *base = reinterpret_cast<size_t *>(temp + plan.off[3]);
  const size_t portion_elems = plan.portion_tiles * S::TILE;
  MSPLIT_CUDA_TRY(cudaMemsetAsync(temp, 0, plan.off[3], stream));
  // 1. bucket totals per portion
  int device = 0, sms = 1;
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  auto hkernel = multisplit_histogram_kernel<BT, S::HIST_ITEMS, U, Op>;
  const size_t hsmem = histogram_smem_bytes(m, 0);
  MSPLIT_TRY(prepare_kernel(hkernel, hsmem));
  for (size_t p = 0; p < plan.portions; ++p) {
    histogram_args<U, Op> h{keys_in, p * portion_elems, 0, m, pm, op, false, 0, hist + p * m};
    h.end = h.begin + portion_elems < n ? h.begin + portion_elems : n;
    const size_t htiles = (h.end - h.begin + size_t(BT) * S::HIST_ITEMS - 1) / (size_t(BT) * S::HIST_ITEMS);
    const size_t max_grid = size_t(sms) * tuning::MULTISPLIT_HISTOGRAM_BLOCKS_PER_SM;
    hkernel<<<unsigned(htiles < max_grid ? htiles : max_grid), BT, hsmem, stream>>>(h);
    MSPLIT_LAUNCH_CHECK();
  }
  // 2. bucket starts of each portion
  multisplit_bucket_starts_kernel<BT><<<1, BT, 0, stream>>>(hist, base, nullptr, m, uint32_t(plan.portions), n);
  MSPLIT_LAUNCH_CHECK();
  // 3. one sweep per portion
  for (size_t p = 0; p < plan.portions; ++p) {
    if (p > 0) MSPLIT_CUDA_TRY(cudaMemsetAsync(status, 0, plan.portion_tiles * m * sizeof(uint32_t), stream));
    tile_args<U, V, Op> a{keys_in, keys_out, values_in, values_out, p * portion_elems, 0, m, pm, op, false, 0,
                          nullptr, nullptr, 0, status, counters + p, base + p * m,
                          lookback_stall{temp_record(temp), MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_RADIX_SORT}};
    a.end = a.begin + portion_elems < n ? a.begin + portion_elems : n;
    MSPLIT_TRY(launch_radix_short_sweep(a, bits, (a.end - a.begin + S::TILE - 1) / S::TILE, stream));
  }
  return MSPLIT_SUCCESS;
}

}  // namespace detail
}  // namespace msplit
