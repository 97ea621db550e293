/* deltasplit GPU SSSP: the bucket engine's bookkeeping (its steps 3 and 4,
 * bucket_engine.cuh): the split's segments become pieces of their buckets,
 * the lowest non-empty bucket becomes current and its pieces are gathered
 * into one frontier (stale and duplicate entries dropped); a rebuild gathers
 * every pending item and restarts the window at the smallest distance.
 * bk_next_step decides, from a phase's summary, which of them follows.
 */
#ifndef DS_GPU_BUCKET_BOOK_CUH
#define DS_GPU_BUCKET_BOOK_CUH

#include <cub/block/block_scan.cuh>

#include "bucket_state.cuh"
#include "frontier_queue.cuh"

namespace dsgpu {

constexpr int BOOK_THREADS = MAX_BUCKETS; /* one bookkeeping thread per bucket */

struct bk_book_smem {
  typedef cub::BlockScan<uint64_t, BOOK_THREADS> scan_t;
  typename scan_t::TempStorage scan;
  uint32_t next;
};

/* What a bookkeeping does (bk_book). */
struct bk_book_op {
  bool collect;       /* list every piece for a rebuild, and nothing else */
  bool advance;       /* bucket c is done: the search goes on from c + 1 (else
                         a rebuild's split: from bucket 0 of the new window) */
  bool have_seg;      /* a split segment starts at log[seg_start] */
  uint64_t seg_start;
  /* the start of a rebuild: every piece into the gather list */
  static __host__ __device__ bk_book_op collect_all() { return bk_book_op{true, false, false, 0}; }
  /* after the split of a phase's spill (have_seg: it was not empty) onto the log at tail */
  static __host__ __device__ bk_book_op after_split(bool have_seg, uint64_t tail) {
    return bk_book_op{false, true, have_seg, tail};
  }
  /* after a rebuild's split (have_seg: something was pending) onto an emptied log */
  static __host__ __device__ bk_book_op after_rebuild(bool have_seg) { return bk_book_op{false, false, have_seg, 0}; }
};

/* Step 3, or the collection of every piece for a rebuild: what op says. One
 * block of BOOK_THREADS, thread j for bucket j. */
template <typename W> __device__ void bk_book(const bk_bufs<W> &b, uint32_t m, const bk_book_op op, bk_book_smem &sm) {
  const bool collect = op.collect, advance = op.advance, have_seg = op.have_seg;
  const uint64_t seg_start = op.seg_start;
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
    bk_book_kernel(bk_bufs<W> b, uint32_t m, bk_book_op op) {
  __shared__ bk_book_smem sm;
  bk_book<W>(b, m, op, sm);
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

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_BOOK_CUH */
