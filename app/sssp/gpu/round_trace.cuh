/* deltasplit GPU SSSP: the per-round trace of the persistent kernels
 * (performance work; off unless the caller gives ds_gpu_options::trace). Off,
 * each call is one test of a pointer in a register by the round's first
 * thread, outside the relaxation loops.
 */
#ifndef DS_GPU_ROUND_TRACE_CUH
#define DS_GPU_ROUND_TRACE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

namespace dsgpu {

/* Per-round trace of the persistent Near-Far / Bellman-Ford kernel, for
 * performance work (ds_gpu_trace, gpu_sssp.h: the caller's buffer, which
 * context.cu fills after each search). Record r:
 * the %globaltimer (ns) at the round's start, its frontier size, the blocks
 * that ran it (0: the whole grid, 1: block 0 alone, k: the team), and its
 * huge-list word; record `rounds` holds the end time. Written by
 * the thread that starts the round; t == NULL: off. */
struct round_trace {
  unsigned long long *t;
  uint32_t cap; /* records */
  static __device__ __forceinline__ unsigned long long now() {
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
  }
  __device__ __forceinline__ void begin(uint32_t r, uint32_t nin, uint32_t parts) const {
    if (t && r < cap) {
      t[4ull * r] = now();
      t[4ull * r + 1] = nin;
      t[4ull * r + 2] = parts;
      t[4ull * r + 3] = 0;
    }
  }
  __device__ __forceinline__ void huge(uint32_t r, unsigned long long word) const {
    if (t && r < cap) t[4ull * r + 3] = word;
  }
  __device__ __forceinline__ void end(uint32_t rounds) const {
    if (t && rounds < cap) t[4ull * rounds] = now();
  }
};

} // namespace dsgpu

#endif /* DS_GPU_ROUND_TRACE_CUH */
