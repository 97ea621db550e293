/* The distributed GPU engine's state on one rank: the device's (keys, the
 * combining table, the part, the counters), which dsssp_gpu_kernels.cuh's
 * kernels work on, and the host's engine, shared by the file that runs its
 * rounds (dsssp_gpu.cu) and the one that sets it up on the GPU, starts a
 * search on it and frees it (dsssp_gpu_setup.cu). Internal to them.
 */
#ifndef DS_DIST_DSSSP_GPU_ENGINE_CUH
#define DS_DIST_DSSSP_GPU_ENGINE_CUH

#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <float.h>
#include <stdint.h>

#include "dist/dgraph.h"
#include "dist/dsssp.h"
#include "dist/dsssp_engine.h"

namespace dsdist {

constexpr int WARP_SIZE = 32;
constexpr int BLOCK = 256;
constexpr uint64_t KEY_INF = DS_DSSSP_KEY_INF;
constexpr uint64_t KEY_SAT = DS_DSSSP_KEY_SAT;
constexpr uint64_t FLOAT_BUCKET_CAP = (uint64_t)1 << 62; /* as the CPU twin: one last bucket */

/* Out-degree from which a frontier vertex is relaxed by the whole grid, not one warp. */
constexpr uint64_t BIG_DEGREE = 8192;

/* Local steps a round: the frontier of the agreed bucket relaxed again on this rank, from the
   own vertices the last step lowered, before the exchange, while the last step lowered at
   most LOCAL_STEP_MAX_LOWERED keys (and at least one). A road network's buckets are long
   chains of short arcs: one step a round made NY's search 758 rounds of host waits and
   collectives (121 ms on one H200, 248 on two), 16 steps 48 rounds (18 and 28 ms). A
   Kronecker graph's frontiers are millions of vertices whose keys the other ranks' updates
   still lower: steps on them relaxed 6.5 G arcs where one step relaxed 4.2 G (scale 24, 4
   ranks: 364 ms against 201). */
constexpr int LOCAL_STEPS = 16;
constexpr unsigned long long LOCAL_STEP_MAX_LOWERED = 1 << 15;

/* Counters of the round and of the search, one device word each; the step's counters in
   pairs by its parity (a step's frontier clears the next step's pair). */
enum ctl_word {
  CTL_FRONTIER = 0,   /* 2: vertices of the step's frontier, from the array's start */
  CTL_BIG = 2,        /* 2: big vertices of the step's frontier, from the array's end */
  CTL_LOWERED = 4,    /* 2: own keys the step lowered */
  CTL_BAD_UPDATE = 6, /* an update of a vertex this rank does not own: 1 + its id */
  CTL_EDGES,          /* arcs relaxed, the whole search */
  CTL_LOCAL,          /* own keys lowered */
  CTL_REMOTE,         /* offers to other ranks' heads, before combining */
  CTL_WORDS
};

struct keys {
  int is_float;
  uint64_t delta_int; /* integer weights */
  double delta;       /* float weights */

