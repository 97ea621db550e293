/* deltasplit GPU SSSP: the huge list, the second tier of the relaxation's
 * load balance. A frontier vertex of degree >= the huge degree is not
 * expanded by its tile's block but listed; after a barrier, every thread of
 * the round's blocks expands the listed arcs together, dealt out in warp-sized
 * chunks (relax_huge). One Kronecker hub thus costs a round ~its arcs /
 * threads steps instead of serialising one block.
 *
 * round_params holds the list with the rest of a round's relaxation
 * parameters (tile dealing, the unique-frontier flag, local steps, hub
 * order's words): the engines build one per round (round_schedule.cuh:
 * round_params_of).
 */
#ifndef DS_GPU_HUGE_LIST_CUH
#define DS_GPU_HUGE_LIST_CUH

#include "frontier_queue.cuh"

namespace dsgpu {

/* Vertices of at least tuning::HUGE_DEGREE arcs (an option; never fewer
 * than HUGE_DEGREE_MIN) go to the huge list. HUGE_DEGREE_MIN is one warp
 * chunk's arcs, so that a lane steps over at most one entry boundary per
 * chunk (relax_huge). */
constexpr uint32_t HUGE_DEGREE_MIN = 256;
static_assert(HUGE_DEGREE_MIN == WARP_SIZE * HUGE_CHUNK_STEPS, "an entry holds at least one warp chunk");
/* The huge-list word: entries << HUGE_COUNT_SHIFT | arcs (one 64-bit atomic
 * gives both); the trace hands it to the caller as it is. */
constexpr int HUGE_COUNT_SHIFT = 44;
static_assert(HUGE_COUNT_SHIFT == DS_GPU_TRACE_HUGE_SHIFT, "the trace's word is the huge-list word");
constexpr uint64_t HUGE_ARCS_MASK = (1ull << HUGE_COUNT_SHIFT) - 1;
/* The words of ds_gpu_ctx::d_huge_word: two of each kind by the round's
 * parity, the huge-list words, the tile counters, and from HUGE_MIN_WORD the
 * least distance listed; then from HUGE_NEXT_WORD three by the round modulo 3,
 * the least distance queued for the next round (hub order only; all ones:
 * none). */
constexpr int HUGE_MIN_WORD = 4, HUGE_NEXT_WORD = 6, HUGE_WORDS = 9;

struct huge_entry {
  uint64_t beg, off; /* first arc; offset of its arcs among all listed arcs */
  uint32_t u, du;
};

/* Vertices too big for one block, expanded by the whole grid after a barrier.
 * One 64-bit atomicAdd gives both the slot and the arc offset, so the entries'
 * offsets are increasing in slot order (binary-searchable). */
struct huge_list {
  unsigned long long *word;
  huge_entry *e;   /* capacity: arcs / degree + 1 */
  uint32_t degree; /* vertices of at least this degree are listed */
};

/* What one round of relaxation runs with (round_schedule.cuh builds it for
 * round r of a persistent kernel): its huge list, how its tiles are dealt,
 * its local steps and hub order's words. */
struct round_params {
  huge_list huge;
  /* the round's tile counter (zeroed before the round): tiles are dealt to
     blocks dynamically; NULL: statically, block b taking tiles b, b + parts, ...
     (relax_round sets it from tile_mode) */
  unsigned long long *tiles;
  int tile_mode;     /* ds_gpu_ctx::dyn_tiles (tile_counter) */
  uint32_t min_tile; /* ds_gpu_ctx::min_tile (relax_frontier) */
  /* the frontier holds each vertex at most once: the `done` test can be a
     plain load and store instead of an atomic exchange (relax_frontier) */
  bool unique;
  /* local steps of solo, team and grid rounds (relax_frontier, steps) */
  uint32_t local_solo, local_team, local_grid;
  /* the least distance of the round's listed vertices (atomicMin), for hub
     order (split_sink::hwin) */
  unsigned long long *hmin;
  /* hub order of the vertices of at least mid_degree arcs that are not
     listed (UINT32_MAX: none): they wait unless within hwin of *anchor, the
     least distance queued for this round; this round's queued least goes to
     *next_min */
  uint32_t mid_degree;
  const unsigned long long *anchor;
  unsigned long long *next_min;
};

/* Hub order (split_sink::hwin > 0, unique frontiers only): a listed vertex is
 * expanded only if its distance is within hwin of the least one listed in its
 * round; the others are queued for the next round and listed again there. On
 * Kronecker graphs a round lists thousands of hubs at distances that later
 * rounds still lower, and each listing relaxes thousands of arcs again. A
 * listed vertex is marked done (relax_frontier's `done` test) only when it is
 * expanded, so that its queued copy passes the test. Vertices of at least
 * mid_degree arcs (below the huge degree) are expanded in a tile, before the
 * round's least listed distance is known; they wait unless within hwin of the
 * least distance queued for the round (the anchor: each round publishes the
 * least distance it queued, which the waiting vertices' own distances are
 * part of, so the next round expands at least the least of them). */
template <typename W, bool HUB>
__device__ __forceinline__ bool hub_order_on(const split_sink<W> &sink, const round_params &rp) {
  return HUB && sink.hwin != 0 && rp.unique;
}

/* Expands the huge list (word = its value read after a barrier) with every
 * thread of `parts` blocks (as relax_frontier). Arcs go out in warp chunks of
 * WARP_SIZE * HUGE_CHUNK_STEPS, each warp taking a contiguous range of chunks:
 * one binary search (in global memory) per warp finds the entry of its first
 * arc, and each lane steps over entry boundaries as it goes (entries hold at
 * least HUGE_DEGREE_MIN = one chunk's arcs, so at most one step per chunk). */
/* Publishes a thread's least queued distance (next_min) of the round: one
 * atomic per warp. Every thread of the block calls it. */
__device__ __forceinline__ void publish_next_min(const round_params &rp, uint32_t next_min) {
  next_min = __reduce_min_sync(0xffffffffu, next_min);
  if (threadIdx.x % WARP_SIZE == 0 && next_min != UINT32_MAX) atomicMin(rp.next_min, (unsigned long long)next_min);
}

template <typename W, bool HUB>
__device__ void relax_huge(const dev_graph<W> &g, const dev_vertex_state &vs, const round_params &rp,
                           unsigned long long word, const split_sink<W> &sink, uint32_t part,
                           uint32_t parts, unsigned long long &edges) {
  const uint32_t count = (uint32_t)(word >> HUGE_COUNT_SHIFT);
  const uint64_t total = word & HUGE_ARCS_MASK;
  const uint32_t lane = threadIdx.x % WARP_SIZE;
  const uint64_t warp = ((uint64_t)part * blockDim.x + threadIdx.x) / WARP_SIZE;
  const uint64_t warps = (uint64_t)parts * blockDim.x / WARP_SIZE;
  const uint64_t chunk = (uint64_t)WARP_SIZE * HUGE_CHUNK_STEPS;
  const uint64_t chunks = (total + chunk - 1) / chunk;
  const uint64_t per_warp = (chunks + warps - 1) / warps;
  const uint64_t c_end = min(total, (warp + 1) * per_warp * chunk);
  uint64_t c0 = warp * per_warp * chunk;
  if (c0 >= c_end) return; /* whole warps: publish_next_min below stays warp-uniform */
  uint32_t idx = 0;
  if (lane == 0) {
    uint32_t lo = 0, hi = count - 1; /* last entry with off <= c0 */
    while (lo < hi) {
      uint32_t mid = (lo + hi + 1) / 2;
      if (rp.huge.e[mid].off <= c0) lo = mid;
      else hi = mid - 1;
    }
    idx = lo;
  }
  idx = __shfl_sync(0xffffffffu, idx, 0);
  /* hub order: entries at or above thr wait for the next round */
  const bool order = hub_order_on<W, HUB>(sink, rp);
  const bool mids = order && rp.mid_degree < rp.huge.degree;
  uint32_t next_min = UINT32_MAX;
  const typename weight_traits<W>::acc_t thr =
      order ? weight_traits<W>::plus((uint32_t)*(volatile unsigned long long *)rp.hmin, sink.hwin)
            : weight_traits<W>::acc_max();
  for (; c0 < c_end; c0 += chunk) {
    /* staged as in relax_frontier: arc loads, distance loads, atomics */
    uint32_t v[HUGE_CHUNK_STEPS] = {}, nd[HUGE_CHUNK_STEPS], src[HUGE_CHUNK_STEPS], cur[HUGE_CHUNK_STEPS];
    int k[HUGE_CHUNK_STEPS];
    const uint64_t none[HUGE_CHUNK_STEPS] = {}; /* no local steps here (sink.lb is NULL) */
    /* 0: no arc; 1: an arc to relax; 2: a waiting entry's first arc (the
       lane that queues it); 3: one of its other arcs */
    uint32_t what[HUGE_CHUNK_STEPS];
#pragma unroll
    for (int s = 0; s < HUGE_CHUNK_STEPS; ++s) {
      const uint64_t a = c0 + (uint64_t)s * WARP_SIZE + lane;
      what[s] = 0;
      if (a < c_end) {
        while (idx + 1 < count && rp.huge.e[idx + 1].off <= a) ++idx;
        const huge_entry h = rp.huge.e[idx];
        src[s] = h.u;
        if (order && !weight_traits<W>::below(h.du, thr)) {
          what[s] = a == h.off ? 2 : 3;
          v[s] = h.u;
          nd[s] = h.du;
        } else {
          what[s] = 1;
          if (order) {
            ++edges; /* counted here: a waiting entry relaxes nothing */
            if (a == h.off) atomicMin(&vs.done[h.u], h.du); /* expanded at du (relax_frontier's test) */
          }
          /* the hubs' arcs are read once a round: streamed, as relax_arcs
             does in the two-block build, which HUB marks */
          const uint2 arc = HUB ? __ldcs(&g.arc[h.beg + (a - h.off)]) : g.arc[h.beg + (a - h.off)];
          v[s] = arc.x;
          nd[s] = weight_traits<W>::add(h.du, weight_traits<W>::weight(arc.y));
        }
      }
    }
#pragma unroll
    for (int s = 0; s < HUGE_CHUNK_STEPS; ++s)
      if (what[s] == 1) cur[s] = dist_of(*(volatile unsigned long long *)&vs.dist[v[s]]);
#pragma unroll
    for (int s = 0; s < HUGE_CHUNK_STEPS; ++s)
      k[s] = what[s] == 1 ? relax_commit<W>(vs, src[s], v[s], nd[s], cur[s], sink)
             : what[s] == 2 ? sink.claim(v[s], nd[s])
                            : -1;
    if (mids)
#pragma unroll
      for (int s = 0; s < HUGE_CHUNK_STEPS; ++s)
        if (k[s] == 0 || what[s] == 2) next_min = min(next_min, nd[s]);
    warp_push<HUGE_CHUNK_STEPS, W>(sink, v, nd, k, none, none);
  }
  if (mids) publish_next_min(rp, next_min);
}

} // namespace dsgpu

#endif /* DS_GPU_HUGE_LIST_CUH */
