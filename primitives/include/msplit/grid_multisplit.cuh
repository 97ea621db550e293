// msplit: stable multisplit by a whole grid, from inside a cooperatively launched kernel.
//
// multisplit_keys (multisplit.cuh) is called from the host: it needs n there and costs a few
// launches. A persistent kernel launched with cudaLaunchCooperativeKernel (a graph search that
// runs as one kernel, for example) knows n only on the device, and has every block running
// already. grid_multisplit_keys splits there, with one grid barrier of its own.
//
// Contract (preconditions; a violation is undefined behaviour, nothing is checked):
//   - the kernel is launched cooperatively; every thread of every block calls it, with the same
//     arguments; blockDim.x == BLOCK_THREADS (tuning::MULTISPLIT_BLOCK_THREADS = 256 unless given);
//   - 1 <= m <= tuning::MULTISPLIT_MAX_FAST_BUCKETS (256), n < 2^32, d_out does not overlap d_in;
//   - temporary storage: `s` in shared memory (sizeof(grid_multisplit_storage<>), 11.1 KB at
//     256 threads; it may share a union with the kernel's other uses) and d_counts,
//     grid_multisplit_count_words(gridDim.x, m) words of global memory with any contents;
//   - d_offsets: NULL, or m + 1 entries: the start of bucket j in d_out, [m] = n;
//   - the bucket functor (bucket.cuh) is called twice per key (count, then place) and must return
//     the same bucket both times; results >= m go to m - 1. A staged functor is called unstaged:
//     it reads its table from global memory.
//   - grid: the kernel's grid barrier, any object whose sync() every thread of every block calls
//     to pass it: cooperative_groups::grid_group, or a kernel's own barrier (one that gives up
//     after a bound, say: it must then end the block, as the call cannot report anything).
// Result: the same as multisplit_keys's: stable, in bucket order. It cannot fail, so it returns
// nothing. Synchronisation: one grid.sync() inside; when a block returns, its own part of d_out is
// written, and block 0's threads see d_offsets (block 0 writes them): work that needs only the
// offsets may follow in block 0 without another grid barrier. Other blocks' writes are visible
// only after a grid.sync() of the caller, which must also come before the next call (that reuses
// d_counts).
//
// Example (examples/grid_multisplit.cu, built and run by CTest, which checks what it prints):
//
//     __global__ void split_by_low_bits(const uint32_t *in, uint32_t *out, uint32_t n, uint32_t *counts,
//                                       size_t *offsets) {
//       __shared__ msplit::grid_multisplit_storage<> storage;
//       cooperative_groups::grid_group grid = cooperative_groups::this_grid();
//       const msplit::bitfield_bucket<uint32_t> low_bits{0, 2};  // bucket = key & 3
//       msplit::grid_multisplit_keys(grid, storage, in, out, n, 4, low_bits, counts, offsets);
//       grid.sync();  // before anyone reads out or offsets
//     }
//
// launched cooperatively on 4 blocks of msplit::tuning::MULTISPLIT_BLOCK_THREADS threads, with
// msplit::grid_multisplit_count_words(4, 4) words of counts, prints
//
//     in:      25 3 17 9 0 30 12 5 21 14
//     out:     0 12 | 25 17 9 5 21 | 30 14 | 3
//     offsets: 0 2 7 9 10
//
// When to use it (measured on an H100): for small inputs inside a persistent
// kernel. At 2^16 keys it takes 16 us against multisplit_keys's 26 (four launches); at 2^28 it
// runs at 55-70 % of multisplit_keys's throughput for m <= 10 and 25-35 % for m = 32..256.
//
// Method (the paper's direct multisplit, with the grid as the set of subproblems):
//   1. block b takes chunk b of the input (chunks of ceil(n / gridDim.x) keys rounded up to
//      whole tiles of BLOCK_THREADS, so a small n keeps few blocks busy) and counts its
//      buckets into d_counts[j * active + b] (active: the number of non-empty chunks);
//   2. grid barrier;
//   3. each busy block reads the whole table: bucket j of its chunk starts at the total of the
//      buckets below j plus bucket j's count in the chunks before it (block 0 also writes
//      d_offsets); it then places its chunk tile by tile, ranking each tile's keys by bucket
//      with warp votes (detail/warp_rank.cuh) and a scan over the tile's warps.
// Cost: the input is read twice and written once, plus m * active words of the table read by
// each busy block (m * gridDim.x^2 words in all: ~2.8 MB for m = 10 on 264 blocks).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <cooperative_groups.h>

#include "msplit/bucket.cuh"
#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/warp.cuh"
#include "msplit/detail/warp_rank.cuh"
#include "msplit/detail/multisplit/tuning.h"

