// The split of records into m <= RECORDS_SPLIT_MAX_BUCKETS buckets by a bucket id per record, in
// three kernels and without a separate gather (Patidar and Narayanan, "Scalable Split and Gather
// Primitives for the GPU", 2009, section 3, with the records moved as in section 4):
//   1. count: each tile of TILE records counts its bucket ids (a shared histogram) into a matrix
//      counts[b][tile], bucket-major; an id at or beyond m is recorded (MSPLIT_SITE_BUCKET_ID).
//   2. row scan: block b turns row b into its exclusive prefix (where tile t's records of bucket b
//      start within the bucket) and writes the row's total.
//   3. scatter: each tile scans the row totals (the bucket starts; block 0 writes the offsets),
//      ranks its records stably by bucket, round by round in position order (a warp ranks its 32
//      with __match_any_sync, warps in order through shared per-warp counts), and moves them:
//      records are read in order and written in runs of equal buckets, words of V bytes by
//      consecutive threads (move.cuh); the permutation is written beside them.
// Bytes per record: 8 of ids (two reads), R read and R written, 4 more with the permutation, and
// 4 m per tile of counts. Invariants: n < 2^32; ids of invalid (tail) items never reach shared
// memory; a call with an id out of range writes nothing after the count (the scatter gives up).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/detail/block_scan.cuh"
#include "msplit/detail/records/move.cuh"
#include "msplit/detail/records/tuning.h"
#include "msplit/detail/warp.cuh"
#include "msplit/error_record.cuh"

