/* The peeling kernel of the GPU k-core backend (kcore_gpu.cu has the method,
 * its invariants and the host loop): one cooperative launch peels every level
 * of a window of degree buckets, sub-round by sub-round.
 *
 * Variants (ds_kcore_gpu_options, all exact; spread, aggregate and
 * local_arcs 32 on by default, at one block of 512 threads an SM):
 *   spread     a sub-round's items are dealt evenly over the warps of the team
 *              that runs it, not 32 to a warp. An arc's work is a chain of
 *              dependent accesses (column, the neighbour's core, an atomic
 *              whose old value decides what follows), so a round lasts as long
 *              as its busiest lane's chain: 32 items of PIECE arcs are 128
 *              steps a lane, while most of the grid's warps have none.
 *   aggregate  the threads of a warp that lower the same neighbour at once
 *              join in one atomic (hubs are the neighbours of most peeled
 *              vertices of a Kronecker graph), and the threads that queue
 *              vertices at once reserve their slots with one atomic a warp.
 *   local_arcs a vertex that falls to the level is peeled at once by the lane
 *              that lowered it (a small stack a lane), not in the next
 *              sub-round, while the arcs the lane so takes on in this
 *              sub-round stay within local_arcs: within a level the order of
 *              peeling does not matter, so a chain of low-degree vertices
 *              (roads' paths) costs a sub-round every local_arcs / 2
 *              vertices, not every vertex. The budget bounds the walk: a lane
 *              walks its arcs one after another, and an unbounded walk took
 *              2,201 arcs on NY's first level (a CPU replay of the rounds).
 *   window     degree buckets a window opens with (fewer windows, each a
 *              least-degree pass, a multisplit and two host round trips).
 * The kernel carries the sub-round counters from one level to the next
 * instead of clearing them behind a grid barrier (one barrier fewer a level:
 * 185 levels on kron20). With the three variants off it is the plain kernel
 * of the measurements above (which, compiled apart without the variants'
 * code, measured 4.5-5x slower on Kronecker graphs and 1.9-2.2x on roads).
 * One block an SM measured fastest for the variants' kernel on the H100
 * (kron20 11.7 ms against 13.5 at the two that fit): half the blocks meet at
 * every sub-round's grid barrier, and spread deals a round's items over the
 * team's warps whatever their number.
 */
#ifndef DS_KCORE_PEEL_CUH
#define DS_KCORE_PEEL_CUH

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "msplit/grid_barrier.cuh"

