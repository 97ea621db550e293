/* deltasplit GPU SSSP: bucketed delta-stepping, shared by the multisplit
 * (multisplit_sssp.cu) and the sort-based (sort_sssp.cu) algorithms; they
 * differ only in the Splitter that groups work items by bucket.
 *
 * The window: m buckets of width delta from base0; bucket m-1 holds
 * everything beyond the window. c is the current bucket. Each bucket is a list
 * of pieces (segments of an append-only log of vertex ids).
 *
 * A phase processes bucket c to exhaustion:
 *   1. rounds on the device (one cooperative kernel, grid-wide barriers, no
 *      host round trip): relax the frontier (relax.cuh); an improved vertex
 *      whose new distance is still in bucket c joins the next frontier, any
 *      other is spilled (each once per round);
 *   2. the Splitter groups the spilled items by bucket, bucket(v) =
 *      clamp((dist[v] - base0) / delta, c + 1, m - 1) read from the current
 *      distance (bucket_of<W>), onto the end of the log, with the bucket
 *      offsets; each non-empty bucket gets its segment as a new piece;
 *   3. bookkeeping (one block): the lowest non-empty bucket j < m-1 becomes
 *      current; its pieces (gathered into one array, stale and duplicate
 *      entries dropped, unless there is just one) are the next frontier.
 *   4. when the window is exhausted (only bucket m-1 holds work), or the log or
 *      a piece list is full: rebuild. Gather every pending item (live ones,
 *      once each) and the smallest pending distance; base0 = that distance
 *      rounded down to a multiple of delta; c = 0; split everything anew.
 * An item is thus split once when it is produced and once per window refill;
 * a phase change costs the size of the next bucket, not of the whole pending
 * pile (which Near-Far re-reads at every phase change). With m = 2 the window
 * is one bucket and every phase is a refill: Near-Far, with multisplit as its
 * near/far split. Step 1 places items of bucket c directly (the split would put
 * them there), so the split runs once per phase rather than once per round.
 *
 * Control, two ways:
 *   - a Splitter that splits on the device (ON_DEVICE: the multisplit, with
 *     the library's grid-wide multisplit) runs the whole search as one
 *     cooperative kernel, steps separated by grid barriers (bk_search_kernel);
 *   - one called from the host (the sort) needs the spill's size there:
 *     one cooperative launch per phase and one small read-back (the spill
 *     count and what the last bookkeeping found: each phase is enqueued
 *     right after the bookkeeping, and returns at once if there was no
 *     frontier), two on a rebuild (bk_host_loop).
 * Both take their decisions with bk_next_step. A bucket whose gathered
 * entries are all stale is skipped, not taken for the end of the search.
 */
#ifndef DS_GPU_BUCKET_ENGINE_CUH
#define DS_GPU_BUCKET_ENGINE_CUH

#include <math.h>
#include <string.h>
#ifdef DS_GPU_STEP_PROFILE
#include <chrono>
#include <cstdio>
#endif

#include "relax.cuh"

