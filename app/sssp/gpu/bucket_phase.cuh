/* deltasplit GPU SSSP: a phase of the bucket engine (its step 1,
 * bucket_engine.cuh): the rounds that process the current bucket c to
 * exhaustion, on the device. An improved vertex whose new distance is still
 * in bucket c joins the next frontier, any other is spilled (each once per
 * round); small frontiers run on one block or a team (round_schedule.cuh).
 */
#ifndef DS_GPU_BUCKET_PHASE_CUH
#define DS_GPU_BUCKET_PHASE_CUH

#include "bucket_state.cuh"
#include "round_schedule.cuh"

namespace dsgpu {

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
                                                 uint32_t stamp, typename weight_traits<W>::acc_t hi,
                                                 bool dense = false) {
  split_sink<W> s{{a.b.q[r & 1], a.b.spill + base},
                  {&a.b.st->qc[r % 3], &a.b.st->sc[r % 3]},
                  {a.vs.stamp, a.vs.stamp2},
                  stamp,
                  hi};
  if (a.kn.local_order) s.lwin = a.delta / (typename weight_traits<W>::acc_t)a.kn.local_order;
  if (a.kn.hub_order) s.hwin = a.delta / (typename weight_traits<W>::acc_t)a.kn.hub_order;
  s.dense = dense;
  return s;
}

/* unique: the frontier holds each vertex once (round r > 0: deduplicated per
 * round; round 0: if gathered; a single piece of the log may repeat one) */
template <typename W, int BPS>
__device__ __forceinline__ round_params bk_huge(const bk_phase_args<W> &a, uint32_t r, bool unique) {
  return round_params_of<BPS>(a.huge_word, a.huge, a.kn, r, unique);
}

/* Round r of a phase: relax `in` (bk_sink says where improved vertices go).
 * by `parts` blocks (see relax_round, whose result it returns). */
template <typename W, int BPS, bool ORD>
__device__ __forceinline__ bool bk_round(const bk_phase_args<W> &a, uint32_t r, const uint32_t *in,
                                         uint32_t nin, uint32_t base, uint32_t stamp,
                                         typename weight_traits<W>::acc_t hi, relax_smem &sm,
                                         unsigned long long &edges, uint32_t parts, stretch_sync &ss,
                                         int local, bool unique, uint32_t (&counts)[2], bool dense = false) {
  volatile bk_state<W> *st = a.b.st;
  if (ss.b == 0 && threadIdx.x == 0) {
    st->qc[(r + 1) % 3] = 0;
    st->sc[(r + 1) % 3] = 0;
    reset_next_huge_words(a.huge_word, r);
  }
  return relax_round<W, ORD, BPS>(a.g, a.vs, in, nin, bk_sink(a, r, base, stamp, hi, dense), sm, bk_huge<W, BPS>(a, r, unique),
                        edges, parts, ss, local, counts);
}

/* Step 1: the rounds of one phase, by the whole (cooperative) grid, every
 * block ranked (ss). Frontiers of at most team_max vertices are relaxed by
 * block 0 alone or the team (as in near_far.cu). Returns at once, in every
 * block, when the frontier is empty. Returns the spill's size, in every
 * block; the spill is complete then (the last round's barrier). */
template <typename W, int BPS, bool ORD>
__device__ uint32_t bk_phase(const bk_phase_args<W> &a, relax_smem &sm, stretch_sync &ss) {
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
    const bool dense = BPS == 2 && nin >= a.kn.dense_min;
    bk_round<W, BPS, ORD>(a, r, in, nin, base, stamp0 + r, hi, sm, edges, gridDim.x, ss, -1, r > 0 || gathered, counts,
                          dense);
    /* a dense round queued nothing in bucket c: its next frontier is what it left pending below hi */
    if (dense)
      counts[0] = end_dense_round<W>(ss, a.vs, a.g.n, hi, a.b.q[r & 1], &a.b.st->qc[r % 3], bk_huge<W, BPS>(a, r, true));
    uint32_t nout = counts[0];
    uint32_t spilled = base + counts[1];
    auto keep = [&](uint32_t n, uint32_t pile) { return n > 0 && pile <= a.spill_limit; };
    if (nout <= a.kn.team_max && keep(nout, spilled)) {
      auto round = [&](uint32_t rr, uint32_t n, uint32_t b, uint32_t parts, int local, uint32_t(&c)[2]) {
        return bk_round<W, BPS, ORD>(a, rr, a.b.q[(rr - 1) & 1], n, b, stamp0 + rr, hi, sm, edges, parts, ss, local, true,
                           c);
      };
      if (small_stretch(ss, a.kn.solo_max, a.kn.team_max, r, base, nout, spilled, round, keep))
        relax_huge_grid<W, BPS == 2>(ss, a.g, a.vs, bk_sink(a, r, base, stamp0 + r, hi), bk_huge<W, BPS>(a, r, true), edges);
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
      ss.grid_sync(); /* the copy and the flag are complete before anyone decides or splits */
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
    a.huge_word[HUGE_MIN_WORD + (r & 1)] = ~0ull;
    /* a phase's first frontier is not queued by a round: no anchor */
    for (int i = 0; i < 3; ++i) a.huge_word[HUGE_NEXT_WORD + i] = ~0ull;
  }
  return base;
}

/* Step 1 as a kernel of its own (the host-driven loop). */
template <typename W, int BPS, bool ORD>
__global__ void __launch_bounds__(RELAX_BLOCK, BPS) bk_phase_kernel(bk_phase_args<W> a) {
  __shared__ relax_smem sm;
  cg::grid_group grid = cg::this_grid();
  stretch_sync ss;
  ss.init(grid, &a.b.st->stretch, a.kn, sm.rank, &a.b.st->stalled);
  (void)bk_phase<W, BPS, ORD>(a, sm, ss);
}

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_PHASE_CUH */
