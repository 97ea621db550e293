// msplit LSM tuning (msplit/lsm.h): the shapes of its query, merge and scan kernels.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: not yet measured; chosen for the H100 (sm_90). On another GPU the values are a starting
// point, not a tuning.
#pragma once
#include <stdint.h>

namespace msplit {
namespace tuning {

// Threads of the per-entry and per-query kernels (staging, lookup, count, range, flags).
constexpr int LSM_THREADS = 256;
// Queries per thread of lookup, count and range: a block answers THREADS x QUERY_ITEMS queries
// with one load of the levels' fences into shared memory.
constexpr int LSM_QUERY_ITEMS = 4;
// Fences per level, and the levels (the lowest occupied ones) whose fences a query block caches:
// a search's first log2(LSM_FENCES) steps run in shared memory.
constexpr int LSM_FENCES = 256;
constexpr int LSM_FENCE_LEVELS = 8;
// The merge of two runs (merge.cuh): a block merges a tile of THREADS x ITEMS outputs, staged in
// shared memory; each thread merges ITEMS consecutive outputs after a search of its diagonal.
constexpr int LSM_MERGE_THREADS = 128;
constexpr int LSM_MERGE_ITEMS = 8;
// The scan of counts and keep-flags (scan.cuh): a tile of THREADS x ITEMS elements per block.
constexpr int LSM_SCAN_THREADS = 256;
constexpr int LSM_SCAN_ITEMS = 8;

}  // namespace tuning
}  // namespace msplit
