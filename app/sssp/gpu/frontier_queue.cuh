/* deltasplit GPU SSSP: the frontier queues, and where a relaxation sends the
 * vertices it improved.
 *
 * An arc (u, v, w) improves v when dist(u) + w < dist(v); the 64-bit atomicMin
 * of (distance, predecessor) decides (relax_commit), and the thread that
 * lowered the distance hands v to the split_sink, which queues it (near or
 * far by its new distance; one atomic per warp, queue and ILP batch:
 * warp_push). Queues are deduplicated per round by stamps.
 */
#ifndef DS_GPU_FRONTIER_QUEUE_CUH
#define DS_GPU_FRONTIER_QUEUE_CUH

#include <cooperative_groups.h>

#include <msplit/warp_scan.cuh>

#include "gpu_common.cuh"

namespace dsgpu {

namespace cg = cooperative_groups;

/* Appends v to q[*cnt] with one atomic per coalesced group of threads;
 * returns where it went. */
__device__ __forceinline__ uint32_t queue_push(uint32_t *q, uint32_t *cnt, uint32_t v) {
  cg::coalesced_group g = cg::coalesced_threads();
  uint32_t base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(cnt, g.size());
  const uint32_t i = g.shfl(base, 0) + g.thread_rank();
  q[i] = v;
  return i;
}

/* Pushes v unless it was already pushed under this stamp value. */
__device__ __forceinline__ void queue_push_once(uint32_t *q, uint32_t *cnt, uint32_t *stamp,
                                                uint32_t stamp_value, uint32_t v) {
  if (atomicExch(&stamp[v], stamp_value) != stamp_value) queue_push(q, cnt, v);
}

/* The vertices a block keeps for its next local step (LOCAL_CAP, tuning.cuh),
 * with their distances
 * and arcs (first arc, degree: loaded when they were pushed); cnt counts the
 * pushes, also those beyond the cap. dmin: the smallest distance kept (bits),
 * tracked only for ordered steps (split_sink::lwin). */
struct local_buf {
  uint64_t beg[LOCAL_CAP];
  uint32_t v[LOCAL_CAP], d[LOCAL_CAP], deg[LOCAL_CAP], cnt, dmin;
};

/* Where a relaxation round sends the vertices it improved: queue 0 if the new
 * distance is below `split`, else queue 1 (Near-Far: near / far pile; the
 * bucket engine: this bucket's next frontier / the spill). Each queue is
 * deduplicated per round by its own stamp array. */
template <typename W> struct split_sink {
  uint32_t *q[2];     /* where entries go (already offset by the pile's base) */
  uint32_t *cnt[2];   /* append counters, relative to q */
  uint32_t *stamp[2];
  uint32_t stamp_value;
  typename weight_traits<W>::acc_t split;
  /* a local solo round (relax_round): queue 0's entries also go to this
     shared array while they fit in it, as the next round's frontier */
  uint32_t *mirror = NULL;
  /* a local step (relax_frontier, steps): vertices below split go to this
     shared buffer for the block to expand itself within the round, not to
     queue 0 */
  local_buf *lb = NULL;
  /* ordered local steps (ds_gpu_options::local_order): a step expands the
     entries below its buffer's dmin + lwin and carries the rest (0: off) */
  typename weight_traits<W>::acc_t lwin = 0;
  /* hub order (ds_gpu_options::hub_order; huge_list.cuh): listed vertices
     are expanded within hwin of the round's least listed distance (0: off) */
  typename weight_traits<W>::acc_t hwin = 0;
  /* a dense round: nothing is claimed for queue 0 (queue_pending finds them) */
  bool dense = false;
  /* the queue v goes to (0, 1), or -1 if it was pushed there this round already */
  __device__ __forceinline__ int claim(uint32_t v, uint32_t nd) const {
    const int k = weight_traits<W>::below(nd, split) ? 0 : 1;
    if (dense && k == 0) return -1;
    /* selects, not an index: a dynamic index puts the sink in local memory */
    return atomicExch(&(k ? stamp[1] : stamp[0])[v], stamp_value) != stamp_value ? k : -1;
  }
  /* Appends v to queue k (and to the mirror), one atomic per coalesced group:
     the rare pushes outside warp_push. */
  __device__ __forceinline__ void push(int k, uint32_t v) const {
    const uint32_t i = queue_push(k ? q[1] : q[0], k ? cnt[1] : cnt[0], v);
    if (k == 0 && mirror && i < SOLO_LOCAL_CAP) mirror[i] = v;
  }
};

/* The pushes of N relaxation steps of a whole warp (every lane calls it, full
 * mask), k[j] the queue of v[j], 2 for the sink's local step (with the
 * distance nd[j] and the row bounds vb[j], ve[j]), or -1: one atomicAdd per
 * warp and queue for all N steps. Pushes per round are counted on two global
 * words; with one atomic per coalesced group and step, the same-address
 * atomics on those words serialized the large Kronecker rounds. */
template <int N, typename W, bool ORD = false>
__device__ __forceinline__ void warp_push(const split_sink<W> &s, const uint32_t (&v)[N],
                                          const uint32_t (&nd)[N], const int (&k)[N],
                                          const uint64_t (&vb)[N], const uint64_t (&ve)[N]) {
  const uint32_t lane = threadIdx.x % WARP_SIZE;
  const uint32_t lt = (1u << lane) - 1;
  if (s.lb) {
    /* k = 2: the block's next local step, while it has room; beyond it, the
       vertex is claimed for queue 0 as usual */
    uint32_t off[N], total = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const uint32_t b = __ballot_sync(0xffffffffu, k[j] == 2);
      off[j] = total + __popc(b & lt);
      total += __popc(b);
    }
    if (total) {
      uint32_t base = 0;
      if (lane == 0) base = atomicAdd(&s.lb->cnt, total);
      base = __shfl_sync(0xffffffffu, base, 0);
      uint32_t kept_min = UINT32_MAX; /* ordered steps: the smallest distance kept */
#pragma unroll
      for (int j = 0; j < N; ++j)
        if (k[j] == 2) {
          const uint32_t i = base + off[j];
          if (i < LOCAL_CAP) {
            if (ORD && nd[j] < kept_min) kept_min = nd[j];
            s.lb->v[i] = v[j];
            s.lb->d[i] = nd[j];
            s.lb->beg[i] = vb[j];
            s.lb->deg[i] = ve[j] - vb[j] < UINT32_MAX ? (uint32_t)(ve[j] - vb[j]) : UINT32_MAX;
          } else if (s.claim(v[j], nd[j]) == 0) {
            s.push(0, v[j]);
          }
        }
      if (ORD && s.lwin) {
        kept_min = __reduce_min_sync(0xffffffffu, kept_min);
        if (lane == 0 && kept_min != UINT32_MAX) atomicMin(&s.lb->dmin, kept_min);
      }
    }
  }
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    uint32_t off[N], total = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const uint32_t b = __ballot_sync(0xffffffffu, k[j] == q);
      off[j] = total + __popc(b & lt);
      total += __popc(b);
    }
    if (total == 0) continue;
    uint32_t base = 0;
    if (lane == 0) base = atomicAdd(s.cnt[q], total);
    base = __shfl_sync(0xffffffffu, base, 0);
