/* deltasplit GPU SSSP: load-balanced relaxation of a frontier (all algorithms).
 * (The huge list is huge_list.cuh; where improved vertices go, frontier_queue.cuh.)
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
 * phases).
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
#ifndef DS_GPU_RELAX_FRONTIER_CUH
#define DS_GPU_RELAX_FRONTIER_CUH

#include <cub/block/block_scan.cuh>

#include "huge_list.cuh"

namespace dsgpu {

/* How a round's tiles are dealt (ds_gpu_ctx::dyn_tiles): 0 statically, 1 by
 * an atomic counter, 2 by the counter only when the round has more than two
 * tiles per block (road rounds of a tile or two lose the counter's latency).
 * Every block sees the same count, so every block makes the same choice. */
__device__ __forceinline__ unsigned long long *tile_counter(int mode, uint32_t count, uint32_t parts,
                                                            unsigned long long *counter) {
  if (mode == 1 || (mode == 2 && count > 2ull * parts * RELAX_BLOCK)) return counter;
  return NULL;
}

struct relax_smem {
  typedef cub::BlockScan<uint32_t, RELAX_BLOCK, cub::BLOCK_SCAN_WARP_SCANS> scan_t;
  typename scan_t::TempStorage scan;
  uint32_t off[RELAX_BLOCK + 1];
  uint64_t beg[RELAX_BLOCK];
  uint32_t u[RELAX_BLOCK];
  uint32_t du[RELAX_BLOCK];
  uint8_t owner[RELAX_BLOCK]; /* one arc per thread (relax_arcs<1>): each arc's entry */
  uint32_t next[2]; /* dynamically dealt tiles: the next tile, double-buffered */
  /* local solo rounds (relax_round), by the parity of the round in its stretch */
  uint32_t fq[2][SOLO_LOCAL_CAP]; /* the next frontier */
  uint32_t cnt[2][2];             /* the sink's counters */
  unsigned long long hw[2];       /* the huge-list word */
  uint32_t rank[2];               /* stretch_sync::init */
  local_buf lb[2]; /* local steps (relax_frontier), by the parity of the step */
};

/* The arcs of a tile or local step (total of them, from nent entries whose
 * degree offsets, first arcs, vertices and distances are in sm), dealt out
 * over the block: N arcs per thread per pass, in three stages (arc loads,
 * distance loads, atomics) so that each stage's memory accesses are in flight
 * together: a round is a chain of dependent L2 accesses, and one arc at a
 * time left the memory system mostly idle (ncu, kron20: 19 % of L2
 * throughput, 25 % occupancy). STREAM (the two-block build): the arcs are
 * loaded with the streaming hint (evict first), so that a dense graph's arcs,
 * read once a round, do not push the distances, stamps and done marks out of
 * L2 (near-far, 3 interleaved runs: kron20 2.14 -> 1.98 ms, R-MAT 2.09 ->
 * 1.92, kron22 8.97 -> 8.65, Bellman-Ford kron20 2.78 -> 2.45). The one-block
 * build's arcs are read again in its local steps and fit in L2 with the rest;
 * its graphs did not move. local: a local step's entries (their sources'
 * distances are checked here). owner (N = 1 only, total <= RELAX_BLOCK):
 * owner[e] is arc e's entry; NULL: each thread searches off for it. Every
 * thread of the block calls it. */
