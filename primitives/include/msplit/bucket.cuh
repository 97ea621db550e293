// msplit: bucket functors, shared by the primitives that assign a bucket to each key
// (multisplit today; a histogram counts with the same functors).
//
// A bucket functor is any copyable type with
//     __device__ uint32_t operator()(const Key &key) const;
// that returns the key's bucket. A primitive called with m buckets clamps every result >= m to
// m - 1, so the last bucket holds "everything beyond" (what delta-stepping wants). A primitive
// may call the functor more than once on the same key (multisplit's three-pass variants and its
// one-pass histogram do); it must return the same bucket each time.
//
// Built in: delta_bucket ((key - base) / delta), splitter_bucket (binary search in sorted
// splitters), bitfield_bucket (a radix digit) and identity_bucket (the key itself). The C API
// (msplit/bucket.h, msplit_bucket_desc) offers the same four.
//
// Shared-memory staging (optional). A functor type T that declares
//     using msplit_staged = void;
//     size_t shared_bytes() const;                                    // host: bytes wanted
//     __device__ T stage(void *smem, unsigned tid, unsigned nthreads) const;
// has stage() called by every thread of each block (copy its table into smem, return a copy of
// itself that reads smem); the kernel then synchronises the block and uses the returned
// functor. splitter_bucket uses this to binary-search splitters held in shared memory. A table
// larger than tuning::MULTISPLIT_MAX_STAGE_BYTES is not staged: the functor is used as given and
// reads its table from global memory.
//
// Histogram bins (msplit/histogram.cuh). A histogram counts with the same functors, but a key
// outside every bin is not counted rather than clamped. It asks a functor for
//     __device__ uint32_t bin(const Key &key) const;
// where the functor declares one (any result >= m, e.g. OUT_OF_RANGE, means "in no bin"), and
// uses operator() otherwise, counting only results < m. delta_bucket::bin is the unclamped
// quotient (keys below base and NaN in no bin), splitter_bucket::bin is "number of splitters
// <= key, minus one", so that with the m + 1 bin boundaries as splitters bin b holds
// splitters[b] <= key < splitters[b + 1]; identity_bucket::bin keeps negative keys out.
// Multisplit never calls bin(). The histogram stages a functor's table as described above, or,
// where the functor declares msplit_bin_staged (splitter_bucket does), with
//     size_t bin_stage_bytes(size_t max_bytes) const;                          // host
//     __device__ T stage_bins(void *smem, unsigned tid, unsigned nthreads, size_t bytes) const;
// (a layout for bin(); see splitter_bucket).
//
// Examples: examples/multisplit_keys.cu (delta_bucket and a functor of one's own),
// examples/multisplit_pairs.cu (splitter_bucket), examples/grid_multisplit.cu (bitfield_bucket).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>
#include <utility>

