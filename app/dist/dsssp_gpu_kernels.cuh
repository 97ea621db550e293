/* The device code of the distributed GPU engine (dsssp_gpu.cu): one rank's
 * part of a round of delta-stepping on its own vertices.
 *
 * Keys as dsssp_engine.h's (an integer distance, or a float's bits; KEY_INF
 * unreached), one 64-bit word a vertex, so that atomicMin on the key is
 * atomicMin on the distance for both weight types. A vertex v is live (to be
 * relaxed) while key[v] < done[v], done[v] being the key it was last relaxed
 * with. changed[v] marks a key that dropped in the current round; it is what
 * makes a predecessor safe: a tail u becomes v's predecessor only with the key
 * u had when the round began (its done[u]) and only where v's key dropped in
 * that round, so a predecessor's key was final rounds before its child's was
 * set and the tree has no cycle, zero weights included.
 *
 * The round, in launch order:
 *   1. frontier: the live vertices of bucket b, their done[] = key[];
 *   2. relax: a warp a frontier vertex; own heads by atomicMin on the key,
 *      other ranks' heads into the combining table (an open-addressing hash
 *      of head -> least key), each new head's slot appended to a list;
 *   3. predecessors (where asked for): the arcs again, a tail written where
 *      its offer equals the head's new key;
 *   4. (host: multisplit of the table's heads by owner) gather: the updates,
 *      grouped by owner, the slots emptied for the next round;
 *   5. apply (on the owner): atomicMin, then the predecessors as in 3;
 *   6. scan: the least bucket of a live vertex, and changed[] cleared.
 */
#ifndef DS_DIST_DSSSP_GPU_KERNELS_CUH
#define DS_DIST_DSSSP_GPU_KERNELS_CUH

#include <cuda_runtime.h>
#include <float.h>
#include <stdint.h>

#include "dist/dsssp_engine.h"

namespace dsdist {

constexpr int WARP_SIZE = 32;
constexpr int BLOCK = 256;
constexpr uint64_t KEY_INF = DS_DSSSP_KEY_INF;
constexpr uint64_t KEY_SAT = DS_DSSSP_KEY_SAT;
constexpr uint32_t EMPTY_HEAD = UINT32_MAX; /* a free table slot (vertex ids are < 2^32 - 1) */
constexpr uint64_t FLOAT_BUCKET_CAP = (uint64_t)1 << 62; /* as the CPU twin: one last bucket */

/* Counters of the round and of the search, one device word each. */
enum ctl_word {
  CTL_FRONTIER = 0,   /* vertices of this round's frontier */
  CTL_COMBINED,       /* distinct other ranks' heads this round (table slots in use) */
  CTL_NEXT_BUCKET,    /* the scan's least bucket */
  CTL_BAD_UPDATE,     /* an update of a vertex this rank does not own: 1 + its id */
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

struct table {
  uint32_t *head;
  unsigned long long *key;
  uint32_t *pred;
  uint32_t *list; /* slots in use, in the order they were taken */
  uint64_t mask;  /* capacity - 1 (a power of two) */