template <int N, typename W, bool ORD, bool STREAM>
__device__ __forceinline__ void relax_arcs(const dev_graph<W> &g, const dev_vertex_state &vs,
                                           const split_sink<W> &sink, const relax_smem &sm, const uint8_t *owner,
                                           uint32_t total, uint32_t nent, bool local, bool mids,
                                           uint32_t &next_min) {
  static_assert(RELAX_BLOCK <= 256, "owner holds entry numbers in a byte");
  /* the loop runs while any lane of the warp has an arc (e0 - lane is the
     warp's first): warp_push needs every lane */
  const uint32_t tid = threadIdx.x, lane = tid % WARP_SIZE;
  for (uint32_t e0 = tid; e0 - lane < total; e0 += RELAX_BLOCK * N) {
    uint32_t v[N] = {}, nd[N], src[N], cur[N];
    uint64_t vb[N], ve[N]; /* the targets' rows, for a local step */
    uint32_t sd[N], su[N]; /* in a local step: the source's distance now, and expanded at */
    int k[N];
    uint32_t lo = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const uint32_t e = e0 + (uint32_t)j * RELAX_BLOCK;
      if (e < total) {
        if (N == 1 && owner) {
          lo = owner[e];
        } else {
          // owner: the last k with off[k] <= e (entries of degree 0 share
          // offsets); owners grow with e, so each search starts at the last
          uint32_t hi = nent - 1;
          /* four-way first: three independent loads a step instead of one
             dependent load a halving */
          while (hi - lo >= 3) {
            const uint32_t q = (hi - lo + 1) / 4, m1 = lo + q, m2 = m1 + q, m3 = m2 + q;
            const bool b1 = sm.off[m1] <= e, b2 = sm.off[m2] <= e, b3 = sm.off[m3] <= e;
            hi = b3 ? hi : b2 ? m3 - 1 : b1 ? m2 - 1 : m1 - 1;
            lo = b3 ? m3 : b2 ? m2 : b1 ? m1 : lo;
          }
          while (lo < hi) {
            uint32_t mid = (lo + hi + 1) / 2;
            if (sm.off[mid] <= e) lo = mid;
            else hi = mid - 1;
          }
        }
        const uint64_t arc = sm.beg[lo] + (e - sm.off[lo]);
        src[j] = sm.u[lo];
        const uint2 a = STREAM ? __ldcs(&g.arc[arc]) : g.arc[arc];
        v[j] = a.x;
        nd[j] = weight_traits<W>::add(sm.du[lo], weight_traits<W>::weight(a.y));
        /* a local step expands its entries without loading their distance
           first (relax_frontier); the source's distance is loaded here, with
           the arc, and an arc whose source was lowered since it was pushed
           is dropped (whoever lowered it expands it): on grid-1000 and
           geo-1M, 16-21 % of the arcs otherwise */
        if (local) {
          sd[j] = dist_of(*(volatile unsigned long long *)&vs.dist[src[j]]);
          su[j] = sm.du[lo];
        }
      }
    }
#pragma unroll
    for (int j = 0; j < N; ++j)
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
    for (int j = 0; j < N; ++j)
      k[j] = e0 + (uint32_t)j * RELAX_BLOCK < total && !(local && sd[j] < su[j])
                 ? relax_commit<W>(vs, src[j], v[j], nd[j], cur[j], sink)
                 : -1;
    if (mids)
#pragma unroll
      for (int j = 0; j < N; ++j)
        if (k[j] == 0) next_min = min(next_min, nd[j]);
    warp_push<N, W, ORD>(sink, v, nd, k, vb, ve);
  }
}

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
 * d is a path's length, and that thread expands v at its own distance.
 *
 * Ordered local steps (ORD builds only, with sink.lwin set from
 * ds_gpu_options::local_order; tuning.cuh says on which graphs): a step other
 * than the last expands only the entries below its buffer's smallest distance
 * + lwin and carries the others into the next step's buffer (or queues them,
 * if it is full), so that a block's chain runs in distance order rather than
 * hop order and fewer vertices are expanded at distances that are undercut
 * later. No entry is dropped: each is expanded, carried or queued. */
