// The slab hash's memory: slab layout, the storage of a table, the hash, and the coherent
// loads and atomics every operation uses.
//
// A slab is 128 bytes, one 4-byte word per lane of a warp, so that one coalesced load gives the
// warp a whole slab, whatever the key and value widths. An entry takes STRIDE consecutive lanes:
// its key words (low word first), then its value words, padded to a power of two so that one CAS
// of the whole entry claims it (the format below). Entries fill lanes 0-29 from lane 0:
//
//   keys    values  STRIDE  entries  claim
//   32-bit  none    1       30       32-bit CAS of the key
//   32-bit  32-bit  2       15       64-bit CAS of key and value
//   64-bit  none    2       15       64-bit CAS of the key
//   64-bit  32/64   4       7        128-bit CAS of key, value and padding (sm_90 and later)
//   32-bit  64-bit  4       7        the same
//
// Lanes past the entries are unused, lane 31 holds the index of the next slab of the chain
// (NULL_SLAB at its end). Slab s of the storage is a bucket head for s < num_buckets, and pool
// slab s - num_buckets otherwise. The empty key, the padding and NULL_SLAB are all ones, so that a
// slab is cleared by filling it with 0xFF bytes. Reserved keys of each width: all ones (empty) and
// all ones but the lowest bit (erased).
//
// Invariants that the operations keep (see warp_ops.cuh for why they make keys unique):
//   - a key goes EMPTY -> key (insert, by CAS) -> ERASED (erase, by CAS) and, outside flush,
//     never back: a slot is filled once;
//   - an insert fills the lowest empty slot of the first slab of the chain that has one; so a
//     slab that follows one with an empty slot holds no entry, and a walk may stop at the first
//     slab with an empty slot;
//   - a next index goes NULL_SLAB -> slab (by CAS) and, outside flush, never back.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/slab_hash.h"