namespace kcore_peel {

namespace cg = cooperative_groups;

constexpr uint32_t UNSET = UINT32_MAX;      /* core number not given yet */
constexpr uint32_t PIECE = 128;             /* arcs of one work item */
constexpr int WARP = 32;
constexpr int PEEL_BLOCK = 512;             /* threads of a block of the window kernel */
constexpr int COUNTERS = 3;                 /* sub-round r reads r % 3, fills r + 1, clears r + 2 */
constexpr uint32_t LOCAL_STACK = 16;        /* vertices a lane keeps to peel at once (local_arcs) */

/* Device counters of a window's levels. Sub-round r takes the items of buffer
 * r % 2 (count[r % 3] of them) and queues into buffer (r + 1) % 2 and
 * count[(r + 1) % 3]; count[(r + 2) % 3] was read in sub-round r - 1 and is
 * cleared in r, so one barrier a sub-round of the grid suffices (block 0's solo
 * rounds, which clear without barriers between them, start after a barrier
 * of their own). A level ends at the first
 * r whose count is 0; count[(r + 1) % 3] was cleared in r - 1 and no thread
 * reads it until the next barrier, so the next level may queue there. */
struct peel_state {
  unsigned long long arcs[COUNTERS]; /* arcs of the items queued */
  uint32_t count[COUNTERS];          /* items queued */
  uint32_t least[COUNTERS];          /* the least degree above k met by filter i (i % 3) */
  uint32_t entered;                  /* vertices that entered the window since it opened */
  uint32_t round;                    /* where block 0's sub-rounds left off */
  uint32_t levels, rounds;           /* statistics */
  uint32_t solo_rounds;              /* of rounds, those block 0 ran alone */
  unsigned long long solo_ns, grid_ns, level_ns; /* global timer, by thread 0 of block 0 */
  unsigned long long local_peels;    /* vertices peeled at once by a lane (local_arcs) */
  unsigned long long sink;           /* the arc pass's result, so that it is not optimised away */
  /* The peeling kernel's grid barrier, which gives up after a bound instead
   * of waiting forever for a block that does not come, and where it records
   * that (zeroed before each run; read after each window). */
  msplit::grid_barrier_state bar;
  msplit_error_record stall;
};

struct peel_args {
  const uint64_t *row;
  const uint32_t *col;
  uint32_t *deg;
  uint32_t *core;
  uint64_t *items[2];
  uint32_t *entered; /* the window's late arrivals */
  peel_state *st;
  const uint32_t *win;   /* the window's vertices, by bucket */
  const size_t *offsets; /* the window's bucket offsets (multisplit's) */
  uint32_t base, top;    /* the window: degrees [base, top); from top on, the overflow */
  uint32_t window;       /* top - base: its buckets */
  uint32_t solo_items;   /* block 0 alone takes sub-rounds of at most these items */
  uint64_t solo_arcs;    /* and arcs */
  uint32_t spread, aggregate, local_arcs; /* the variants (above) */
  unsigned long long stall_ns; /* a barrier wait longer than this gives up */
  uint32_t force_stall;        /* tests: the last block skips its first barrier */
};

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* The bucket of a vertex when a window opens: its degree's bucket, the
 * overflow, or a bucket of its own for the peeled (dropped). */
struct window_bucket {
  const uint32_t *deg, *core;
  uint32_t base, window;
  __device__ __forceinline__ uint32_t operator()(uint32_t v) const {
    if (core[v] != UNSET) return window + 1;
    const uint32_t d = deg[v] - base;
    return d < window ? d : window;
  }
};

/* Queues v (core number k) as its pieces for sub-round r. With aggregate, the
 * threads of a warp that queue at once take their slots with one atomic on
 * each counter (every vertex of a level passes through here). */
__device__ __forceinline__ void enqueue(const peel_args &a, uint32_t v, uint32_t k, uint32_t r) {
  a.core[v] = k;
  const uint64_t len = a.row[v + 1] - a.row[v];
  const uint32_t pieces = (uint32_t)((len + PIECE - 1) / PIECE);
  uint32_t at = 0;
  if (a.aggregate) {
    const cg::coalesced_group g = cg::coalesced_threads();
    const uint32_t before = cg::exclusive_scan(g, pieces);
    const uint32_t all = g.shfl(before + pieces, g.size() - 1);
    const unsigned long long arcs =
        cg::reduce(g, (unsigned long long)len, cg::plus<unsigned long long>());
    if (g.thread_rank() == 0 && all > 0) {
      atomicAdd(&a.st->arcs[r % COUNTERS], arcs);
      at = atomicAdd(&a.st->count[r % COUNTERS], all);
    }
    at = g.shfl(at, 0) + before;
  } else {
    if (pieces == 0) return;
    atomicAdd(&a.st->arcs[r % COUNTERS], (unsigned long long)len);
    at = atomicAdd(&a.st->count[r % COUNTERS], pieces);
  }
  uint64_t *items = a.items[r % 2];
  for (uint32_t p = 0; p < pieces; p++) items[at + p] = ((uint64_t)p << 32) | v;
}

/* One degree off u: the degree before this thread's decrement, as if every
 * thread had made its own atomic. With aggregate, the threads that lower the
 * same u at once make one atomic of their number and share out its old value,
 * so exactly one of them still sees k + 1 (or top) where one would. */
__device__ __forceinline__ uint32_t take_degree(const peel_args &a, uint32_t u) {
  if (!a.aggregate) return atomicSub(&a.deg[u], 1u);
  const cg::coalesced_group same = cg::labeled_partition(cg::coalesced_threads(), u);
  uint32_t old = 0;
  if (same.thread_rank() == 0) old = atomicSub(&a.deg[u], (uint32_t)same.size());
  return same.shfl(old, 0) - same.thread_rank();
}

/* A lane's vertices to peel at once (local_arcs), and the arcs it may still
 * take on in this sub-round. */
struct local_stack {
  uint32_t v[LOCAL_STACK];
  uint32_t depth, budget;
};

/* The arc to u of a vertex peeled at level k in sub-round r: u loses a degree;
 * if it falls to k it is peeled at level k, by this lane at once (its stack,
 * while u's arcs fit the lane's budget) or in sub-round r + 1; if it falls
 * below top it enters the window. */
__device__ __forceinline__ void lower(const peel_args &a, uint32_t u, uint32_t k, uint32_t r,
                                      local_stack &s) {
  if (a.core[u] != UNSET) return;
  const uint32_t old = take_degree(a, u);
  if (old == k + 1) {
    const uint64_t arcs = s.budget > 0 ? a.row[u + 1] - a.row[u] : UINT64_MAX;
    if (s.depth < LOCAL_STACK && arcs <= s.budget) {
      a.core[u] = k;
      s.budget -= (uint32_t)arcs;
      s.v[s.depth++] = u;
    } else {
      enqueue(a, u, k, r + 1);
    }
  } else if (old == a.top) {
    a.entered[atomicAdd(&a.st->entered, 1u)] = u;
  }
}

/* The lane's stack of vertices peeled at once (local_arcs): their arcs, one
 * after another; what they lower to k joins the stack while it has room and
 * the budget allows. */
__device__ __noinline__ void drain(const peel_args &a, uint32_t k, uint32_t r, local_stack &s) {
  uint32_t peeled = 0;
  while (s.depth > 0) {
    const uint32_t v = s.v[--s.depth];
    peeled++;
    const uint64_t end = a.row[v + 1];
    for (uint64_t e = a.row[v]; e < end; e++) lower(a, a.col[e], k, r, s);
  }
  if (peeled > 0) atomicAdd(&a.st->local_peels, (unsigned long long)peeled);
}

/* Items first..end-1 (at most 32) of sub-round r, one per lane, by one warp: a
 * degree off each neighbour not peeled. The arcs of the items are spread evenly
 * over the lanes (a scan of their lengths, then each lane finds the item of its
 * arc), so that a warp of low-degree vertices keeps its lanes busy. */
__device__ __forceinline__ void peel_chunk(const peel_args &a, uint32_t first, uint32_t end,
                                           uint32_t k, uint32_t r, int lane) {
  uint64_t begin = 0;
  uint32_t len = 0;
  if (first + lane < end) {
    const uint64_t item = a.items[r % 2][first + lane];
    const uint32_t v = (uint32_t)item;
    begin = a.row[v] + (item >> 32) * PIECE;
    const uint64_t left = a.row[v + 1] - begin;
    len = left < PIECE ? (uint32_t)left : PIECE;
  }
  uint32_t incl = len;
  for (int d = 1; d < WARP; d *= 2) {
    const uint32_t up = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += up;
  }
  const uint32_t total = __shfl_sync(0xffffffffu, incl, WARP - 1);
  local_stack s;
  s.depth = 0;
  s.budget = a.local_arcs;
  for (uint32_t base = 0; base < total; base += WARP) {
    const uint32_t t = base + lane;
    int lo = 0, hi = WARP - 1; /* the first lane whose inclusive sum exceeds t */
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (__shfl_sync(0xffffffffu, incl, mid) > t) hi = mid;
      else lo = mid + 1;
    }
    const uint32_t owner_incl = __shfl_sync(0xffffffffu, incl, lo);
    const uint32_t owner_len = __shfl_sync(0xffffffffu, len, lo);
    const uint64_t owner_begin = __shfl_sync(0xffffffffu, begin, lo);
    if (t >= total) continue;
    lower(a, a.col[owner_begin + (t - (owner_incl - owner_len))], k, r, s);
  }
  /* after the loop, whose shuffles take every lane */
  if (s.depth > 0) drain(a, k, r, s);
}

