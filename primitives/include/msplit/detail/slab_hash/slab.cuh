// The slab hash's memory: slab layout, the storage of a table, the hash, and the coherent
// loads and atomics every operation uses.
//
// A slab is 128 bytes, one 4-byte word per lane of a warp, so that one coalesced load gives the
// warp a whole slab. With values, lanes 0-29 hold 15 pairs (key in the even lane, its value in
// the next), keys only: lanes 0-29 hold 30 keys. Lane 30 is unused, lane 31 holds the index of
// the next slab of the chain (NULL_SLAB at its end). Slab s of the storage is a bucket head for
// s < num_buckets, and pool slab s - num_buckets otherwise. EMPTY_KEY and NULL_SLAB are all ones,
// so that a slab is cleared by filling it with 0xFF bytes.
//
// Invariants that the operations keep (see warp_ops.cuh for why they make keys unique):
//   - a key word goes EMPTY -> key (insert, by CAS) -> ERASED (erase, by CAS) and, outside flush,
//     never back: a slot is filled once;
//   - an insert fills the lowest empty slot of the first slab of the chain that has one; so a
//     slab that follows one with an empty slot holds no entry, and a walk may stop at the first
//     slab with an empty slot;
//   - a next index goes NULL_SLAB -> slab (by CAS) and, outside flush, never back.
#pragma once
#include <stddef.h>
#include <stdint.h>

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
// Counters at the start of the storage.
enum counter { SIZE = 0, OUT_OF_SLABS = 1, RESERVED = 2, POOL_USED = 3, NUM_COUNTERS = 8 };

// Lanes that hold keys: the even data lanes for pairs, all data lanes for keys only.
template <bool HAS_VALUES>
__host__ __device__ constexpr uint32_t key_lanes() {
  return HAS_VALUES ? 0x15555555u : 0x3FFFFFFFu;
}
template <bool HAS_VALUES>
__host__ __device__ constexpr int entries_per_slab() {
  return HAS_VALUES ? DATA_LANES / 2 : DATA_LANES;
}

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

// Claims an empty slot: the pair (key, value) in one 64-bit CAS for a map, so that a reader
// never sees the key without its value; the key alone for a set. p points at the key word.
template <bool HAS_VALUES>
__device__ __forceinline__ bool claim_slot(uint32_t *p, uint32_t key, uint32_t value) {
  if constexpr (HAS_VALUES) {
    constexpr unsigned long long EMPTY_PAIR = ~0ull;
    const unsigned long long pair = (static_cast<unsigned long long>(value) << 32) | key;
    return atomicCAS(reinterpret_cast<unsigned long long *>(p), EMPTY_PAIR, pair) == EMPTY_PAIR;
  } else {
    (void)value;
    return atomicCAS(p, EMPTY_KEY, key) == EMPTY_KEY;
  }
}

__device__ __forceinline__ int lane_id() { return int(threadIdx.x) & (WARP - 1); }
__device__ __forceinline__ int first_lane(uint32_t mask) { return __ffs(int(mask)) - 1; }

}  // namespace slab
}  // namespace detail
}  // namespace msplit