namespace msplit {
namespace detail {
namespace slab {

constexpr int WARP = 32;
constexpr uint32_t FULL_MASK = 0xFFFFFFFFu;
constexpr uint32_t EMPTY_KEY = MSPLIT_HASH_EMPTY_KEY;
constexpr uint32_t ERASED_KEY = MSPLIT_HASH_ERASED_KEY;
constexpr uint32_t NULL_SLAB = 0xFFFFFFFFu;
constexpr int NEXT_LANE = 31;
constexpr int DATA_LANES = 30;  // lanes 0-29 hold entries
constexpr size_t SLAB_BYTES = WARP * sizeof(uint32_t);
// The pool's allocation unit: a block of 1,024 slabs with one bit each, the 32 words of its
// bitmap read by a warp in one load.
constexpr uint32_t BLOCK_SLABS = WARP * 32;
// Counters at the start of the storage: the table's error record. GAVE_UP counts the operations
// that gave up (a corrupted table); the first one claims GAVE_UP_SITE (an msplit_error_site,
// from 0) and writes its bucket and how many steps it took.
enum counter {
  SIZE = 0,
  OUT_OF_SLABS = 1,
  RESERVED = 2,
  POOL_USED = 3,
  GAVE_UP = 4,
  GAVE_UP_SITE = 5,
  GAVE_UP_BUCKET = 6,
  GAVE_UP_STEPS = 7,
  NUM_COUNTERS = 8
};

namespace fmt_detail {
template <typename T>
constexpr int words() {
  if constexpr (std::is_void<T>::value)
    return 0;
  else
    return int(sizeof(T) / sizeof(uint32_t));
}
constexpr int stride(int words) { return words <= 2 ? words : 4; }
// Lanes that hold the first word of an entry.
constexpr uint32_t entry_lanes(int stride) {
  uint32_t m = 0;
  for (int l = 0; l + stride <= DATA_LANES; l += stride) m |= 1u << l;
  return m;
}
}  // namespace fmt_detail

// The entry format of a table of Key (uint32_t or uint64_t) and Value (uint32_t, uint64_t, or
// void for a set): every width-dependent constant of the slab layout, in one place.
template <typename Key, typename Value>
struct format {
  static_assert(std::is_same<Key, uint32_t>::value || std::is_same<Key, uint64_t>::value,
                "slab hash keys are uint32_t or uint64_t");
  static_assert(std::is_void<Value>::value || std::is_same<Value, uint32_t>::value ||
                    std::is_same<Value, uint64_t>::value,
                "slab hash values are uint32_t, uint64_t, or void (a set)");
  using key_t = Key;
  static constexpr bool HAS_VALUES = !std::is_void<Value>::value;
  // What an insert takes (ignored by a set) and a find gives (the key itself for a set).
  using value_t = std::conditional_t<HAS_VALUES, Value, Key>;
  static constexpr int KEY_WORDS = fmt_detail::words<Key>();
  static constexpr int VALUE_WORDS = fmt_detail::words<Value>();
  static constexpr int STRIDE = fmt_detail::stride(KEY_WORDS + VALUE_WORDS);
  static constexpr int ENTRIES = DATA_LANES / STRIDE;
  // The value's first word, from the key's lane: last in the entry, so that a 64-bit value is
  // 8-byte aligned (one 64-bit store assigns it).
  static constexpr int VALUE_OFFSET = STRIDE - VALUE_WORDS;
  static constexpr uint32_t KEY_LANES = fmt_detail::entry_lanes(STRIDE);
  // Lanes that hold a word of a key (the high word of a 64-bit key follows its low word).
  static constexpr uint32_t KEY_WORD_LANES = KEY_WORDS == 2 ? KEY_LANES | KEY_LANES << 1 : KEY_LANES;
  static constexpr size_t ENTRY_BYTES = size_t(KEY_WORDS + VALUE_WORDS) * sizeof(uint32_t);
  static constexpr Key EMPTY = ~Key(0);
  static constexpr Key ERASED = ~Key(1);
  static constexpr value_t ABSENT = ~value_t(0);
  static constexpr msplit_type KEY_TYPE = KEY_WORDS == 2 ? MSPLIT_TYPE_U64 : MSPLIT_TYPE_U32;
  static constexpr msplit_type VALUE_TYPE =
      VALUE_WORDS == 0 ? MSPLIT_TYPE_NONE : VALUE_WORDS == 2 ? MSPLIT_TYPE_U64 : MSPLIT_TYPE_U32;
};
static_assert(format<uint32_t, uint32_t>::KEY_LANES == 0x15555555u, "15 pairs in lanes 0-29");
static_assert(format<uint32_t, void>::KEY_LANES == 0x3FFFFFFFu, "30 keys in lanes 0-29");
static_assert(format<uint64_t, uint64_t>::ENTRIES == 7, "7 pairs of 16 bytes in lanes 0-27");
static_assert(MSPLIT_HASH_EMPTY_KEY == format<uint32_t, void>::EMPTY &&
                  MSPLIT_HASH_ERASED_KEY == format<uint32_t, void>::ERASED &&
                  MSPLIT_HASH_EMPTY_KEY64 == format<uint64_t, void>::EMPTY &&
                  MSPLIT_HASH_ERASED_KEY64 == format<uint64_t, void>::ERASED,
              "the C API's reserved keys are the format's");

// Where the parts of a table lie in its storage (all 128-byte aligned).
struct layout {
  size_t counters_offset, bitmap_offset, slabs_offset, total;
  uint32_t num_blocks;
  __host__ __device__ layout(uint32_t num_buckets, uint32_t capacity) {
    num_blocks = (capacity + BLOCK_SLABS - 1) / BLOCK_SLABS;
    counters_offset = 0;
    bitmap_offset = SLAB_BYTES;
    slabs_offset = bitmap_offset + size_t(num_blocks) * SLAB_BYTES;
    total = slabs_offset + (size_t(num_buckets) + capacity) * SLAB_BYTES;
  }
};

// The device view of a table (what kernels and device references hold).
struct view {
  uint32_t *slabs;
  uint32_t *bitmap;
  unsigned long long *counters;
  uint32_t num_buckets, capacity, num_blocks;
};

inline view make_view(const msplit_slab_hash &t) {
  const layout l(t.num_buckets, t.capacity_slabs);
  char *base = static_cast<char *>(t.d_storage);
  return {reinterpret_cast<uint32_t *>(base + l.slabs_offset),
          reinterpret_cast<uint32_t *>(base + l.bitmap_offset),
          reinterpret_cast<unsigned long long *>(base + l.counters_offset),
          t.num_buckets,
          t.capacity_slabs,
          l.num_blocks};
}

// Bucket of a key: a full-avalanche mix (MurmurHash3's finaliser), then Lemire's multiply-shift
// onto [0, num_buckets) (no division, and every bit of the mix counts). Host too: tests predict
// the chains from it.
__host__ __device__ __forceinline__ uint32_t bucket_of(uint32_t key, uint32_t num_buckets) {
  uint32_t h = key;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return uint32_t((uint64_t(h) * num_buckets) >> 32);
}

// 64-bit keys: MurmurHash3's 64-bit finaliser, whose high half (every key bit mixed in) goes
// through the same multiply-shift.
__host__ __device__ __forceinline__ uint32_t bucket_of(uint64_t key, uint32_t num_buckets) {
  uint64_t h = key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return uint32_t(((h >> 32) * num_buckets) >> 32);
}

__device__ __forceinline__ uint32_t *word_ptr(const view &v, uint32_t s, int lane) {
  return v.slabs + size_t(s) * WARP + lane;
}

// A coherent load (L2, at GPU scope): other warps' atomics of the same launch are seen, and the
// compiler neither caches nor merges it with an earlier load of the same word.
__device__ __forceinline__ uint32_t load_word(const uint32_t *p) {
  uint32_t x;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  return x;
}
__device__ __forceinline__ void store_word(uint32_t *p, uint32_t x) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(x) : "memory");
}
__device__ __forceinline__ void store_word(uint32_t *p, uint64_t x) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(x) : "memory");
}

