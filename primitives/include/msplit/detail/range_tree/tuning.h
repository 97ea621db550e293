// Tuning of the range tree (msplit/range_tree.h): the shapes of its kernels. Chosen for an H100.
#pragma once

namespace msplit {
namespace tuning {

// Threads of the per-point kernels of the build (the level 0 gather, the merges) and of the
// per-query kernels (counts, skyline walks).
constexpr int RT_THREADS = 256;
// Warps per block of the report kernel: a warp per query, its lanes copying a node's slice.
constexpr int RT_REPORT_WARPS = 8;

}  // namespace tuning
}  // namespace msplit
