/* deltasplit GPU SSSP: Near-Far (Davidson, Baxter, Garland, Owens, IPDPS 2014;
 * also Ashkiani's PhD thesis, UC Davis 2017, section 3.7.2), with device-side
 * control.
 *
 * State: a split distance S, a near frontier (distances < S) and a far pile.
 * Each round relaxes the near frontier (round_schedule.cuh); a vertex whose distance
 * dropped goes to the next near frontier if its new distance is < S, else it is
 * appended to the far pile. When the near frontier is empty, S is raised past
 * the smallest live far distance in one step (S += delta * k, the k that makes
 * the near set non-empty, instead of k separate passes of +delta), the far
 * pile is split into near and the rest, and stale entries (distance < the old
 * S: expanded already) are dropped. Done when both are empty, or, with
 * targets, when the near frontier is empty and every target lies below S:
 * then no vertex below S waits anywhere, every later distance is S or more,
 * and so the targets' distances are final.
 *
 * The whole loop is one cooperative kernel: rounds are separated by grid-wide
 * barriers, and the host launches once and waits once. Road graphs need
 * thousands of rounds; a host round trip per round would cost more than the
 * rounds themselves.
 *
 * Invariants: queues hold vertex ids; the near queue is deduplicated per round
 * (stamp), the far pile per round (stamp2) and at every split, so the near
 * queue never exceeds n and the far pile, compacted when within n of its
 * capacity 2n + FAR_SLACK, never overflows.
 *
 * Every block takes the same decisions from counters that nothing changes
 * while they are read: after round r's barrier, block 0 may already push in
 * round r + 1, so counts are kept per round in rotating slots (ncnt for the
 * near queue, fr for the far pile, whose size each block adds up itself from
 * a base), and a slot is cleared only two rounds later.
 * Bellman-Ford on frontiers is this engine with S = infinity (bellman_ford.cu).
 */
#include <cooperative_groups.h>

#include "launch.cuh"
#include "near_far.cuh"
#include "round_schedule.cuh"

