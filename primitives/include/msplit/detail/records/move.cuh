// The collective move of records (Patidar and Narayanan, "Scalable Split and Gather Primitives for
// the GPU", 2009, section 4): gather (out[i] = in[index[i]]) and scatter (out[index[i]] = in[i]) of
// records of any size, each record moved by consecutive threads with one vector access each.
//
// A record of R bytes is R / V words of V bytes (V = 16, 8, 4 or 1, the widest that divides R and
// the alignment of both arrays, chosen on the host). A block's tile is a run of whole records;
// word j of the tile belongs to record j / words, so the threads of a warp read and write whole
// records with V-byte accesses: a record's bytes are one contiguous run of full sectors, read once,
// whatever the index order (the paper's collective approach, which a thread-per-record copy lacks
// when records are wider than a vector). Each thread loads ITEMS words before it stores any, to
// keep enough random loads in flight.
//
// Invariants: n and every index are below 2^32; a tile holds at most RECORDS_TILE_WORDS words or
// one record, so tile word numbers fit 32 bits. An index at or beyond `bound` is recorded in the
// error record (MSPLIT_SITE_RECORD_INDEX) and its record is not moved; the others are.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/detail/records/tuning.h"
#include "msplit/error_record.cuh"

namespace msplit {
namespace detail {

// x / d by a multiply and a shift (Granlund and Montgomery): exact for x < 2^31 and 1 <= d < 2^31.
// A division per word would cost more issue slots than the word's memory access.
struct fast_divider {
  uint32_t mul;
  uint32_t shift;

  __host__ __device__ static fast_divider make(uint32_t d) {
    uint32_t l = 0;
    while ((uint64_t(1) << l) < d) ++l;
    const uint64_t m = ((uint64_t(1) << 32) * ((uint64_t(1) << l) - d)) / d + 1;
    return fast_divider{uint32_t(m), l};
  }
  __host__ __device__ uint32_t div(uint32_t x) const {
#ifdef __CUDA_ARCH__
    const uint32_t t = __umulhi(x, mul);
#else
    const uint32_t t = uint32_t((uint64_t(x) * mul) >> 32);
#endif
    return (t + x) >> shift;
  }
};

// The vector word of V bytes.
template <int V> struct record_word;
template <> struct record_word<1> { using type = unsigned char; };
template <> struct record_word<4> { using type = uint32_t; };
template <> struct record_word<8> { using type = uint2; };
template <> struct record_word<16> { using type = uint4; };

struct records_move_args {
  const void *in;
  void *out;
  const uint32_t *index;
  uint32_t n;             // indexes (records moved)
  uint64_t bound;         // records of the indexed array: in for a gather, out for a scatter
  uint32_t words;         // words of V bytes per record
  uint32_t tile_records;  // records per block
  fast_divider per_record;  // divides by words
  bool scatter;
  bool stop_on_error;  // move nothing if an earlier kernel of the call recorded an error
  error_record *record;
};

// Moves the `total` words of a tile of records with the block's threads: word j is word
// j % words of tile record r = j / words, loaded from record `src` and stored to record `dst` of
// the arrays as locate(r, src, dst) gives them (false: not moved). Each thread loads ITEMS words
// before it stores any, to keep enough loads in flight.
template <int V, int THREADS, typename Locate>
__device__ __forceinline__ void move_tile_words(const void *in_, void *out_, uint32_t total, uint32_t words,
                                                fast_divider per_record, Locate locate) {
  using W = typename record_word<V>::type;
  constexpr int ITEMS = tuning::RECORDS_MOVE_ITEMS;
  constexpr size_t NONE = ~size_t(0);
  const W *in = static_cast<const W *>(in_);
  W *out = static_cast<W *>(out_);
  for (uint32_t base = threadIdx.x; base < total; base += THREADS * ITEMS) {
    W v[ITEMS];
    size_t dst[ITEMS];
    // 1. load
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      dst[k] = NONE;
      const uint32_t j = base + uint32_t(k) * THREADS;
      if (j >= total) continue;
      const uint32_t r = per_record.div(j);
      const uint32_t w = j - r * words;
      size_t src_record, dst_record;
      if (!locate(r, w, src_record, dst_record)) continue;
      dst[k] = dst_record * words + w;
      v[k] = __ldg(in + src_record * words + w);
    }
    // 2. store
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
      if (dst[k] != NONE) out[dst[k]] = v[k];
  }
}

template <int V>
__global__ void __launch_bounds__(tuning::RECORDS_MOVE_THREADS) records_move_kernel(records_move_args a) {
  if (a.stop_on_error && error_raised(a.record)) return;
  const uint32_t r0 = blockIdx.x * a.tile_records;
  const uint32_t records = a.n - r0 < a.tile_records ? a.n - r0 : a.tile_records;
  move_tile_words<V, tuning::RECORDS_MOVE_THREADS>(
      a.in, a.out, records * a.words, a.words, a.per_record,
      [&](uint32_t r, uint32_t w, size_t &src, size_t &dst) {
        const uint32_t i = r0 + r;
        const uint32_t x = __ldg(a.index + i);
        if (uint64_t(x) >= a.bound) {
          if (w == 0)
            record_error(a.record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_RECORDS, MSPLIT_SITE_RECORD_INDEX,
                         i, x, a.bound, a.scatter ? 1 : 0);
          return false;
        }
        src = a.scatter ? i : x;
        dst = a.scatter ? x : i;
        return true;
      });
}

}  // namespace detail
}  // namespace msplit