namespace dsgpu {

constexpr uint32_t PIECES_PER_BUCKET = 4096; /* a rebuild empties the lists */
constexpr int BOOK_THREADS = MAX_BUCKETS;    /* one bookkeeping thread per bucket */

template <typename W> struct bk_state {
  /* read back after each phase and each bookkeeping */
  uint32_t spill_count;  /* items spilled by the last phase */
  uint32_t f_count;      /* frontier size */
  uint32_t need_rebuild; /* window exhausted or a piece list full */
  uint32_t fill_count;   /* items gathered by a rebuild */
  uint32_t c;            /* current bucket */
  uint32_t rounds;       /* relaxation rounds so far */
  uint32_t empty;        /* the bookkeeping found nothing pending: the search is done */
  /* device only */
  uint32_t qc[3];        /* frontier counts inside a phase, rotating */
  uint32_t sc[3];        /* spill pushes of round r in sc[r % 3], from the spill's base then */
  uint32_t f_src;        /* frontier in 0: the log at f_start, 1: fbuf */
  uint64_t f_start;
  uint64_t tail;         /* the log's used length */
  uint32_t gstamp;       /* the last gather's stamp (GATHER_STAMP_BIT | gstamp): one per bookkeeping */
  uint32_t rebuilt;      /* the last bookkeeping ended a rebuild */
  uint32_t gmin;         /* smallest pending distance (bits), for a rebuild */
  uint32_t gather_mode;  /* 0: none, 1: frontier into fbuf, 2: rebuild into fill */
  uint32_t gather_n;     /* pieces in the gather list */
  uint32_t stamp_next;   /* next stamp value for the phase kernel (< 2^31) */
  stretch_ctl stretch;   /* stretches of small frontiers (relax.cuh) */
  uint64_t gather_total; /* items in them */
  typename weight_traits<W>::acc_t base0;
  uint32_t npieces[MAX_BUCKETS];
  uint64_t total[MAX_BUCKETS];
};
constexpr size_t BK_READBACK_WORDS = 7;
constexpr uint32_t GATHER_STAMP_BIT = 0x80000000u; /* host-issued stamps; the phase kernel's are below */

/* The bucket of a work item in the window (base0, current bucket c), read
 * from its current distance. */
template <typename W> struct window_bucket {
  const unsigned long long *dist;
  typename weight_traits<W>::acc_t base0, delta;
  uint32_t c, m;
  __device__ __forceinline__ uint32_t operator()(const uint32_t &v) const {
    uint64_t b = weight_traits<W>::bucket(dist_of(dist[v]), base0, delta);
    if (b < c) b = c; /* stale entries (below the window) go to the frontier, to be dropped */
    return b > m - 1 ? m - 1 : (uint32_t)b;
  }
};

/* The same with the window read from the state (a split launched from the host). */
template <typename W> struct bucket_of {
  const unsigned long long *dist;
  const bk_state<W> *st;
  typename weight_traits<W>::acc_t delta;
  uint32_t m;
  __device__ __forceinline__ uint32_t operator()(const uint32_t &v) const {
    return window_bucket<W>{dist, st->base0, delta, st->c, m}(v);
  }
};

/* Buffers of one search. */
template <typename W> struct bk_bufs {
  bk_state<W> *st;
  uint32_t *q[2];   /* n each: frontiers inside a phase */
  uint32_t *fbuf;   /* n: a frontier gathered from pieces */
  uint32_t *fill;   /* n: items gathered by a rebuild */
  uint32_t *spill;  /* spill_cap: items a phase spilled */
  uint64_t spill_cap;
  uint32_t *log;    /* log_cap */
  uint64_t log_cap;
  uint64_t *pstart; /* m * PIECES_PER_BUCKET */
  uint32_t *plen;
  uint64_t *gstart; /* gather list: m * PIECES_PER_BUCKET + 1 */
  uint64_t *goff;   /* exclusive offsets of the gathered pieces */
  size_t *off;      /* m + 1 bucket offsets from the Splitter */
};

template <typename W> struct bk_phase_args {
  dev_graph<W> g;
  dev_vertex_state vs;
  bk_bufs<W> b;
  dev_counters *ctr;
  unsigned long long *huge_word;
  huge_entry *huge;
  typename weight_traits<W>::acc_t delta;
  uint64_t spill_limit; /* end the phase early beyond this (room for 2n more; ds_gpu_ctx::spill_limit) */
  round_knobs kn;       /* knobs_for this launch */
};

/* Where round r of a phase sends improved vertices: still in bucket c (below
 * hi), the next frontier q[r & 1]; else the spill from `base` on, counted in
 * sc[r % 3] (rotating like qc: block 0 may push in round r + 1 while the
 * others still read round r's counts). */
template <typename W>
__device__ __forceinline__ split_sink<W> bk_sink(const bk_phase_args<W> &a, uint32_t r, uint32_t base,
                                                 uint32_t stamp, typename weight_traits<W>::acc_t hi) {
  return split_sink<W>{{a.b.q[r & 1], a.b.spill + base},
                       {&a.b.st->qc[r % 3], &a.b.st->sc[r % 3]},
                       {a.vs.stamp, a.vs.stamp2},
                       stamp,
                       hi};
}

/* unique: the frontier holds each vertex once (round r > 0: deduplicated per
 * round; round 0: if gathered; a single piece of the log may repeat one) */
template <typename W, int BPS>
__device__ __forceinline__ huge_list bk_huge(const bk_phase_args<W> &a, uint32_t r, bool unique) {
  return round_huge_list<BPS>(a.huge_word, a.huge, a.kn, r, unique);
}

/* Round r of a phase: relax `in` (bk_sink says where improved vertices go).
 * by `parts` blocks (see relax_round, whose result it returns). */
template <typename W, int BPS>
__device__ __forceinline__ bool bk_round(const bk_phase_args<W> &a, uint32_t r, const uint32_t *in,
                                         uint32_t nin, uint32_t base, uint32_t stamp,
                                         typename weight_traits<W>::acc_t hi, relax_smem &sm,
                                         unsigned long long &edges, uint32_t parts, stretch_sync &ss,
                                         int local, bool unique, uint32_t (&counts)[2]) {
  volatile bk_state<W> *st = a.b.st;
  if (ss.b == 0 && threadIdx.x == 0) {
    st->qc[(r + 1) % 3] = 0;
    st->sc[(r + 1) % 3] = 0;
    a.huge_word[(r + 1) & 1] = 0;
    a.huge_word[2 + ((r + 1) & 1)] = 0;
  }
  return relax_round<W>(a.g, a.vs, in, nin, bk_sink(a, r, base, stamp, hi), sm, bk_huge<W, BPS>(a, r, unique),
                        edges, parts, ss, local, counts);
}

/* Step 1: the rounds of one phase, by the whole (cooperative) grid, every
 * block ranked (ss). Frontiers of at most team_max vertices are relaxed by
 * block 0 alone or the team (as in near_far.cu). Returns at once, in every
 * block, when the frontier is empty. Returns the spill's size, in every
 * block; the spill is complete then (the last round's barrier). */
template <typename W, int BPS>
__device__ uint32_t bk_phase(const bk_phase_args<W> &a, cg::grid_group &grid, relax_smem &sm, stretch_sync &ss) {
  using T = weight_traits<W>;
  volatile bk_state<W> *st = a.b.st;
  const uint32_t c = st->c;
  const typename T::acc_t hi = st->base0 + a.delta * (typename T::acc_t)(c + 1);
  const uint32_t stamp0 = st->stamp_next;
  const bool gathered = st->f_src != 0;
  const uint32_t *in = gathered ? a.b.fbuf : a.b.log + st->f_start;
  uint32_t nin = st->f_count;
  if (nin == 0) return st->spill_count; /* enqueued before the frontier was known (every block returns) */
  unsigned long long edges = 0;
  uint32_t r = 0, base = st->spill_count; /* the bookkeeping zeroed spill_count and sc */
  const bool first = ss.b == 0 && threadIdx.x == 0;
  for (;; ++r) {
    uint32_t counts[2]; /* the next frontier's size, the round's spill pushes */
    bk_round<W, BPS>(a, r, in, nin, base, stamp0 + r, hi, sm, edges, gridDim.x, ss, -1, r > 0 || gathered, counts);
    uint32_t nout = counts[0];
    uint32_t spilled = base + counts[1];
    auto keep = [&](uint32_t n, uint32_t pile) { return n > 0 && pile <= a.spill_limit; };
    if (nout <= a.kn.team_max && keep(nout, spilled)) {
      auto round = [&](uint32_t rr, uint32_t n, uint32_t b, uint32_t parts, int local, uint32_t(&c)[2]) {
        return bk_round<W, BPS>(a, rr, a.b.q[(rr - 1) & 1], n, b, stamp0 + rr, hi, sm, edges, parts, ss, local, true,
                           c);
      };
      if (small_stretch(grid, ss, a.kn.solo_max, a.kn.team_max, r, base, nout, spilled, round, keep))
        relax_huge_grid<W>(a.g, a.vs, bk_sink(a, r, base, stamp0 + r, hi), bk_huge<W, BPS>(a, r, true));
      nout = st->qc[r % 3];
      spilled = base + st->sc[r % 3];
    }
    base = spilled;
    if (nout == 0) break;
    uint32_t *out = a.b.q[r & 1];
    if (spilled > a.spill_limit) {
      // the spill is nearly full: end the phase, the frontier goes with the
      // spill, and a rebuild follows. (Its entries are still in bucket c: a
      // split and an advance past c would leave them behind, and the search
      // could end without them.)
      for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nout;
           i += (uint64_t)gridDim.x * blockDim.x)
        a.b.spill[spilled + i] = out[i];
      base = spilled + nout;
      if (first) st->need_rebuild = 1;
      grid.sync(); /* the copy and the flag are complete before anyone decides or splits */
      break;
    }
    in = out;
    nin = nout;
  }
  if (edges) atomicAdd(&a.ctr->edges_relaxed, edges);
  if (first) {
    st->spill_count = base; /* read by the host and the next kernels, after this one */
    st->rounds += r + 1;
    st->stamp_next = stamp0 + r + 1;
    a.huge_word[r & 1] = 0; /* read by every block before the last barrier; the next phase starts at 0 */
    a.huge_word[2 + (r & 1)] = 0;
  }
  return base;
}

