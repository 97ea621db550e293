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
 * The round, in launch order (1.-3. LOCAL_STEPS times):
 *   1. frontier: the live vertices of the agreed bucket (a device word, the
 *      ranks' all-reduce), their done[] = key[]; vertices of BIG_DEGREE arcs
 *      and more listed apart, from the frontier array's end;
 *   2. relax: a block a tile of frontier vertices, their arcs dealt over its
 *      threads, then every thread of the grid over each big vertex's arcs (a
 *      hub's million arcs would leave one block working while the rest of the
 *      GPU waits); own heads by atomicMin on the key, other ranks' heads by
 *      atomicMin on the combining table's key of that head (a key a vertex of
 *      the other ranks), the offer that finds none listing the head under its
 *      owner; a key is read before its atomic, which most offers of a round
 *      after the first do not lower;
 *   3. predecessors (where asked for): the arcs again, a tail written where
 *      its offer equals the head's new key;
 *   4. offsets: the owners' counts, their prefix (the send layout, grouped by
 *      owner) and the counts as 64-bit words for the exchange of counts;
 *      gather: the updates in that layout, their table keys reset for the next round;
 *   5. apply (on the owner): atomicMin, then the predecessors as in 3;
 *   6. scan: the least bucket of a live vertex and this rank's status into
 *      the agreement words, and changed[] cleared.
 */
#ifndef DS_DIST_DSSSP_GPU_KERNELS_CUH
#define DS_DIST_DSSSP_GPU_KERNELS_CUH

#include <cuda_runtime.h>
#include <float.h>
#include <stdint.h>

#include <cub/block/block_scan.cuh>

#include "dsssp_gpu_engine.cuh" /* the state the kernels work on */

namespace dsdist {

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

// 1. step `step`'s frontier of the agreed bucket: ordinary vertices from frontier[0] up, big
//    ones from frontier[n_local - 1] down; with predecessors, the last step's changed[] cleared
//    (a tail is a predecessor only of a head lowered in its own step: no cycle through zero
//    weights)
__global__ void frontier_kernel(part p, const unsigned long long *agree, unsigned long long *ctl,
                                int step) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  const int now = step % 2, next = 1 - now;
  if (v == 0) {
    ctl[CTL_FRONTIER + next] = 0;
    ctl[CTL_BIG + next] = 0;
    ctl[CTL_LOWERED + now] = 0;
  }
  if (step > 0) { /* the last step lowered nothing, or so many that the others' updates matter */
    const unsigned long long last = ctl[CTL_LOWERED + next];
    if (last == 0 || last > LOCAL_STEP_MAX_LOWERED) return;
  }
  const uint64_t b = agree[AGREE_BUCKET];
  bool in = false, big = false;
  if (v < p.n_local) {
    if (step > 0 && p.pred != nullptr) p.changed[v] = 0;
    const unsigned long long kv = p.key[v];
    in = kv < p.done[v] && p.k.bucket(kv) == b;
    if (in) {
      p.done[v] = kv;
      big = p.off[v + 1] - p.off[v] >= BIG_DEGREE;
    }
  }
  const unsigned mask = __ballot_sync(0xffffffffu, in && !big); /* one atomic a warp */
  const int lane = threadIdx.x % WARP_SIZE, leader = mask ? __ffs(mask) - 1 : 0;
  unsigned long long at = 0;
  if (lane == leader && mask) at = atomicAdd(&ctl[CTL_FRONTIER + now], (unsigned long long)__popc(mask));
  at = __shfl_sync(0xffffffffu, at, leader);
  if (in && !big) p.frontier[at + __popc(mask & ((1u << lane) - 1))] = v;
  if (big) p.frontier[p.n_local - 1 - atomicAdd(&ctl[CTL_BIG + now], 1ull)] = v;
}

/* One arc a -> h offered kv + w(a) from tail (a global id); pred_pass as relax_kernel's. */
template <bool pred_pass>
__device__ __forceinline__ void relax_arc(const part &p, const table &t, uint64_t a,
                                          unsigned long long kv, uint32_t tail,
                                          unsigned long long &local, unsigned long long &remote) {
  const uint32_t h = p.col[a];
  const unsigned long long k = p.k.add(kv, p.w[a]);
  if (p.owns(h)) {
    const uint32_t x = h - p.first;
    if (pred_pass) {
      if (p.changed[x] && p.key[x] == k) p.pred[x] = tail;
    } else if (k < p.key[x] && k < atomicMin(&p.key[x], k)) { /* keys only drop: a stale read errs high */
      p.changed[x] = 1;
      local++;
    }
  } else if (pred_pass) {
    const uint32_t x = t.index(h);
    if (t.key[x] == k) t.pred[x] = tail;
  } else {
    t.offer(h, k);
    remote++;
  }
}