/* The least degree of the vertices in list not peeled (into st->least[0]). */
__global__ void least_degree(const uint32_t *list, uint32_t count, const uint32_t *deg,
                             const uint32_t *core, peel_state *st) {
  uint32_t least = UINT32_MAX;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const uint32_t v = list[i];
    if (core[v] == UNSET) least = min(least, deg[v]);
  }
  for (int o = WARP / 2; o > 0; o /= 2) least = min(least, __shfl_xor_sync(0xffffffffu, least, o));
  if ((threadIdx.x & (WARP - 1)) == 0 && least != UINT32_MAX) atomicMin(&st->least[0], least);
}

__device__ __forceinline__ uint32_t load_volatile(const uint32_t *p) {
  return *(const volatile uint32_t *)p;
}

/* Sub-round r by `threads` threads from `rank` on: each warp takes `per`
 * items at a time, 32 or, with spread, count / warps (at least one). */
__device__ __forceinline__ void sub_round(const peel_args &a, uint32_t k, uint32_t r,
                                          uint32_t count, uint64_t rank, uint64_t threads) {
  const int lane = threadIdx.x & (WARP - 1);
  const uint64_t warps = threads / WARP;
  uint64_t per = WARP;
  if (a.spread) {
    per = (count + warps - 1) / warps;
    per = per < 1 ? 1 : per > (uint64_t)WARP ? (uint64_t)WARP : per;
  }
  for (uint64_t i = rank / WARP * per; i < count; i += warps * per)
    peel_chunk(a, (uint32_t)i, (uint32_t)(i + per < count ? i + per : count), k, r, lane);
}

