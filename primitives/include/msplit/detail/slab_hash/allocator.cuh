// The slab pool's allocator, used by whole warps (after Ashkiani et al.'s SlabAlloc).
//
// The pool is cut into blocks of BLOCK_SLABS = 1,024 slabs; a block's bitmap is 32 words, one
// per lane, a set bit an allocated slab. A warp keeps a resident block, its bitmap words cached
// in the lanes' registers: an allocation picks a lane whose word has a clear bit and sets it with
// one atomicOr (whose old value refreshes the cache), so an allocation costs one atomic and no
// global counter. Warps start at blocks spread by a hash of their index. A block found full sends
// the warp to the next one; a warp that has seen every block full in this launch reports the pool
// exhausted from then on (within an insert launch bits are only set, except the rare slab given
// back after a lost link race, so a full sweep is a true answer).
//
// Freed slabs (flush, or a lost link race) must be all 0xFF, as init leaves them: allocation
// does not clear them.
//
// A lost bit race means another warp took that slab, so a warp loses at most BLOCK_SLABS races
// per block it visits (plus the few slabs given back meanwhile): an allocation that has tried
// MAX_STEPS_PER_BLOCK times per block of the pool gives up (a bitmap that never settles: a
// corrupted table), which the caller reports as a give-up.
#pragma once
#include "msplit/detail/slab_hash/slab.cuh"

namespace msplit {
namespace detail {
namespace slab {

constexpr uint32_t MAX_STEPS_PER_BLOCK = 4 * BLOCK_SLABS;

struct allocator {
  uint32_t block = 0;      // the resident block
  uint32_t cached = 0;     // this lane's word of the resident block's bitmap
  uint32_t visited = 0;    // blocks found full since the last success
  bool loaded = false;     // `cached` holds the resident block's bitmap
  bool exhausted = false;  // every block was found full in this launch
  bool gave_up = false;    // an allocation passed its bound (see the top); exhausted is set too
  unsigned long long steps = 0;  // tries of the allocation that gave up

  // The warp's start block: spread warps over the pool (Knuth's multiplicative hash).
  __device__ void start(const view &v, uint32_t warp_index) {
    block = v.num_blocks ? uint32_t((uint64_t(warp_index * 2654435761u) * v.num_blocks) >> 32) : 0;
  }

  // A slab index (past the heads) for the whole warp, or NULL_SLAB when the pool is exhausted.
  // All lanes call it together.
  __device__ uint32_t allocate(const view &v) {
    const int lane = lane_id();
    const unsigned long long max_steps = (unsigned long long)(v.num_blocks + 1) * MAX_STEPS_PER_BLOCK;
    for (unsigned long long tries = 1; !exhausted && v.num_blocks; ++tries) {
      if (tries > max_steps) {
        gave_up = exhausted = true;
        steps = tries;
        break;
      }
      uint32_t *words = v.bitmap + size_t(block) * WARP;
      if (!loaded) {
        cached = load_word(words + lane);
        loaded = true;
      }
      const uint32_t open = __ballot_sync(FULL_MASK, cached != FULL_MASK);
      if (open == 0) {
        loaded = false;
        block = block + 1 == v.num_blocks ? 0 : block + 1;
        if (++visited >= v.num_blocks) exhausted = true;
        continue;
      }
      const int src = first_lane(open);
      uint32_t got = 0;
      int bit = 0;
      if (lane == src) {
        bit = __ffs(int(~cached)) - 1;
        const uint32_t old = atomicOr(words + lane, 1u << bit);
        cached = old | (1u << bit);
        got = (old >> bit) & 1u ? 0u : 1u;
      }
      got = __shfl_sync(FULL_MASK, got, src);
      bit = __shfl_sync(FULL_MASK, bit, src);
      if (got) {
        visited = 0;
        return v.num_buckets + (block * BLOCK_SLABS + uint32_t(src) * 32u + uint32_t(bit));
      }
    }
    return NULL_SLAB;
  }
};

// Returns pool slab s (a storage index past the heads), already cleared to 0xFF, to the pool.
// Any lane may call it alone.
__device__ __forceinline__ void free_slab(const view &v, uint32_t s) {
  const uint32_t p = s - v.num_buckets;
  atomicAnd(v.bitmap + p / 32, ~(1u << (p % 32)));
}

}  // namespace slab
}  // namespace detail
}  // namespace msplit