/* Step 1 as a kernel of its own (the host-driven loop). */
template <typename W, int BPS>
__global__ void __launch_bounds__(RELAX_BLOCK, BPS) bk_phase_kernel(bk_phase_args<W> a) {
  __shared__ relax_smem sm;
  cg::grid_group grid = cg::this_grid();
  stretch_sync ss;
  ss.init(grid, &a.b.st->stretch, a.kn.team_blocks, a.kn.solo_local, a.kn.rank_blocks, sm.rank);
  (void)bk_phase<W, BPS>(a, grid, sm, ss);
}

struct bk_book_smem {
  typedef cub::BlockScan<uint64_t, BOOK_THREADS> scan_t;
  typename scan_t::TempStorage scan;
  uint32_t next;
};

/* Step 3 (have_seg: a split segment starts at log[seg_start]; advance: the
 * current bucket is done, the search goes on from bucket c + 1), or the
 * collection of every piece for a rebuild (collect != 0). One block of
 * BOOK_THREADS, thread j for bucket j. */
template <typename W>
__device__ void bk_book(const bk_bufs<W> &b, uint32_t m, bool have_seg, uint64_t seg_start, bool collect,
                        bool advance, bk_book_smem &sm) {
  typedef bk_book_smem::scan_t scan_t;
  bk_state<W> *st = b.st;
  const uint32_t j = threadIdx.x;
  uint32_t &s_next = sm.next;
  typename scan_t::TempStorage &scan_tmp = sm.scan;
  if (collect) {
    // rebuild: list every piece; the spill comes after them
    uint64_t cnt = j < m ? st->npieces[j] : 0;
    uint64_t tot = j < m ? st->total[j] : 0;
    uint64_t pos = 0, items = 0, all_pieces = 0, all_items = 0;
    scan_t(scan_tmp).ExclusiveSum(cnt, pos, all_pieces);
    __syncthreads();
    scan_t(scan_tmp).ExclusiveSum(tot, items, all_items);
    for (uint64_t k = 0; k < cnt; ++k) {
      b.gstart[pos + k] = b.pstart[(uint64_t)j * PIECES_PER_BUCKET + k];
      b.goff[pos + k] = items;
      items += b.plen[(uint64_t)j * PIECES_PER_BUCKET + k];
    }
    if (j < m) {
      st->npieces[j] = 0;
      st->total[j] = 0;
    }
    if (j == 0) {
      st->tail = 0;
      st->gstamp += 1;
      b.goff[all_pieces] = all_items;
      st->gather_n = (uint32_t)all_pieces;
      st->gather_total = all_items;
      st->gather_mode = 2;
      st->fill_count = 0;
      st->gmin = weight_traits<W>::INF_BITS;
    }
    return;
  }
  /* the next phase kernel ranks its blocks afresh (stretch_sync::init) */
  for (uint32_t i = j; i < RANK_SMS; i += BOOK_THREADS) st->stretch.sm_slot[i] = 0;
  if (j < RANK_SLOTS) st->stretch.slot_count[j] = 0;
  if (j == 0) {
    s_next = UINT32_MAX;
    if (advance) st->c += 1;
    if (have_seg) st->tail = seg_start + b.off[m];
    st->gstamp += 1;
    st->rebuilt = !advance;
    st->empty = 0;
    st->gather_mode = 0;
    st->spill_count = 0;
    st->qc[0] = st->qc[1] = st->qc[2] = 0;
    st->sc[0] = st->sc[1] = st->sc[2] = 0;
  }
  __syncthreads();
  const uint32_t c = st->c;
  // 1. every non-empty segment of the split becomes a piece of its bucket
  if (have_seg && j < m) {
    uint64_t s = b.off[j + 1] - b.off[j];
    if (s > 0) {
      uint32_t k = st->npieces[j]++;
      b.pstart[(uint64_t)j * PIECES_PER_BUCKET + k] = seg_start + b.off[j];
      b.plen[(uint64_t)j * PIECES_PER_BUCKET + k] = (uint32_t)s;
      st->total[j] += s;
      if (k + 1 >= PIECES_PER_BUCKET) st->need_rebuild = 1;
    }
  }
  __syncthreads();
  // 2. the lowest non-empty bucket of the window becomes current
  if (j >= c && j + 1 < m && st->total[j] > 0) atomicMin(&s_next, j);
  __syncthreads();
  const uint32_t nx = s_next;
  if (nx == UINT32_MAX) {
    if (j == 0) {
      st->f_count = 0;
      if (st->total[m - 1] > 0) st->need_rebuild = 1;
      else st->empty = 1; /* buckets below c were emptied when they were current */
    }
    return;
  }
  const uint32_t np = st->npieces[nx];
  for (uint32_t k = j; k < np; k += BOOK_THREADS)
    b.gstart[k] = b.pstart[(uint64_t)nx * PIECES_PER_BUCKET + k];
  __syncthreads();
  if (j == 0) {
    st->c = nx;
    if (np == 1) {
      st->f_src = 0;
      st->f_start = b.pstart[(uint64_t)nx * PIECES_PER_BUCKET];
      st->f_count = b.plen[(uint64_t)nx * PIECES_PER_BUCKET];
    } else {
      uint64_t acc = 0;
      for (uint32_t k = 0; k < np; ++k) {
        b.goff[k] = acc;
        acc += b.plen[(uint64_t)nx * PIECES_PER_BUCKET + k];
      }
      b.goff[np] = acc;
      st->gather_n = np;
      st->gather_total = acc;
      st->gather_mode = 1;
      st->f_src = 1;
      st->f_count = 0;
    }
    st->npieces[nx] = 0;
    st->total[nx] = 0;
  }
}

