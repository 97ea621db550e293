/* deltasplit GPU SSSP: the bucket engine's state (bucket_engine.cuh says
 * how the search uses it).
 *
 * The window: m buckets of width delta from base0; bucket m-1 holds
 * everything beyond the window. c is the current bucket. Each bucket is a list
 * of pieces (segments of an append-only log of vertex ids); a bucket's pieces
 * are gathered into one frontier when it becomes current. bk_state lives on
 * the device; the host reads back its head (bk_summary).
 */
#ifndef DS_GPU_BUCKET_STATE_CUH
#define DS_GPU_BUCKET_STATE_CUH

#include <stddef.h>

#include "barriers.cuh"

namespace dsgpu {

template <typename W> struct bk_state {
  /* read back after each phase and each bookkeeping (bk_summary) */
  uint32_t spill_count;  /* items spilled by the last phase */
  uint32_t f_count;      /* frontier size */
  uint32_t need_rebuild; /* window exhausted or a piece list full */
  uint32_t fill_count;   /* items gathered by a rebuild */
  uint32_t c;            /* current bucket */
  uint32_t rounds;       /* relaxation rounds so far */
  uint32_t empty;        /* the bookkeeping found nothing pending: the search is done */
  uint32_t stalled;      /* a barrier wait gave up (barriers.cuh; the record is in stretch) */
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
  stretch_ctl stretch;   /* stretches of small frontiers (barriers.cuh) */
  uint64_t gather_total; /* items in them */
  typename weight_traits<W>::acc_t base0;
  uint32_t npieces[MAX_BUCKETS];
  uint64_t total[MAX_BUCKETS];
};

/* What the host reads back after a phase or a bookkeeping: the first fields
 * of bk_state, in the same order (the static_assert below checks it). */
struct bk_summary {
  uint32_t spill_count, f_count, need_rebuild, fill_count, c, rounds, empty, stalled;
};
template <typename W> constexpr bool bk_summary_matches() {
  return offsetof(bk_state<W>, spill_count) == offsetof(bk_summary, spill_count) &&
         offsetof(bk_state<W>, f_count) == offsetof(bk_summary, f_count) &&
         offsetof(bk_state<W>, need_rebuild) == offsetof(bk_summary, need_rebuild) &&
         offsetof(bk_state<W>, fill_count) == offsetof(bk_summary, fill_count) &&
         offsetof(bk_state<W>, c) == offsetof(bk_summary, c) &&
         offsetof(bk_state<W>, rounds) == offsetof(bk_summary, rounds) &&
         offsetof(bk_state<W>, empty) == offsetof(bk_summary, empty) &&
         offsetof(bk_state<W>, stalled) == offsetof(bk_summary, stalled);
}
static_assert(bk_summary_matches<uint32_t>() && bk_summary_matches<float>(),
              "bk_summary is the head of bk_state");
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

} // namespace dsgpu

#endif /* DS_GPU_BUCKET_STATE_CUH */