namespace msplit {
namespace detail {

constexpr int SPLIT_THREADS = tuning::RECORDS_SPLIT_THREADS;
constexpr int SPLIT_ITEMS = tuning::RECORDS_SPLIT_ITEMS;
constexpr uint32_t SPLIT_TILE = uint32_t(SPLIT_THREADS) * SPLIT_ITEMS;
constexpr int SPLIT_WARPS = SPLIT_THREADS / WARP_SIZE;
constexpr uint32_t SPLIT_MAX_BUCKETS = tuning::RECORDS_SPLIT_MAX_BUCKETS;
static_assert(SPLIT_MAX_BUCKETS <= uint32_t(SPLIT_THREADS), "one thread per bucket scans the bucket starts");

struct split_tile_args {
  const void *in;          // records (NULL: the permutation only)
  const uint32_t *ids;     // bucket ids
  void *out;               // records in split order, or NULL
  uint32_t *perm;          // input position of each output record, or NULL
  size_t *offsets;         // m + 1 bucket starts, or NULL
  uint32_t *counts;        // m x tiles, bucket-major
  uint32_t *row_totals;    // m
  uint32_t n, m, tiles;
  uint32_t words;          // words of V bytes per record
  fast_divider per_record;  // divides by words
  error_record *record;
};

__global__ void __launch_bounds__(SPLIT_THREADS) split_count_kernel(split_tile_args a) {
  __shared__ uint32_t hist[SPLIT_MAX_BUCKETS];
  for (uint32_t b = threadIdx.x; b < a.m; b += SPLIT_THREADS) hist[b] = 0;
  __syncthreads();
  const uint32_t tile0 = blockIdx.x * SPLIT_TILE;
#pragma unroll
  for (int k = 0; k < SPLIT_ITEMS; ++k) {
    const uint32_t p = tile0 + uint32_t(k) * SPLIT_THREADS + threadIdx.x;
    if (p >= a.n) break;
    uint32_t id = __ldg(a.ids + p);
    if (id >= a.m) {
      record_error(a.record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_RECORDS, MSPLIT_SITE_BUCKET_ID, p, id, a.m);
      id = a.m - 1;  // counted somewhere; the scatter will not run
    }
    atomicAdd(&hist[id], 1u);
  }
  __syncthreads();
  for (uint32_t b = threadIdx.x; b < a.m; b += SPLIT_THREADS) a.counts[size_t(b) * a.tiles + blockIdx.x] = hist[b];
}

// Block b: row b of the counts -> its exclusive prefix, in chunks of one value per thread.
__global__ void __launch_bounds__(SPLIT_THREADS) split_row_scan_kernel(split_tile_args a) {
  __shared__ uint32_t warp_sums[WARP_SIZE];
  __shared__ uint32_t carry;
  uint32_t *row = a.counts + size_t(blockIdx.x) * a.tiles;
  if (threadIdx.x == 0) carry = 0;
  __syncthreads();
  for (uint32_t base = 0; base < a.tiles; base += SPLIT_THREADS) {
    const uint32_t i = base + threadIdx.x;
    const uint32_t v = i < a.tiles ? row[i] : 0;
    const uint32_t ex = block_exclusive_scan<SPLIT_THREADS>(v, warp_sums);
    const uint32_t c = carry;
    if (i < a.tiles) row[i] = c + ex;
    __syncthreads();  // every thread has read carry and warp_sums
    if (threadIdx.x == SPLIT_THREADS - 1) carry = c + ex + v;
    __syncthreads();
  }
  if (threadIdx.x == 0) a.row_totals[blockIdx.x] = carry;
}

template <int V>
__global__ void __launch_bounds__(SPLIT_THREADS) split_scatter_kernel(split_tile_args a) {
  __shared__ uint32_t warp_sums[WARP_SIZE];
  __shared__ uint32_t next[SPLIT_MAX_BUCKETS];                 // the next output position of each bucket
  __shared__ uint32_t warp_counts[SPLIT_WARPS][SPLIT_MAX_BUCKETS];  // one round's records per warp and bucket
  __shared__ uint32_t dest[SPLIT_TILE];                        // the output position of each tile record
  if (error_raised(a.record)) return;  // an id out of range: write nothing
  const unsigned t = threadIdx.x, warp = t / WARP_SIZE;
  const uint32_t tile0 = blockIdx.x * SPLIT_TILE;
  const uint32_t records = a.n - tile0 < SPLIT_TILE ? a.n - tile0 : SPLIT_TILE;

  // 1. bucket starts (a scan of the row totals), plus this tile's start within each bucket
  const uint32_t total = t < a.m ? a.row_totals[t] : 0;
  const uint32_t start = block_exclusive_scan<SPLIT_THREADS>(total, warp_sums);
  if (t < a.m) {
    next[t] = start + a.counts[size_t(t) * a.tiles + blockIdx.x];
    if (blockIdx.x == 0 && a.offsets) a.offsets[t] = start;
  }
  if (blockIdx.x == 0 && a.offsets && t == 0) a.offsets[a.m] = a.n;
  for (uint32_t i = t; i < uint32_t(SPLIT_WARPS) * SPLIT_MAX_BUCKETS; i += SPLIT_THREADS) (&warp_counts[0][0])[i] = 0;
  uint32_t id[SPLIT_ITEMS];
#pragma unroll
  for (int k = 0; k < SPLIT_ITEMS; ++k) {
    const uint32_t p = uint32_t(k) * SPLIT_THREADS + t;
    id[k] = p < records ? min(__ldg(a.ids + tile0 + p), a.m - 1) : ~0u;
  }
  __syncthreads();

  // 2. stable ranks, round k holding tile positions k x THREADS + t (rounds in position order)
#pragma unroll
  for (int k = 0; k < SPLIT_ITEMS; ++k) {
    const bool valid = id[k] != ~0u;
    const unsigned peers = __match_any_sync(FULL_WARP_MASK, id[k]);
    const uint32_t rank = __popc(peers & lanemask_lt());
    if (valid && rank == 0) warp_counts[warp][id[k]] = __popc(peers);
    __syncthreads();
    if (valid) {
      uint32_t d = next[id[k]] + rank;
      for (unsigned w = 0; w < warp; ++w) d += warp_counts[w][id[k]];
      dest[uint32_t(k) * SPLIT_THREADS + t] = d;
    }
    __syncthreads();
    for (uint32_t b = t; b < a.m; b += SPLIT_THREADS) {
      uint32_t round = 0;
      for (int w = 0; w < SPLIT_WARPS; ++w) {
        round += warp_counts[w][b];
        warp_counts[w][b] = 0;
      }
      next[b] += round;
    }
    __syncthreads();
  }

  // 3. the permutation, then the records: read in order, written in runs of equal buckets
  if (a.perm)
    for (uint32_t r = t; r < records; r += SPLIT_THREADS) a.perm[dest[r]] = tile0 + r;
  if (a.out)
    move_tile_words<V, SPLIT_THREADS>(a.in, a.out, records * a.words, a.words, a.per_record,
                                      [&](uint32_t r, uint32_t, size_t &src, size_t &dst) {
                                        src = size_t(tile0) + r;
                                        dst = dest[r];
                                        return true;
                                      });
}

}  // namespace detail
}  // namespace msplit
