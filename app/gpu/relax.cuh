/* deltasplit GPU SSSP: load-balanced relaxation of a frontier (all algorithms).
 *
 * relax_frontier() relaxes the out-arcs of `count` frontier vertices. The
 * frontier count is read by the caller from device memory, so the launch needs
 * no host round trip. Load balance is over arcs, in two tiers:
 *   - a vertex of degree >= HUGE_DEGREE goes to the huge list, which the whole
 *     grid expands together after a barrier (relax_huge: arcs dealt out in
 *     warp-sized chunks over all threads);
 *   - the others: each block takes a tile of RELAX_BLOCK frontier entries,
 *     prefix-sums their degrees, and deals the tile's arcs round-robin to its
 *     threads, each finding its vertex by binary search in shared memory
 *     (an edge-balanced gather, as in merge-path load balancing). No thread
 *     or warp ever walks one vertex's arcs alone, so a round costs
 *     ~arcs / threads steps whatever the degree distribution.
 * (A first version gave vertices of degree >= 32 a warp and >= 256 the block,
 * one vertex at a time, after Merrill et al.; on Kronecker graphs those
 * serial per-vertex loops made every round latency-bound.)
 *
 * Each frontier entry is expanded only if its current distance is below the
 * smallest distance it was expanded at (vs.done): this drops stale entries
 * (the vertex was improved and expanded since it was queued) and duplicate
 * entries in one frontier. done only goes down (atomicMin, as distances do):
 * with a plain store or an exchange, a late expansion at a distance that
 * another thread had since undercut and expanded overwrote the lower value,
 * the vertex looked pending ever after, and the bucket engine's rebuild
 * restarted its window below it (grid-1000: ~4,000 such vertices, 9 extra
 * phases; bench/NOTES-sssp.md step 43).
 *
 * An arc (u, v, w) improves v when dist(u) + w < dist(v); the 64-bit atomicMin
 * of (distance, predecessor) decides, and the thread that lowered the distance
 * hands v to the split_sink, which queues it (near or far by its new
 * distance; one atomic per warp, queue and ILP batch: warp_push).
 *
 * In the kernels' one-block-per-SM build (road-like graphs), a block expands
 * the near vertices it lowered itself, within the round ("local steps",
 * relax_frontier): a road round is bound by latency and barriers, not work.
 */
#ifndef DS_GPU_RELAX_CUH
#define DS_GPU_RELAX_CUH

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>

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

/* The most vertices a local solo round keeps in shared memory as the next
 * round's frontier (relax_round). */
constexpr uint32_t SOLO_LOCAL_CAP = 256;

/* Pushes v unless it was already pushed under this stamp value. */
__device__ __forceinline__ void queue_push_once(uint32_t *q, uint32_t *cnt, uint32_t *stamp,
                                                uint32_t stamp_value, uint32_t v) {
  if (atomicExch(&stamp[v], stamp_value) != stamp_value) queue_push(q, cnt, v);
}

/* The most vertices a block keeps for its next local step (relax_frontier). */
constexpr uint32_t LOCAL_CAP = 256;

/* The vertices a block keeps for its next local step, with their distances
 * and arcs (first arc, degree: loaded when they were pushed); cnt counts the
 * pushes, also those beyond LOCAL_CAP. */