template <typename W>
__global__ void __launch_bounds__(BOOK_THREADS)
    bk_book_kernel(bk_bufs<W> b, uint32_t m, int have_seg, uint64_t seg_start, int collect, int advance) {
  __shared__ bk_book_smem sm;
  bk_book<W>(b, m, have_seg, seg_start, collect, advance, sm);
}

/* Copies the gather list (and, in a rebuild, the spill) into fbuf or fill,
 * keeping live entries once each; a rebuild also finds the smallest distance. */
template <typename W> __device__ void bk_gather(const dev_vertex_state &vs, const bk_bufs<W> &b) {
  bk_state<W> *st = b.st;
  const uint32_t stamp_value = GATHER_STAMP_BIT | st->gstamp;
  const uint32_t mode = st->gather_mode;
  if (mode == 0) return;
  const uint32_t np = st->gather_n;
  const uint64_t from_log = st->gather_total;
  const uint64_t total = from_log + (mode == 2 ? st->spill_count : 0);
  uint32_t *out = mode == 1 ? b.fbuf : b.fill;
  uint32_t *out_cnt = mode == 1 ? &st->f_count : &st->fill_count;
  uint32_t local_min = weight_traits<W>::INF_BITS;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t v;
    if (i < from_log) {
      uint32_t lo = 0, hi = np - 1; /* last piece with goff <= i */
      while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (b.goff[mid] <= i) lo = mid;
        else hi = mid - 1;
      }
      v = b.log[b.gstart[lo] + (i - b.goff[lo])];
    } else {
      v = b.spill[i - from_log];
    }
    uint32_t d = dist_of(vs.dist[v]);
    if (d == vs.done[v]) continue; /* expanded at this distance already */
    if (atomicExch(&vs.stamp[v], stamp_value) == stamp_value) continue;
    queue_push(out, out_cnt, v);
    if (d < local_min) local_min = d;
  }
  if (mode == 2 && local_min != weight_traits<W>::INF_BITS) atomicMin(&st->gmin, local_min);
}

