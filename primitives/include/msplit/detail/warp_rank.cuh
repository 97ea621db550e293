// Warp-level ranking of items by bucket: the peers of an item (lanes whose item is in the same
// bucket), the warp's bucket histogram by ballots, and each item's stable offset among the
// warp's items of its bucket (Ashkiani et al., "GPU Multisplit", PPoPP 2016, Alg. 2 and 3;
// Ashkiani's thesis, section 3.5). Multisplit ranks its tiles with these; a histogram can count
// with the same votes, and a radix sort rank its digits.
//
// Corrections to the papers' pseudo-code: every vote uses the _sync form with the full mask, and
// nothing relies on implicit warp synchrony: ordering between lanes is carried by __shfl_sync
// data dependences or __syncwarp(). Thesis Alg. 4 tests the lane id where the element's bucket
// id is meant; here the bucket bits are what is voted on.
//
// Invariant: every function here is called by all 32 lanes of a warp (converged), each with one
// item; items of a warp are ranked in the order (step, lane), which is their input order when
// tiles are loaded warp-striped (item k of lane l is element k * 32 + l of the warp's chunk).
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include "msplit/detail/warp.cuh"

namespace msplit {
namespace detail {

// How a warp finds the peers of an item: `ballot_rounds` __ballot_sync votes on the bucket bits
// (the paper's log2(m) rounds), or one __match_any_sync when use_match is set.
struct peer_method {
  bool use_match;
  int ballot_rounds;
};

// Lanes of the warp whose (valid) item has the same bucket as mine. Invalid lanes (tail of the
// input) are removed from every mask with `valid_mask`; their own result is meaningless.
__device__ __forceinline__ unsigned warp_peers(uint32_t bucket, peer_method pm, unsigned valid_mask) {
  unsigned peers;
  if (pm.use_match) {
    peers = __match_any_sync(FULL_WARP_MASK, bucket);
  } else {
    peers = FULL_WARP_MASK;
    for (int r = 0; r < pm.ballot_rounds; ++r) {
      const bool bit = (bucket >> r) & 1u;
      const unsigned vote = __ballot_sync(FULL_WARP_MASK, bit);
      peers &= bit ? vote : ~vote;
    }
  }
  return peers & valid_mask;
}

// Ranks one step of a warp's items. `counts` are the warp's m running bucket counters in shared
// memory (this warp only). Returns, for a valid item, the number of earlier items of the warp
// (earlier steps, or this step on a lower lane) in the same bucket, and adds this step's items to
// the counters. The leader (lowest peer lane) adds the peer count with one shared atomic; the
// old value reaches the peers by __shfl_sync, whose data dependence on the atomic's result orders
// this step's update before any later step's.
__device__ __forceinline__ uint32_t warp_rank_step(uint32_t bucket, bool valid, unsigned valid_mask,
                                                   peer_method pm, uint32_t *counts) {
  const unsigned peers = warp_peers(bucket, pm, valid_mask);
  const unsigned lane = lane_id();
  const int leader = valid ? __ffs(peers) - 1 : int(lane);
  uint32_t old = 0;
  if (valid && int(lane) == leader) old = atomicAdd(&counts[bucket], uint32_t(__popc(peers)));
  old = __shfl_sync(FULL_WARP_MASK, old, leader);
  return old + uint32_t(__popc(peers & lanemask_lt()));
}

// ---- ballot ranks for m <= 32 (the paper's Alg. 2 and 3) ----------------------------------------
// Bucket c is owned by lane c. A step votes once per bucket bit; each lane narrows two bitmaps as
// the votes arrive: the lanes whose item shares its item's bucket (peers, for the rank) and the
// lanes whose item is in the lane's own bucket (for the count). The loop runs `bits` times (a
// run-time count: fully unrolling to the largest m costs more issue slots than it saves).

// Rank step: `run` is the count of bucket `lane` in the warp's earlier steps. Returns the rank of
// this lane's (valid) item among the warp's items of its bucket.
__device__ __forceinline__ uint32_t warp_ballot_rank_step(uint32_t bucket, bool valid, int bits, uint32_t &run) {
  const unsigned lane = lane_id();
  const unsigned valid_mask = __ballot_sync(FULL_WARP_MASK, valid);
  unsigned peers = valid_mask, mine = valid_mask;
  for (int r = 0; r < bits; ++r) {
    const unsigned vote = __ballot_sync(FULL_WARP_MASK, valid && ((bucket >> r) & 1u));
    peers &= ((bucket >> r) & 1u) ? vote : ~vote;
    mine &= ((lane >> r) & 1u) ? vote : ~vote;
  }
  const uint32_t before = __shfl_sync(FULL_WARP_MASK, run, int(bucket % WARP_SIZE));
  run += __popc(mine);
  return before + uint32_t(__popc(peers & lanemask_lt()));
}

// ---- ranks with a compile-time bucket width (the one-pass sweep) -----------------------------
// BITS = ceil(log2 m) is a template parameter, so the votes are straight-line code: no loop
// control and no predicated-off rounds (voting all 8 bits for every m, predicated off above
// BITS, ran 2x slower on the H100: predicated-off rounds still take issue slots). No
// __match_any_sync: on sm_90 its cost grows with the number of distinct buckets in the warp
// (ncu: MATCH.ANY's consumer took 77 % of the histogram kernel's stall
// samples at m = 256), while BITS votes cost the same for any input.
//
// Ranks one step of a warp's items (every lane calls it; `valid_mask` holds the lanes with an
// item, and an invalid lane passes bucket 0 and ignores the result). Returns the number of
// earlier items of the warp (earlier steps, or this step on a lower lane) in the item's bucket.
//   BITS <= 5: lane c keeps the running count of bucket c in `run` (registers only).
//   BITS > 5:  the warp's m running counters are `counts` in shared memory; the leader (highest
//              peer lane) adds the peer count with one atomic, whose old value reaches the peers
//              by __shfl_sync (see warp_rank_step for why that orders the steps).
template <int BITS>
__device__ __forceinline__ uint32_t warp_rank_bits(uint32_t bucket, unsigned valid_mask, uint32_t &run,
                                                   uint32_t *counts) {
  const unsigned lane = lane_id();
  unsigned peers = valid_mask;
  if constexpr (BITS <= 5) {
    unsigned mine = valid_mask;
#pragma unroll
    for (int r = 0; r < BITS; ++r) {
      const unsigned vote = __ballot_sync(FULL_WARP_MASK, (bucket >> r) & 1u);
      peers &= ((bucket >> r) & 1u) ? vote : ~vote;
      mine &= ((lane >> r) & 1u) ? vote : ~vote;
    }
    const uint32_t before = __shfl_sync(FULL_WARP_MASK, run, int(bucket));
    run += __popc(mine);
    return before + uint32_t(__popc(peers & lanemask_lt()));
  } else {
#pragma unroll
    for (int r = 0; r < BITS; ++r) {
      const unsigned vote = __ballot_sync(FULL_WARP_MASK, (bucket >> r) & 1u);
      peers &= ((bucket >> r) & 1u) ? vote : ~vote;
    }
    const bool valid = (valid_mask >> lane) & 1u;
    const int leader = valid ? 31 - __clz(peers) : int(lane);
    uint32_t old = 0;
    if (valid && int(lane) == leader) old = atomicAdd(&counts[bucket], uint32_t(__popc(peers)));
    old = __shfl_sync(FULL_WARP_MASK, old, leader);
    return old + uint32_t(__popc(peers & lanemask_lt()));
  }
}

}  // namespace detail
}  // namespace msplit