namespace msplit {

// What bin() returns for a key that falls in no bin (any value >= m means the same).
constexpr uint32_t OUT_OF_RANGE = 0xFFFFFFFFu;

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

// Bits needed to write x (0 for 0).
__host__ __device__ inline uint32_t bit_length(uint32_t x) {
#ifdef __CUDA_ARCH__
  return 32 - __clz(x);
#else
  uint32_t bits = 0;
  while (bits < 32 && (x >> bits) != 0) ++bits;
  return bits;
#endif
}

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
  // The histogram's bin: the quotient without the clamp; keys below base, NaN and quotients
  // >= num_buckets are OUT_OF_RANGE.
  __device__ __forceinline__ uint32_t bin(const Key &k) const {
    if constexpr (std::is_floating_point_v<Key>) {
      if (!(k >= base)) return OUT_OF_RANGE;
      const Key q = (k - base) / delta;
      return q < Key(num_buckets) ? uint32_t(q) : OUT_OF_RANGE;
    } else {
      using U = std::make_unsigned_t<Key>;
      const U diff = U(k) - U(base);
      if constexpr (sizeof(Key) <= 4) {
        const uint32_t q = div32.div(uint32_t(diff));
        return k < base || q >= num_buckets ? OUT_OF_RANGE : q;
      } else {
        if (k < base) return OUT_OF_RANGE;
        const U q = diff / U(delta);
        return q < U(num_buckets) ? uint32_t(q) : OUT_OF_RANGE;
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
  // The histogram's bin: negative keys and NaN are OUT_OF_RANGE (keys >= m are in no bin anyway).
  template <typename Key>
  __device__ __forceinline__ uint32_t bin(const Key &k) const {
    if constexpr (std::is_floating_point_v<Key>) {
      if (!(k >= Key(0))) return OUT_OF_RANGE;
    } else if constexpr (std::is_signed_v<Key>) {
      if (k < 0) return OUT_OF_RANGE;
    }
    return (*this)(k);
  }
};

// Splitter buckets: bucket = number of splitters <= key, i.e. bucket b holds
// splitters[b-1] <= key < splitters[b]. d_splitters: num_splitters (normally m - 1) sorted keys
// in device memory. The kernels stage them into shared memory (see "staging" above) when they
// take at most tuning::MULTISPLIT_MAX_STAGE_BYTES, and search them in global memory otherwise.
template <typename Key>
struct splitter_bucket {
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
  // The histogram's bin: (number of splitters <= key) - 1, so OUT_OF_RANGE below splitters[0]
  // and num_splitters - 1 or more (no bin when the splitters are the m + 1 bin boundaries) from
  // the last one up. Precondition: num_splitters >= 1.
  //
  // The histogram stages the splitters its own way (stage_bins): the top tree_levels levels of
  // the implicit search tree over them (a perfect tree of bit_length(num_splitters) levels, the
  // missing places at the end standing for the last splitter), breadth first (Eytzinger's
  // layout). The sorted layout puts the nodes of one level 2^k splitters apart, all in one
  // shared-memory bank, so a warp's 32 lanes searching it serialise (32-way conflicts); breadth
  // first, a level's nodes are contiguous. The key descends the staged levels, which leaves a
  // run of fewer than 2^(height - tree_levels) splitters, searched in global memory. Both
  // searches are branch-free, so a warp's lanes stay together.
  const Key *tree{nullptr};  // set by stage_bins: 2^tree_levels keys in shared memory, [0] unused
  uint32_t tree_levels{0};

  using msplit_bin_staged = void;
  // Bytes stage_bins takes within max_bytes (2^levels keys), 0 when not even one level fits.
  size_t bin_stage_bytes(size_t max_bytes) const {
    uint32_t levels = detail::bit_length(num_splitters);
    while (levels > 0 && (size_t(1) << levels) * sizeof(Key) > max_bytes) --levels;
    return levels ? (size_t(1) << levels) * sizeof(Key) : 0;
  }
  __device__ splitter_bucket stage_bins(void *smem, unsigned tid, unsigned nthreads, size_t bytes) const {
    Key *t = static_cast<Key *>(smem);
    const uint32_t levels = 31 - __clz(uint32_t(bytes / sizeof(Key)));
    const uint32_t run_shift = detail::bit_length(num_splitters) - levels;
    for (uint32_t j = 1 + tid; j < (1u << levels); j += nthreads) {
      const uint32_t depth = 31 - __clz(j), place = j - (1u << depth);
      const uint32_t rank = (2 * place + 1) << (levels - 1 - depth);  // in order, from 1
      const uint32_t pos = (rank << run_shift) - 1;                     // in the padded splitters
      t[j] = splitters[pos < num_splitters ? pos : num_splitters - 1];
    }
    splitter_bucket staged = *this;
    staged.tree = t;
    staged.tree_levels = levels;
    return staged;
  }
  __device__ __forceinline__ uint32_t bin(const Key &k) const {
    uint32_t lo = 0, len = num_splitters;
    if (tree) {
      uint32_t j = 1;
      for (uint32_t d = 0; d < tree_levels; ++d) j = 2 * j + (tree[j] <= k ? 1u : 0u);
      const uint32_t run_shift = detail::bit_length(num_splitters) - tree_levels;
      lo = (j - (1u << tree_levels)) << run_shift;  // the splitters before lo are <= k
      if (lo >= num_splitters) return lo - 1;
      len = min((1u << run_shift) - 1, num_splitters - lo);
      if (len == 0) return lo - 1;
    }
    const Key *base = splitters + lo;  // upper bound in [lo, lo + len)
    while (len > 1) {
      const uint32_t half = len >> 1;
      base = base[half] <= k ? base + half : base;
      len -= half;
    }
    return uint32_t(base - splitters) + (*base <= k ? 1u : 0u) - 1u;
  }
};

namespace detail {

// ---- the staging protocol and the clamp, as every kernel applies them ----------------------
template <typename Op, typename = void>
struct is_staged : std::false_type {};
template <typename Op>
struct is_staged<Op, std::void_t<typename Op::msplit_staged>> : std::true_type {};

template <typename Op>
__device__ __forceinline__ Op stage_op(const Op &op, bool stage, void *smem, unsigned tid, unsigned nthreads) {
  if constexpr (is_staged<Op>::value) {
    if (stage) return op.stage(smem, tid, nthreads);
  }
  return op;
}

template <typename Key, typename Op>
__device__ __forceinline__ uint32_t clamped_bucket(const Op &op, const Key &key, uint32_t m) {
  const uint32_t b = op(key);
  return b < m ? b : m - 1;
}

// The histogram's staging: a functor with msplit_bin_staged stages with stage_bins (within the
// bytes bin_stage_bytes(max_bytes) said), any other staged functor with stage() when its table
// fits max_bytes; bytes == 0: not staged.
template <typename Op, typename = void>
struct is_bin_staged : std::false_type {};
template <typename Op>
struct is_bin_staged<Op, std::void_t<typename Op::msplit_bin_staged>> : std::true_type {};

template <typename Op>
inline size_t histogram_stage_bytes(const Op &op, size_t max_bytes) {
  if constexpr (is_bin_staged<Op>::value) return op.bin_stage_bytes(max_bytes);
  else if constexpr (is_staged<Op>::value) return op.shared_bytes() <= max_bytes ? op.shared_bytes() : 0;
  else return 0;
}

template <typename Op>
__device__ __forceinline__ Op histogram_stage_op(const Op &op, size_t bytes, void *smem, unsigned tid,
                                                 unsigned nthreads) {
  if (bytes == 0) return op;
  if constexpr (is_bin_staged<Op>::value) return op.stage_bins(smem, tid, nthreads, bytes);
  else if constexpr (is_staged<Op>::value) return op.stage(smem, tid, nthreads);
  else return op;
}

// The histogram's bin of a key: op.bin(key) where the functor has it, op(key) otherwise.
template <typename Op, typename Key, typename = void>
struct has_bin : std::false_type {};
template <typename Op, typename Key>
struct has_bin<Op, Key, std::void_t<decltype(std::declval<const Op &>().bin(std::declval<const Key &>()))>>
    : std::true_type {};

template <typename Key, typename Op>
__device__ __forceinline__ uint32_t histogram_bin(const Op &op, const Key &key) {
  if constexpr (has_bin<Op, Key>::value) return op.bin(key);
  else return op(key);
}

template <typename Op>
inline size_t stage_bytes_of(const Op &op) {
  if constexpr (is_staged<Op>::value) return op.shared_bytes();
  return 0;
}

}  // namespace detail

}  // namespace msplit