struct local_buf {
  uint64_t beg[LOCAL_CAP];
  uint32_t v[LOCAL_CAP], d[LOCAL_CAP], deg[LOCAL_CAP], cnt;
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
  /* the queue v goes to (0, 1), or -1 if it was pushed there this round already */
  __device__ __forceinline__ int claim(uint32_t v, uint32_t nd) const {
    const int k = weight_traits<W>::below(nd, split) ? 0 : 1;
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
template <int N, typename W>
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
#pragma unroll
      for (int j = 0; j < N; ++j)
        if (k[j] == 2) {
          const uint32_t i = base + off[j];
          if (i < LOCAL_CAP) {
            s.lb->v[i] = v[j];
            s.lb->d[i] = nd[j];
            s.lb->beg[i] = vb[j];
            s.lb->deg[i] = ve[j] - vb[j] < UINT32_MAX ? (uint32_t)(ve[j] - vb[j]) : UINT32_MAX;
          } else if (s.claim(v[j], nd[j]) == 0) {
            s.push(0, v[j]);
          }
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

/* Vertices of at least this degree go to the huge list (default; env
 * DS_GPU_HUGE_DEGREE for experiments, at least HUGE_DEGREE_MIN). */
constexpr uint32_t HUGE_DEGREE = 2048;
constexpr uint32_t HUGE_DEGREE_MIN = 256;
constexpr int RELAX_ILP = 4; /* arcs per thread per step of the tile loop */
constexpr int HUGE_CHUNK_STEPS = 8; /* arcs per lane per warp chunk of the huge list */
constexpr int HUGE_COUNT_SHIFT = 44; /* huge-list word: entries << 44 | arcs */
constexpr uint64_t HUGE_ARCS_MASK = (1ull << HUGE_COUNT_SHIFT) - 1;

struct huge_entry {
  uint64_t beg, off; /* first arc; offset of its arcs among all listed arcs */
  uint32_t u, du;
};

/* Vertices too big for one block, expanded by the whole grid after a barrier.
 * One 64-bit atomicAdd gives both the slot and the arc offset, so the entries'
 * offsets are increasing in slot order (binary-searchable). */
struct huge_list {
  unsigned long long *word;
  huge_entry *e; /* capacity: arcs / degree + 1 */
  /* the round's tile counter (zeroed before the round): tiles are dealt to
     blocks dynamically; NULL: statically, block b taking tiles b, b + parts, ...
     (relax_round sets it from tile_mode) */
  unsigned long long *tiles;
  uint32_t degree; /* vertices of at least this degree are listed */
  int tile_mode;   /* ds_gpu_ctx::dyn_tiles (tile_counter) */
  uint32_t min_tile; /* ds_gpu_ctx::min_tile (relax_frontier) */
  /* the frontier holds each vertex at most once: the `done` test can be a
     plain load and store instead of an atomic exchange (relax_frontier) */
  bool unique;
  /* local steps of solo, team and grid rounds (relax_frontier, steps) */
  uint32_t local_solo, local_team, local_grid;
};

/* How a round's tiles are dealt (ds_gpu_ctx::dyn_tiles): 0 statically, 1 by
 * an atomic counter, 2 by the counter only when the round has more than two
 * tiles per block (road rounds of a tile or two lose the counter's latency).
 * Every block sees the same count, so every block makes the same choice. */
__device__ __forceinline__ unsigned long long *tile_counter(int mode, uint32_t count, uint32_t parts,
                                                            unsigned long long *counter) {
  if (mode == 1 || (mode == 2 && count > 2ull * parts * RELAX_BLOCK)) return counter;
  return NULL;
}

#ifdef DS_GPU_STEP_PROFILE
#include <cstdio>
/* Performance work only (cmake -DDS_GPU_STEP_PROFILE=ON): thread 0 of the
 * block of rank 0 (stretch_sync::b) stamps clock64 at the steps of each round it takes part in (DS_STEP), and
 * relax_round adds the steps' cycles up per kind of round (0 solo, 1 team,
 * 2 grid): [k][0..4] the steps, [k][5] rounds, [k][6] cycles between rounds.
 * The engines print them with ds_step_prof_report (one copy per translation
 * unit, like the array). */
static __device__ unsigned long long ds_step_prof[3][8];
static inline void ds_step_prof_report(const char *algo) {
  unsigned long long p[3][8], zero[3][8] = {};
  if (cudaMemcpyFromSymbol(p, ds_step_prof, sizeof p) != cudaSuccess ||
      cudaMemcpyToSymbol(ds_step_prof, zero, sizeof zero) != cudaSuccess)
    return;
  for (int k = 0; k < 3; ++k)
    if (p[k][5])
      fprintf(stderr, "step profile %s %s: %llu rounds, cycles/round: entry %.0f frontier+scan %.0f "
              "arcs %.0f barrier %.0f exit %.0f between %.0f\n", algo, k == 0 ? "solo" : k == 1 ? "team" : "grid",
              p[k][5], (double)p[k][0] / p[k][5], (double)p[k][1] / p[k][5], (double)p[k][2] / p[k][5],
              (double)p[k][3] / p[k][5], (double)p[k][4] / p[k][5], (double)p[k][6] / p[k][5]);
}
#define DS_STEP(sm, lead, i)                                                                     \
  do {                                                                                           \
    if ((lead) && threadIdx.x == 0) (sm).prof[i] = clock64();                                    \
  } while (0)
#else
#define DS_STEP(sm, lead, i)                                                                     \
  do {                                                                                           \
  } while (0)
#endif

struct relax_smem {
  typedef cub::BlockScan<uint32_t, RELAX_BLOCK> scan_t;
  typename scan_t::TempStorage scan;
  uint32_t off[RELAX_BLOCK + 1];
  uint64_t beg[RELAX_BLOCK];
  uint32_t u[RELAX_BLOCK];
  uint32_t du[RELAX_BLOCK];
  uint32_t next[2]; /* dynamically dealt tiles: the next tile, double-buffered */
  /* local solo rounds (relax_round), by the parity of the round in its stretch */
  uint32_t fq[2][SOLO_LOCAL_CAP]; /* the next frontier */
  uint32_t cnt[2][2];             /* the sink's counters */
  unsigned long long hw[2];       /* the huge-list word */
  uint32_t rank[2];               /* stretch_sync::init */
  local_buf lb[2]; /* local steps (relax_frontier), by the parity of the step */
#ifdef DS_GPU_STEP_PROFILE
  long long prof[8];
#endif
};

/* Called by every thread of `parts` blocks with the same (frontier, count):
 * the whole grid (part = the block's rank, parts = gridDim.x), or the blocks of
 * ranks 0..parts-1 (block 0 alone or a team: rounds of small frontiers, see
 * small_stretch; ranks: stretch_sync::b).
 * blockDim.x must be RELAX_BLOCK. Adds the arcs it relaxed to *edges.
 *
 * steps > 0: local steps. A vertex that one of the block's threads lowers
 * below the split is not queued for the next round but kept in shared memory
 * (up to LOCAL_CAP) and expanded by the block itself once its tiles are done,
 * up to `steps` times in a row; the last step queues as usual. A round then
 * advances the search by up to steps + 1 arcs of path without a barrier of
 * the blocks: road rounds are bound by their number (a team round costs
 * ~10,000 cycles, a local step of a few dozen vertices a few L2 round trips).
 * Correctness: every lowering of dist[v] to d is followed by an expansion of
 * v at d or less: in a local step of the lowering block, at d (no stamp
 * needed), or from a queue (claimed by stamp: whoever lowers v after a claim
 * finds v queued, and the queued entry reads dist[v] when it is expanded).
 * Expanding at a d that another thread has since undercut only wastes work:
 * d is a path's length, and that thread expands v at its own distance. */
template <typename W>
__device__ void relax_frontier(const dev_graph<W> &g, const dev_vertex_state &vs,
                               const uint32_t *frontier, uint32_t count, split_sink<W> sink,
                               relax_smem &sm, const huge_list &hl, unsigned long long &edges,
                               uint32_t part, uint32_t parts, uint32_t steps) {
  const uint32_t tid = threadIdx.x;
  const bool dynamic = hl.tiles != NULL;
  /* A frontier of fewer than RELAX_BLOCK entries per block is spread evenly
     over the blocks (tiles of tl entries, at least hl.min_tile). A block's
     gather of scattered rows, arcs and distances is bound by its SM's rate of
     L1 requests (about one sector a cycle), not by latency alone: on NY a
     round of 256 entries on one block spent ~2,100 cycles loading its rows
     and ~4,400 relaxing its arcs (DS_GPU_STEP_PROFILE), against ~300 for one
     L2 round trip. Full tiles on a few blocks made a team or grid round of a
     few thousand entries cost as much as a solo round plus the barrier. */
  uint32_t tl = RELAX_BLOCK;
  if (!dynamic && (uint64_t)count < (uint64_t)parts * RELAX_BLOCK) {
    tl = (count + parts - 1) / parts;
    if (tl < hl.min_tile) tl = hl.min_tile < RELAX_BLOCK ? hl.min_tile : RELAX_BLOCK;
  }
  uint64_t tile = (uint64_t)part * tl;
  if (steps) {
    if (tid == 0) sm.lb[0].cnt = 0;
    sink.lb = &sm.lb[0];
  }
  if (dynamic && tid == 0) sm.next[0] = (uint32_t)atomicAdd(hl.tiles, 1ull);
  if (dynamic || steps) __syncthreads();
  if (dynamic) tile = (uint64_t)sm.next[0] * RELAX_BLOCK;
  /* step 0: the frontier's tiles; step s > 0: the entries that step s - 1
     kept (parity (s - 1) & 1), pushing to parity s & 1 or, in the last step,
     to the queues */
  uint32_t step = 0, lcount = 0;
  for (uint32_t it = 0;; ++it) {
    if (step == 0 && tile >= count) {
      if (!steps) break;
      step = 1;
    }
    if (step) {
      lcount = min(sm.lb[(step - 1) & 1].cnt, LOCAL_CAP); /* complete: the last barrier */
      if (lcount == 0) break;
      /* parity step & 1 was last read at the start of step - 1 */
      if (step < steps && tid == 0) sm.lb[step & 1].cnt = 0;
      sink.lb = step < steps ? &sm.lb[step & 1] : NULL;
    }
    // 1. load the entry, drop stale and duplicate ones
    uint64_t i = tile + tid;
    uint32_t u = 0, du = 0;
    uint64_t beg = 0, deg = 0;
    if (step ? tid < lcount : tid < tl && i < count) {
      if (step) {
        /* a local entry: its row bounds were loaded when it was pushed, and
           it is expanded at the distance it was pushed with, without loading
           dist[u] or done[u], so a step costs two dependent L2 round trips
           (the arcs, then their targets' distances and rows) instead of
           three. Sound: that distance is a path's length, no less than
           dist[u], and whoever lowered u since expands it again; the done
           mark lets a queued copy of u skip it. */
        const local_buf &b = sm.lb[(step - 1) & 1];
        u = b.v[tid];
        du = b.d[tid];
        const uint32_t dg = b.deg[tid];
        if (dg >= hl.degree) {
          /* not listed as huge in a local step (the list has room for each
             vertex once a round): queued for the next round instead */
          const int k = sink.claim(u, du);
          if (k >= 0) sink.push(k, u);
        } else {
          atomicMin(&vs.done[u], du); /* a reduction: nothing waits for it */
          beg = b.beg[tid];
          deg = dg;
          edges += deg;
        }
      } else {
        u = frontier[i];
        /* the row bounds are loaded with the distance, not after the done
           test: one dependent memory access less per round (rounds are
           latency-bound on road graphs) */
        const uint64_t rb = g.row[u], re = g.row[u + 1];
        du = dist_of(*(volatile unsigned long long *)&vs.dist[u]);
        /* in a frontier without duplicates nobody else tests u this round:
           the test is a load issued with the others and a reduction nobody waits
           for, one dependent atomic less per round */
        const uint32_t dn = hl.unique ? vs.done[u] : 0;
        bool expand = false;
        if (du != weight_traits<W>::INF_BITS) {
          if (hl.unique) {
            expand = dn > du;
            if (expand) atomicMin(&vs.done[u], du);
          } else {
            expand = atomicMin(&vs.done[u], du) > du;
          }
        }
        if (expand) {
          beg = rb;
          deg = re - rb;
          edges += deg;
          if (deg >= hl.degree) {
            /* each vertex is expanded at most once per round (frontiers are
               deduplicated), so arcs / degree + 1 entries suffice */
            unsigned long long old = atomicAdd(hl.word, (1ull << HUGE_COUNT_SHIFT) | deg);
            hl.e[old >> HUGE_COUNT_SHIFT] = huge_entry{beg, old & HUGE_ARCS_MASK, u, du};
            deg = 0;
          }
        }
      }
    }
    /* the next tile's index is fetched now, while this one runs; it is read
       after the barriers below, from the other half of next[] */
    if (dynamic && step == 0 && tid == 0) sm.next[(it + 1) & 1] = (uint32_t)atomicAdd(hl.tiles, 1ull);
    // 2. the tile's arcs, dealt out over the block
    uint32_t my_off = 0, total = 0;
    relax_smem::scan_t(sm.scan).ExclusiveSum((uint32_t)deg, my_off, total);
    sm.off[tid] = my_off;
    sm.beg[tid] = beg;
    sm.u[tid] = u;
    sm.du[tid] = du;
    if (tid == 0) sm.off[RELAX_BLOCK] = total;
    __syncthreads();
    DS_STEP(sm, part == 0, 2);
    /* RELAX_ILP arcs per thread per step, in three stages (arc loads, distance
       loads, atomics) so that each stage's memory accesses are in flight
       together: a round is a chain of dependent L2 accesses, and one arc at a
       time left the memory system mostly idle (ncu, kron20: 19 % of L2
       throughput, 25 % occupancy) */
    /* the loop runs while any lane of the warp has an arc (e0 - lane is the
       warp's first): warp_push needs every lane */
    const uint32_t lane = tid % WARP_SIZE;
    for (uint32_t e0 = tid; e0 - lane < total; e0 += RELAX_BLOCK * RELAX_ILP) {
      uint32_t v[RELAX_ILP] = {}, nd[RELAX_ILP], src[RELAX_ILP], cur[RELAX_ILP];
      uint64_t vb[RELAX_ILP], ve[RELAX_ILP]; /* the targets' rows, for a local step */
      uint32_t sd[RELAX_ILP], su[RELAX_ILP]; /* in a local step: the source's distance now, and expanded at */
      int k[RELAX_ILP];
      uint32_t lo = 0;
#pragma unroll
      for (int j = 0; j < RELAX_ILP; ++j) {
        const uint32_t e = e0 + (uint32_t)j * RELAX_BLOCK;
        if (e < total) {
          // owner: the last k with off[k] <= e (entries of degree 0 share
          // offsets); owners grow with e, so each search starts at the last
          uint32_t hi = RELAX_BLOCK - 1;
          while (lo < hi) {
            uint32_t mid = (lo + hi + 1) / 2;
            if (sm.off[mid] <= e) lo = mid;
            else hi = mid - 1;
          }
          const uint64_t arc = sm.beg[lo] + (e - sm.off[lo]);
          src[j] = sm.u[lo];
          const uint2 a = g.arc[arc];
          v[j] = a.x;
          nd[j] = weight_traits<W>::add(sm.du[lo], weight_traits<W>::weight(a.y));
          /* a local step expands its entries without loading their distance
             first (step 1 above); the source's distance is loaded here, with
             the arc, and an arc whose source was lowered since it was pushed
             is dropped (whoever lowered it expands it): on grid-1000 and
             geo-1M, 16-21 % of the arcs otherwise */
          if (step) {
            sd[j] = dist_of(*(volatile unsigned long long *)&vs.dist[src[j]]);
            su[j] = sm.du[lo];
          }
        }
      }
#pragma unroll
      for (int j = 0; j < RELAX_ILP; ++j)
        if (e0 + (uint32_t)j * RELAX_BLOCK < total) {
          cur[j] = dist_of(*(volatile unsigned long long *)&vs.dist[v[j]]);
          /* loaded with the distance, in case the target goes to the next
             local step (which then need not load them) */
          if (sink.lb) {
            vb[j] = g.row[v[j]];
            ve[j] = g.row[v[j] + 1];
          }
        }
#pragma unroll
      for (int j = 0; j < RELAX_ILP; ++j)
        k[j] = e0 + (uint32_t)j * RELAX_BLOCK < total && !(step && sd[j] < su[j])
                   ? relax_commit<W>(vs, src[j], v[j], nd[j], cur[j], sink)
                   : -1;
      warp_push<RELAX_ILP, W>(sink, v, nd, k, vb, ve);
    }
    __syncthreads();
    DS_STEP(sm, part == 0, 3);
    if (step) {
      if (step == steps) break;
      ++step;
    } else {
      tile = dynamic ? (uint64_t)sm.next[(it + 1) & 1] * RELAX_BLOCK : tile + (uint64_t)parts * tl;
    }
  }
}

/* Expands the huge list (word = its value read after a barrier) with every
 * thread of `parts` blocks (as relax_frontier). Arcs go out in warp chunks of
 * WARP_SIZE * HUGE_CHUNK_STEPS, each warp taking a contiguous range of chunks:
 * one binary search (in global memory) per warp finds the entry of its first
 * arc, and each lane steps over entry boundaries as it goes (entries hold at
 * least HUGE_DEGREE_MIN = one chunk's arcs, so at most one step per chunk). */
template <typename W>
__device__ void relax_huge(const dev_graph<W> &g, const dev_vertex_state &vs, const huge_list &hl,
                           unsigned long long word, const split_sink<W> &sink, uint32_t part,
                           uint32_t parts) {
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
  if (c0 >= c_end) return;
  uint32_t idx = 0;
  if (lane == 0) {
    uint32_t lo = 0, hi = count - 1; /* last entry with off <= c0 */
    while (lo < hi) {
      uint32_t mid = (lo + hi + 1) / 2;
      if (hl.e[mid].off <= c0) lo = mid;
      else hi = mid - 1;
    }
    idx = lo;
  }
  idx = __shfl_sync(0xffffffffu, idx, 0);
  for (; c0 < c_end; c0 += chunk) {
    /* staged as in relax_frontier: arc loads, distance loads, atomics */
    uint32_t v[HUGE_CHUNK_STEPS] = {}, nd[HUGE_CHUNK_STEPS], src[HUGE_CHUNK_STEPS], cur[HUGE_CHUNK_STEPS];
    int k[HUGE_CHUNK_STEPS];
    const uint64_t none[HUGE_CHUNK_STEPS] = {}; /* no local steps here (sink.lb is NULL) */
#pragma unroll
    for (int s = 0; s < HUGE_CHUNK_STEPS; ++s) {
      const uint64_t a = c0 + (uint64_t)s * WARP_SIZE + lane;
      if (a < c_end) {
        while (idx + 1 < count && hl.e[idx + 1].off <= a) ++idx;
        const huge_entry h = hl.e[idx];
        const uint64_t arc = h.beg + (a - h.off);
        src[s] = h.u;
        const uint2 a = g.arc[arc];
        v[s] = a.x;
        nd[s] = weight_traits<W>::add(h.du, weight_traits<W>::weight(a.y));
      }
    }
#pragma unroll
    for (int s = 0; s < HUGE_CHUNK_STEPS; ++s)
      if (c0 + (uint64_t)s * WARP_SIZE + lane < c_end)
        cur[s] = dist_of(*(volatile unsigned long long *)&vs.dist[v[s]]);
#pragma unroll
    for (int s = 0; s < HUGE_CHUNK_STEPS; ++s)
      k[s] = c0 + (uint64_t)s * WARP_SIZE + lane < c_end ? relax_commit<W>(vs, src[s], v[s], nd[s], cur[s], sink) : -1;
    warp_push<HUGE_CHUNK_STEPS, W>(sink, v, nd, k, none, none);
  }
}

/* Block ranks: SM ids told apart, and blocks per SM told apart. */
constexpr uint32_t RANK_SMS = 256;
constexpr uint32_t RANK_SLOTS = 8;

/* Small frontiers run on part of the grid ("stretches", see small_stretch):
 * a frontier of at most solo_max vertices on block 0 alone (block barriers),
 * one of at most team_max on a team, blocks 0..k-1 (block numbers here are
 * ranks, stretch_sync::b; a barrier of k blocks on
 * one global counter), while the other blocks wait at one grid barrier. Road
 * graphs spend most rounds there: on NY a grid round of 257..4K vertices cost
 * ~8 us, a solo round 4.6 us (bench/NOTES-sssp.md). */
struct stretch_ctl {
  uint32_t r;       /* the stretch's last round */
  uint32_t base;    /* the pile's base in that round */
  uint32_t huge;    /* that round left its huge list to the grid */
  uint32_t nout;    /* a solo part of a team stretch ends: the frontier's size */
  uint32_t pile;    /*   and the pile's */
  uint32_t arrived; /* check-ins before stretches (only ever grows) */
  uint32_t team;    /* arrivals at team barriers (only ever grows) */
  /* block ranks (stretch_sync::init), zero before each launch */
  uint32_t sm_slot[RANK_SMS];      /* blocks seen per SM id */
  uint32_t slot_count[RANK_SLOTS]; /* blocks per slot: first on their SM, second, ... */
};

/* A block's view of the stretches: the counts of stretch_ctl it expects.
 * Every block enters the same stretches and every team member passes the same
 * team barriers, so the expected values agree; they start from the counters'
 * values at the kernel's start, before any block can change them. */
struct stretch_sync {
  stretch_ctl *c;
  uint32_t k;       /* team members: blocks 0..k-1 (1: no team rounds) */
  uint32_t arrived; /* check-ins the last stretch's entry waited for */
  uint32_t team;    /* team arrivals the last team barrier waited for */
  bool local;       /* solo rounds kept local (relax_round, local) */
  /* The block's rank, what the engines use instead of blockIdx.x: block 0 is
   * the solo block, blocks 0..k-1 the team. With ranking on (init's rank),
   * ranks 0, 1, ... go first to the first block on each SM, then to the second
   * ones: the scheduler puts blocks 0-7 and 8-15 of a launch on the same 8 SMs,
   * so a team of the first 64 block ids sat on 56 SMs, two blocks sharing one
   * SM's L1 request rate (bench/sssp/barrier_probe.cu). Unranked: blockIdx.x. */
  uint32_t b;
  /* Every thread of every block, at the kernel's start (a grid barrier when
   * ranking; ctl's rank counters must be zero). */
  __device__ __forceinline__ void init(cg::grid_group &grid, stretch_ctl *ctl, uint32_t team_blocks,
                                       bool solo_local, bool rank, uint32_t (&scratch)[2]) {
    c = ctl;
    k = team_blocks;
    local = solo_local;
    arrived = *(volatile uint32_t *)&ctl->arrived;
    team = *(volatile uint32_t *)&ctl->team;
    b = blockIdx.x;
    if (!rank) return;
    if (threadIdx.x == 0) {
      uint32_t smid;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
      uint32_t slot = atomicAdd(&ctl->sm_slot[smid % RANK_SMS], 1u);
      if (slot >= RANK_SLOTS) slot = RANK_SLOTS - 1; /* still one rank per block */
      scratch[0] = slot;
      scratch[1] = atomicAdd(&ctl->slot_count[slot], 1u);
    }
    grid.sync();
    if (threadIdx.x == 0) {
      uint32_t r = scratch[1];
      for (uint32_t i = 0; i < scratch[0]; ++i) r += *(volatile uint32_t *)&ctl->slot_count[i];
      scratch[0] = r;
    }
    __syncthreads();
    b = scratch[0];
  }
  /* Waits (thread 0) until *word has passed target (wrapping); an acquire:
   * what the arrivals released is visible after it. */
  static __device__ __forceinline__ void await(uint32_t *word, uint32_t target) {
    uint32_t v;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(word) : "memory");
    } while ((int32_t)(v - target) < 0);
  }
  /* Adds one to *word, releasing every earlier access of this block (thread 0,
   * after a block barrier). Release / acquire instead of two sequentially
   * consistent fences (__threadfence) around a relaxed atomic and volatile
   * polls: team rounds 2-3 % faster on the road networks (NOTES-sssp.md). */
  static __device__ __forceinline__ void arrive(uint32_t *word) {
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(word) : "memory");
  }
  /* Before a stretch: every block checks in once it has read the counters it
   * decides on; the team, which changes them, waits for all. */
  __device__ __forceinline__ void check_in() {
    __syncthreads();
    arrived += gridDim.x;
    if (threadIdx.x == 0) {
      arrive(&c->arrived);
      if (b < k) await(&c->arrived, arrived);
    }
    __syncthreads();
  }
  /* The barrier of blocks 0..k-1. */
  __device__ __forceinline__ void team_sync() {
    __syncthreads();
    team += k;
    if (threadIdx.x == 0) {
      arrive(&c->team);
      await(&c->team, team);
    }
    __syncthreads();
  }
  /* The barrier of a round relaxed by `parts` blocks. */
  __device__ __forceinline__ void round_sync(uint32_t parts) {
    if (parts == 1) __syncthreads();
    else if (parts < gridDim.x) team_sync();
    else cg::this_grid().sync();
  }
};

