/* deltasplit GPU SSSP: the round schedule of the persistent kernels, shared
 * by Near-Far and the bucket engine. A frontier of at most solo_max vertices
 * runs on one block (a solo round, block barriers), one of at most team_max on
 * a team of blocks (barriers.cuh), a larger one on the whole grid (grid
 * barriers). small_stretch runs consecutive solo and team rounds while the
 * other blocks wait at one grid barrier; relax_round is one round of either
 * kind.
 */
#ifndef DS_GPU_ROUND_SCHEDULE_CUH
#define DS_GPU_ROUND_SCHEDULE_CUH

#include "relax_frontier.cuh"
#include "barriers.cuh"

namespace dsgpu {

/* The persistent kernels are built twice, for BPS = 1 or 2 resident blocks
 * per SM (ds_gpu_ctx::blocks_per_sm; launch bounds: up to 255 registers a
 * thread, or 128), and the one-block build again with ordered local steps
 * (ORD: their checks, compiled into the plain build, cost the road networks
 * 2-3 %). Local steps (relax_frontier) are in the one-block build
 * only, which the sparse graphs get: in the two-block build their code raised
 * the kernels' register spills (search kernel 36 / 208 -> 144 / 692 bytes),
 * and on the dense graphs that get it they made rounds slower (kron20
 * 2.92 -> 3.18 ms). The engines build their
 * round_params with this (zero: the compiler drops the code; changing the
 * kernel's argument instead copies it to the stack). */
template <int BPS> __device__ __forceinline__ uint32_t local_steps(uint32_t knob) {
  return BPS == 1 ? knob : 0;
}

/* The parameters of round r of a persistent kernel, from the launch's knobs:
 * the huge list's word and the tile counter alternate by the round's parity
 * (huge_word[r & 1] and huge_word[2 + (r & 1)]; the other pair is zeroed for
 * the next round while this one runs). unique: as in round_params. */
template <int BPS>
__device__ __forceinline__ round_params round_params_of(unsigned long long *huge_word, huge_entry *huge,
                                                        const round_knobs &kn, uint32_t r, bool unique) {
  round_params p;
  p.huge.word = huge_word + (r & 1);
  p.huge.e = huge;
  p.huge.degree = kn.huge_degree;
  p.tiles = huge_word + 2 + (r & 1);
  p.tile_mode = kn.dyn_tiles;
  p.min_tile = kn.min_tile;
  p.unique = unique;
  p.local_solo = local_steps<BPS>(kn.local_solo);
  p.local_team = local_steps<BPS>(kn.local_team);
  p.local_grid = local_steps<BPS>(kn.local_grid);
  p.hmin = huge_word + HUGE_MIN_WORD + (r & 1);
  p.mid_degree = BPS == 1 ? UINT32_MAX : kn.hub_mid;
  p.anchor = huge_word + HUGE_NEXT_WORD + r % 3;
  p.next_min = huge_word + HUGE_NEXT_WORD + (r + 1) % 3;
  return p;
}

/* Thread 0 of block rank 0, as round r starts: clears the huge-list words of
 * round r + 1 (list word, tile counter, least listed distance; round r uses
 * the other parity) and the least-queued word of round r + 2 (three rotate). */
__device__ __forceinline__ void reset_next_huge_words(unsigned long long *huge_word, uint32_t r) {
  huge_word[(r + 1) & 1] = 0;
  huge_word[2 + ((r + 1) & 1)] = 0;
  huge_word[HUGE_MIN_WORD + ((r + 1) & 1)] = ~0ull;
  huge_word[HUGE_NEXT_WORD + (r + 2) % 3] = ~0ull;
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
 * SOLO_HUGE_ARCS per block (tuning.cuh: SOLO_HUGE_ARCS_PER_BLOCK). */
constexpr uint32_t SOLO_HUGE_DEGREE = HUGE_DEGREE_MIN;
constexpr uint64_t SOLO_HUGE_ARCS = SOLO_HUGE_ARCS_PER_BLOCK;

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
template <typename W, bool ORD, int BPS>
__device__ bool relax_round(const dev_graph<W> &g, const dev_vertex_state &vs,
                            const uint32_t *frontier, uint32_t count, const split_sink<W> &sink,
                            relax_smem &sm, const round_params &rp, unsigned long long &edges, uint32_t parts,
                            stretch_sync &ss, int local, uint32_t (&counts)[2]) {
  const bool part_grid = parts < gridDim.x;
  split_sink<W> s = sink;
  round_params own = rp; /* this round's: its list and tiles where part of the grid runs it */
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
    own.huge.word = &sm.hw[p];
    if ((local & 2) && count <= SOLO_LOCAL_CAP) frontier = sm.fq[p ^ 1];
  }
  own.tiles = part_grid ? NULL : tile_counter(rp.tile_mode, count, parts, rp.tiles);
  if (part_grid && own.huge.degree > SOLO_HUGE_DEGREE) own.huge.degree = SOLO_HUGE_DEGREE;
  relax_frontier<W, ORD, BPS>(g, vs, frontier, count, s, sm, own, edges, ss.b, parts,
                    parts == 1 ? rp.local_solo : part_grid ? rp.local_team : rp.local_grid);
  ss.round_sync(parts);
  const unsigned long long hw = *(volatile unsigned long long *)own.huge.word;
  counts[0] = *(volatile uint32_t *)s.cnt[0];
  counts[1] = *(volatile uint32_t *)s.cnt[1];
  bool handed = false;
  if (hw) {
    if (part_grid && (hw & HUGE_ARCS_MASK) > SOLO_HUGE_ARCS * parts) {
      handed = true;
    } else {
      relax_huge<W, BPS == 2>(g, vs, own, hw, s, ss.b, parts, edges);
      ss.round_sync(parts);
      counts[0] = *(volatile uint32_t *)s.cnt[0];
      counts[1] = *(volatile uint32_t *)s.cnt[1];
    }
  }
  if (local >= 0 && threadIdx.x == 0) {
    *sink.cnt[0] = counts[0];
    *sink.cnt[1] = counts[1];
    *rp.huge.word = hw;
  }
  return handed;
}

/* The end of a dense grid round (split_sink::dense), by every thread of
 * every block after the round's barrier: queues what the round left pending
 * below split to q (count *cnt), publishes the least of it for hub order's
 * mid-degree vertices (rp: the round's parameters) and returns the count
 * once every block has queued. */
template <typename W>
__device__ __forceinline__ uint32_t end_dense_round(stretch_sync &ss, const dev_vertex_state &vs, uint32_t n,
                                                    typename weight_traits<W>::acc_t split, uint32_t *q,
                                                    uint32_t *cnt, const round_params &rp) {
  uint32_t least = UINT32_MAX;
  queue_pending<W>(vs, n, split, q, cnt, least);
  if (rp.mid_degree != UINT32_MAX) publish_next_min(rp, least);
  ss.grid_sync();
  return *(volatile uint32_t *)cnt;
}

/* The huge list a round of part of the grid handed over (relax_round returned
 * true), by the whole grid; every thread of every block calls it after a grid
 * barrier. */
template <typename W, bool HUB>
__device__ void relax_huge_grid(stretch_sync &ss, const dev_graph<W> &g, const dev_vertex_state &vs,
                                const split_sink<W> &sink, const round_params &rp, unsigned long long &edges) {
  const unsigned long long hw = *(volatile unsigned long long *)rp.huge.word;
  relax_huge<W, HUB>(g, vs, rp, hw, sink, blockIdx.x, gridDim.x, edges);
  ss.grid_sync();
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
__device__ __forceinline__ bool small_stretch(stretch_sync &ss, uint32_t solo_max,
                                              uint32_t team_max, uint32_t &r, uint32_t &base, uint32_t nout,
                                              uint32_t pile, Round round, Keep keep) {
  volatile stretch_ctl *c = ss.c;
  ss.check_in();
  if (ss.b < ss.k) {
    bool handed = false, after_team = false;
    uint32_t counts[2];
    for (;;) {
      if (nout <= solo_max) {
        // block 0 alone while the frontier stays small
        if (ss.b == 0) {
          /* The other members decided on the team round's counters, which
             the solo rounds reuse from their second round on (the slots
             rotate over three rounds, and a solo round has no barrier that
             would hold block 0 back): block 0 waits until each has read
             them, that is, has arrived at the team barrier below. (Before
             the stretch's first round the check-in did it.) Without it, a
             member late by two solo rounds read a cleared count, left the
             stretch, and the team waited for it forever. */
          if (after_team) ss.team_wait_others();
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
      after_team = true;
      if (!keep(nout, pile) || nout > team_max) break;
    }
    if (ss.b == 0 && threadIdx.x == 0) {
      c->r = r;
      c->base = base;
      c->huge = handed;
    }
  }
  ss.grid_sync();
  r = c->r;
  base = c->base;
  return c->huge != 0;
}

} // namespace dsgpu

#endif /* DS_GPU_ROUND_SCHEDULE_CUH */