template <typename W>
__global__ void bk_gather_kernel(dev_vertex_state vs, bk_bufs<W> b) {
  bk_gather<W>(vs, b);
}

/* After a rebuild's gather: the window starts at the smallest distance. */
template <typename W> __device__ void bk_rebase(bk_state<W> *st, typename weight_traits<W>::acc_t delta) {
  st->base0 = weight_traits<W>::floor_to(st->gmin, delta);
  st->c = 0;
  st->need_rebuild = 0;
  st->gather_mode = 0;
}

template <typename W>
__global__ void bk_rebase_kernel(bk_state<W> *st, typename weight_traits<W>::acc_t delta) {
  bk_rebase<W>(st, delta);
}

/* What follows a phase, from what it and the last bookkeeping left (the
 * read-back): the end of the search, a rebuild (step 4), or the split of the
 * spill and the next bookkeeping (steps 2-3). f_in == 0: the bookkeeping
 * found no live frontier: nothing pending (done), the window exhausted
 * (refill it from bucket m-1), or a bucket whose entries were all stale (go
 * on from the next one). rebuilt: the last step was a rebuild, whose frontier
 * is never empty while anything is pending. tail: the log's used length. */
enum bk_step { BK_DONE, BK_REBUILD, BK_SPLIT };
__host__ __device__ inline bk_step bk_next_step(uint32_t spill, uint32_t f_in, uint32_t need_rebuild, uint32_t c,
                                                uint32_t empty, bool rebuilt, uint64_t tail, uint32_t m,
                                                uint64_t log_cap) {
  if (f_in == 0) {
    if (empty || rebuilt) return BK_DONE;
    return need_rebuild ? BK_REBUILD : BK_SPLIT;
  }
  return c + 1 >= m - 1 || tail + spill > log_cap || need_rebuild ? BK_REBUILD : BK_SPLIT;
}

#ifdef DS_GPU_STEP_PROFILE
/* Performance work only: thread 0 of block 0 adds up the cycles of the
 * search kernel's steps: [0] phases, [1] split, bookkeeping and barrier,
 * [2] gathers, [3] rebuilds (up to their bookkeeping); the counts of
 * [4] phases, [5] rebuilds, [6] gathers. bucket_engine prints them. */
static __device__ unsigned long long bk_prof[8];
#define BK_STAMP(i)                                                                              \
  do {                                                                                           \
    if (blockIdx.x == 0 && threadIdx.x == 0) {                                                   \
      const unsigned long long t_ = clock64();                                                   \
      if ((i) >= 0) bk_prof[(i)] += t_ - prof_t;                                                 \
      prof_t = t_;                                                                               \
    }                                                                                            \
  } while (0)
#define BK_COUNT(i)                                                                              \
  do {                                                                                           \
    if (blockIdx.x == 0 && threadIdx.x == 0) bk_prof[(i)] += 1;                                  \
  } while (0)
#else
#define BK_STAMP(i)                                                                              \
  do {                                                                                           \
  } while (0)
#define BK_COUNT(i) BK_STAMP(i)
#endif

/* The whole search as one cooperative kernel, for a Splitter that splits on
 * the device (ON_DEVICE: multisplit_sssp.cu): the steps of the host-driven
 * loop below, separated by grid barriers instead of launches and read-backs.
 * Every block takes the same decisions, from what the last bookkeeping left
 * in the state (read after the phase, which changes none of it, and before
 * the barrier after which block 0 changes it) and the spill's size (which
 * every block knows at the end of the phase); block 0 does the bookkeeping.
 * The log's length, the gather stamp and whether the last step was a rebuild
 * are kept in the state too: nothing is held in registers across the phase,
 * whose rounds spilled registers otherwise (ptxas: 168 bytes of spill
 * stores, against none in the phase kernel).
 * A phase costs the split's one barrier and one after the bookkeeping, plus
 * the gather and a barrier when the bucket has several pieces: the
 * bookkeeping needs only the split's offsets, which block 0 writes itself,
 * so it follows block 0's part of the split at once (the split reads the
 * window from its copy, not from the state that the bookkeeping changes). */
