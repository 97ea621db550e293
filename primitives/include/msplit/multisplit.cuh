// msplit: stable GPU multisplit, CUDA C++ template API.
//
// Multisplit permutes n keys (or key-value pairs) so that they are grouped into m contiguous
// buckets in bucket order, each bucket keeping the input order of its elements (stable), as
// defined in Ashkiani, Davidson, Meyer, Owens, "GPU Multisplit" (PPoPP 2016, seed 000) and
// chapter 3 of Ashkiani's thesis (seed 003). The bucket of a key is given by a functor.
//
//   #include <msplit/multisplit.cuh>
//   msplit::delta_bucket<uint32_t> op(base, delta, m);
//   size_t bytes = 0;
//   msplit::multisplit_keys(nullptr, &bytes, d_in, d_out, n, m, op, d_offsets, stream);
//   /* allocate d_temp of `bytes` */
//   msplit::multisplit_keys(d_temp, &bytes, d_in, d_out, n, m, op, d_offsets, stream);
//
// Conventions (CUB's): two-phase temporary storage (d_temp == NULL: only *temp_bytes is
// written), asynchronous on `stream`, no device allocation, no synchronisation. n == 0
// launches nothing but, when d_bucket_offsets is given, one memset that zeroes it.
// Link msplit::msplit (the error messages and the sort/scan back ends live there).
//
// Bucket functors. BucketOp is any copyable type with
//     __device__ uint32_t operator()(const Key &key) const;
// A result >= num_buckets is clamped to num_buckets - 1: the last bucket holds "everything
// beyond" (what delta-stepping wants). The functor is called once or twice per key per
// variant (the three-pass variants and ONEPASS's histogram call it again on the same key);
// it must return the same bucket each time.
//
// Shared-memory staging (optional). A functor type T that declares
//     using msplit_staged = void;
//     size_t shared_bytes() const;                                    // host: bytes wanted
//     __device__ T stage(void *smem, unsigned tid, unsigned nthreads) const;
// has stage() called by every thread of each block (copy its table into smem, return a copy of
// itself that reads smem); the kernel then synchronises the block and uses the returned
// functor. splitter_bucket uses this to binary-search splitters held in shared memory.
//
// Variants (msplit_variant, msplit.h): AUTO picks ONEPASS for m <= 256 and SORT above;
// DIRECT / WARP / BLOCK are the paper's three-pass variants (n < 2^32 only); every variant
// falls back to SORT (bucket labels + CUB radix sort on ceil(log2 m) bits) for m > 256.
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/msplit.h"

namespace msplit {

// ---------------------------------------------------------------------------------------------
// Built-in bucket functors
// ---------------------------------------------------------------------------------------------

namespace detail {
// Unsigned division by a run-time constant with a multiply-high (Granlund & Montgomery 1994,
// "round-up" method with the 33-bit correction), exact for every 32-bit dividend.
struct fast_div_u32 {
  uint32_t magic = 0;
  uint32_t shift1 = 0, shift2 = 0;
  __host__ __device__ fast_div_u32() {}
  __host__ __device__ explicit fast_div_u32(uint32_t d) {
    if (d == 0) d = 1;  // precondition violated: divide by 1 rather than by zero
    uint32_t l = 0;
    while (l < 32 && (uint64_t(1) << l) < d) ++l;  // l = ceil(log2 d)
    magic = uint32_t(((uint64_t(1) << 32) * ((uint64_t(1) << l) - d)) / d + 1);
    shift1 = l < 1 ? l : 1;
    shift2 = l > 0 ? l - 1 : 0;
  }
  __host__ __device__ uint32_t div(uint32_t n) const {
#ifdef __CUDA_ARCH__
    uint32_t t = __umulhi(magic, n);
#else
    uint32_t t = uint32_t((uint64_t(magic) * n) >> 32);
#endif
    return (t + ((n - t) >> shift1)) >> shift2;
  }
};

template <typename Key>
__host__ __device__ inline uint64_t key_bits(const Key &k) {
  if constexpr (std::is_same_v<Key, float>) {
#ifdef __CUDA_ARCH__
    return uint32_t(__float_as_uint(k));
#else
    uint32_t u;
    __builtin_memcpy(&u, &k, sizeof u);
    return u;
#endif
  } else if constexpr (std::is_same_v<Key, double>) {
#ifdef __CUDA_ARCH__
    return uint64_t(__double_as_longlong(k));
#else
    uint64_t u;
    __builtin_memcpy(&u, &k, sizeof u);
    return u;
#endif
  } else {
    using U = std::make_unsigned_t<Key>;
    return uint64_t(U(k));
  }
}
}  // namespace detail

// Delta buckets: bucket = (key - base) / delta, clamped into [0, num_buckets): keys below base
// (and NaN) go to bucket 0, keys at or beyond base + (num_buckets - 1) * delta to the last.
// Precondition: delta > 0. 32-bit integer keys divide with a precomputed multiply-high.
template <typename Key>
struct delta_bucket {
  static_assert(std::is_arithmetic_v<Key>, "delta_bucket needs an arithmetic key type");
  Key base{};
  Key delta{1};
  uint32_t num_buckets{1};
  detail::fast_div_u32 div32{};