  static __device__ __forceinline__ uint64_t hash(uint32_t v) {
    uint64_t x = v * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing: spreads runs of ids */
    return x ^ (x >> 29);
  }
  /* The slot of head, taking a free one (and listing it) when head is new. */
  __device__ __forceinline__ uint64_t insert(uint32_t h, unsigned long long *ctl) const {
    for (uint64_t s = hash(h) & mask;; s = (s + 1) & mask) {
      uint32_t cur = head[s];
      if (cur == EMPTY_HEAD) {
        cur = atomicCAS(&head[s], EMPTY_HEAD, h);
        if (cur == EMPTY_HEAD) {
          list[atomicAdd(&ctl[CTL_COMBINED], 1ull)] = (uint32_t)s;
          return s;
        }
      }
      if (cur == h) return s;
    }
  }
  __device__ __forceinline__ uint64_t find(uint32_t h) const {
    uint64_t s = hash(h) & mask;
    while (head[s] != h) s = (s + 1) & mask;
    return s;
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

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ unsigned long long warp_min(unsigned long long v) {
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) {
    const unsigned long long x = __shfl_down_sync(0xffffffffu, v, o);
    v = x < v ? x : v;
  }
  return v;
}

// 1. the frontier of bucket b
__global__ void frontier_kernel(part p, uint64_t b, unsigned long long *ctl) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  bool in = false;
  if (v < p.n_local) {
    const unsigned long long kv = p.key[v];
    in = kv < p.done[v] && p.k.bucket(kv) == b;
    if (in) p.done[v] = kv;
  }
  const unsigned mask = __ballot_sync(0xffffffffu, in); /* one atomic a warp */
  const int lane = threadIdx.x % WARP_SIZE, leader = mask ? __ffs(mask) - 1 : 0;
  unsigned long long at = 0;
  if (lane == leader && mask) at = atomicAdd(&ctl[CTL_FRONTIER], (unsigned long long)__popc(mask));
  at = __shfl_sync(0xffffffffu, at, leader);
  if (in) p.frontier[at + __popc(mask & ((1u << lane) - 1))] = v;
}

// 2. and 3.: a warp a frontier vertex; pred_pass writes predecessors instead of keys
template <bool pred_pass>
__global__ void relax_kernel(part p, table t, unsigned long long *ctl) {
  const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / WARP_SIZE;
  const int lane = threadIdx.x % WARP_SIZE;
  const uint64_t count = ctl[CTL_FRONTIER];
  unsigned long long local = 0, remote = 0, edges = 0;
  for (uint64_t i = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) / WARP_SIZE; i < count;
       i += warps) {
    const uint32_t v = p.frontier[i], tail = p.first + v;
    const unsigned long long kv = p.done[v];
    const uint64_t lo = p.off[v], hi = p.off[v + 1];
    if (lane == 0) edges += hi - lo;
    for (uint64_t a = lo + lane; a < hi; a += WARP_SIZE) {
      const uint32_t h = p.col[a];
      const unsigned long long k = p.k.add(kv, p.w[a]);
      if (p.owns(h)) {
        const uint32_t x = h - p.first;
        if (pred_pass) {
          if (p.changed[x] && p.key[x] == k) p.pred[x] = tail;
        } else if (k < atomicMin(&p.key[x], k)) {
          p.changed[x] = 1;
          local++;
        }
      } else if (pred_pass) {
        const uint64_t s = t.find(h);
        if (t.key[s] == k) t.pred[s] = tail;
      } else {
        atomicMin(&t.key[t.insert(h, ctl)], k);
        remote++;
      }
    }
  }
  if (pred_pass) return;
  local = warp_sum(local);
  remote = warp_sum(remote);
  edges = warp_sum(edges);
  if (lane == 0) {
    if (local) atomicAdd(&ctl[CTL_LOCAL], local);
    if (remote) atomicAdd(&ctl[CTL_REMOTE], remote);
    if (edges) atomicAdd(&ctl[CTL_EDGES], edges);
  }
}

// 4a. the heads of the slots in use, the multisplit's keys (its values: the slots)
__global__ void table_heads_kernel(table t, const unsigned long long *ctl, uint32_t *heads) {
  const uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < ctl[CTL_COMBINED]) heads[i] = t.head[t.list[i]];
}

// 4b. the updates in owner order, and the slots emptied
__global__ void gather_kernel(table t, const uint32_t *slots, uint64_t n, int want_pred,
                              ds_dsssp_update *out) {
  const uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t s = slots[i];
  out[i].head = t.head[s];
  out[i].pred = want_pred ? t.pred[s] : DS_NO_PRED;
  out[i].key = t.key[s];
  t.head[s] = EMPTY_HEAD;
  t.key[s] = KEY_INF;
}

// 5. the owner applies what arrived; pred_pass as in 3
template <bool pred_pass>
__global__ void apply_kernel(part p, const ds_dsssp_update *u, uint64_t n, unsigned long long *ctl) {
  const uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t h = u[i].head;
  if (!p.owns(h)) {
    if (!pred_pass) atomicMax(&ctl[CTL_BAD_UPDATE], 1ull + h);
    return;
  }
  const uint32_t x = h - p.first;
  const unsigned long long k = u[i].key;
  if (pred_pass) {
    if (p.changed[x] && p.key[x] == k) p.pred[x] = u[i].pred;
  } else if (k < atomicMin(&p.key[x], k)) {
    p.changed[x] = 1;
    atomicAdd(&ctl[CTL_LOCAL], 1ull);
  }
}

// 6. the least bucket of a live vertex; the round's changed[] cleared
__global__ void scan_kernel(part p, unsigned long long *ctl) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long b = KEY_INF;
  if (v < p.n_local) {
    p.changed[v] = 0;
    const unsigned long long kv = p.key[v];
    if (kv < p.done[v]) b = p.k.bucket(kv);
  }
  b = warp_min(b);
  if (threadIdx.x % WARP_SIZE == 0 && b != KEY_INF) atomicMin(&ctl[CTL_NEXT_BUCKET], b);
}

} // namespace dsdist

#endif /* DS_DIST_DSSSP_GPU_KERNELS_CUH */
