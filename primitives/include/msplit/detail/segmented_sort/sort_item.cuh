// The order the segmented sort sorts by, and the item its networks and merges move.
//
// Keys are compared through their "ordered bits": an unsigned integer whose unsigned order is the
// key order (unsigned keys: the bits; signed: the sign bit flipped; float: the sign bit flipped for
// positive numbers and every bit for negative ones, with -0.0 first turned into +0.0 so that the
// two zeros compare equal; NaNs land beyond the infinities by their bits, as in CUB's radix sort).
// A descending sort XORs the ordered bits with all ones.
//
// A sort item is (ordered bits, slot): the slot is the item's position in the tile, so that equal
// keys keep their input order and every item of a tile is distinct. Sorting distinct items needs
// no stable algorithm: any network or merge gives the stable result. The original key and value
// are fetched by slot at the end (a float's -0.0 survives).
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

namespace msplit {
namespace detail {

template <typename Key>
struct key_order;
template <>
struct key_order<uint32_t> {
  using bits = uint32_t;
  static __device__ __forceinline__ bits ordered(uint32_t k) { return k; }
};
template <>
struct key_order<int32_t> {
  using bits = uint32_t;
  static __device__ __forceinline__ bits ordered(int32_t k) { return uint32_t(k) ^ 0x80000000u; }
};
template <>
struct key_order<float> {
  using bits = uint32_t;
  static __device__ __forceinline__ bits ordered(float k) {
    uint32_t b = __float_as_uint(k);
    constexpr uint32_t SIGN = 0x80000000u;
    if (b == SIGN) b = 0;  // -0.0 sorts as +0.0
    return (b & SIGN) ? ~b : (b | SIGN);
  }
};
template <>
struct key_order<uint64_t> {
  using bits = uint64_t;
  static __device__ __forceinline__ bits ordered(uint64_t k) { return k; }
};

// Items of 4-byte keys: ordered bits above the slot in one 64-bit word, compared in one go.
struct narrow_item {
  uint64_t v;
};
// Items of 8-byte keys.
struct wide_item {
  uint64_t k;
  uint32_t slot;
};

template <typename Key, bool WIDE = (sizeof(Key) == 8)>
struct item_traits {
  using type = narrow_item;
  using bits = typename key_order<Key>::bits;
  static __device__ __forceinline__ type make(bits ord, uint32_t slot) {
    return type{(uint64_t(ord) << 32) | slot};
  }
  // The item of a padding slot: after every real key of its segment.
  static __device__ __forceinline__ type pad(uint32_t slot) { return make(~bits(0), slot); }
  static __device__ __forceinline__ uint32_t slot(type a) { return uint32_t(a.v); }
  static __device__ __forceinline__ bool less(type a, type b) { return a.v < b.v; }
};
template <typename Key>
struct item_traits<Key, true> {
  using type = wide_item;
  using bits = typename key_order<Key>::bits;
  static __device__ __forceinline__ type make(bits ord, uint32_t slot) { return type{uint64_t(ord), slot}; }
  static __device__ __forceinline__ type pad(uint32_t slot) { return make(~bits(0), slot); }
  static __device__ __forceinline__ uint32_t slot(type a) { return a.slot; }
  static __device__ __forceinline__ bool less(type a, type b) {
    return a.k < b.k || (a.k == b.k && a.slot < b.slot);
  }
};

}  // namespace detail
}  // namespace msplit