template <typename W, bool ORD, int BPS>
__device__ void relax_frontier(const dev_graph<W> &g, const dev_vertex_state &vs,
                               const uint32_t *frontier, uint32_t count, split_sink<W> sink,
                               relax_smem &sm, const round_params &rp, unsigned long long &edges,
                               uint32_t part, uint32_t parts, uint32_t steps) {
  const uint32_t tid = threadIdx.x;
  const bool dynamic = rp.tiles != NULL;
  /* A frontier of fewer than RELAX_BLOCK entries per block is spread evenly
     over the blocks (tiles of tl entries, at least rp.min_tile). A block's
     gather of scattered rows, arcs and distances is bound by its SM's rate of
     L1 requests (about one sector a cycle), not by latency alone: on NY a
     round of 256 entries on one block spent ~2,100 cycles loading its rows
     and ~4,400 relaxing its arcs (a step profile of the rounds), against ~300 for one
     L2 round trip. Full tiles on a few blocks made a team or grid round of a
     few thousand entries cost as much as a solo round plus the barrier. */
  uint32_t tl = RELAX_BLOCK;
  if (!dynamic && (uint64_t)count < (uint64_t)parts * RELAX_BLOCK) {
    tl = (count + parts - 1) / parts;
    if (tl < rp.min_tile) tl = rp.min_tile < RELAX_BLOCK ? rp.min_tile : RELAX_BLOCK;
  }
  uint64_t tile = (uint64_t)part * tl;
  /* hub order: the least distance this thread listed, and queued */
  const bool hub_order = hub_order_on<W, BPS == 2>(sink, rp);
  const bool mids = hub_order && rp.mid_degree < rp.huge.degree;
  uint32_t listed_min = UINT32_MAX, next_min = UINT32_MAX;
  typename weight_traits<W>::acc_t mid_thr = weight_traits<W>::acc_max();
  if (mids) {
    const unsigned long long a = *(volatile const unsigned long long *)rp.anchor;
    if (a != ~0ull) mid_thr = weight_traits<W>::plus((uint32_t)a, sink.hwin);
  }
  if (steps) {
    if (tid == 0) {
      sm.lb[0].cnt = 0;
      if (ORD) sm.lb[0].dmin = UINT32_MAX;
    }
    sink.lb = &sm.lb[0];
  }
  if (dynamic && tid == 0) sm.next[0] = (uint32_t)atomicAdd(rp.tiles, 1ull);
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
    /* ordered steps: entries at or above thr are carried, not expanded */
    typename weight_traits<W>::acc_t thr = 0;
    const bool ordered = ORD && step && step < steps && sink.lwin;
    if (step) {
      lcount = min(sm.lb[(step - 1) & 1].cnt, LOCAL_CAP); /* complete: the last barrier */
      if (lcount == 0) break;
      if (ordered) thr = weight_traits<W>::plus(sm.lb[(step - 1) & 1].dmin, sink.lwin);
      /* parity step & 1 was last read at the start of step - 1 */
      if (step < steps && tid == 0) {
        sm.lb[step & 1].cnt = 0;
        if (ORD) sm.lb[step & 1].dmin = UINT32_MAX;
      }
      sink.lb = step < steps ? &sm.lb[step & 1] : NULL;
    }
    bool carry = false; /* an ordered step's entry for the next step */
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
        if (ordered && !weight_traits<W>::below(du, thr)) {
          carry = true; /* stored below, once every thread has read this step's buffer state */
        } else if (dg >= rp.huge.degree) {
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
        const uint32_t dn = rp.unique ? vs.done[u] : 0;
        /* listed as huge; or, in hub order, waiting for the next round */
        const bool listed = re - rb >= rp.huge.degree;
        const bool waits = !listed && mids && re - rb >= rp.mid_degree && !weight_traits<W>::below(du, mid_thr);
        bool expand = false;
        if (du != weight_traits<W>::INF_BITS) {
          if (rp.unique) {
            expand = dn > du;
            /* in hub order a listed vertex is marked when it is expanded, a
               waiting one not at all */
            if (expand && !(hub_order && (listed || waits))) atomicMin(&vs.done[u], du);
          } else {
            expand = atomicMin(&vs.done[u], du) > du;
          }
        }
        if (expand) {
          beg = rb;
          deg = re - rb;
          if (listed) {
            /* each vertex is expanded at most once per round (frontiers are
               deduplicated), so arcs / degree + 1 entries suffice */
            unsigned long long old = atomicAdd(rp.huge.word, (1ull << HUGE_COUNT_SHIFT) | deg);
            rp.huge.e[old >> HUGE_COUNT_SHIFT] = huge_entry{beg, old & HUGE_ARCS_MASK, u, du};
            if (hub_order) listed_min = min(listed_min, du);
            else edges += deg; /* in hub order relax_huge counts the arcs it relaxes */
            deg = 0;
          } else if (waits) {
            const int k = sink.claim(u, du); /* waits for the next round */
            if (k >= 0) sink.push(k, u);
            next_min = min(next_min, du);
            deg = 0;
          } else {
            edges += deg;
          }
        }
      }
    }
    /* the next tile's index is fetched now, while this one runs; it is read
       after the barriers below, from the other half of next[] */
    if (dynamic && step == 0 && tid == 0) sm.next[(it + 1) & 1] = (uint32_t)atomicAdd(rp.tiles, 1ull);
    // 2. the tile's arcs, dealt out over the block
    /* the tile's or step's entries: the owner search need not look past them
       (a local step's few dozen entries take 5-6 halvings instead of 8) */
    const uint32_t nent = step ? lcount : (uint32_t)min((uint64_t)tl, (uint64_t)count - tile);
    uint32_t my_off = 0, total = 0;
    relax_smem::scan_t(sm.scan).ExclusiveSum((uint32_t)deg, my_off, total);
    /* one arc per thread (below): each entry writes its arcs' owner, one store
       an arc before the barrier instead of a search of off after it, which
       cost warp 0 ~520 of a road step's ~2,400 cycles of arcs (now ~155):
       NY 1.82 -> 1.75 ms, COL 2.78 -> 2.65, grid-1000 6.30 -> 6.09. The
       ordered build (6 or more arcs per vertex) keeps the search: with the
       stores geo-1M took 1 % longer */
    const bool narrow = BPS == 1 && total <= RELAX_BLOCK; /* one arc per thread, below */
    if (narrow && !ORD)
      for (uint32_t a = 0; a < deg; ++a) sm.owner[my_off + a] = (uint8_t)tid;
    sm.off[tid] = my_off;
    sm.beg[tid] = beg;
    sm.u[tid] = u;
    sm.du[tid] = du;
    if (tid == 0) sm.off[RELAX_BLOCK] = total;
    __syncthreads();
    if (ORD && carry) {
      /* after the barrier: the reset of the next buffer (thread 0, above) is done */
      const local_buf &b = sm.lb[(step - 1) & 1];
      local_buf &nb = sm.lb[step & 1];
      const uint32_t i = atomicAdd(&nb.cnt, 1u);
      if (i < LOCAL_CAP) {
        nb.v[i] = u;
        nb.d[i] = du;
        nb.beg[i] = b.beg[tid];
        nb.deg[i] = b.deg[tid];
        atomicMin(&nb.dmin, du);
      } else {
        const int k = sink.claim(u, du);
        if (k >= 0) sink.push(k, u);
      }
    }
    /* one arc per thread in the one-block build when the block has enough
       threads: the local steps of a road graph relax a few dozen arcs each,
       bound by their warps' chain of instructions, which the unrolled stages
       lengthen (NY 1.91 -> 1.81 ms, grid-1000 6.68 -> 6.31). In the two-block
       build the second path cost the dense graphs 3-22 % */
    if (narrow)
      relax_arcs<1, W, ORD, false>(g, vs, sink, sm, ORD ? NULL : sm.owner, total, nent, step != 0, mids, next_min);
    else
      relax_arcs<RELAX_ILP, W, ORD, BPS == 2>(g, vs, sink, sm, NULL, total, nent, step != 0, mids, next_min);
    __syncthreads();
    if (step) {
      if (step == steps) break;
      ++step;
    } else {
      tile = dynamic ? (uint64_t)sm.next[(it + 1) & 1] * RELAX_BLOCK : tile + (uint64_t)parts * tl;
    }
  }
  if (hub_order) { /* one atomic per warp that listed a vertex; read after the round's barrier */
    listed_min = __reduce_min_sync(0xffffffffu, listed_min);
    if (tid % WARP_SIZE == 0 && listed_min != UINT32_MAX) atomicMin(rp.hmin, (unsigned long long)listed_min);
  }
  if (mids) publish_next_min(rp, next_min);
}

} // namespace dsgpu

#endif /* DS_GPU_RELAX_FRONTIER_CUH */