// 2. and 3.: the ordinary vertices of step `step`'s frontier in tiles of BLOCK, a block a tile,
//    their arcs dealt over the block's threads (an edge-balanced gather: the tile's degrees
//    prefix-summed, each thread finding an arc's vertex by binary search in shared memory), then
//    the grid over each big one's arcs; pred_pass writes predecessors instead of keys. A warp a
//    vertex left most lanes idle on the many vertices of a few arcs that Kronecker and road
//    graphs have, as the one-GPU engine found (app/sssp/gpu/relax_frontier.cuh).
template <bool pred_pass>
__global__ void __launch_bounds__(BLOCK) relax_kernel(part p, table t, unsigned long long *ctl, int step) {
  typedef cub::BlockScan<uint32_t, BLOCK> scan_t;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ uint32_t s_at[BLOCK];            /* the entry's first arc in the tile's arc order */
  __shared__ uint32_t s_v[BLOCK];             /* its vertex */
  __shared__ uint64_t s_lo[BLOCK];            /* its first arc in the CSR */
  __shared__ unsigned long long s_kv[BLOCK];  /* the key it is relaxed with */
  const uint64_t threads = (uint64_t)gridDim.x * blockDim.x;
  const uint64_t tid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % WARP_SIZE;
  const uint64_t count = ctl[CTL_FRONTIER + step % 2], big = ctl[CTL_BIG + step % 2];
  unsigned long long local = 0, remote = 0, edges = 0;
  for (uint64_t tile = blockIdx.x; tile * BLOCK < count; tile += gridDim.x) {
    const uint64_t i = tile * BLOCK + threadIdx.x;
    uint32_t deg = 0; /* below BIG_DEGREE: a tile's arcs fit 32 bits */
    if (i < count) {
      const uint32_t v = p.frontier[i];
      const uint64_t lo = p.off[v];
      deg = (uint32_t)(p.off[v + 1] - lo);
      s_v[threadIdx.x] = v;
      s_lo[threadIdx.x] = lo;
      s_kv[threadIdx.x] = p.done[v];
    }
    uint32_t at = 0, total = 0;
    scan_t(scan_tmp).ExclusiveSum(deg, at, total);
    s_at[threadIdx.x] = at;
    __syncthreads();
    if (threadIdx.x == 0) edges += total;
    for (uint32_t j = threadIdx.x; j < total; j += BLOCK) {
      int lo = 0, hi = BLOCK - 1; /* the entry: the last one whose arcs start at or before j */
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (s_at[mid] <= j) lo = mid;
        else hi = mid - 1;
      }
      relax_arc<pred_pass>(p, t, s_lo[lo] + (j - s_at[lo]), s_kv[lo], p.first + s_v[lo], local, remote);
    }
    __syncthreads(); /* the tile's shared arrays are read before the next tile writes them */
  }
  for (uint64_t i = 0; i < big; i++) {
    const uint32_t v = p.frontier[p.n_local - 1 - i];
    const uint64_t lo = p.off[v], hi = p.off[v + 1];
    const unsigned long long kv = p.done[v];
    if (tid == 0) edges += hi - lo;
    for (uint64_t a = lo + tid; a < hi; a += threads)
      relax_arc<pred_pass>(p, t, a, kv, p.first + v, local, remote);
  }
  if (pred_pass) return;
  local = warp_sum(local);
  remote = warp_sum(remote);
  edges = warp_sum(edges);
  if (lane == 0) {
    if (local) {
      atomicAdd(&ctl[CTL_LOCAL], local);
      atomicAdd(&ctl[CTL_LOWERED + step % 2], local);
    }
    if (remote) atomicAdd(&ctl[CTL_REMOTE], remote);
    if (edges) atomicAdd(&ctl[CTL_EDGES], edges);
  }
}

// 4a. the send layout (one warp): off[p] where owner p's updates start (off[ranks]: all of
//     them), counts[p] their number for the exchange of counts; the owners' counts cleared
__global__ void offsets_kernel(table t, uint64_t *off, uint64_t *counts) {
  const int lane = threadIdx.x, per = (t.ranks + WARP_SIZE - 1) / WARP_SIZE;
  const int lo = lane * per, hi = lo + per < t.ranks ? lo + per : t.ranks;
  unsigned long long sum = 0;
  for (int q = lo; q < hi; q++) sum += t.owner_count[q];
  unsigned long long before = sum; /* inclusive scan over the lanes, then less its own */
  for (int o = 1; o < WARP_SIZE; o *= 2) {
    const unsigned long long x = __shfl_up_sync(0xffffffffu, before, o);
    if (lane >= o) before += x;
  }
  before -= sum;
  for (int q = lo; q < hi; q++) {
    const unsigned long long c = t.owner_count[q];
    off[q] = before;
    counts[q] = c;
    before += c;
    t.owner_count[q] = 0;
  }
  if (lane == WARP_SIZE - 1) off[t.ranks] = before;
}

// 4b. the updates in owner order, and their keys in the table reset
__global__ void gather_kernel(table t, const uint64_t *off, int want_pred, ds_dsssp_update *out) {
  const uint64_t n = off[t.ranks], threads = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += threads) {
    int lo = 0, hi = t.ranks - 1; /* the owner: the last p with off[p] <= i */
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (off[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    const uint32_t x = t.list[t.list_base[lo] + (i - off[lo])];
    out[i].head = t.head(x);
    out[i].pred = want_pred ? t.pred[x] : DS_NO_PRED;
    out[i].key = t.key[x];
    t.key[x] = KEY_INF;
  }
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

// 6. the least bucket of a live vertex and this rank's status into agree (whose bucket word
//    holds KEY_INF before); the round's changed[] cleared
__global__ void scan_kernel(part p, const unsigned long long *ctl, unsigned long long *agree) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long b = KEY_INF;
  if (v < p.n_local) {
    p.changed[v] = 0;
    const unsigned long long kv = p.key[v];
    if (kv < p.done[v]) b = p.k.bucket(kv);
  }
  if (v == 0) agree[AGREE_STATUS] = ~(unsigned long long)(ctl[CTL_BAD_UPDATE] ? DS_ERR_ARG : DS_OK);
  b = warp_min(b);
  if (threadIdx.x % WARP_SIZE == 0 && b != KEY_INF) atomicMin(&agree[AGREE_BUCKET], b);
}

} // namespace dsdist

#endif /* DS_DIST_DSSSP_GPU_KERNELS_CUH */
