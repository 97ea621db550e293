// The GPU LSM's merge of two sorted runs into one (merge path: Green, McColl and Bader, "GPU
// Merge Path", 2012). The output is cut into tiles of LSM_MERGE_THREADS x LSM_MERGE_ITEMS
// entries; a first kernel finds, for each tile boundary, how many entries of each run come
// before it (a binary search along the boundary's diagonal); a block then stages its tile's two
// slices in shared memory, each thread searches its own diagonal there and merges its ITEMS
// outputs, and the block writes the tile back in order. Stable with run A first: an entry of A
// precedes an equal key of B, which keeps a newer run's entries before an older one's.
//
// The runs' lengths live on the device (a level after a cleanup may hold fewer entries than its
// capacity), so the grids are sized by bounds and the kernels read the lengths; the partition
// writes the output's length.
#pragma once
#include <cuda_runtime.h>
#include <stdint.h>

#include "msplit/detail/lsm/tuning.h"

namespace msplit {
namespace detail {

constexpr int LSM_MERGE_TILE = tuning::LSM_MERGE_THREADS * tuning::LSM_MERGE_ITEMS;

// The entries of a (of na) among the first `diag` outputs of the stable merge of a and b.
template <typename K>
__device__ __forceinline__ uint64_t lsm_merge_path(const K *a, uint64_t na, const K *b, uint64_t nb, uint64_t diag) {
  uint64_t lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const uint64_t mid = (lo + hi) / 2;
    if (!(b[diag - 1 - mid] < a[mid])) lo = mid + 1;  // a[mid] <= b[...]: a[mid] is among them
    else hi = mid;
  }
  return lo;
}

// splits[t] for t <= tiles: the entries of a before output tile t (tiles: a bound of the tiles).
template <typename K>
__global__ void lsm_merge_partition_kernel(const K *a, const uint64_t *na_p, const K *b, const uint64_t *nb_p,
                                           uint64_t *splits, uint64_t tiles, uint64_t *n_out) {
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const uint64_t na = *na_p, nb = *nb_p, total = na + nb;
  if (t == 0) *n_out = total;
  const uint64_t diag = t * LSM_MERGE_TILE < total ? t * LSM_MERGE_TILE : total;
  splits[t] = lsm_merge_path(a, na, b, nb, diag);
}

template <typename K, typename V>
__global__ void __launch_bounds__(tuning::LSM_MERGE_THREADS)
    lsm_merge_kernel(const K *a, const V *av, const uint64_t *na_p, const K *b, const V *bv, const uint64_t *nb_p,
                     const uint64_t *splits, K *out, V *out_v) {
  constexpr int THREADS = tuning::LSM_MERGE_THREADS, ITEMS = tuning::LSM_MERGE_ITEMS;
  __shared__ K sk[LSM_MERGE_TILE];
  __shared__ V sv[LSM_MERGE_TILE];
  const uint64_t total = *na_p + *nb_p;
  const uint64_t d0 = uint64_t(blockIdx.x) * LSM_MERGE_TILE;
  if (d0 >= total) return;
  const uint64_t d1 = d0 + LSM_MERGE_TILE < total ? d0 + LSM_MERGE_TILE : total;
  const uint64_t a0 = splits[blockIdx.x], a1 = splits[blockIdx.x + 1];
  const uint64_t b0 = d0 - a0;
  const int la = int(a1 - a0), len = int(d1 - d0), lb = len - la;

  // 1. stage the tile's slice of a, then b's, in shared memory
  for (int i = threadIdx.x; i < len; i += THREADS) {
    if (i < la) {
      sk[i] = a[a0 + i];
      sv[i] = av[a0 + i];
    } else {
      sk[i] = b[b0 + (i - la)];
      sv[i] = bv[b0 + (i - la)];
    }
  }
  __syncthreads();

  // 2. this thread's ITEMS outputs: its diagonal, then a serial merge
  const int diag = threadIdx.x * ITEMS < len ? threadIdx.x * ITEMS : len;
  int ai = int(lsm_merge_path(sk, uint64_t(la), sk + la, uint64_t(lb), uint64_t(diag)));
  int bi = diag - ai;
  K rk[ITEMS];
  V rv[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (diag + i >= len) break;
    const bool take_a = bi >= lb || (ai < la && !(sk[la + bi] < sk[ai]));
    const int src = take_a ? ai++ : la + bi++;
    rk[i] = sk[src];
    rv[i] = sv[src];
  }
  __syncthreads();

  // 3. the tile in order through shared memory, written coalesced
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (diag + i >= len) break;
    sk[diag + i] = rk[i];
    sv[diag + i] = rv[i];
  }
  __syncthreads();
  for (int i = threadIdx.x; i < len; i += THREADS) {
    out[d0 + i] = sk[i];
    out_v[d0 + i] = sv[i];
  }
}

}  // namespace detail
}  // namespace msplit