#pragma unroll
    for (int j = 0; j < N; ++j)
      if (k[j] == q) {
        s.q[q][base + off[j]] = v[j];
        if (q == 0 && s.mirror && base + off[j] < SOLO_LOCAL_CAP) s.mirror[base + off[j]] = v[j];
      }
  }
}

/* Last stage of relaxing an arc src -> v: cur is v's distance read earlier
 * this round, nd the distance through src. If nd < cur, the 64-bit atomicMin
 * of (distance, predecessor) is issued without waiting for its result (a
 * reduction: one dependent round trip less per round) and v is claimed for
 * the queue of nd (split_sink::claim; returns it, or -1), or, in a local
 * step with nd below the split, returned as 2 for the block's next step. If
 * another thread lowered v below nd meanwhile, it claims v too, and the stamps
 * keep one entry per queue and round: the queues get the same vertices as
 * when only the thread that lowered the distance pushed. */
template <typename W>
__device__ __forceinline__ int relax_commit(const dev_vertex_state &vs, uint32_t src, uint32_t v,
                                            uint32_t nd, uint32_t cur, const split_sink<W> &sink) {
  if (nd < cur) {
    atomicMin(&vs.dist[v], (unsigned long long)pack(nd, src));
    if (sink.lb && weight_traits<W>::below(nd, sink.split)) return 2;
    return sink.claim(v, nd);
  }
  return -1;
}

/* After a dense round (split_sink::dense), by every thread of the grid once
 * the round's relaxations are complete: appends to q (count *cnt) every
 * vertex left pending below split, that is lowered below the distance it
 * was last expanded at (done), and lowers `least` to the least of their
 * distances. That is the set the round's claims would have queued (each
 * lowering is followed by an expansion, and a vertex a round lists or makes
 * wait is not marked done), without a stamp exchange and a push for each
 * lowering: in the large rounds of a Kronecker graph most relaxed arcs lower
 * their target. Each lane tests PER consecutive vertices; one atomic per
 * warp and pass. */
template <typename W>
__device__ void queue_pending(const dev_vertex_state &vs, uint32_t n, typename weight_traits<W>::acc_t split,
                              uint32_t *q, uint32_t *cnt, uint32_t &least) {
  constexpr uint32_t PER = 8;
  const uint32_t lane = threadIdx.x % WARP_SIZE;
  const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE;
  const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / WARP_SIZE;
  for (uint64_t base = warp * WARP_SIZE * PER; base < n; base += warps * WARP_SIZE * PER) {
    const uint64_t v0 = base + (uint64_t)lane * PER;
    uint32_t mask = 0;
#pragma unroll
    for (uint32_t j = 0; j < PER; ++j)
      if (v0 + j < n) {
        const uint32_t d = dist_of(*(volatile unsigned long long *)&vs.dist[v0 + j]);
        const uint32_t dn = *(volatile uint32_t *)&vs.done[v0 + j];
        if (d != weight_traits<W>::INF_BITS && d < dn && weight_traits<W>::below(d, split)) {
          mask |= 1u << j;
          least = min(least, d);
        }
      }
    const uint32_t c = __popc(mask);
    const uint32_t x = msplit::warp_inclusive_scan(c, lane);
    const uint32_t total = __shfl_sync(0xffffffffu, x, WARP_SIZE - 1);
    if (total == 0) continue;
    uint32_t at = 0;
    if (lane == WARP_SIZE - 1) at = atomicAdd(cnt, total);
    at = __shfl_sync(0xffffffffu, at, WARP_SIZE - 1) + x - c;
#pragma unroll
    for (uint32_t j = 0; j < PER; ++j)
      if (mask >> j & 1) q[at++] = (uint32_t)(v0 + j);
  }
}

} // namespace dsgpu

#endif /* DS_GPU_FRONTIER_QUEUE_CUH */
