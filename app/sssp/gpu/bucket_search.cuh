/* deltasplit GPU SSSP: the bucket engine's search kernel, for a Splitter
 * that splits on the device (the multisplit): the whole search, phases,
 * splits, bookkeeping and rebuilds, as one cooperative launch.
 */
#ifndef DS_GPU_BUCKET_SEARCH_CUH
#define DS_GPU_BUCKET_SEARCH_CUH

#include "bucket_book.cuh"
#include "bucket_phase.cuh"

namespace dsgpu {

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
template <typename W, typename Splitter, int BPS, bool ORD>
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
  ss.init(grid, &a.b.st->stretch, a.kn, sm.relax.rank, &a.b.st->stalled);
  grid_barrier gb{ss};
  for (;;) {
    const uint32_t spill = bk_phase<W, BPS, ORD>(a, sm.relax, ss);
    const uint32_t f_in = st->f_count, need_rebuild = st->need_rebuild, c = st->c, empty = st->empty;
    const acc_t base0 = st->base0;
    const uint64_t tail = st->tail;
    const bk_step step = bk_next_step(spill, f_in, need_rebuild, c, empty, st->rebuilt, tail, m, a.b.log_cap);
    if (step == BK_DONE) break;
    if (step == BK_REBUILD) {
      ss.grid_sync(); /* the phase's end: its spill count is in the state */
      if (book) bk_book<W>(a.b, m, bk_book_op::collect_all(), sm.book);
      ss.grid_sync();
      bk_gather<W>(a.vs, a.b);
      ss.grid_sync();
      if (book && threadIdx.x == 0) bk_rebase<W>(a.b.st, a.delta);
      ss.grid_sync();
      const uint32_t fill = st->fill_count;
      if (fill > 0) sp.split(gb, sm.split, a.b.fill, a.b.log, fill, a.b.off, st->base0, 0);
      if (book) bk_book<W>(a.b, m, bk_book_op::after_rebuild(fill > 0), sm.book);
    } else {
      if (spill > 0) sp.split(gb, sm.split, a.b.spill, a.b.log + tail, spill, a.b.off, base0, c);
      else ss.grid_sync(); /* a phase that returned at once has no barrier: all must have read the state */
      if (book) bk_book<W>(a.b, m, bk_book_op::after_split(spill > 0, tail), sm.book);
    }
    ss.grid_sync();
    if (st->gather_mode != 0) {
      bk_gather<W>(a.vs, a.b);
      ss.grid_sync();
    }
  }
}

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_SEARCH_CUH */
