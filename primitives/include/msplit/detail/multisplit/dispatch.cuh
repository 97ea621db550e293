// Multisplit dispatch (the "device" level): checks arguments, plans and sizes temporary storage,
// and launches the passes of the chosen variant: three_pass.cuh, one_pass.cuh, sort_fallback.cuh.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/bucket.cuh"
#include "msplit/detail/cub_backend.h"
#include "msplit/detail/error.cuh"
#include "msplit/detail/multisplit/one_pass.cuh"
#include "msplit/detail/multisplit/sort_fallback.cuh"
#include "msplit/detail/multisplit/three_pass.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/multisplit.h"
#include "msplit/detail/multisplit/tuning.h"

namespace msplit {

// AUTO's choice, from msplit_bench on the H100 (n = 2^28, delta buckets, CUDA 13.0). Uniform keys,
// G keys/s (WARP and BLOCK: the paper's variants that reorder in shared memory first, reproduced
// in primitives/bench; not in the library, as the one-pass sweep beats them at every m):
//   m          2     3     4     8    16    32    64   128   256
//   ONEPASS  181   184   189   176   167   161   144   120   104
//   DIRECT   181   160   158   111    64    51    40    32    27
//   WARP     167   147   147   129   117   104    66    50    34
//   BLOCK    156   141   141   127   115   104    69    62    57
// Pairs (u32 + u32): DIRECT best at m = 2 (124 vs 117), ONEPASS from 3 up (122 at 3, 129 at 8,
// 120 at 32, 67 at 256). The other distributions rank them the same, except that BLOCK wins
// from m = 64 when nearly every key is in one bucket (__match_any_sync is cheap then). So:
// DIRECT for m <= 2, ONEPASS above (and for n >= 2^32, which only it counts to), the sort
// above 256.
inline bool multisplit_variant_known(msplit_variant v) {
  return v == MSPLIT_VARIANT_AUTO || v == MSPLIT_VARIANT_DIRECT || v == MSPLIT_VARIANT_ONEPASS ||
         v == MSPLIT_VARIANT_SORT;
}

inline msplit_variant multisplit_resolve_variant(msplit_variant requested, uint32_t num_buckets,
                                                 size_t key_bytes, size_t value_bytes, size_t n) {
  (void)key_bytes;
  (void)value_bytes;
  if (num_buckets > tuning::MULTISPLIT_MAX_FAST_BUCKETS) return MSPLIT_VARIANT_SORT;
  if (requested != MSPLIT_VARIANT_AUTO) return requested;
  if (n > 0xFFFFFFFFull) return MSPLIT_VARIANT_ONEPASS;
  if (num_buckets <= 2) return MSPLIT_VARIANT_DIRECT;
  return MSPLIT_VARIANT_ONEPASS;
}

namespace detail {

// Pieces of temporary storage, in order, after the error record's slot; sizes are rounded to
// TEMP_ALIGN.
struct multisplit_plan {
  msplit_variant variant;
  size_t tiles, portion_tiles, portions, L;
  // ONEPASS: hist (portions x m u32) | counters (portions u32) | status (portion_tiles x m u32) |
  //          base (portions x m size_t).   3-pass: H | G | cub.   SORT: labels0/1 | index0/1 | cub
  size_t off[6];
  size_t zero_bytes;  // ONEPASS: bytes from 0 (the record too) to zero before the first portion
  size_t cub_bytes;
  size_t total;
};

inline peer_method choose_peer_method(uint32_t m) {
  if (m <= tuning::MULTISPLIT_BALLOT_MAX_BUCKETS) return peer_method{false, ceil_log2(m)};
  return peer_method{true, 0};
}

template <int TILE>
inline msplit_status make_plan(multisplit_plan &p, size_t n, uint32_t m, msplit_variant requested,
                               size_t key_bytes, size_t value_bytes) {
  p = multisplit_plan{};
  p.variant = multisplit_resolve_variant(requested, m, key_bytes, value_bytes, n);
  p.tiles = (n + TILE - 1) / TILE;
  size_t sizes[6] = {0, 0, 0, 0, 0, 0};
  switch (p.variant) {
    case MSPLIT_VARIANT_ONEPASS: {
      const size_t max_portion_tiles = LOOKBACK_MAX_PORTION / TILE;
      p.portion_tiles = p.tiles < max_portion_tiles ? p.tiles : max_portion_tiles;
      if (p.portion_tiles == 0) p.portion_tiles = 1;
      p.portions = (p.tiles + p.portion_tiles - 1) / p.portion_tiles;
      if (p.portions == 0) p.portions = 1;
      sizes[0] = p.portions * m * sizeof(uint32_t);
      sizes[1] = p.portions * sizeof(uint32_t);
      sizes[2] = p.portion_tiles * m * sizeof(uint32_t);
      sizes[3] = p.portions * m * sizeof(size_t);
      break;
    }
    case MSPLIT_VARIANT_DIRECT: {
      if (n > 0xFFFFFFFFull)
        return set_error(MSPLIT_ERROR_UNSUPPORTED,
                         "multisplit: variant %s needs n < 2^32 (n = %zu); use AUTO or ONEPASS",
                         msplit_variant_name(p.variant), n);
      p.L = p.tiles * (tuning::MULTISPLIT_BLOCK_THREADS / WARP_SIZE);
      sizes[0] = m * p.L * sizeof(uint32_t);
      sizes[1] = sizes[0];
      MSPLIT_TRY(exclusive_sum_u32(nullptr, &p.cub_bytes, nullptr, nullptr, m * p.L, 0));
      sizes[2] = p.cub_bytes;
      break;
    }
    case MSPLIT_VARIANT_SORT: {
      if (n > 0xFFFFFFFFull)
        return set_error(MSPLIT_ERROR_UNSUPPORTED,
                         "multisplit: m = %u > %u uses the sort path, which needs n < 2^32 (n = %zu)", m,
                         tuning::MULTISPLIT_MAX_FAST_BUCKETS, n);
      for (int i = 0; i < 4; ++i) sizes[i] = n * sizeof(uint32_t);
      int selector = 0;
      MSPLIT_TRY(radix_sort_pairs_u32(nullptr, &p.cub_bytes, nullptr, nullptr, nullptr, nullptr, n,
                                      ceil_log2(m), 0, &selector));
      sizes[4] = p.cub_bytes;
      break;
    }
    default:
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: unknown variant %d", int(requested));
  }
  size_t off = RECORD_BYTES;
  for (int i = 0; i < 6; ++i) {
    p.off[i] = off;
    off += align_up(sizes[i], TEMP_ALIGN);
  }
  p.zero_bytes = p.off[3];
  p.total = off;
  return MSPLIT_SUCCESS;
}

template <pass_kind PASS, typename Key, typename Value, typename Op>
inline msplit_status launch_tile_kernel(const tile_args<Key, Value, Op> &a, size_t grid, cudaStream_t stream) {
  constexpr int BT = tuning::MULTISPLIT_BLOCK_THREADS;
  constexpr int ITEMS =
      tuning::multisplit_items_per_thread<sizeof(Key), std::is_same_v<Value, no_value> ? 0 : sizeof(Value)>::value;
  const tile_layout lay = make_tile_layout<BT, ITEMS>(a.m, a.stage ? a.stage_bytes : 0, 1, false, true,
                                                      PASS != pass_kind::PRESCAN);
  auto kernel = multisplit_tile_kernel<PASS, BT, ITEMS, Key, Value, Op>;
  MSPLIT_TRY(prepare_kernel(kernel, lay.total));
  kernel<<<unsigned(grid), BT, lay.total, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

template <int BITS, typename Key, typename Value, typename Op>
inline msplit_status launch_onesweep_bits(const tile_args<Key, Value, Op> &a, size_t grid, cudaStream_t stream) {
  constexpr int BT = tuning::MULTISPLIT_BLOCK_THREADS;
  constexpr int ITEMS =
      tuning::multisplit_items_per_thread<sizeof(Key), std::is_same_v<Value, no_value> ? 0 : sizeof(Value)>::value;
  constexpr size_t ELEM = sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);
  const tile_layout lay = make_tile_layout<BT, ITEMS>(a.m, a.stage ? a.stage_bytes : 0, ELEM, true, false, true,
                                                      onesweep_counts_words<BITS, BT>());
  auto kernel = multisplit_onesweep_kernel<BITS, BT, ITEMS, Key, Value, Op>;
  MSPLIT_TRY(prepare_kernel(kernel, lay.total));
  kernel<<<unsigned(grid), BT, lay.total, stream>>>(a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

// The sweep is compiled once per bucket width ceil(log2 m) = 1..8 (m = 1 runs as m = 2's width).
template <typename Key, typename Value, typename Op>
inline msplit_status launch_onesweep(const tile_args<Key, Value, Op> &a, size_t grid, cudaStream_t stream) {
  switch (ceil_log2(a.m)) {
    case 0:
    case 1: return launch_onesweep_bits<1>(a, grid, stream);
    case 2: return launch_onesweep_bits<2>(a, grid, stream);
    case 3: return launch_onesweep_bits<3>(a, grid, stream);
    case 4: return launch_onesweep_bits<4>(a, grid, stream);
    case 5: return launch_onesweep_bits<5>(a, grid, stream);
    case 6: return launch_onesweep_bits<6>(a, grid, stream);
    case 7: return launch_onesweep_bits<7>(a, grid, stream);
    case 8: return launch_onesweep_bits<8>(a, grid, stream);
    default: return set_error(MSPLIT_ERROR_INTERNAL, "multisplit: one-pass sweep with m = %u > 256", a.m);
  }
}

template <typename Key, typename Value, typename Op>
msplit_status multisplit_dispatch(void *d_temp, size_t *temp_bytes, const Key *keys_in, Key *keys_out,
                                  const Value *values_in, Value *values_out, size_t n, uint32_t m, Op op,
                                  size_t *offsets, cudaStream_t stream, msplit_variant variant,
                                  const lookback_stall *outer = nullptr) {
  constexpr bool HAS_VALUES = !std::is_same_v<Value, no_value>;
  constexpr size_t VALUE_BYTES = HAS_VALUES ? sizeof(Value) : 0;
  constexpr int BT = tuning::MULTISPLIT_BLOCK_THREADS;
  constexpr int ITEMS = tuning::multisplit_items_per_thread<sizeof(Key), VALUE_BYTES>::value;
  constexpr int TILE = BT * ITEMS;
  static_assert(tuning::MULTISPLIT_MAX_FAST_BUCKETS <= uint32_t(BT), "one-pass look-back needs a thread per bucket");
  static_assert(tuning::MULTISPLIT_MAX_FAST_BUCKETS <= 256, "bucket ids are exchanged as uint8_t");

  // 1. check the arguments that size the storage (nothing is written before every check passes)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: temp_bytes is NULL");
  if (m == 0) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: num_buckets is 0 (need at least 1)");
  if (!multisplit_variant_known(variant))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: unknown variant %d", int(variant));
  // 2. plan the temporary storage
  multisplit_plan plan;
  MSPLIT_TRY(make_plan<TILE>(plan, n, m, variant, sizeof(Key), VALUE_BYTES));
  if (!d_temp) {
    *temp_bytes = plan.total;  // a size query: the data pointers are not looked at
    return MSPLIT_SUCCESS;
  }
  // 3. check the data pointers
  if (n > 0 && !keys_in) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: d_keys_in is NULL with n = %zu", n);
  if (n > 0 && !keys_out) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: d_keys_out is NULL with n = %zu", n);
  if (HAS_VALUES && n > 0 && !values_in)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: d_values_in is NULL with n = %zu", n);
  if (HAS_VALUES && n > 0 && !values_out)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: d_values_out is NULL with n = %zu", n);
  if (n > 0) {
    const size_t kb = n * sizeof(Key), vb = n * (HAS_VALUES ? sizeof(Value) : 0);
    if (ranges_overlap(keys_in, kb, keys_out, kb))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: d_keys_out overlaps d_keys_in (not in place)");
    if (HAS_VALUES) {
      if (ranges_overlap(values_in, vb, values_out, vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: d_values_out overlaps d_values_in");
      if (ranges_overlap(keys_in, kb, values_out, vb) || ranges_overlap(values_in, vb, keys_out, kb) ||
          ranges_overlap(keys_out, kb, values_out, vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "multisplit: key and value buffers overlap");
    }
  }

  if (*temp_bytes < plan.total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "multisplit: temp_bytes is %zu, %zu needed", *temp_bytes,
                     plan.total);
  // the record: this call's, or the one of a call this one is a step of (`outer`), which a
  // look-back that waits too long fills
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  const lookback_stall stall =
      outer ? *outer : lookback_stall{temp_record(temp), MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_MULTISPLIT};
  if (n == 0) {
    if (offsets) MSPLIT_CUDA_TRY(cudaMemsetAsync(offsets, 0, (size_t(m) + 1) * sizeof(size_t), stream));
    return clear_record(temp, stream);
  }
  size_t stage_bytes = stage_bytes_of(op);
  const bool stage = is_staged<Op>::value && stage_bytes <= tuning::MULTISPLIT_MAX_STAGE_BYTES;
  if (!stage) stage_bytes = 0;
  const peer_method pm = choose_peer_method(m);

  // 4. run the variant
  switch (plan.variant) {
    case MSPLIT_VARIANT_ONEPASS: {
      uint32_t *hist = reinterpret_cast<uint32_t *>(temp + plan.off[0]);
      uint32_t *counters = reinterpret_cast<uint32_t *>(temp + plan.off[1]);
      uint32_t *status = reinterpret_cast<uint32_t *>(temp + plan.off[2]);
      size_t *base = reinterpret_cast<size_t *>(temp + plan.off[3]);
      const size_t portion_elems = plan.portion_tiles * size_t(TILE);
      MSPLIT_CUDA_TRY(cudaMemsetAsync(temp, 0, plan.zero_bytes, stream));
      // 3a. bucket totals per portion
      int device = 0, sms = 1;
      MSPLIT_CUDA_TRY(cudaGetDevice(&device));
      MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
      constexpr int HIST_ITEMS = tuning::multisplit_items_per_thread<sizeof(Key), 0>::value;
      auto hkernel = multisplit_histogram_kernel<BT, HIST_ITEMS, Key, Op>;
      const size_t hsmem = histogram_smem_bytes(m, stage_bytes);
      MSPLIT_TRY(prepare_kernel(hkernel, hsmem));
      for (size_t p = 0; p < plan.portions; ++p) {
        histogram_args<Key, Op> h{keys_in, p * portion_elems, 0, m, pm, op, stage, stage_bytes, hist + p * m};
        h.end = h.begin + portion_elems < n ? h.begin + portion_elems : n;
        const size_t htiles = (h.end - h.begin + size_t(BT) * HIST_ITEMS - 1) / (size_t(BT) * HIST_ITEMS);
        const size_t max_grid = size_t(sms) * tuning::MULTISPLIT_HISTOGRAM_BLOCKS_PER_SM;
        hkernel<<<unsigned(htiles < max_grid ? htiles : max_grid), BT, hsmem, stream>>>(h);
        MSPLIT_LAUNCH_CHECK();
      }
      // 3b. bucket starts
      multisplit_bucket_starts_kernel<BT><<<1, BT, 0, stream>>>(hist, base, offsets, m, uint32_t(plan.portions), n);
      MSPLIT_LAUNCH_CHECK();
      // 3c. one sweep per portion
      for (size_t p = 0; p < plan.portions; ++p) {
        if (p > 0) MSPLIT_CUDA_TRY(cudaMemsetAsync(status, 0, plan.portion_tiles * m * sizeof(uint32_t), stream));
        tile_args<Key, Value, Op> a{keys_in, keys_out, values_in, values_out, p * portion_elems, 0, m, pm, op,
                                    stage, stage_bytes, nullptr, nullptr, 0, status, counters + p, base + p * m,
                                    stall};
        a.end = a.begin + portion_elems < n ? a.begin + portion_elems : n;
        const size_t grid = (a.end - a.begin + TILE - 1) / TILE;
        MSPLIT_TRY(launch_onesweep(a, grid, stream));
      }
      return MSPLIT_SUCCESS;
    }
    case MSPLIT_VARIANT_DIRECT: {
      uint32_t *H = reinterpret_cast<uint32_t *>(temp + plan.off[0]);
      uint32_t *G = reinterpret_cast<uint32_t *>(temp + plan.off[1]);
      tile_args<Key, Value, Op> a{keys_in, keys_out, values_in, values_out, 0, n, m, pm, op, stage,
                                  stage_bytes, H, G, plan.L, nullptr, nullptr, nullptr,
                                  lookback_stall{temp_record(temp), 0, MSPLIT_PRIMITIVE_MULTISPLIT}};
      // 3a. prescan, 3b. scan, 3c. postscan
      MSPLIT_TRY((launch_tile_kernel<pass_kind::PRESCAN>(a, plan.tiles, stream)));
      size_t cub_bytes = plan.cub_bytes;
      MSPLIT_TRY(exclusive_sum_u32(temp + plan.off[2], &cub_bytes, H, G, size_t(m) * plan.L, stream));
      MSPLIT_TRY((launch_tile_kernel<pass_kind::POSTSCAN>(a, plan.tiles, stream)));
      if (offsets) {
        multisplit_offsets_from_g_kernel<><<<unsigned((m + 1 + 255) / 256), 256, 0, stream>>>(G, plan.L, m, n, offsets);
        MSPLIT_LAUNCH_CHECK();
      }
      return MSPLIT_SUCCESS;
    }
    case MSPLIT_VARIANT_SORT: {
      uint32_t *lab0 = reinterpret_cast<uint32_t *>(temp + plan.off[0]);
      uint32_t *lab1 = reinterpret_cast<uint32_t *>(temp + plan.off[1]);
      uint32_t *idx0 = reinterpret_cast<uint32_t *>(temp + plan.off[2]);
      uint32_t *idx1 = reinterpret_cast<uint32_t *>(temp + plan.off[3]);
      MSPLIT_TRY(clear_record(temp, stream));
      constexpr unsigned FLAT_THREADS = 256;
      const size_t blocks_needed = (n + FLAT_THREADS - 1) / FLAT_THREADS;
      const unsigned grid = unsigned(blocks_needed < 65535u * 8u ? blocks_needed : 65535u * 8u);
      auto lkernel = multisplit_label_kernel<Key, Op>;
      MSPLIT_TRY(prepare_kernel(lkernel, stage_bytes));
      lkernel<<<grid, FLAT_THREADS, stage_bytes, stream>>>(keys_in, n, m, op, stage, lab0, idx0);
      MSPLIT_LAUNCH_CHECK();
      int selector = 0;
      size_t cub_bytes = plan.cub_bytes;
      MSPLIT_TRY(radix_sort_pairs_u32(temp + plan.off[4], &cub_bytes, lab0, lab1, idx0, idx1, n, ceil_log2(m),
                                      stream, &selector));
      const uint32_t *sorted_idx = selector ? idx1 : idx0;
      const uint32_t *sorted_lab = selector ? lab1 : lab0;
      multisplit_gather_kernel<Key, Value><<<grid, FLAT_THREADS, 0, stream>>>(sorted_idx, n, keys_in, keys_out,
                                                                             values_in, values_out);
      MSPLIT_LAUNCH_CHECK();
      if (offsets) {
        multisplit_offsets_from_labels_kernel<><<<unsigned((size_t(m) + 1 + 255) / 256), 256, 0, stream>>>(
            sorted_lab, n, m, offsets);
        MSPLIT_LAUNCH_CHECK();
      }
      return MSPLIT_SUCCESS;
    }
    default:
      return set_error(MSPLIT_ERROR_INTERNAL, "multisplit: no implementation for variant %d", int(plan.variant));
  }
}

}  // namespace detail

template <typename Key, typename BucketOp>
msplit_status multisplit_keys(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                              size_t n, uint32_t num_buckets, BucketOp bucket_op, size_t *d_bucket_offsets,
                              cudaStream_t stream, msplit_variant variant) {
  return detail::multisplit_dispatch<Key, detail::no_value, BucketOp>(
      d_temp, temp_bytes, d_keys_in, d_keys_out, static_cast<const detail::no_value *>(nullptr),
      static_cast<detail::no_value *>(nullptr), n, num_buckets, bucket_op, d_bucket_offsets, stream, variant);
}

template <typename Key, typename Value, typename BucketOp>
msplit_status multisplit_pairs(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                               const Value *d_values_in, Value *d_values_out, size_t n, uint32_t num_buckets,
                               BucketOp bucket_op, size_t *d_bucket_offsets, cudaStream_t stream,
                               msplit_variant variant) {
  return detail::multisplit_dispatch<Key, Value, BucketOp>(d_temp, temp_bytes, d_keys_in, d_keys_out,
                                                           d_values_in, d_values_out, n, num_buckets, bucket_op,
                                                           d_bucket_offsets, stream, variant);
}

}  // namespace msplit