namespace msplit {

// Shared memory of one block (11.1 KB at 256 threads).
template <int BLOCK_THREADS = tuning::MULTISPLIT_BLOCK_THREADS>
struct grid_multisplit_storage {
  static constexpr int WARPS = BLOCK_THREADS / detail::WARP_SIZE;
  uint32_t warp_counts[WARPS][tuning::MULTISPLIT_MAX_FAST_BUCKETS];  // a tile's counts per warp, then its warps' starts
  uint32_t dest[tuning::MULTISPLIT_MAX_FAST_BUCKETS];  // the block's histogram, then where its next key of bucket j goes
  uint32_t pre[tuning::MULTISPLIT_MAX_FAST_BUCKETS];   // bucket j in the chunks before this block's
  uint32_t tot[tuning::MULTISPLIT_MAX_FAST_BUCKETS];   // bucket j in all chunks
  uint32_t warp_sums[32];
};

// Words of global scratch (d_counts) for a grid of grid_blocks blocks.
__host__ __device__ constexpr size_t grid_multisplit_count_words(uint32_t grid_blocks, uint32_t m) {
  return size_t(grid_blocks) * m;
}

namespace detail {

// How a warp finds the peers of a key for m buckets (choose_peer_method, on the device).
__device__ __forceinline__ peer_method grid_peer_method(uint32_t m) {
  if (m > tuning::MULTISPLIT_BALLOT_MAX_BUCKETS) return peer_method{true, 0};
  return peer_method{false, m <= 1 ? 0 : 32 - __clz(int(m - 1))};
}

}  // namespace detail

template <int BLOCK_THREADS = tuning::MULTISPLIT_BLOCK_THREADS, typename Grid, typename Key, typename BucketOp>
__device__ void grid_multisplit_keys(Grid &grid,
                                     grid_multisplit_storage<BLOCK_THREADS> &s, const Key *d_in, Key *d_out,
                                     uint32_t n, uint32_t m, BucketOp op, uint32_t *d_counts,
                                     size_t *d_offsets) {
  using namespace detail;
  static_assert(BLOCK_THREADS % WARP_SIZE == 0 && BLOCK_THREADS >= int(tuning::MULTISPLIT_MAX_FAST_BUCKETS),
                "grid_multisplit_keys scans the buckets with one thread each");
  constexpr uint32_t WARPS = BLOCK_THREADS / WARP_SIZE;
  const uint32_t tid = threadIdx.x, lane = tid % WARP_SIZE, warp = tid / WARP_SIZE;
  const uint32_t b = blockIdx.x, G = gridDim.x;
  if (n == 0) {
    if (d_offsets && b == 0)
      for (uint32_t j = tid; j <= m; j += BLOCK_THREADS) d_offsets[j] = 0;
    return;
  }
  const uint64_t per = (uint64_t(n) + G - 1) / G;
  const uint64_t chunk = (per + BLOCK_THREADS - 1) / BLOCK_THREADS * BLOCK_THREADS;
  const uint32_t active = uint32_t((n + chunk - 1) / chunk);
  const uint64_t begin = b < active ? b * chunk : 0;
  const uint64_t end = b < active ? (n - begin < chunk ? n : begin + chunk) : 0;
  const peer_method pm = grid_peer_method(m);

  // 1. count the chunk's buckets (one shared atomic per group of peers)
  if (b < active) {
    for (uint32_t j = tid; j < m; j += BLOCK_THREADS) s.dest[j] = 0;
    __syncthreads();
    for (uint64_t i0 = begin; i0 < end; i0 += BLOCK_THREADS) {
      const uint64_t i = i0 + tid;
      const bool valid = i < end;
      const uint32_t bucket = valid ? clamped_bucket(op, d_in[i], m) : 0;
      const unsigned peers = warp_peers(bucket, pm, __ballot_sync(FULL_WARP_MASK, valid));
      if (valid && lane == uint32_t(__ffs(peers) - 1)) atomicAdd(&s.dest[bucket], uint32_t(__popc(peers)));
    }
    __syncthreads();
    for (uint32_t j = tid; j < m; j += BLOCK_THREADS) d_counts[size_t(j) * active + b] = s.dest[j];
  }
  grid.sync();
  if (b >= active) return;

  // 2. where the chunk's buckets start: totals and the counts of earlier chunks, a warp per
  //    bucket, then a scan of the totals
  for (uint32_t j = warp; j < m; j += WARPS) {
    uint32_t tot = 0, pre = 0;
    const volatile uint32_t *row = d_counts + size_t(j) * active;  // written by other blocks
    for (uint32_t k = lane; k < active; k += WARP_SIZE) {
      const uint32_t c = row[k];
      tot += c;
      if (k < b) pre += c;
    }
    for (int off = WARP_SIZE / 2; off > 0; off >>= 1) {
      tot += __shfl_xor_sync(FULL_WARP_MASK, tot, off);
      pre += __shfl_xor_sync(FULL_WARP_MASK, pre, off);
    }
    if (lane == 0) {
      s.tot[j] = tot;
      s.pre[j] = pre;
    }
  }
  __syncthreads();
  {
    const uint32_t t = tid < m ? s.tot[tid] : 0;
    const uint32_t start = block_exclusive_scan<BLOCK_THREADS>(t, s.warp_sums);
    if (tid < m) {
      s.dest[tid] = start + s.pre[tid];
      if (d_offsets && b == 0) d_offsets[tid] = start;
    }
    if (d_offsets && b == 0 && tid == 0) d_offsets[m] = n;
  }
  __syncthreads();

  // 3. place the chunk, one tile at a time: rank within the warp, then over the tile's warps
  for (uint64_t i0 = begin; i0 < end; i0 += BLOCK_THREADS) {
    const uint64_t i = i0 + tid;
    const bool valid = i < end;
    Key key{};
    uint32_t bucket = 0;
    if (valid) {
      key = d_in[i];
      bucket = clamped_bucket(op, key, m);
    }
    uint32_t *wc = s.warp_counts[warp];
    for (uint32_t j = lane; j < m; j += WARP_SIZE) wc[j] = 0;
    __syncwarp();
    const uint32_t rank = warp_rank_step(bucket, valid, __ballot_sync(FULL_WARP_MASK, valid), pm, wc);
    __syncthreads();
    for (uint32_t j = tid; j < m; j += BLOCK_THREADS) {
      uint32_t run = s.dest[j];
      for (uint32_t w = 0; w < WARPS; ++w) {
        const uint32_t c = s.warp_counts[w][j];
        s.warp_counts[w][j] = run;
        run += c;
      }
      s.dest[j] = run;
    }
    __syncthreads();
    if (valid) d_out[wc[bucket] + rank] = key;
    __syncthreads();
  }
}

}  // namespace msplit