  __device__ __forceinline__ uint64_t add(uint64_t k, uint32_t wbits) const {
    if (is_float) {
      float s = __uint_as_float((uint32_t)k) + __uint_as_float(wbits);
      if (s == 0.0f) s = 0.0f; /* +0 for -0: the key stays non-negative */
      if (s > FLT_MAX) s = FLT_MAX;
      return __float_as_uint(s);
    }
    const uint64_t s = k + wbits;
    return s < k || s > KEY_SAT ? KEY_SAT : s;
  }
  __device__ __forceinline__ uint64_t bucket(uint64_t k) const {
    if (!is_float) return k / delta_int;
    const double q = floor((double)__uint_as_float((uint32_t)k) / delta);
    return q >= (double)FLOAT_BUCKET_CAP ? FLOAT_BUCKET_CAP : (uint64_t)q;
  }
};

/* The agreement of a round, two words that the ranks' all-reduce takes the
 * minimum of: the next bucket, and ~status (so the minimum is ~ the worst). */
enum agree_word { AGREE_BUCKET = 0, AGREE_STATUS, AGREE_WORDS };

/* The owner rank of a global vertex id: the last p with bounds[p] <= v. */
__device__ __forceinline__ int owner_of(const uint32_t *bounds, int ranks, uint32_t v) {
  int lo = 0, hi = ranks - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (bounds[mid] <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The combining table: a key a vertex of the other ranks, indexed directly by the vertex's place
 * among them (its global id, less n_local above this rank's range), holding the least offer of
 * the round (KEY_INF: none) and, with predecessors, its tail. The offer that lowers a key from
 * KEY_INF is the head's first of the round: its thread lists the index under the owner. An
 * offer is one key read and one atomic, not the probe, slot claim and second array of an
 * open-addressing hash of the heads; and 8 bytes for each of the other ranks' vertices take no
 * more memory than such a hash at half load (12 or 16 bytes, two for each head a round can
 * offer, min(n - n_local, m_local)) wherever a rank's arcs number at least a quarter of the
 * other ranks' vertices. */
struct table {
  unsigned long long *key;         /* n - n_local */
  uint32_t *pred;                  /* n - n_local, with predecessors */
  uint32_t *list;                  /* indices in use, rank p's from list_base[p] on, in the order taken */
  const uint64_t *list_base;       /* ranks: where each owner's indices start in list */
  unsigned long long *owner_count; /* ranks: each owner's indices this round */
  const uint32_t *bounds;          /* ranks + 1: the partition's first ids */
  int ranks;
  uint32_t first, n_local;         /* this rank's range, which the indices skip */

  __device__ __forceinline__ uint32_t index(uint32_t h) const { return h < first ? h : h - n_local; }
  __device__ __forceinline__ uint32_t head(uint32_t x) const { return x < first ? x : x + n_local; }
  /* A place in owner o's list, taken together by the lanes of the warp that take one for the
     same owner at the same time: one atomic on o's count for them all. A round lists millions
     of new heads under a few owners (on 2 ranks, all under one), and an atomic a head queued
     them all on one or a few words. */
  __device__ __forceinline__ uint64_t list_place(int o) const {
    cooperative_groups::coalesced_group here = cooperative_groups::coalesced_threads();
    cooperative_groups::coalesced_group same = cooperative_groups::labeled_partition(here, o);
    unsigned long long at = 0;
    if (same.thread_rank() == 0) at = atomicAdd(&owner_count[o], (unsigned long long)same.size());
    return same.shfl(at, 0) + same.thread_rank();
  }
  /* Offer k to head h (another rank's): the key lowered where k is less, h listed for its owner
     by the offer that found no other this round (k < KEY_INF: keys saturate below it). */
  __device__ __forceinline__ void offer(uint32_t h, unsigned long long k) const {
    const uint32_t x = index(h);
    if (k < key[x] && atomicMin(&key[x], k) == KEY_INF) {
      const int o = owner_of(bounds, ranks, h);
      list[list_base[o] + list_place(o)] = x;
    }
  }
};

/* The rank's graph and state on its GPU. */
struct part {
  uint32_t first, n_local;
  const uint64_t *off;
  const uint32_t *col, *w; /* weights as bits (uint32 or float) */
  unsigned long long *key, *done;
  uint32_t *pred; /* NULL without predecessors */
  uint8_t *changed;
  uint32_t *frontier;
  keys k;

  __device__ __forceinline__ bool owns(uint32_t v) const { return v - first < n_local; }
};

constexpr int THREADS_PER_SM = 2048; /* the warp-a-vertex kernels fill the GPU once, grid-stride */

/* The phases of a round on the device's timeline (rounds_on_device's statistics). */
enum round_event { EV_START, EV_RELAXED, EV_COUNTED, EV_EXCHANGED, EV_SCANNED, EV_COUNT };

struct engine {
  ds_comm *comm;
  const ds_dgraph *g;
  int ranks, me, staged, want_pred, own_stream;
  int device, pred_room; /* pred_room: opened for searches with predecessors */
  uint64_t others;       /* the other ranks' vertices: the combining table's keys */
  cudaStream_t s;
  part p;
  table t;
  uint64_t max_heads;    /* distinct other ranks' heads a round can offer */
  uint64_t list_slots;   /* the owners' lists together */
  int relax_grid;
  uint32_t *d_bounds;    /* ranks + 1 */
  uint64_t *d_list_base; /* ranks */
  unsigned long long *d_ctl, *h_ctl;
  uint64_t *d_off;       /* ranks + 1: the send layout */
  uint64_t *d_xfer, *h_xfer; /* the counts sent, the counts received, the agreement */
  ds_dsssp_update *d_send, *d_recv, *h_send, *h_recv; /* h_*: staging for a host communicator */
  size_t recv_cap;
  cudaEvent_t ev[2][EV_COUNT]; /* a round's and the last round's (rounds_on_device) */
  uint64_t next;         /* the bucket the last apply's scan found */
  int next_valid;
  ds_status failed;      /* a scan that failed: the next relax reports it */
  ds_error failed_err;
};

inline uint32_t blocks_for(uint64_t n) { return (uint32_t)((n + BLOCK - 1) / BLOCK); }

template <typename T> ds_status dev_alloc(T **p, uint64_t count, const engine *e, const char *what,
                                          ds_error *err) {
  const size_t bytes = (size_t)(count ? count : 1) * sizeof(T);
  if (cudaMalloc((void **)p, bytes) == cudaSuccess) return DS_OK;
  cudaGetLastError(); /* the failed allocation's error is not sticky: clear it */
  *p = nullptr;
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of GPU memory for %s (%zu bytes)", e->me,
                      what, bytes);
}

inline unsigned long long *agree_words(const engine *e) {
  return (unsigned long long *)(e->d_xfer + 2 * (size_t)e->ranks);
}

/* The rank's engine on its GPU, kept across searches: the part's CSR copied there and every
 * buffer a search needs, for searches with predecessors where want_pred. */
ds_status engine_open(engine *e, ds_comm *comm, const ds_dgraph *g, int want_pred, ds_error *err);

/* A search's start from source on the engine's stream, waited for. */
ds_status engine_start(engine *e, uint32_t source, const ds_dsssp_params *prm, ds_error *err);

/* Frees what engine_open allocated (also after it failed part way). */
void engine_free(engine *e);

} // namespace dsdist

#endif /* DS_DIST_DSSSP_GPU_ENGINE_CUH */