template <typename W, typename Splitter, int BPS>
__global__ void __launch_bounds__(RELAX_BLOCK, BPS) bk_search_kernel(bk_phase_args<W> a, Splitter sp, uint32_t m) {
  using acc_t = typename weight_traits<W>::acc_t;
  __shared__ union smem_t {
    relax_smem relax;
    bk_book_smem book;
    typename Splitter::smem split;
  } sm;
  cg::grid_group grid = cg::this_grid();
  volatile bk_state<W> *st = a.b.st;
  const bool book = blockIdx.x == 0; /* the block that does the bookkeeping */
  stretch_sync ss;
  ss.init(grid, &a.b.st->stretch, a.kn.team_blocks, a.kn.solo_local, a.kn.rank_blocks, sm.relax.rank);
#ifdef DS_GPU_STEP_PROFILE
  unsigned long long prof_t = 0;
#endif
  for (;;) {
    BK_STAMP(-1);
    BK_COUNT(4);
    const uint32_t spill = bk_phase<W, BPS>(a, grid, sm.relax, ss);
    BK_STAMP(0);
    const uint32_t f_in = st->f_count, need_rebuild = st->need_rebuild, c = st->c, empty = st->empty;
    const acc_t base0 = st->base0;
    const uint64_t tail = st->tail;
    const bk_step step = bk_next_step(spill, f_in, need_rebuild, c, empty, st->rebuilt, tail, m, a.b.log_cap);
    if (step == BK_DONE) break;
    if (step == BK_REBUILD) {
      grid.sync(); /* the phase's end: its spill count is in the state */
      if (book) bk_book<W>(a.b, m, false, 0, true, false, sm.book);
      grid.sync();
      bk_gather<W>(a.vs, a.b);
      grid.sync();
      if (book && threadIdx.x == 0) bk_rebase<W>(a.b.st, a.delta);
      grid.sync();
      const uint32_t fill = st->fill_count;
      if (fill > 0) sp.split(grid, sm.split, a.b.fill, a.b.log, fill, a.b.off, st->base0, 0);
      if (book) bk_book<W>(a.b, m, fill > 0, 0, false, false, sm.book);
      BK_STAMP(3);
      BK_COUNT(5);
    } else {
      if (spill > 0) sp.split(grid, sm.split, a.b.spill, a.b.log + tail, spill, a.b.off, base0, c);
      else grid.sync(); /* a phase that returned at once has no barrier: all must have read the state */
      if (book) bk_book<W>(a.b, m, spill > 0, tail, false, true, sm.book);
    }
    grid.sync();
    BK_STAMP(1);
    if (st->gather_mode != 0) {
      bk_gather<W>(a.vs, a.b);
      grid.sync();
      BK_STAMP(2);
      BK_COUNT(6);
    }
  }
}

/* The host-driven loop, for a Splitter called from the host (the sort): one
 * cooperative launch per phase, and one small read-back per phase (the spill
 * count, which the Splitter needs as its size, and what the last bookkeeping
 * found: each phase is enqueued right after the bookkeeping, and returns at
 * once if there was no frontier), two on a rebuild. hb: pinned, the first
 * BK_READBACK_WORDS of the state; kernel: bk_phase_kernel's build for the
 * context (kernel_for), launched with `grid` blocks. */
template <typename W, typename Splitter>
ds_status bk_host_loop(ds_gpu_ctx *ctx, Splitter &sp, bk_phase_args<W> &pa, uint32_t m, const void *kernel,
                       int grid, uint32_t *hb, ds_error *err) {
  const bk_bufs<W> &b = pa.b;
  void *pargs[1] = {&pa};
  uint64_t tail = 0;
  bool rebuilt = false; /* the last step was a rebuild */
  ds_status st = DS_OK;
#ifdef DS_GPU_STEP_PROFILE
  /* host wall time of each step of the phase loop, summed (performance work) */
  double prof_ms[4] = {0, 0, 0, 0};
  uint32_t prof_phases = 0;
  auto prof_t = std::chrono::steady_clock::now();
  auto prof_step = [&](int i) {
    const auto t = std::chrono::steady_clock::now();
    prof_ms[i] += std::chrono::duration<double, std::milli>(t - prof_t).count();
    prof_t = t;
  };
#define BK_PROF(i) prof_step(i)
#else
#define BK_PROF(i)
#endif
#define BK_READBACK(what)                                                                        \
  if (cudaMemcpyAsync(hb, b.st, BK_READBACK_WORDS * sizeof(uint32_t), cudaMemcpyDeviceToHost,    \
                      ctx->stream) != cudaSuccess ||                                             \
      cudaStreamSynchronize(ctx->stream) != cudaSuccess)                                         \
    return ds_error_set(err, DS_ERR_DEVICE, "%s: %s failed: %s", Splitter::name(), what,         \
                        cudaGetErrorString(cudaGetLastError()));
  for (;;) {
    // one phase: the rounds of bucket c, on the device
    if (cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(RELAX_BLOCK), pargs, 0, ctx->stream) != cudaSuccess)
      return ds_error_set(err, DS_ERR_DEVICE, "%s: phase launch failed: %s", Splitter::name(),
                          cudaGetErrorString(cudaGetLastError()));
#ifdef DS_GPU_STEP_PROFILE
    ++prof_phases;
#endif
    BK_READBACK("phase");
    BK_PROF(0);
    const uint32_t spill = hb[0];
    const bk_step step = bk_next_step(spill, hb[1], hb[2], hb[4], hb[6], rebuilt, tail, m, b.log_cap);
    if (step == BK_DONE) break;
    rebuilt = step == BK_REBUILD;
    if (rebuilt) {
      // rebuild: gather every pending item and the spill, rebase, split all
      bk_book_kernel<W><<<1, BOOK_THREADS, 0, ctx->stream>>>(b, m, 0, 0, 1, 0);
      bk_gather_kernel<W><<<grid, RELAX_BLOCK, 0, ctx->stream>>>(pa.vs, b);
      bk_rebase_kernel<W><<<1, 1, 0, ctx->stream>>>(b.st, pa.delta);
      BK_READBACK("rebuild");
      const uint32_t fill = hb[3];
      tail = 0;
      if (fill > 0) {
        st = sp.split(b.fill, b.log, fill, b.off, err);
        if (st != DS_OK) return st;
        tail = fill;
      }
      bk_book_kernel<W><<<1, BOOK_THREADS, 0, ctx->stream>>>(b, m, fill > 0, 0, 0, 0);
    } else {
      // split the spill onto the log, from bucket c + 1 on
      if (spill > 0) {
        st = sp.split(b.spill, b.log + tail, spill, b.off, err);
        if (st != DS_OK) return st;
      }
      bk_book_kernel<W><<<1, BOOK_THREADS, 0, ctx->stream>>>(b, m, spill > 0, tail, 0, 1);
      tail += spill;
    }
    BK_PROF(1);
    // a frontier made of several pieces is gathered into one array
    bk_gather_kernel<W><<<grid, RELAX_BLOCK, 0, ctx->stream>>>(pa.vs, b);
    DS_LAUNCH_CHECK("bucket bookkeeping");
    BK_PROF(2);
  }