/* The persistent kernels are built twice, for BPS = 1 or 2 resident blocks
 * per SM (ds_gpu_ctx::blocks_per_sm; launch bounds: up to 255 registers a
 * thread, or 128). Local steps (relax_frontier) are in the one-block build
 * only, which the sparse graphs get: in the two-block build their code raised
 * the kernels' register spills (search kernel 36 / 208 -> 144 / 692 bytes),
 * and on the dense graphs that get it they made rounds slower (kron20
 * 2.92 -> 3.18 ms; bench/NOTES-sssp.md, step 37). The engines build their
 * huge_list with this (zero: the compiler drops the code; changing the
 * kernel's argument instead copies it to the stack). */
template <int BPS> __device__ __forceinline__ uint32_t local_steps(uint32_t knob) {
  return BPS == 1 ? knob : 0;
}

/* The huge list of round r of a persistent kernel, from the launch's knobs:
 * the list's word and its tile counter alternate by the round's parity
 * (huge_word[r & 1] and huge_word[2 + (r & 1)]; the other pair is zeroed for
 * the next round while this one runs). unique: as in huge_list. */
template <int BPS>
__device__ __forceinline__ huge_list round_huge_list(unsigned long long *huge_word, huge_entry *huge,
                                                     const round_knobs &kn, uint32_t r, bool unique) {
  return huge_list{huge_word + (r & 1), huge, huge_word + 2 + (r & 1), kn.huge_degree, kn.dyn_tiles, kn.min_tile,
                   unique, local_steps<BPS>(kn.local_solo), local_steps<BPS>(kn.local_team),
                   local_steps<BPS>(kn.local_grid)};
}

