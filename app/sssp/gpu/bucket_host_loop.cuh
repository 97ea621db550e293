/* deltasplit GPU SSSP: the bucket engine's host-driven loop, for a Splitter
 * called from the host (the sort): one cooperative launch per phase, and one
 * small read-back per phase (the spill count, which the Splitter needs as its
 * size, and what the last bookkeeping found: each phase is enqueued right
 * after the bookkeeping, and returns at once if there was no frontier), two
 * on a rebuild.
 */
#ifndef DS_GPU_BUCKET_HOST_LOOP_CUH
#define DS_GPU_BUCKET_HOST_LOOP_CUH

#include "bucket_book.cuh"
#include "bucket_phase.cuh"
#include "launch.cuh"

namespace dsgpu {

/* Reads the state's summary back into hs (pinned) and waits. */
template <typename W, typename Splitter>
ds_status bk_read_summary(ds_gpu_ctx *ctx, const bk_bufs<W> &b, bk_summary *hs, const char *what, ds_error *err) {
  if (cudaMemcpyAsync(hs, b.st, sizeof *hs, cudaMemcpyDeviceToHost, ctx->stream) != cudaSuccess ||
      cudaStreamSynchronize(ctx->stream) != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "%s: %s failed: %s", Splitter::name(), what,
                        cudaGetErrorString(cudaGetLastError()));
  return DS_OK;
}

/* The loop; pl: bk_phase_kernel's build for the context (kernel_for) and its
 * grid; hs: pinned. */
template <typename W, typename Splitter>
ds_status bk_host_loop(ds_gpu_ctx *ctx, Splitter &sp, bk_phase_args<W> &pa, uint32_t m,
                       const persistent_launch &pl, bk_summary *hs, ds_error *err) {
  const bk_bufs<W> &b = pa.b;
  void *pargs[1] = {&pa};
  uint64_t tail = 0;
  bool rebuilt = false; /* the last step was a rebuild */
  for (;;) {
    // one phase: the rounds of bucket c, on the device
    DS_TRY(cooperative_launch(ctx, pl, pargs, Splitter::name(), err));
    DS_TRY((bk_read_summary<W, Splitter>(ctx, b, hs, "phase", err)));
    if (hs->stalled) return stall_report(ctx, &b.st->stretch.stall, (uint32_t)pl.grid, Splitter::name(), err);
    const uint32_t spill = hs->spill_count;
    const bk_step step = bk_next_step(spill, hs->f_count, hs->need_rebuild, hs->c, hs->empty, rebuilt, tail, m,
                                      b.log_cap);
    if (step == BK_DONE) break;
    rebuilt = step == BK_REBUILD;
    if (rebuilt) {
      // rebuild: gather every pending item and the spill, rebase, split all
      bk_book_kernel<W><<<1, BOOK_THREADS, 0, ctx->stream>>>(b, m, bk_book_op::collect_all());
      bk_gather_kernel<W><<<pl.grid, RELAX_BLOCK, 0, ctx->stream>>>(pa.vs, b);
      bk_rebase_kernel<W><<<1, 1, 0, ctx->stream>>>(b.st, pa.delta);
      DS_TRY((bk_read_summary<W, Splitter>(ctx, b, hs, "rebuild", err)));
      const uint32_t fill = hs->fill_count;
      tail = 0;
      if (fill > 0) {
        DS_TRY(sp.split(b.fill, b.log, fill, b.off, err));
        tail = fill;
      }
      bk_book_kernel<W><<<1, BOOK_THREADS, 0, ctx->stream>>>(b, m, bk_book_op::after_rebuild(fill > 0));
    } else {
      // split the spill onto the log, from bucket c + 1 on
      if (spill > 0) DS_TRY(sp.split(b.spill, b.log + tail, spill, b.off, err));
      bk_book_kernel<W><<<1, BOOK_THREADS, 0, ctx->stream>>>(b, m, bk_book_op::after_split(spill > 0, tail));
      tail += spill;
    }
    // a frontier made of several pieces is gathered into one array
    bk_gather_kernel<W><<<pl.grid, RELAX_BLOCK, 0, ctx->stream>>>(pa.vs, b);
    DS_LAUNCH_CHECK("bucket bookkeeping");
  }
  return DS_OK;
}

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_HOST_LOOP_CUH */
