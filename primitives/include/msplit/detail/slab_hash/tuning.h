// msplit slab hash tuning: the shapes of the bulk-operation and flush kernels.
// Internal, changed here and nowhere else: the templates include this header, so it is installed,
// but it is not part of the API, and a change here is not an API change.
// GPU: measured on the H100 (sm_90); on another GPU the values are a starting point, not a tuning.
#pragma once

namespace msplit {
namespace tuning {

// Threads of a bulk-operation block. The bulk kernels run one resident grid (blocks per SM from
// the occupancy calculator) whose warps loop over the operations 32 at a time, so that a warp's
// counters reach global memory once per launch, not once per 32 operations.
constexpr int HASH_BLOCK_THREADS = 256;
// Slabs a warp loads before it looks at any of them: the loads of one group are in flight
// together, which is what hides the latency of random 128-byte reads. Fewer registers (more
// resident warps) beat more loads per warp: on the H100 (hash_bench, 2^26 keys, utilization 0.65),
// find hit / miss ran 13,494 / 11,062 M/s with 4, 13,668 / 10,944 with 8 (63 registers a thread,
// 32 warps per SM) and 9,771 / 7,708 with 32 (104 registers). Forcing 5 blocks of 256 per SM
// spills.
constexpr int HASH_PROBE_GROUP = 8;
// Threads of a flush block (one warp per bucket chain).
constexpr int HASH_FLUSH_THREADS = 128;

}  // namespace tuning
}  // namespace msplit
