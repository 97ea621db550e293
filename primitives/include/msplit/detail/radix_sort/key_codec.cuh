// Order-preserving key codes of the radix sort: every key type is sorted as the unsigned integer
// of its width (uint32_t or uint64_t) whose unsigned order is the order the sort promises, so one
// kernel per key width serves all key types (the kind and the direction are run-time fields).
//
//   unsigned  the key itself
//   signed    the sign bit flipped (INT_MIN first)
//   float     IEEE order: negatives' bits inverted, positives' sign bit set (-0 before +0), then
//             rotated down by the mantissa mask, which moves the negative NaNs (the codes just
//             below -inf) past the positive NaNs to the very top: every NaN sorts after +inf.
//             The rotation is a bijection, so decode(encode(k)) == k for every bit pattern.
//   descending  the code inverted (stable: equal keys keep their input order either way)
// A bit range [begin_bit, end_bit) selects bits of this code (before the descending inversion),
// which for unsigned and signed keys are the bits CUB's bit range selects.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include <type_traits>

namespace msplit {
namespace detail {

enum class key_kind : uint32_t { UNSIGNED = 0, SIGNED = 1, FLOAT = 2 };

// The kind of a key type, and its code type (the unsigned integer of the same width).
template <typename Key>
struct key_traits {
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "radix sort keys are 32 or 64 bits wide");
  static_assert(std::is_arithmetic_v<Key>, "radix sort keys are integers or floating point");
  using code = std::conditional_t<sizeof(Key) == 4, uint32_t, uint64_t>;
  static constexpr key_kind kind = std::is_floating_point_v<Key> ? key_kind::FLOAT
                                   : std::is_signed_v<Key>       ? key_kind::SIGNED
                                                                 : key_kind::UNSIGNED;
};

template <typename U>
struct key_codec {
  static_assert(std::is_same_v<U, uint32_t> || std::is_same_v<U, uint64_t>, "codes are u32 or u64");
  static constexpr U SIGN = U(1) << (sizeof(U) * 8 - 1);
  // the mantissa mask of float (23 bits) or double (52 bits)
  static constexpr U MANTISSA = sizeof(U) == 4 ? U(0x007FFFFFu) : U(0x000FFFFFFFFFFFFFull);
  key_kind kind;
  U flip;  // all ones for descending, else 0

  __host__ __device__ __forceinline__ U encode(U k) const {
    U c = k;
    if (kind == key_kind::SIGNED) c = k ^ SIGN;
    else if (kind == key_kind::FLOAT) c = ((k & SIGN) ? ~k : (k ^ SIGN)) - MANTISSA;
    return c ^ flip;
  }
  __host__ __device__ __forceinline__ U decode(U c) const {
    c ^= flip;
    if (kind == key_kind::SIGNED) return c ^ SIGN;
    if (kind == key_kind::FLOAT) {
      c += MANTISSA;
      return (c & SIGN) ? (c ^ SIGN) : ~c;
    }
    return c;
  }
};

template <typename Key>
inline key_codec<typename key_traits<Key>::code> make_key_codec(bool descending) {
  using U = typename key_traits<Key>::code;
  return key_codec<U>{key_traits<Key>::kind, descending ? ~U(0) : U(0)};
}

}  // namespace detail
}  // namespace msplit