#undef BK_READBACK
#ifdef DS_GPU_STEP_PROFILE
  fprintf(stderr, "phase profile %s: %u phase launches, host ms: to the phase's read-back %.3f, split and book %.3f, "
          "gather %.3f\n", Splitter::name(), prof_phases, prof_ms[0], prof_ms[1], prof_ms[2]);
#endif
#undef BK_PROF
  return DS_OK;
}

/* The engine. Splitter: a type with
 *   static const char *name();
 *   static constexpr bool ON_DEVICE;
 *   ds_status init(ds_gpu_ctx*, uint32_t m, size_t max_n, uint32_t grid, bucket_of<W> fn,
 *                  const uint32_t *in, uint32_t *out, ds_error*);   (sizes its storage)
 *   void release();
 * and, ON_DEVICE, a shared-memory type smem and
 *   __device__ void split(cg::grid_group&, smem&, const uint32_t *in, uint32_t *out,
 *                         uint32_t n, size_t *d_off, acc_t base0, uint32_t c) const;
 *     (by the whole grid, in the window (base0, c); one grid barrier inside,
 *     after which block 0 has written d_off and placed its part, and the
 *     others go on placing theirs)
 * else
 *   ds_status split(const uint32_t *in, uint32_t *out, size_t n, size_t *d_off, ds_error*);
 */