namespace dsgpu {

struct nf_ctl {
  uint32_t ncnt[3];   /* near queue counts, rotating: in, out, next out */
  uint32_t fr[3];     /* far pushes of round r in fr[r % 3] (rotating), from the pile's base */
  uint32_t gmin;      /* smallest live far distance (bits) */
  uint32_t rounds;
  uint32_t stopped;   /* the search stopped at its targets */
  stretch_ctl stretch; /* stretches of small frontiers (barriers.cuh) */
};

template <typename W> struct nf_args {
  dev_graph<W> g;
  dev_vertex_state vs;
  uint32_t *near[2];
  uint32_t *far[2];
  nf_ctl *ctl;
  dev_counters *ctr;
  unsigned long long *huge_word; /* huge-list words [0..1] and tile counters [2..3], by round */
  huge_entry *huge;
  typename weight_traits<W>::acc_t delta;
  int infinite; /* Bellman-Ford: one infinite bucket */
  const uint32_t *targets; /* the search stops once these are settled; n_targets 0: none */
  uint32_t n_targets;
  uint32_t far_cap;
  round_knobs kn; /* knobs_for this launch */
  round_trace trace;
};

/* Where round r sends improved vertices: the next near frontier, or the far
 * pile fp from its base fbase on. */
template <typename W>
__device__ __forceinline__ split_sink<W> nf_sink(const nf_args<W> &a, uint32_t r, uint32_t fp, uint32_t fbase,
                                                 typename weight_traits<W>::acc_t S, bool dense = false) {
  split_sink<W> s{{a.near[(r + 1) & 1], a.far[fp] + fbase},
                  {&a.ctl->ncnt[(r + 1) % 3], &a.ctl->fr[r % 3]},
                  {a.vs.stamp, a.vs.stamp2},
                  2 * r + 1,
                  a.infinite ? weight_traits<W>::acc_max() : S};
  /* Bellman-Ford has no bucket to order by */
  if (a.kn.local_order && !a.infinite) s.lwin = a.delta / (typename weight_traits<W>::acc_t)a.kn.local_order;
  if (a.kn.hub_order && !a.infinite) s.hwin = a.delta / (typename weight_traits<W>::acc_t)a.kn.hub_order;
  s.dense = dense;
  return s;
}

template <typename W, int BPS> __device__ __forceinline__ round_params nf_huge(const nf_args<W> &a, uint32_t r) {
  /* near frontiers are unique: deduplicated per round, and a split drops a
     vertex that round r queued as near (its distance is below S) */
  return round_params_of<BPS>(a.huge_word, a.huge, a.kn, r, true);
}

/* Round r: relax the near frontier (nin vertices, the count every block read
 * after the last barrier); improved vertices go to the next near frontier or
 * the far pile fp (from its base fbase), by `parts` blocks (see
 * relax_round, whose result it returns). counts: the next frontier's size
 * and the round's far pushes. */
template <typename W, int BPS, bool ORD>
__device__ __forceinline__ bool nf_round(const nf_args<W> &a, uint32_t r, uint32_t nin, uint32_t fp,
                                         uint32_t fbase, typename weight_traits<W>::acc_t S,
                                         relax_smem &sm, unsigned long long &edges, uint32_t parts,
                                         stretch_sync &ss, int local, uint32_t (&counts)[2], bool dense = false) {
  volatile nf_ctl *ctl = a.ctl;
  const bool first = ss.b == 0 && threadIdx.x == 0;
  if (first) {
    a.trace.begin(r, nin, parts < gridDim.x ? parts : 0);
    ctl->ncnt[(r + 2) % 3] = 0;
    ctl->fr[(r + 1) % 3] = 0;
    reset_next_huge_words(a.huge_word, r);
  }
  const round_params rp = nf_huge<W, BPS>(a, r);
  const bool handed = relax_round<W, ORD, BPS>(a.g, a.vs, a.near[r & 1], nin, nf_sink(a, r, fp, fbase, S, dense), sm,
                                     rp, edges, parts, ss, local, counts);
  /* only when tracing: the load would put a dependent L2 round trip on
     thread 0's path, which every round's next barrier waits for */
  if (first && a.trace.t) a.trace.huge(r, *(volatile unsigned long long *)rp.huge.word);
  return handed;
}

/* Whether every target's distance is below S, read after a grid barrier past
 * which nothing lowers a distance, and past the L1 (volatile: another block's
 * relaxations wrote them), so that every block decides alike. */
template <typename W>
__device__ __forceinline__ bool nf_targets_below(const nf_args<W> &a, typename weight_traits<W>::acc_t S) {
  const volatile unsigned long long *dist = a.vs.dist;
  for (uint32_t i = 0; i < a.n_targets; i++)
    if (!weight_traits<W>::below(dist_of(dist[a.targets[i]]), S)) return false;
  return true;
}

template <typename W, int BPS, bool ORD>
__global__ void __launch_bounds__(RELAX_BLOCK, BPS) near_far_kernel(nf_args<W> a) {
  using T = weight_traits<W>;
  using acc_t = typename T::acc_t;
  __shared__ relax_smem sm;
  cg::grid_group grid = cg::this_grid();
  volatile nf_ctl *ctl = a.ctl;
  const uint64_t gtid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t gsize = (uint64_t)gridDim.x * blockDim.x;
  unsigned long long edges = 0;
  acc_t S = a.infinite ? (acc_t)0 : a.delta; /* near: [0, delta) at first */
  uint32_t fp = 0, fbase = 0, r = 0;
  uint32_t nin = ctl->ncnt[0];
  stretch_sync ss;
  ss.init(grid, &a.ctl->stretch, a.kn, sm.rank);
  const bool first = ss.b == 0 && threadIdx.x == 0;
  for (;; ++r) {
    // 1. relax the near frontier of round r (the whole grid)
    uint32_t counts[2];
    const bool dense = BPS == 2 && nin >= a.kn.dense_min;
    nf_round<W, BPS, ORD>(a, r, nin, fp, fbase, S, sm, edges, gridDim.x, ss, -1, counts, dense);
    /* a dense round queued nothing below S: its next frontier is what it left pending */
    if (dense)
      counts[0] = end_dense_round<W>(ss, a.vs, a.g.n, a.infinite ? T::acc_max() : S, a.near[(r + 1) & 1],
                                     &a.ctl->ncnt[(r + 1) % 3], nf_huge<W, BPS>(a, r));
    // 2. small frontiers: block 0 or the team runs rounds while the frontier
    //    stays small and no phase change or compaction is due; then all
    //    blocks go on from its last round
    uint32_t nout = counts[0];
    uint32_t nfar = fbase + counts[1];
    auto keep = [&](uint32_t n, uint32_t pile) { return n > 0 && (uint64_t)pile + a.g.n <= a.far_cap; };
    if (nout <= a.kn.team_max && keep(nout, nfar)) {
      auto round = [&](uint32_t rr, uint32_t n, uint32_t b, uint32_t parts, int local, uint32_t(&c)[2]) {
        return nf_round<W, BPS, ORD>(a, rr, n, fp, b, S, sm, edges, parts, ss, local, c);
      };
      if (small_stretch(ss, a.kn.solo_max, a.kn.team_max, r, fbase, nout, nfar, round, keep))
        relax_huge_grid<W, BPS == 2>(ss, a.g, a.vs, nf_sink(a, r, fp, fbase, S), nf_huge<W, BPS>(a, r), edges);
      nout = ctl->ncnt[(r + 1) % 3];
      nfar = fbase + ctl->fr[r % 3];
    }
    // 3. every block takes the same decision from the same counters
    if (nout == 0 && nfar == 0) break;
    const bool phase = nout == 0;
    const bool compact = !phase && (uint64_t)nfar + a.g.n > a.far_cap;
    fbase = nfar;
    nin = nout;
    if (!phase && !compact) continue;
    acc_t S_new = S;
    if (phase) {
      // 4. smallest live far distance, then S jumps past it
      for (uint64_t i = gtid; i < nfar; i += gsize) {
        uint32_t d = dist_of(a.vs.dist[a.far[fp][i]]);
        if (!T::below(d, S)) atomicMin(&a.ctl->gmin, d);
      }
      ss.grid_sync();
      const uint32_t gmin = ctl->gmin;
      if (gmin == T::INF_BITS) break;
      /* nothing below S waits: targets below it are settled */
      if (a.n_targets > 0 && nf_targets_below<W>(a, S)) {
        if (first) ctl->stopped = 1;
        break;
      }
      acc_t k = (acc_t)T::bucket(gmin, S, a.delta);
      S_new = S + a.delta * (k + 1);
      while (!T::below(gmin, S_new)) { /* float rounding */
        const acc_t next = S_new + a.delta;
        /* a delta too small to move S_new at this magnitude: no split */
        S_new = next > S_new ? next : T::acc_max();
      }
    }
    // 5. split the far pile: stale entries dropped, [S, S_new) to near, the
    //    rest to the other pile, counted in the slot of round r + 1 (cleared
    //    at the start of round r), whose pushes follow them there
    uint32_t *src = a.far[fp], *dst = a.far[fp ^ 1];
    uint32_t near_min = UINT32_MAX; /* hub order: the least distance queued for round r + 1 */
    for (uint64_t i = gtid; i < nfar; i += gsize) {
      uint32_t v = src[i];
      uint32_t d = dist_of(a.vs.dist[v]);
      if (T::below(d, S)) continue;
      if (T::below(d, S_new)) {
        queue_push_once(a.near[(r + 1) & 1], &a.ctl->ncnt[(r + 1) % 3], a.vs.stamp, 2 * r + 2, v);
        near_min = min(near_min, d);
      } else {
        queue_push_once(dst, &a.ctl->fr[(r + 1) % 3], a.vs.stamp2, 2 * r + 2, v);
      }
    }
    if (BPS == 2 && a.kn.hub_mid != UINT32_MAX) publish_next_min(nf_huge<W, BPS>(a, r), near_min);
    ss.grid_sync();
    nin = ctl->ncnt[(r + 1) % 3]; /* with the split's near pushes */
    if (first) ctl->gmin = T::INF_BITS;
    fp ^= 1;
    fbase = 0;
    S = S_new;
  }
  if (edges) atomicAdd(&a.ctr->edges_relaxed, edges);
  if (first) {
    ctl->rounds = r + 1;
    a.trace.end(r + 1);
  }
}

template <typename W>
ds_status near_far_engine(ds_gpu_ctx *ctx, uint32_t source, double delta, int infinite,
                          const uint32_t *targets, uint32_t n_targets, ds_sssp_result *res,
                          ds_error *err) {
  /* delta normalised: ds_gpu_sssp did it */
  using T = weight_traits<W>;
  using acc_t = typename T::acc_t;
  const char *who = infinite ? "bellman-ford" : "near-far";
  ds_status st = DS_OK;
  const uint32_t n = ctx->n;
  const uint64_t far_cap = 2ull * n + FAR_SLACK;
  uint32_t *buf = NULL;
  nf_ctl *ctl = NULL;
  nf_args<W> a;
  nf_ctl h{};
  persistent_launch pl; /* the build for the context (kernel_for) and its grid */
  void *args[1] = {&a};
  float ms = 0;
  // 1. queues: two near (n each), two far piles (far_cap each), the targets, control block
  if (infinite || targets == NULL) n_targets = 0; /* one bucket: nothing settles before the end */
  if (cudaMalloc(&buf, sizeof(uint32_t) * (2ull * n + 2 * far_cap + n_targets)) != cudaSuccess ||
      cudaMalloc(&ctl, sizeof(nf_ctl)) != cudaSuccess) {
    st = ds_error_set(err, DS_ERR_DEVICE, "%s: cannot allocate %.1f MB of queues", who,
                      4.0 * (2.0 * n + 2.0 * far_cap) / 1e6);
    goto done;
  }
  a.g = ds_dev_graph<W>(ctx);
  a.vs = ctx->vs;
  a.near[0] = buf;
  a.near[1] = buf + n;
  a.far[0] = buf + 2ull * n;
  a.far[1] = buf + 2ull * n + far_cap;
  a.ctl = ctl;
  a.ctr = ctx->d_counters;
  a.huge_word = ctx->d_huge_word;
  a.huge = (huge_entry *)ctx->d_huge;
  a.delta = (acc_t)delta;
  a.infinite = infinite;
  a.targets = buf + 2ull * n + 2 * far_cap;
  a.n_targets = n_targets;
  a.far_cap = (uint32_t)(far_cap > UINT32_MAX ? UINT32_MAX : far_cap);
  a.trace = ctx->trace;
  // 2. the source is the first near frontier
  h.ncnt[0] = 1;
  h.gmin = T::INF_BITS;
  if (cudaMemcpyAsync(ctl, &h, sizeof h, cudaMemcpyHostToDevice, ctx->stream) != cudaSuccess ||
      cudaMemcpyAsync(a.near[0], &source, sizeof source, cudaMemcpyHostToDevice, ctx->stream) !=
          cudaSuccess ||
      (n_targets > 0 && cudaMemcpyAsync((uint32_t *)a.targets, targets, sizeof(uint32_t) * n_targets,
                                        cudaMemcpyHostToDevice, ctx->stream) != cudaSuccess)) {
    st = ds_error_set(err, DS_ERR_DEVICE, "%s: upload failed: %s", who, cudaGetErrorString(cudaGetLastError()));
    goto done;
  }
  // 3. one cooperative launch: as many blocks as can be resident at once; the control block read back
  st = persistent_grid(ctx,
                       kernel_for(ctx, near_far_kernel<W, 1, false>, near_far_kernel<W, 2, false>,
                                  near_far_kernel<W, 1, true>),
                       who, &pl, err);
  if (st != DS_OK) goto done;
  a.kn = knobs_for(ctx, pl.grid);
  if (infinite) { /* no bucket to order by: the hubs' huge degree without the order */
    a.kn.hub_order = 0;
    a.kn.hub_mid = UINT32_MAX;
    a.kn.huge_degree = a.kn.huge_plain;
  }
  st = timed_search(
      ctx, who, [&]() { return cooperative_launch(ctx, pl, args, who, err); }, &h, ctl, sizeof h, &ms, err);
  if (st != DS_OK) goto done;
  if (h.stretch.stalled) { /* read back with the summary */
    st = stall_report(ctx, &ctl->stretch.stall, (uint32_t)pl.grid, who, err);
    goto done;
  }
  res->time_ms = ms;
  res->rounds = h.rounds;
  res->stopped_early = h.stopped != 0;
  st = ds_gpu_trace_read(ctx, h.rounds, err);
done:
  cudaFree(buf);
  cudaFree(ctl);
  return st;
}

} // namespace dsgpu

template ds_status dsgpu::near_far_engine<uint32_t>(ds_gpu_ctx *, uint32_t, double, int, const uint32_t *,
                                                    uint32_t, ds_sssp_result *, ds_error *);
template ds_status dsgpu::near_far_engine<float>(ds_gpu_ctx *, uint32_t, double, int, const uint32_t *,
                                                 uint32_t, ds_sssp_result *, ds_error *);

template <typename W>
ds_status ds_near_far_run(ds_gpu_ctx *ctx, uint32_t source, double delta, const uint32_t *targets,
                          uint32_t n_targets, ds_sssp_result *res, ds_error *err) {
  return dsgpu::near_far_engine<W>(ctx, source, delta, 0, targets, n_targets, res, err);
}
template ds_status ds_near_far_run<uint32_t>(ds_gpu_ctx *, uint32_t, double, const uint32_t *, uint32_t,
                                             ds_sssp_result *, ds_error *);
template ds_status ds_near_far_run<float>(ds_gpu_ctx *, uint32_t, double, const uint32_t *, uint32_t,
                                          ds_sssp_result *, ds_error *);
