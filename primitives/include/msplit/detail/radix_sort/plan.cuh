// What both radix sort paths plan alike: the look-back portions of a run of tiles, and pieces of
// temporary storage laid out one after another.
#pragma once
#include <stddef.h>

#include "msplit/detail/lookback.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/radix_sort/tuning.h"

namespace msplit {
namespace detail {

// Tiles of `tile` elements, grouped into portions of at most tuning::RADIX_MAX_PORTION elements
// (below LOOKBACK_MAX_PORTION: the look-back's counts have 30 bits); at least one portion of at
// least one tile, even for n = 0.
struct radix_portions {
  size_t tiles, portion_tiles, portions;
};
inline radix_portions split_portions(size_t n, size_t tile) {
  radix_portions p{};
  p.tiles = (n + tile - 1) / tile;
  static_assert(tuning::RADIX_MAX_PORTION <= LOOKBACK_MAX_PORTION, "look-back counts have 30 bits");
  const size_t max_portion_tiles = tuning::RADIX_MAX_PORTION / tile;
  p.portion_tiles = p.tiles < max_portion_tiles ? p.tiles : max_portion_tiles;
  if (p.portion_tiles == 0) p.portion_tiles = 1;
  p.portions = (p.tiles + p.portion_tiles - 1) / p.portion_tiles;
  if (p.portions == 0) p.portions = 1;
  return p;
}

// off[i] = where piece i starts (each rounded up to TEMP_ALIGN, the first after the error
// record's slot), off[N] = the total.
template <int N>
inline size_t lay_out(const size_t (&sizes)[N], size_t (&off)[N + 1]) {
  size_t at = RECORD_BYTES;
  for (int i = 0; i < N; ++i) {
    off[i] = at;
    at += align_up(sizes[i], TEMP_ALIGN);
  }
  off[N] = at;
  return at;
}

}  // namespace detail
}  // namespace msplit