template <typename W, typename Splitter>
ds_status bucket_engine(ds_gpu_ctx *ctx, uint32_t source, double delta_in, uint32_t m,
                        ds_sssp_result *res, ds_error *err) {
  using T = weight_traits<W>;
  using acc_t = typename T::acc_t;
  if (m < 2 || m > MAX_BUCKETS)
    return ds_error_set(err, DS_ERR_ARG, "buckets %u is out of range: 2..%u", m, MAX_BUCKETS);
  ds_status st = DS_OK;
  const uint32_t n = ctx->n;
  bk_bufs<W> b;
  memset(&b, 0, sizeof b);
  Splitter sp;
  bucket_of<W> fn;
  bk_state<W> hinit;
  bk_phase_args<W> pa;
  uint32_t *hb = NULL; /* pinned read-back: the first BK_READBACK_WORDS of the state */
  int per_sm = 0, grid = 0;
  const void *kernel = NULL; /* the search or phase kernel's build (kernel_for) */
  float ms = 0;
  acc_t delta;
  if (T::INF_BITS == DS_INF_U32) delta = (acc_t)(delta_in < 1 ? 1 : ceil(delta_in > 1e15 ? 1e15 : delta_in));
  else delta = (acc_t)delta_in;
  // 1. buffers: q0, q1, fbuf, fill (n each), spill and log (4n + slack each)
  b.spill_cap = b.log_cap = 4ull * n + 1024;
  const size_t pieces = (size_t)m * PIECES_PER_BUCKET;
  if (cudaMalloc(&b.st, sizeof(bk_state<W>)) != cudaSuccess ||
      cudaMalloc(&b.q[0], sizeof(uint32_t) * (4ull * n + b.spill_cap + b.log_cap)) != cudaSuccess ||
      cudaMalloc(&b.pstart, sizeof(uint64_t) * (3 * pieces + 2)) != cudaSuccess ||
      cudaMalloc(&b.plen, sizeof(uint32_t) * pieces) != cudaSuccess ||
      cudaMalloc(&b.off, sizeof(size_t) * (m + 1)) != cudaSuccess ||
      cudaMallocHost(&hb, BK_READBACK_WORDS * sizeof(uint32_t)) != cudaSuccess) {
    st = ds_error_set(err, DS_ERR_DEVICE, "%s: cannot allocate the bucket queues (%.1f MB)",
                      Splitter::name(), (4.0 * (12.0 * n) + 28.0 * pieces) / 1e6);
    goto done;
  }
  b.q[1] = b.q[0] + n;
  b.fbuf = b.q[0] + 2ull * n;
  b.fill = b.q[0] + 3ull * n;
  b.spill = b.q[0] + 4ull * n;
  b.log = b.spill + b.spill_cap;
  b.gstart = b.pstart + pieces;
  b.goff = b.pstart + 2 * pieces + 1;
  fn.dist = ctx->vs.dist;
  fn.st = b.st;
  fn.delta = delta;
  fn.m = m;
  // 2. the grid: as many blocks as can be resident at once (at most the context's per SM)
  {
    cudaError_t e;
    if constexpr (Splitter::ON_DEVICE)
      kernel = kernel_for(ctx, bk_search_kernel<W, Splitter, 1>, bk_search_kernel<W, Splitter, 2>);
    else
      kernel = kernel_for(ctx, bk_phase_kernel<W, 1>, bk_phase_kernel<W, 2>);
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, RELAX_BLOCK, 0);
    if (e != cudaSuccess || per_sm < 1) {
      st = ds_error_set(err, DS_ERR_DEVICE, "%s: the search kernel cannot be resident: %s", Splitter::name(),
                        cudaGetErrorString(e));
      goto done;
    }
  }
  if (per_sm > ctx->blocks_per_sm) per_sm = ctx->blocks_per_sm;
  grid = per_sm * ctx->num_sms;
  st = sp.init(ctx, m, (size_t)b.spill_cap, (uint32_t)grid, fn, b.spill, b.log, err);
  if (st != DS_OK) goto done;
  pa.g = ds_dev_graph<W>(ctx);
  pa.vs = ctx->vs;
  pa.b = b;
  pa.ctr = ctx->d_counters;
  pa.huge_word = ctx->d_huge_word;
  pa.huge = (huge_entry *)ctx->d_huge;
  pa.delta = delta;
  pa.spill_limit = b.spill_cap - 2ull * n - 1;
  if (ctx->spill_limit && ctx->spill_limit < pa.spill_limit) pa.spill_limit = ctx->spill_limit;
  pa.kn = knobs_for(ctx, grid);
  // 3. the source alone is the first frontier, in bucket 0 of a window at 0
  memset(&hinit, 0, sizeof hinit);
  hinit.f_src = 1;
  hinit.f_count = 1;
  hinit.gmin = T::INF_BITS;
  hinit.stamp_next = 1;
  if (cudaMemcpyAsync(b.st, &hinit, sizeof hinit, cudaMemcpyHostToDevice, ctx->stream) != cudaSuccess ||
      cudaMemcpyAsync(b.fbuf, &source, sizeof source, cudaMemcpyHostToDevice, ctx->stream) != cudaSuccess) {
    st = ds_error_set(err, DS_ERR_DEVICE, "%s: setup failed: %s", Splitter::name(),
                      cudaGetErrorString(cudaGetLastError()));
    goto done;
  }
  cudaEventRecord(ctx->ev_start, ctx->stream);
  // 4. the search
  if constexpr (Splitter::ON_DEVICE) {
    void *args[3] = {&pa, &sp, &m};
    if (cudaLaunchCooperativeKernel(kernel, dim3(grid), dim3(RELAX_BLOCK), args, 0,
                                    ctx->stream) != cudaSuccess) {
      st = ds_error_set(err, DS_ERR_DEVICE, "%s: cooperative launch failed: %s", Splitter::name(),
                        cudaGetErrorString(cudaGetLastError()));
      goto done;
    }
  } else {
    st = bk_host_loop<W>(ctx, sp, pa, m, kernel, grid, hb, err);
    if (st != DS_OK) goto done;
  }
  cudaEventRecord(ctx->ev_stop, ctx->stream);
  if (cudaMemcpyAsync(hb, b.st, BK_READBACK_WORDS * sizeof(uint32_t), cudaMemcpyDeviceToHost, ctx->stream) !=
          cudaSuccess ||
      cudaEventSynchronize(ctx->ev_stop) != cudaSuccess || cudaStreamSynchronize(ctx->stream) != cudaSuccess) {
    st = ds_error_set(err, DS_ERR_DEVICE, "%s: %s", Splitter::name(), cudaGetErrorString(cudaGetLastError()));
    goto done;
  }
  cudaEventElapsedTime(&ms, ctx->ev_start, ctx->ev_stop);
  res->time_ms = ms;
  res->rounds = hb[5];
#ifdef DS_GPU_STEP_PROFILE
  if constexpr (Splitter::ON_DEVICE) {
    unsigned long long p[8], zero[8] = {};
    if (cudaMemcpyFromSymbol(p, bk_prof, sizeof p) == cudaSuccess &&
        cudaMemcpyToSymbol(bk_prof, zero, sizeof zero) == cudaSuccess)
      fprintf(stderr, "search profile %s: %llu phases, %llu rebuilds, %llu gathers; kcycles: phases %.0f, split and "
              "book %.0f, gathers %.0f, rebuilds %.0f\n", Splitter::name(), p[4], p[5], p[6], p[0] / 1e3,
              p[1] / 1e3, p[2] / 1e3, p[3] / 1e3);
  }
  ds_step_prof_report(Splitter::name());
#endif
done:
  sp.release();
  cudaFree(b.st);
  cudaFree(b.q[0]);
  cudaFree(b.pstart);
  cudaFree(b.plen);
  cudaFree(b.off);
  if (hb) cudaFreeHost(hb);
  return st;
}

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_ENGINE_CUH */