/* The build of a persistent kernel for the context's blocks per SM. */
template <typename K> inline const void *kernel_for(const ds_gpu_ctx *ctx, K one, K two) {
  return ctx->blocks_per_sm == 1 ? (const void *)one : (const void *)two;
}

/* The context's knobs for a launch of `grid` blocks: the team fewer blocks
 * than the grid (team_blocks = 1, team_max = solo_max: no team rounds). */
inline round_knobs knobs_for(const ds_gpu_ctx *ctx, uint32_t grid) {
  round_knobs kn = ctx->knobs;
  if (kn.team_blocks >= grid) kn.team_blocks = grid - 1;
  if (kn.team_blocks <= 1 || kn.team_max <= kn.solo_max) {
    kn.team_blocks = 1;
    kn.team_max = kn.solo_max;
  }
  return kn;
}

/* A round on part of the grid lists vertices of at least SOLO_HUGE_DEGREE
 * arcs, and hands its huge list to the whole grid if it holds more than
 * SOLO_HUGE_ARCS per block (a Kronecker round of 11 vertices with 47K arcs
 * took 374 us on one block). */
constexpr uint32_t SOLO_HUGE_DEGREE = HUGE_DEGREE_MIN;
constexpr uint64_t SOLO_HUGE_ARCS = 16 * RELAX_BLOCK;