  __host__ __device__ delta_bucket() {}
  __host__ __device__ delta_bucket(Key base_, Key delta_, uint32_t num_buckets_)
      : base(base_), delta(delta_), num_buckets(num_buckets_) {
    if constexpr (std::is_integral_v<Key> && sizeof(Key) <= 4) div32 = detail::fast_div_u32(uint32_t(delta_));
  }
  __device__ __forceinline__ uint32_t operator()(const Key &k) const {
    const uint32_t last = num_buckets - 1;
    if constexpr (std::is_floating_point_v<Key>) {
      if (!(k >= base)) return 0;  // also NaN
      const Key q = (k - base) / delta;
      return q >= Key(last) ? last : uint32_t(q);
    } else {
      using U = std::make_unsigned_t<Key>;
      const U diff = U(k) - U(base);
      if constexpr (sizeof(Key) <= 4) {  // branch-free: the quotient of a wrapped difference is discarded
        const uint32_t q = div32.div(uint32_t(diff));
        return k < base ? 0u : (q > last ? last : q);
      } else {
        if (k < base) return 0;
        const U q = diff / U(delta);
        return q > U(last) ? last : uint32_t(q);
      }
    }
  }
};

// Bit-field buckets (radix digits): (bits of key >> shift) & (2^bits - 1). Floats use their
// IEEE bit pattern. Preconditions: bits <= 32, shift < 8 * sizeof(Key).
template <typename Key>
struct bitfield_bucket {
  uint32_t shift{0}, bits{0};
  __device__ __forceinline__ uint32_t operator()(const Key &k) const {
    const uint64_t v = detail::key_bits(k) >> shift;
    return bits >= 32 ? uint32_t(v) : uint32_t(v & ((uint64_t(1) << bits) - 1));
  }
};

// Identity: the key is its own bucket (clamped to num_buckets - 1 like every functor).
struct identity_bucket {
  template <typename Key>
  __device__ __forceinline__ uint32_t operator()(const Key &k) const {
    if constexpr (std::is_floating_point_v<Key>) {
      return k >= Key(4294967295.0) ? 0xFFFFFFFFu : (k > Key(0) ? uint32_t(k) : 0u);
    } else {
      if constexpr (std::is_signed_v<Key>) {
        if (k < 0) return 0;
      }
      return detail::key_bits(k) > 0xFFFFFFFFull ? 0xFFFFFFFFu : uint32_t(detail::key_bits(k));
    }
  }
};

// Splitter buckets: bucket = number of splitters <= key, i.e. bucket b holds
// splitters[b-1] <= key < splitters[b]. d_splitters: num_splitters (normally m - 1) sorted keys
// in device memory. The kernel stages them into shared memory (see "staging" above); at most
// MAX_SPLITTERS of them.
template <typename Key>
struct splitter_bucket {
  static constexpr uint32_t MAX_SPLITTERS = 4096;
  const Key *splitters{nullptr};
  uint32_t num_splitters{0};

  using msplit_staged = void;
  size_t shared_bytes() const { return size_t(num_splitters) * sizeof(Key); }
  __device__ splitter_bucket stage(void *smem, unsigned tid, unsigned nthreads) const {
    Key *s = static_cast<Key *>(smem);
    for (unsigned i = tid; i < num_splitters; i += nthreads) s[i] = splitters[i];
    splitter_bucket staged = *this;
    staged.splitters = s;
    return staged;
  }
  __device__ __forceinline__ uint32_t operator()(const Key &k) const {
    uint32_t lo = 0, len = num_splitters;
    while (len > 0) {  // upper bound: first splitter > k
      const uint32_t half = len >> 1;
      if (!(k < splitters[lo + half])) {
        lo += half + 1;
        len -= half + 1;
      } else {
        len = half;
      }
    }
    return lo;
  }
};

// ---------------------------------------------------------------------------------------------
// Multisplit
// ---------------------------------------------------------------------------------------------

// Stable multisplit of keys.
// [in]     d_temp, temp_bytes  two-phase temporary storage (see above)
// [in]     d_keys_in           n keys (device)
// [out]    d_keys_out          n keys (device), must not overlap d_keys_in
// [in]     n                   number of keys (size_t; 0 is fine)
// [in]     num_buckets         m >= 1
// [in]     bucket_op           bucket functor (results >= m are clamped to m - 1)
// [out]    d_bucket_offsets    NULL or m + 1 entries (device): start of bucket b, [m] = n
// [in]     stream, variant
// Returns MSPLIT_SUCCESS, or MSPLIT_ERROR_INVALID_ARGUMENT / _TEMP_STORAGE / _UNSUPPORTED /
// _CUDA with a message in msplit_last_error_message(); nothing is written on an argument error.
template <typename Key, typename BucketOp>
msplit_status multisplit_keys(void *d_temp, size_t *temp_bytes, const Key *d_keys_in,
                              Key *d_keys_out, size_t n, uint32_t num_buckets, BucketOp bucket_op,
                              size_t *d_bucket_offsets, cudaStream_t stream = 0,
                              msplit_variant variant = MSPLIT_VARIANT_AUTO);

// Stable multisplit of key-value pairs: as multisplit_keys, the values following their keys.
// d_values_out must not overlap d_values_in, d_keys_in or d_keys_out.
template <typename Key, typename Value, typename BucketOp>
msplit_status multisplit_pairs(void *d_temp, size_t *temp_bytes, const Key *d_keys_in,
                               Key *d_keys_out, const Value *d_values_in, Value *d_values_out,
                               size_t n, uint32_t num_buckets, BucketOp bucket_op,
                               size_t *d_bucket_offsets, cudaStream_t stream = 0,
                               msplit_variant variant = MSPLIT_VARIANT_AUTO);

// The variant that AUTO (or a request) resolves to for this m, element size (value_bytes = 0:
// keys only) and n (0: any n below 2^32).
inline msplit_variant multisplit_resolve_variant(msplit_variant requested, uint32_t num_buckets,
                                                 size_t key_bytes, size_t value_bytes, size_t n = 0);

}  // namespace msplit

#include "msplit/detail/multisplit_impl.cuh"
