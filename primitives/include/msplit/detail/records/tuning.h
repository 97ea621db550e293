// msplit records tuning (split, gather, scatter and sort of records): the shapes of the move kernel
// and of the small kernels around it.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: not yet measured; chosen for the H100 (sm_90). On another GPU the values are a starting
// point, not a tuning.
// A record's size is a runtime value, so these are the only compile-time shapes.
#pragma once
#include <stdint.h>

namespace msplit {
namespace tuning {

// Threads of the move kernel's blocks.
constexpr int RECORDS_MOVE_THREADS = 256;
// Words (one vector access each) a thread loads before it stores them: loads in flight per thread,
// which a random gather needs to cover the memory latency.
constexpr int RECORDS_MOVE_ITEMS = 4;
// Words a block moves: a tile holds as many whole records as fit (at least one), so a block
// runs a few rounds of THREADS x ITEMS words.
constexpr uint32_t RECORDS_TILE_WORDS = 4096;
// The split of records into at most RECORDS_SPLIT_MAX_BUCKETS buckets (split_tile.cuh): a block
// ranks a tile of THREADS x ITEMS records and moves them; larger m splits (bucket id, position)
// pairs with the multisplit and gathers. One thread per bucket scans the bucket starts, so the
// largest m is the block's thread count.
constexpr int RECORDS_SPLIT_THREADS = 256;
constexpr int RECORDS_SPLIT_ITEMS = 8;
constexpr uint32_t RECORDS_SPLIT_MAX_BUCKETS = RECORDS_SPLIT_THREADS;
// Threads of the key extraction, labelling and bucket-check kernels (one element per thread).
constexpr int RECORDS_ELEMENT_THREADS = 256;

}  // namespace tuning
}  // namespace msplit