// The 16-byte CAS of sm_90; a build for an older architecture traps here, and the host side
// refuses those formats before a launch (bulk_run checks the kernel's architecture).
struct alignas(16) entry16 {
  unsigned long long lo, hi;
};
__device__ __forceinline__ bool cas16(uint32_t *p, entry16 expected, entry16 desired) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
  const entry16 old = atomicCAS(reinterpret_cast<entry16 *>(p), expected, desired);
  return old.lo == expected.lo && old.hi == expected.hi;
#else
  (void)p, (void)expected, (void)desired;
  __trap();
  return false;
#endif
}

// Claims an empty slot with one CAS of the whole entry (key, value, and all-ones padding), so
// that a reader never sees the key without its value. p points at the key's first word.
template <class F>
__device__ __forceinline__ bool claim_slot(uint32_t *p, typename F::key_t key,
                                           typename F::value_t value) {
  using u64 = unsigned long long;
  constexpr u64 ONES = ~0ull;
  if constexpr (F::STRIDE == 1) {
    (void)value;
    return atomicCAS(p, uint32_t(F::EMPTY), uint32_t(key)) == uint32_t(F::EMPTY);
  } else if constexpr (F::STRIDE == 2) {
    // (32-bit key, 32-bit value) or a 64-bit key alone; little-endian: the key word comes first
    u64 entry = u64(key);
    if constexpr (F::HAS_VALUES) entry |= u64(value) << 32;
    return atomicCAS(reinterpret_cast<u64 *>(p), ONES, entry) == ONES;
  } else {
    static_assert(F::STRIDE == 4 && F::HAS_VALUES, "16-byte entries are keys with values");
    entry16 e{ONES, ONES};
    u64 *w = &e.lo;  // the entry as two 64-bit halves: words 0-1, 2-3
    if constexpr (F::KEY_WORDS == 2) {
      w[0] = u64(key);
    } else {
      w[0] = (ONES << 32) | uint32_t(key);
    }
    if constexpr (F::VALUE_WORDS == 2) {
      w[1] = u64(value);
    } else {  // word 3 (VALUE_OFFSET 3), padding in word 2
      w[1] = (u64(value) << 32) | 0xFFFFFFFFull;
    }
    return cas16(p, entry16{ONES, ONES}, e);
  }
}

// Marks the entry whose key word(s) p points at erased, if it still holds `key`.
template <class F>
__device__ __forceinline__ bool erase_slot(uint32_t *p, typename F::key_t key) {
  if constexpr (F::KEY_WORDS == 1) {
    return atomicCAS(p, uint32_t(key), uint32_t(F::ERASED)) == uint32_t(key);
  } else {
    using u64 = unsigned long long;
    return atomicCAS(reinterpret_cast<u64 *>(p), u64(key), u64(F::ERASED)) == u64(key);
  }
}

// Assigns the value of the entry whose key starts at p (one store, of the value's width).
template <class F>
__device__ __forceinline__ void store_value(uint32_t *p, typename F::value_t value) {
  store_word(p + F::VALUE_OFFSET, value);
}

__device__ __forceinline__ int lane_id() { return int(threadIdx.x) & (WARP - 1); }
__device__ __forceinline__ int first_lane(uint32_t mask) { return __ffs(int(mask)) - 1; }

// A walk of bucket's chain passed its bound (a corrupted table: warp_ops.cuh says why the bounds
// hold otherwise): the first one records where, in the table's counters. One lane calls it.
__device__ __forceinline__ void record_give_up(const view &v, msplit_error_site site, uint32_t bucket,
                                               unsigned long long steps) {
  if (atomicCAS(v.counters + GAVE_UP_SITE, 0ull, (unsigned long long)site) == 0) {
    v.counters[GAVE_UP_BUCKET] = bucket;
    v.counters[GAVE_UP_STEPS] = steps;
  }
}

}  // namespace slab
}  // namespace detail
}  // namespace msplit