/* Block 0 alone: sub-rounds from r while they stay small; returns where it
 * stopped (an empty queue, or one for the grid). */
__device__ uint32_t solo_rounds(const peel_args &a, uint32_t k, uint32_t r) {
  for (;;) {
    const uint32_t count = load_volatile(&a.st->count[r % COUNTERS]);
    const uint64_t arcs = *(const volatile unsigned long long *)&a.st->arcs[r % COUNTERS];
    if (count == 0 || count > a.solo_items || arcs > a.solo_arcs) return r;
    sub_round(a, k, r, count, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0) {
      a.st->count[(r + 2) % COUNTERS] = 0;
      a.st->arcs[(r + 2) % COUNTERS] = 0;
      a.st->rounds++;
      a.st->solo_rounds++;
    }
    __syncthreads();
    r++;
  }
}

/* Every level of the window [a.base, a.top): for each, the queue of the
 * vertices of degree k (the window's buckets from k's on, and the late
 * arrivals), then its sub-rounds until the queue is empty. Levels with no
 * vertex are skipped to the least degree the filter met. Cooperative launch. */
__global__ void __launch_bounds__(PEEL_BLOCK) peel_window(peel_args a) {
  cg::grid_group cg_grid = cg::this_grid();
  /* every barrier bounded: a block that gives up ends, and so does the kernel */
  msplit::grid_barrier grid;
  grid.init(cg_grid, &a.st->bar, &a.st->stall, a.stall_ns);
  bool hold = a.force_stall == 1 && blockIdx.x == gridDim.x - 1;
  const uint64_t rank = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t threads = (uint64_t)gridDim.x * blockDim.x;
  const uint32_t to = (uint32_t)a.offsets[a.window];
  /* The sub-round the level's queue goes to: the one after the last level's,
   * whose slot that level left clear (peel_state), and the slot after it,
   * still holding the last level's final queue, cleared by the filter. That
   * saves a grid barrier a level; the host clears the counters before each
   * launch. */
  uint32_t r0 = 0;
  for (uint32_t k = a.base, filter = 0; k < a.top; filter++) {
    const unsigned long long t0 = rank == 0 ? now_ns() : 0;
    // 1. the level's queue into sub-round r0 (the least slots rotate as the counters do)
    if (rank == 0) {
      a.st->least[(filter + 1) % COUNTERS] = UINT32_MAX; /* the next filter's */
      a.st->count[(r0 + 1) % COUNTERS] = 0, a.st->arcs[(r0 + 1) % COUNTERS] = 0;
    }
    const uint32_t from = (uint32_t)a.offsets[k - a.base];
    const uint32_t own = to - from, late = load_volatile(&a.st->entered);
    /* the least degree above k, one atomic a warp: every vertex of the window
     * left above k meets it, all on one word */
    uint32_t least_seen = UINT32_MAX;
    for (uint64_t i = rank; i < (uint64_t)own + late; i += threads) {
      const uint32_t v = i < own ? a.win[from + i] : a.entered[i - own];
      if (a.core[v] != UNSET) continue;
      const uint32_t d = a.deg[v];
      if (d <= k) enqueue(a, v, k, r0);
      else if (d < least_seen) least_seen = d;
    }
    least_seen = __reduce_min_sync(0xffffffffu, least_seen);
    if (threadIdx.x % WARP == 0 && least_seen != UINT32_MAX)
      atomicMin(&a.st->least[filter % COUNTERS], least_seen);
    if (hold) {
      hold = false;
      grid.sync_without_arriving(); /* a test's stall: this arrival never comes */
    } else {
      grid.sync();
    }
    const uint32_t least = load_volatile(&a.st->least[filter % COUNTERS]);
    if (load_volatile(&a.st->count[r0 % COUNTERS]) == 0) {
      if (least >= a.top) {
        if (rank == 0) a.st->level_ns += now_ns() - t0;
        break; /* nothing left in the window */
      }
      k = least;
      grid.sync(); /* every thread has read count[r0] before the next filter fills it */
      if (rank == 0) a.st->level_ns += now_ns() - t0;
      continue;
    }
    if (rank == 0) {
      a.st->levels++;
      a.st->level_ns += now_ns() - t0;
    }
    // 2. sub-rounds: block 0 alone while they are small, else the grid
    uint32_t r = r0;
    for (;;) {
      const uint32_t count = load_volatile(&a.st->count[r % COUNTERS]);
      const uint64_t arcs = *(const volatile unsigned long long *)&a.st->arcs[r % COUNTERS];
      if (count == 0) break;
      const unsigned long long t1 = rank == 0 ? now_ns() : 0;
      if (count <= a.solo_items && arcs <= a.solo_arcs) {
        /* Block 0's solo rounds have no barrier that holds it back, and from
           their second round on they clear count[r % 3], which a block late
           out of the last barrier may still have to read: it would read 0,
           leave the level, and pass its barriers out of step with the others
           (a hang, or a wrong level). Every block reads it first. */
        grid.sync();
        if (blockIdx.x == 0) {
          const uint32_t stop = solo_rounds(a, k, r);
          if (threadIdx.x == 0) a.st->round = stop;
        }
        grid.sync();
        r = load_volatile(&a.st->round);
        if (rank == 0) a.st->solo_ns += now_ns() - t1;
        continue;
      }
      sub_round(a, k, r, count, rank, threads);
      if (rank == 0) {
        a.st->count[(r + 2) % COUNTERS] = 0;
        a.st->arcs[(r + 2) % COUNTERS] = 0;
        a.st->rounds++;
      }
      grid.sync();
      if (rank == 0) a.st->grid_ns += now_ns() - t1;
      r++;
    }
    // 3. the counters carried on to the next level
    r0 = r + 1;
    k++;
  }
}

/* One pass over the arcs, as a peeling round touches them: every arc's
 * column and its neighbour's degree (the measure a round is compared with). */
__global__ void arc_pass(const uint32_t *col, uint64_t m, const uint32_t *deg, peel_state *st) {
  uint32_t sum = 0;
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m;
       e += (uint64_t)gridDim.x * blockDim.x)
    sum += deg[col[e]];
  if (sum == UINT32_MAX) atomicAdd(&st->sink, 1ull); /* rare; only a data dependence */
}

}  // namespace kcore_peel

#endif /* DS_KCORE_PEEL_CUH */
