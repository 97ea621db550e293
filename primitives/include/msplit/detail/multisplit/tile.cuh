// A multisplit tile: the arguments every tile kernel takes and the shared-memory layout of one
// tile (see kernels in three_pass.cuh and one_pass.cuh).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "msplit/detail/lookback.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/warp.cuh"
#include "msplit/detail/warp_rank.cuh"

namespace msplit {
namespace detail {

enum class pass_kind { PRESCAN, POSTSCAN };
enum class subproblem { WARP, BLOCK };

template <typename Key, typename Value, typename Op>
struct tile_args {
  const Key *keys_in;
  Key *keys_out;
  const Value *values_in;
  Value *values_out;
  size_t begin, end;  // elements [begin, end) of the input belong to this launch
  uint32_t m;
  peer_method pm;
  Op op;
  bool stage;
  size_t stage_bytes;
  // three-pass variants: H and G are m x L, L = number of subproblems
  uint32_t *H;
  const uint32_t *G;
  size_t L;
  // one-pass variant
  uint32_t *status;       // tiles x m look-back words of this portion, zeroed
  uint32_t *tile_counter; // zeroed
  const size_t *base;     // m: first output index of each bucket for this portion
  // the call's error record: where a look-back that waits too long records it (one-pass), and
  // what the prescan clears (three-pass, whose first step is no memset)
  lookback_stall stall;
};

// ---- shared-memory layout of one tile -------------------------------------------------------
struct tile_layout {
  size_t stage_off;     // staged functor table
  size_t exchange_off;  // TILE elements (keys, then values) for reordering
  size_t bucket_off;    // TILE bucket ids (uint8_t: m <= 256) for reordering
  size_t counts_off;    // WARPS x m counters: warp histograms, then offsets
  size_t dest_off;      // (WARPS or 1) x m global destinations (size_t)
  size_t scan_off;      // m bucket starts, m tile counts, 32 warp sums (64-bit), tile index
  size_t total;
};

// counts_words: size of the counter table in 32-bit words (0: WARPS x m, the warp histograms).
template <int BLOCK_THREADS, int ITEMS>
__host__ __device__ inline tile_layout make_tile_layout(uint32_t m, size_t stage_bytes, size_t elem_bytes,
                                                        bool reorder, bool warp_level, bool need_dest,
                                                        size_t counts_words = 0) {
  constexpr size_t WARPS = BLOCK_THREADS / WARP_SIZE;
  constexpr size_t TILE = size_t(BLOCK_THREADS) * ITEMS;
  tile_layout l{};
  size_t off = 0;
  l.stage_off = off;
  off = align_up(off + stage_bytes, 16);
  l.exchange_off = off;
  if (reorder) off = align_up(off + TILE * elem_bytes, 16);
  l.bucket_off = off;
  if (reorder) off = align_up(off + TILE, 16);
  l.counts_off = off;
  off = align_up(off + (counts_words ? counts_words : WARPS * m) * sizeof(uint32_t), 16);
  l.dest_off = off;
  if (need_dest) off = align_up(off + (warp_level ? WARPS : 1) * m * sizeof(size_t), 16);
  l.scan_off = off;
  off = align_up(off + 2 * m * sizeof(uint32_t), 16) + 32 * sizeof(unsigned long long) + 16;
  l.total = off;
  return l;
}

}  // namespace detail
}  // namespace msplit
