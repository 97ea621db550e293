// msplit slab hash tuning constants (H100, sm_90). Change here, nowhere else.
#pragma once

namespace msplit {
namespace tuning {

// Threads of a bulk-operation block. The bulk kernels run one resident grid (blocks per SM from
// the occupancy calculator) whose warps loop over the operations 32 at a time, so that a warp's
// counters reach global memory once per launch, not once per 32 operations.
constexpr int HASH_BLOCK_THREADS = 256;
// Head slabs a warp loads before it looks at any of them: the loads of one group are in flight
// together, which is what hides the latency of random 128-byte reads. 32 covers all the
// operations of a warp at once; fewer uses fewer registers.
constexpr int HASH_PROBE_GROUP = 32;
// Threads of a flush block (one warp per bucket chain).
constexpr int HASH_FLUSH_THREADS = 128;

}  // namespace tuning
}  // namespace msplit