/* One relaxation round by `parts` blocks (1: block 0 alone, k: the team,
 * gridDim.x: the whole grid; the others wait at a grid barrier meanwhile):
 * the frontier, a barrier, the huge list if it is not empty, a barrier.
 * Returns true if a round of part of the grid left its huge list to the grid:
 * the caller ends the stretch and every block then calls relax_huge_grid for
 * this round. Otherwise counts[] holds the sink's two counters as the round
 * left them, loaded together with the huge-list word after the barrier (one
 * dependent round trip instead of two before the caller's decision).
 *
 * local >= 0 (solo rounds only): the round is kept local. The sink's counters
 * and the huge-list word are shared-memory words instead of global ones, and
 * the next frontier is also kept in shared memory: block 0 is the only block
 * that pushes during a solo round, so nothing else needs the global words
 * until the round ends, when they are published (for the other blocks after
 * the stretch, and for a huge list handed to the grid). Bit 0 of local is the
 * round's parity in its stretch (which shared buffers it writes), bit 1 set if
 * the previous round (the other parity) left the whole frontier in shared
 * memory. */
template <typename W>
__device__ bool relax_round(const dev_graph<W> &g, const dev_vertex_state &vs,
                            const uint32_t *frontier, uint32_t count, const split_sink<W> &sink,
                            relax_smem &sm, const huge_list &hl, unsigned long long &edges, uint32_t parts,
                            stretch_sync &ss, int local, uint32_t (&counts)[2]) {
  const bool part_grid = parts < gridDim.x;
  split_sink<W> s = sink;
  huge_list h = hl;
  DS_STEP(sm, ss.b == 0, 0);
  if (local >= 0) {
    const int p = local & 1;
    if (threadIdx.x == 0) {
      /* last read in round p - 2 of the stretch, before round p - 1's barriers */
      sm.cnt[p][0] = 0;
      sm.cnt[p][1] = 0;
      sm.hw[p] = 0;
    }
    __syncthreads();
    s.cnt[0] = &sm.cnt[p][0];
    s.cnt[1] = &sm.cnt[p][1];
    s.mirror = sm.fq[p];
    h.word = &sm.hw[p];
    if ((local & 2) && count <= SOLO_LOCAL_CAP) frontier = sm.fq[p ^ 1];
  }
  DS_STEP(sm, ss.b == 0, 1);
#ifdef DS_GPU_STEP_PROFILE
  if (ss.b == 0 && threadIdx.x == 0) sm.prof[2] = sm.prof[3] = sm.prof[1]; /* block 0 without a tile */
#endif
  h.tiles = part_grid ? NULL : tile_counter(hl.tile_mode, count, parts, hl.tiles);
  if (part_grid && h.degree > SOLO_HUGE_DEGREE) h.degree = SOLO_HUGE_DEGREE;
  relax_frontier<W>(g, vs, frontier, count, s, sm, h, edges, ss.b, parts,
                    parts == 1 ? hl.local_solo : part_grid ? hl.local_team : hl.local_grid);
  ss.round_sync(parts);
  const unsigned long long hw = *(volatile unsigned long long *)h.word;
  counts[0] = *(volatile uint32_t *)s.cnt[0];
  counts[1] = *(volatile uint32_t *)s.cnt[1];
  DS_STEP(sm, ss.b == 0, 4);
  bool handed = false;
  if (hw) {
    if (part_grid && (hw & HUGE_ARCS_MASK) > SOLO_HUGE_ARCS * parts) {
      handed = true;
    } else {
      relax_huge<W>(g, vs, h, hw, s, ss.b, parts);
      ss.round_sync(parts);
      counts[0] = *(volatile uint32_t *)s.cnt[0];
      counts[1] = *(volatile uint32_t *)s.cnt[1];
    }
  }
  if (local >= 0 && threadIdx.x == 0) {
    *sink.cnt[0] = counts[0];
    *sink.cnt[1] = counts[1];
    *hl.word = hw;
  }
#ifdef DS_GPU_STEP_PROFILE
  DS_STEP(sm, ss.b == 0, 5);
  if (ss.b == 0 && threadIdx.x == 0) {
    unsigned long long *p = ds_step_prof[parts == 1 ? 0 : part_grid ? 1 : 2];
    for (int i = 0; i < 5; ++i) p[i] += sm.prof[i + 1] - sm.prof[i];
    p[5] += 1;
    const long long gap = sm.prof[0] - sm.prof[7];
    if (gap > 0 && gap < 10000000) p[6] += gap;
    sm.prof[7] = sm.prof[5];
  }
#endif
  return handed;
}

