// Radix sort dispatch (the "device" level): checks arguments, plans and sizes temporary storage,
// and launches the upfront histogram (histogram.cuh) and one sweep per pass and portion
// (sweep.cuh). Every key type runs as the unsigned code of its width (key_codec.cuh) and every
// value type as the unsigned integer of its width, so six instantiations (32/64-bit codes x no,
// 32-bit or 64-bit values) serve the whole API; the library compiles them once (they are
// declared extern below and instantiated in src/radix_sort/).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/error.cuh"
#include "msplit/detail/lookback.cuh"
#include "msplit/detail/radix_sort/histogram.cuh"
#include "msplit/detail/radix_sort/key_codec.cuh"
#include "msplit/detail/radix_sort/one_tile.cuh"
#include "msplit/detail/radix_sort/plan.cuh"
#include "msplit/detail/radix_sort/short_range.cuh"
#include "msplit/detail/radix_sort/sweep.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/radix_sort/tuning.h"

namespace msplit {

// A pair of buffers of which one holds the current data (CUB's DoubleBuffer): a sort reads
// buffers[selector], may overwrite both, and sets selector to the one holding the result.
template <typename T>
struct double_buffer {
  T *buffers[2];
  int selector;
  __host__ __device__ double_buffer() : buffers{nullptr, nullptr}, selector(0) {}
  __host__ __device__ double_buffer(T *current, T *alternate) : buffers{current, alternate}, selector(0) {}
  __host__ __device__ T *current() const { return buffers[selector & 1]; }
  __host__ __device__ T *alternate() const { return buffers[(selector & 1) ^ 1]; }
};

namespace detail {

template <typename U, typename V>
struct radix_shape {
  static constexpr size_t VALUE_BYTES = std::is_same_v<V, no_value> ? 0 : sizeof(V);
  static constexpr int THREADS = tuning::RADIX_SWEEP_THREADS;
  static constexpr int ITEMS = tuning::radix_items_per_thread<sizeof(U), VALUE_BYTES>::value;
  static constexpr size_t TILE = size_t(THREADS) * ITEMS;
};

// Elements per sweep tile of a call with key code U and value V (no_value: keys only).
template <typename U, typename V>
constexpr size_t radix_sort_tile_items() {
  return radix_shape<U, V>::TILE;
}

// Whether a bit range sorts in one pass of the one-pass multisplit (short_range.cuh).
inline bool radix_short_range(int begin_bit, int end_bit) {
  return end_bit - begin_bit <= tuning::RADIX_SHORT_MAX_BITS;
}

// Pieces of temporary storage of the sweeps, in order after the error record's slot (zeroed with
// the counters); sizes rounded up to TEMP_ALIGN.
//   0 counters  portions x passes x 4 bytes: the sweeps' tile counters (zeroed)
//   1 base      portions x passes x 256 x 8: the first output position of each digit for each
//               portion and pass; portion 0's slice first holds the digit counts (zeroed, then
//               the histogram counts into it and the digit-starts kernel scans it in place)
//   2 status    min(tiles, tiles per portion) x 256 x 4: the look-back words of one portion
//   3 keys      n x key bytes   (plain form with more than one pass: the ping-pong buffer)
//   4 values    n x value bytes (the same, with values)
struct radix_plan : radix_portions {
  int passes;
  size_t off[6];
  size_t zero_bytes;  // counters and portion 0's base
  size_t total;
};

template <typename U, typename V>
inline radix_plan make_radix_plan(size_t n, int begin_bit, int end_bit, bool alt_buffers) {
  constexpr size_t TILE = radix_shape<U, V>::TILE;
  constexpr size_t VALUE_BYTES = radix_shape<U, V>::VALUE_BYTES;
  radix_plan p{};
  static_cast<radix_portions &>(p) = split_portions(n, TILE);
  p.passes = radix_passes(begin_bit, end_bit);
  const bool alt = alt_buffers && p.passes > 1;
  const size_t sizes[5] = {p.portions * size_t(p.passes) * sizeof(uint32_t),
                           p.portions * size_t(p.passes) * RADIX_DIGITS * sizeof(size_t),
                           p.portion_tiles * RADIX_DIGITS * sizeof(uint32_t),
                           alt ? n * sizeof(U) : 0,
                           alt ? n * VALUE_BYTES : 0};
  p.total = lay_out(sizes, p.off);
  p.zero_bytes = p.off[1] + size_t(p.passes) * RADIX_DIGITS * sizeof(size_t);
  return p;
}

// Checks the arguments (nothing is written before they pass), then sizes or runs the sort.
// Plain form (kdb == NULL): keys_in -> keys_out, values_in -> values_out, the inputs untouched.
// Double-buffer form: kdb (and vdb) current -> either buffer, selector set to the result's.
template <typename U, typename V>
msplit_status radix_sort_run(const char *fn, void *d_temp, size_t *temp_bytes, const U *keys_in, U *keys_out,
                             const V *values_in, V *values_out, double_buffer<U> *kdb, double_buffer<V> *vdb,
                             size_t n, int begin_bit, int end_bit, key_codec<U> codec, cudaStream_t stream) {
  constexpr bool HAS_VALUES = !std::is_same_v<V, no_value>;
  using S = radix_shape<U, V>;
  constexpr int KEY_BITS = int(sizeof(U) * 8);
  const bool plain = kdb == nullptr;
  const size_t kb = n * sizeof(U), vb = n * S::VALUE_BYTES;

  // 1. check arguments
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  if (begin_bit < 0 || begin_bit >= KEY_BITS)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: begin_bit %d is outside the key's bits [0, %d)", fn,
                     begin_bit, KEY_BITS);
  if (end_bit <= begin_bit || end_bit > KEY_BITS)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: end_bit %d is not in (begin_bit, %d] = (%d, %d]", fn,
                     end_bit, KEY_BITS, begin_bit, KEY_BITS);
  const bool short_range = radix_short_range(begin_bit, end_bit);
  const bool one_tile = n <= S::TILE;  // one block sorts it in shared memory (one_tile.cuh)
  const radix_plan plan = make_radix_plan<U, V>(n, begin_bit, end_bit, plain);
  const radix_short_plan short_plan = make_radix_short_plan<U, V>(n, end_bit - begin_bit);
  const size_t total = one_tile ? RECORD_BYTES : short_range ? short_plan.total : plan.total;
  if (!d_temp) {  // a size query: the data pointers are not looked at
    *temp_bytes = total;
    return MSPLIT_SUCCESS;
  }
  if (plain) {
    if (n > 0 && !keys_in) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_keys_in is NULL with n = %zu", fn, n);
    if (n > 0 && !keys_out)
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_keys_out is NULL with n = %zu", fn, n);
    if (HAS_VALUES && n > 0 && !values_in)
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_values_in is NULL with n = %zu", fn, n);
    if (HAS_VALUES && n > 0 && !values_out)
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_values_out is NULL with n = %zu", fn, n);
    if (n > 0 && ranges_overlap(keys_in, kb, keys_out, kb))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_keys_out overlaps d_keys_in (use the double-buffer form)",
                       fn);
    if (HAS_VALUES && n > 0) {
      if (ranges_overlap(values_in, vb, values_out, vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_values_out overlaps d_values_in", fn);
      if (ranges_overlap(keys_in, kb, values_out, vb) || ranges_overlap(values_in, vb, keys_out, kb) ||
          ranges_overlap(keys_out, kb, values_out, vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: key and value buffers overlap", fn);
    }
  } else {
    if (kdb->selector != 0 && kdb->selector != 1)
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: keys.selector is %d (0 or 1)", fn, kdb->selector);
    if (HAS_VALUES && vdb->selector != kdb->selector)
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: values.selector is %d, keys.selector %d (must be equal)",
                       fn, vdb->selector, kdb->selector);
    if (n > 0 && (!kdb->buffers[0] || !kdb->buffers[1]))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: keys.buffers[%d] is NULL with n = %zu", fn,
                       kdb->buffers[0] ? 1 : 0, n);
    if (HAS_VALUES && n > 0 && (!vdb->buffers[0] || !vdb->buffers[1]))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: values.buffers[%d] is NULL with n = %zu", fn,
                       vdb->buffers[0] ? 1 : 0, n);
    if (n > 0 && ranges_overlap(kdb->buffers[0], kb, kdb->buffers[1], kb))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: keys.buffers[0] and keys.buffers[1] overlap", fn);
    if (HAS_VALUES && n > 0) {
      if (ranges_overlap(vdb->buffers[0], vb, vdb->buffers[1], vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: values.buffers[0] and values.buffers[1] overlap", fn);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          if (ranges_overlap(kdb->buffers[i], kb, vdb->buffers[j], vb))
            return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: keys.buffers[%d] overlaps values.buffers[%d]", fn,
                             i, j);
    }
  }
  if (*temp_bytes < total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", fn, *temp_bytes, total);
  if (n == 0) return clear_record(d_temp, stream);

  // 2. the buffers of each pass: pass i writes `final` when (passes - 1 - i) is even, else
  // `other`, so that the last pass writes `final`; pass 0 reads `src`
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  const U *ksrc;
  U *kfinal, *kother;
  const V *vsrc = nullptr;
  V *vfinal = nullptr, *vother = nullptr;
  if (plain) {
    ksrc = keys_in;
    kfinal = keys_out;
    kother = reinterpret_cast<U *>(temp + plan.off[3]);
    if constexpr (HAS_VALUES) {
      vsrc = values_in;
      vfinal = values_out;
      vother = reinterpret_cast<V *>(temp + plan.off[4]);
    }
  } else {
    const bool odd = plan.passes % 2 == 1;  // an odd number of passes ends in the alternate buffer
    ksrc = kdb->current();
    kfinal = odd ? kdb->alternate() : kdb->current();
    kother = odd ? kdb->current() : kdb->alternate();
    if constexpr (HAS_VALUES) {
      vsrc = vdb->current();
      vfinal = odd ? vdb->alternate() : vdb->current();
      vother = odd ? vdb->current() : vdb->alternate();
    }
  }

  auto flip_selectors = [&] {  // the double-buffer form's result is in `kfinal`
    if (plain || kfinal == kdb->current()) return;
    kdb->selector ^= 1;
    if constexpr (HAS_VALUES) vdb->selector = kdb->selector;
  };
  if (one_tile) {  // all passes by one block; the double-buffer form's result in the alternate
    if (!plain) {
      kfinal = kdb->alternate();
      if constexpr (HAS_VALUES) vfinal = vdb->alternate();
    }
    using L = radix_sweep_smem<S::THREADS, S::ITEMS, U, V>;
    auto kernel = radix_one_tile_kernel<S::THREADS, S::ITEMS, U, V>;
    MSPLIT_TRY(prepare_kernel(kernel, L::TOTAL));
    radix_one_tile_args<U, V> a{ksrc, kfinal, vsrc, vfinal, uint32_t(n), codec, begin_bit, end_bit, temp_record(temp)};
    kernel<<<1, S::THREADS, L::TOTAL, stream>>>(a);
    MSPLIT_LAUNCH_CHECK();
    flip_selectors();
    return MSPLIT_SUCCESS;
  }
  if (short_range) {  // one pass of the one-pass multisplit
    MSPLIT_TRY((radix_short_sort<U, V>(short_plan, temp, ksrc, kfinal, vsrc, vfinal, n, begin_bit,
                                       end_bit - begin_bit, codec, stream)));
    flip_selectors();
    return MSPLIT_SUCCESS;
  }

  // 3. digit counts of every pass in one read, then their starts (in place: portion 0's base)
  static_assert(sizeof(size_t) == sizeof(unsigned long long), "the counts become the starts in place");
  uint32_t *counters = reinterpret_cast<uint32_t *>(temp + plan.off[0]);
  size_t *base = reinterpret_cast<size_t *>(temp + plan.off[1]);
  unsigned long long *hist = reinterpret_cast<unsigned long long *>(temp + plan.off[1]);
  uint32_t *status = reinterpret_cast<uint32_t *>(temp + plan.off[2]);
  MSPLIT_CUDA_TRY(cudaMemsetAsync(temp, 0, plan.zero_bytes, stream));
  int device = 0, sms = 1;
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  {
    constexpr int HT = tuning::RADIX_HISTOGRAM_THREADS, HI = tuning::RADIX_HISTOGRAM_ITEMS;
    const size_t htiles = (n + size_t(HT) * HI - 1) / (size_t(HT) * HI);
    const size_t max_grid = size_t(sms) * tuning::RADIX_HISTOGRAM_BLOCKS_PER_SM;
    radix_histogram_args<U> h{ksrc, n, codec, begin_bit, end_bit, plan.passes, hist};
    radix_histogram_kernel<HT, HI, U><<<unsigned(htiles < max_grid ? htiles : max_grid), HT, 0, stream>>>(h);
    MSPLIT_LAUNCH_CHECK();
    radix_digit_starts_kernel<><<<unsigned(plan.passes), RADIX_DIGITS, 0, stream>>>(hist);
    MSPLIT_LAUNCH_CHECK();
  }

  // 4. one sweep per pass and portion
  using L = radix_sweep_smem<S::THREADS, S::ITEMS, U, V>;
  auto kernel = radix_sweep_kernel<S::THREADS, S::ITEMS, U, V>;
  MSPLIT_TRY(prepare_kernel(kernel, L::TOTAL));
  const size_t portion_elems = plan.portion_tiles * S::TILE;
  const U *kin = ksrc;
  const V *vin = vsrc;
  for (int pass = 0; pass < plan.passes; ++pass) {
    U *kout = (plan.passes - 1 - pass) % 2 == 0 ? kfinal : kother;
    V *vout = (plan.passes - 1 - pass) % 2 == 0 ? vfinal : vother;
    const int shift = begin_bit + pass * tuning::RADIX_BITS;
    const int bits = end_bit - shift < tuning::RADIX_BITS ? end_bit - shift : tuning::RADIX_BITS;
    for (size_t q = 0; q < plan.portions; ++q) {
      radix_sweep_args<U, V> a{};
      a.keys_in = kin;
      a.keys_out = kout;
      a.values_in = vin;
      a.values_out = vout;
      a.begin = q * portion_elems;
      a.end = a.begin + portion_elems < n ? a.begin + portion_elems : n;
      a.status = status;
      a.tile_counter = counters + q * plan.passes + pass;
      a.base = base + (q * plan.passes + pass) * RADIX_DIGITS;
      a.base_next = q + 1 < plan.portions ? base + ((q + 1) * plan.passes + pass) * RADIX_DIGITS : nullptr;
      a.codec = codec;
      a.shift = uint32_t(shift);
      a.mask = (1u << bits) - 1;
      a.stall = lookback_stall{temp_record(temp), MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_RADIX_SORT};
      const size_t grid = (a.end - a.begin + S::TILE - 1) / S::TILE;
      MSPLIT_CUDA_TRY(cudaMemsetAsync(status, 0, grid * RADIX_DIGITS * sizeof(uint32_t), stream));
      kernel<<<unsigned(grid), S::THREADS, L::TOTAL, stream>>>(a);
      MSPLIT_LAUNCH_CHECK();
    }
    kin = kout;
    vin = vout;
  }
  flip_selectors();
  return MSPLIT_SUCCESS;
}

// The value type a call runs as: no_value, or the unsigned integer of the value's width.
template <typename Value>
using radix_value_code = std::conditional_t<std::is_same_v<Value, no_value>, no_value,
                                            std::conditional_t<sizeof(Value) == 4, uint32_t, uint64_t>>;

template <typename Key, typename Value>
inline msplit_status radix_sort_entry(const char *fn, void *d_temp, size_t *temp_bytes, const Key *keys_in,
                                      Key *keys_out, const Value *values_in, Value *values_out,
                                      double_buffer<Key> *kdb, double_buffer<Value> *vdb, size_t n, int begin_bit,
                                      int end_bit, bool descending, cudaStream_t stream) {
  static_assert(std::is_same_v<Value, no_value> || sizeof(Value) == 4 || sizeof(Value) == 8,
                "radix sort values are 32 or 64 bits wide");
  using U = typename key_traits<Key>::code;
  using VC = radix_value_code<Value>;
  double_buffer<U> kc, *kcp = nullptr;
  double_buffer<VC> vc, *vcp = nullptr;
  if (kdb) {
    kc = double_buffer<U>(reinterpret_cast<U *>(kdb->buffers[0]), reinterpret_cast<U *>(kdb->buffers[1]));
    kc.selector = kdb->selector;
    kcp = &kc;
    if (vdb) {
      vc = double_buffer<VC>(reinterpret_cast<VC *>(vdb->buffers[0]), reinterpret_cast<VC *>(vdb->buffers[1]));
      vc.selector = vdb->selector;
      vcp = &vc;
    }
  }
  const msplit_status st = radix_sort_run<U, VC>(
      fn, d_temp, temp_bytes, reinterpret_cast<const U *>(keys_in), reinterpret_cast<U *>(keys_out),
      reinterpret_cast<const VC *>(values_in), reinterpret_cast<VC *>(values_out), kcp, vcp, n, begin_bit, end_bit,
      make_key_codec<Key>(descending), stream);
  if (st == MSPLIT_SUCCESS && kdb && d_temp) {
    kdb->selector = kc.selector;
    if (vdb) vdb->selector = vc.selector;
  }
  return st;
}

// The library holds the six instantiations (src/radix_sort/instantiate_*.cu).
#define MSPLIT_RADIX_SORT_RUN(EXTERN, U, V)                                                                      \
  EXTERN template msplit_status radix_sort_run<U, V>(const char *, void *, size_t *, const U *, U *, const V *, \
                                                     V *, double_buffer<U> *, double_buffer<V> *, size_t, int,  \
                                                     int, key_codec<U>, cudaStream_t);
#ifndef MSPLIT_RADIX_SORT_INSTANTIATING
MSPLIT_RADIX_SORT_RUN(extern, uint32_t, no_value)
MSPLIT_RADIX_SORT_RUN(extern, uint32_t, uint32_t)
MSPLIT_RADIX_SORT_RUN(extern, uint32_t, uint64_t)
MSPLIT_RADIX_SORT_RUN(extern, uint64_t, no_value)
MSPLIT_RADIX_SORT_RUN(extern, uint64_t, uint32_t)
MSPLIT_RADIX_SORT_RUN(extern, uint64_t, uint64_t)
#endif

}  // namespace detail
}  // namespace msplit
