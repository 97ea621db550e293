/* deltasplit GPU SSSP: bucketed delta-stepping, shared by the multisplit
 * (multisplit_sssp.cu) and the sort-based (sort_sssp.cu) algorithms; they
 * differ only in the Splitter that groups work items by bucket.
 *
 * The window: m buckets of width delta from base0; bucket m-1 holds
 * everything beyond the window. c is the current bucket. Each bucket is a list
 * of pieces (segments of an append-only log of vertex ids; bucket_state.cuh).
 *
 * A phase processes bucket c to exhaustion:
 *   1. rounds on the device (one cooperative kernel, grid-wide barriers, no
 *      host round trip; bucket_phase.cuh): relax the frontier; an improved vertex
 *      whose new distance is still in bucket c joins the next frontier, any
 *      other is spilled (each once per round);
 *   2. the Splitter groups the spilled items by bucket, bucket(v) =
 *      clamp((dist[v] - base0) / delta, c + 1, m - 1) read from the current
 *      distance (bucket_of<W>), onto the end of the log, with the bucket
 *      offsets; each non-empty bucket gets its segment as a new piece;
 *   3. bookkeeping (one block; bucket_book.cuh): the lowest non-empty bucket j < m-1 becomes
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
 *     cooperative kernel, steps separated by grid barriers (bucket_search.cuh);
 *   - one called from the host (the sort) needs the spill's size there:
 *     one cooperative launch per phase and one small read-back (the spill
 *     count and what the last bookkeeping found: each phase is enqueued
 *     right after the bookkeeping, and returns at once if there was no
 *     frontier), two on a rebuild (bucket_host_loop.cuh).
 * Both take their decisions with bk_next_step. A bucket whose gathered
 * entries are all stale is skipped, not taken for the end of the search.
 */
#ifndef DS_GPU_BUCKET_ENGINE_CUH
#define DS_GPU_BUCKET_ENGINE_CUH

#include <string.h>

#include "bucket_host_loop.cuh"
#include "bucket_search.cuh"
#include "launch.cuh"

namespace dsgpu {
/* The engine. Splitter: a type with
 *   static const char *name();
 *   static constexpr bool ON_DEVICE;
 *   ds_status init(ds_gpu_ctx*, uint32_t m, size_t max_n, uint32_t grid, bucket_of<W> fn,
 *                  const uint32_t *in, uint32_t *out, ds_error*);   (sizes its storage)
 *   void release();
 * and, ON_DEVICE, a shared-memory type smem and
 *   __device__ void split(grid_barrier&, smem&, const uint32_t *in, uint32_t *out,
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
  /* m in 2..MAX_BUCKETS and delta_in normalised: ds_gpu_sssp checked both */
  using T = weight_traits<W>;
  using acc_t = typename T::acc_t;
  ds_status st = DS_OK;
  const uint32_t n = ctx->n;
  bk_bufs<W> b;
  memset(&b, 0, sizeof b);
  Splitter sp;
  bucket_of<W> fn;
  bk_state<W> hinit;
  bk_phase_args<W> pa;
  bk_summary *hs = NULL; /* pinned read-back of the state's summary */
  persistent_launch pl;  /* the search or phase kernel's build (kernel_for) and grid */
  float ms = 0;
  const acc_t delta = (acc_t)delta_in;
  // 1. buffers: q0, q1, fbuf, fill (n each), spill and log (4n + slack each)
  b.spill_cap = b.log_cap = 4ull * n + BUCKET_SLACK;
  const size_t pieces = (size_t)m * PIECES_PER_BUCKET;
  if (cudaMalloc(&b.st, sizeof(bk_state<W>)) != cudaSuccess ||
      cudaMalloc(&b.q[0], sizeof(uint32_t) * (4ull * n + b.spill_cap + b.log_cap)) != cudaSuccess ||
      cudaMalloc(&b.pstart, sizeof(uint64_t) * (3 * pieces + 2)) != cudaSuccess ||
      cudaMalloc(&b.plen, sizeof(uint32_t) * pieces) != cudaSuccess ||
      cudaMalloc(&b.off, sizeof(size_t) * (m + 1)) != cudaSuccess ||
      cudaMallocHost(&hs, sizeof *hs) != cudaSuccess) {
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
  if constexpr (Splitter::ON_DEVICE)
    st = persistent_grid(ctx,
                         kernel_for(ctx, bk_search_kernel<W, Splitter, 1, false>,
                                    bk_search_kernel<W, Splitter, 2, false>, bk_search_kernel<W, Splitter, 1, true>),
                         Splitter::name(), &pl, err);
  else
    st = persistent_grid(ctx,
                         kernel_for(ctx, bk_phase_kernel<W, 1, false>, bk_phase_kernel<W, 2, false>,
                                    bk_phase_kernel<W, 1, true>),
                         Splitter::name(), &pl, err);
  if (st != DS_OK) goto done;
  st = sp.init(ctx, m, (size_t)b.spill_cap, (uint32_t)pl.grid, fn, b.spill, b.log, err);
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
  pa.kn = knobs_for(ctx, pl.grid);
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
  // 4. the search, timed, and its summary
  st = timed_search(
      ctx, Splitter::name(),
      [&]() -> ds_status {
        if constexpr (Splitter::ON_DEVICE) {
          void *args[3] = {&pa, &sp, &m};
          return cooperative_launch(ctx, pl, args, Splitter::name(), err);
        } else {
          return bk_host_loop<W>(ctx, sp, pa, m, pl, hs, err);
        }
      },
      hs, b.st, sizeof *hs, &ms, err);
  if (st != DS_OK) goto done;
  if (hs->stalled) {
    st = stall_report(ctx, &b.st->stretch.stall, (uint32_t)pl.grid, Splitter::name(), err);
    goto done;
  }
  res->time_ms = ms;
  res->rounds = hs->rounds;
done:
  sp.release();
  cudaFree(b.st);
  cudaFree(b.q[0]);
  cudaFree(b.pstart);
  cudaFree(b.plen);
  cudaFree(b.off);
  if (hs) cudaFreeHost(hs);
  return st;
}

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_ENGINE_CUH */