/* The huge list a round of part of the grid handed over (relax_round returned
 * true), by the whole grid; every thread of every block calls it after a grid
 * barrier. */
template <typename W>
__device__ void relax_huge_grid(const dev_graph<W> &g, const dev_vertex_state &vs,
                                const split_sink<W> &sink, const huge_list &hl) {
  const unsigned long long hw = *(volatile unsigned long long *)hl.word;
  relax_huge<W>(g, vs, hl, hw, sink, blockIdx.x, gridDim.x);
  cg::this_grid().sync();
}

/* A stretch of rounds on part of the grid, shared by Near-Far and the bucket
 * engine. Round r left nout vertices (0 < nout <= team_max) and a pile of
 * `pile` entries, and keep(nout, pile) holds. Every block checks in; then,
 * while keep() holds for a round's results and the frontier has at most
 * team_max vertices, rounds r + 1, ... run on block 0 alone (at most solo_max
 * vertices; the team waits at a team barrier meanwhile) or on the team, with
 * round(r, nin, base, parts, local, counts) relaxing nin vertices with the
 * pile's base at `base` on `parts` blocks (local: see relax_round, -1
 * for none; it returns true when it handed its huge list to the grid, which
 * ends the stretch). After the grid barrier every
 * block has the stretch's last round in r and its pile base in base; returns
 * whether that round handed its huge list over (the caller then relaxes it
 * with the whole grid). Every thread of every block calls it. */
