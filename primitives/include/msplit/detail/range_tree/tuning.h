// msplit range tree tuning (msplit/range_tree.h): the shapes of its build and query kernels.
// Internal, changed here and nowhere else: the library's sources include this header (no template
// does yet); it is installed with the other detail headers, but it is not part of the API, and a
// change here is not an API change.
// GPU: not yet measured; chosen for the H100 (sm_90). On another GPU the values are a starting
// point, not a tuning.
#pragma once

namespace msplit {
namespace tuning {

// Threads of the per-point kernels of the build (the level 0 gather, the merges) and of the
// per-query kernels (counts, skyline walks).
constexpr int RANGE_TREE_THREADS = 256;
// Warps per block of the report kernel: a warp per query, its lanes copying a node's slice.
constexpr int RANGE_TREE_REPORT_WARPS = 8;

}  // namespace tuning
}  // namespace msplit