template <typename Round, typename Keep>
__device__ __forceinline__ bool small_stretch(cg::grid_group &grid, stretch_sync &ss, uint32_t solo_max,
                                              uint32_t team_max, uint32_t &r, uint32_t &base, uint32_t nout,
                                              uint32_t pile, Round round, Keep keep) {
  volatile stretch_ctl *c = ss.c;
  ss.check_in();
  if (ss.b < ss.k) {
    bool handed = false;
    uint32_t counts[2];
    for (;;) {
      if (nout <= solo_max) {
        // block 0 alone while the frontier stays small
        if (ss.b == 0) {
          for (int local = 0;; local = ((local & 1) ^ 1) | (nout <= SOLO_LOCAL_CAP ? 2 : 0)) {
            ++r;
            base = pile;
            handed = round(r, nout, base, 1u, ss.local ? local : -1, counts);
            if (handed) break;
            nout = counts[0];
            pile = base + counts[1];
            if (!keep(nout, pile) || nout > solo_max) break;
          }
          if (threadIdx.x == 0) {
            c->r = r;
            c->base = base;
            c->huge = handed;
            c->nout = nout;
            c->pile = pile;
          }
        }
        if (ss.k == 1) break;
        ss.team_sync();
        r = c->r;
        base = c->base;
        handed = c->huge != 0;
        nout = c->nout;
        pile = c->pile;
        if (handed || !keep(nout, pile) || nout > team_max) break;
      }
      // the team
      ++r;
      base = pile;
      handed = round(r, nout, base, ss.k, -1, counts);
      if (handed) break;
      nout = counts[0];
      pile = base + counts[1];
      if (!keep(nout, pile) || nout > team_max) break;
    }
    if (ss.b == 0 && threadIdx.x == 0) {
      c->r = r;
      c->base = base;
      c->huge = handed;
    }
  }
  grid.sync();
  r = c->r;
  base = c->base;
  return c->huge != 0;
}

} // namespace dsgpu

#endif /* DS_GPU_RELAX_CUH */
