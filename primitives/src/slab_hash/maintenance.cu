// msplit slab hash, the C API's table management: planning, storage, init, flush, the counters.
// The kernels here are the ones that the bulk operations do not share with device references:
// the bitmap set-up, flush (compaction) and the pool count.
#include <cuda_runtime.h>

#include <cmath>

#include "msplit/detail/error.cuh"
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/slab_hash.h"
#include "msplit/slab_hash_tuning.h"

namespace msplit {
namespace detail {
namespace slab {
namespace {

// Clears the pool's bitmap; the bits of slabs past the capacity (the last block's tail) are set
// so that they are never handed out.
__global__ void init_bitmap_kernel(view v) {
  const size_t words = size_t(v.num_blocks) * WARP;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x) {
    const uint64_t first = i * 32;  // the first slab of this word
    uint32_t word = 0;
    for (int b = 0; b < 32; ++b)
      if (first + b >= v.capacity) word |= 1u << b;
    v.bitmap[i] = word;
  }
}

// Writes slab s's data lanes from a warp's buffer of `count` entries (the rest empty); its next
// index becomes `next` unless keep_next.
template <bool HAS_VALUES>
__device__ void write_slab(const view &v, uint32_t s, const uint32_t *buf_k, const uint32_t *buf_v,
                           int count, bool keep_next, uint32_t next) {
  const int lane = lane_id();
  uint32_t x = EMPTY_KEY;
  if (lane < DATA_LANES) {
    const int e = HAS_VALUES ? lane / 2 : lane;
    if (e < count) x = HAS_VALUES && (lane & 1) ? buf_v[e] : buf_k[e];
  } else if (lane == NEXT_LANE) {
    x = next;
  }
  if (lane != NEXT_LANE || !keep_next) store_word(word_ptr(v, s, lane), x);
}

// Flush: each warp streams through one chain, packing its live entries into a buffer in shared
// memory and writing them back, a full slab at a time, into the chain's own slabs from the head
// on. The slab written is never ahead of the slab read (each slab read gives at most one slab of
// entries), so nothing is overwritten before it is read. The slabs left over are cleared to 0xFF
// and returned to the pool, and the last slab kept ends the chain.
template <bool HAS_VALUES, int THREADS>
__global__ void __launch_bounds__(THREADS) flush_kernel(view v) {
  constexpr int E = entries_per_slab<HAS_VALUES>();
  constexpr uint32_t KEY_LANES = key_lanes<HAS_VALUES>();
  __shared__ uint32_t keys_sh[THREADS / WARP][2 * E];
  __shared__ uint32_t vals_sh[THREADS / WARP][HAS_VALUES ? 2 * E : 1];
  const int lane = lane_id();
  uint32_t *buf_k = keys_sh[threadIdx.x / WARP];
  uint32_t *buf_v = vals_sh[threadIdx.x / WARP];
  const bool key_lane = (KEY_LANES >> lane) & 1u;
  const uint32_t warps = gridDim.x * (THREADS / WARP);
  for (uint32_t b = (blockIdx.x * THREADS + threadIdx.x) / WARP; b < v.num_buckets; b += warps) {
    uint32_t rd = b, wr = b, prev_wr = NULL_SLAB;
    int count = 0;
    while (true) {
      // 1. append the live entries of slab rd to the buffer
      const uint32_t w = load_word(word_ptr(v, rd, lane));
      const uint32_t val = __shfl_down_sync(FULL_MASK, w, 1);
      const uint32_t next = __shfl_sync(FULL_MASK, w, NEXT_LANE);
      const uint32_t live = __ballot_sync(FULL_MASK, key_lane && w != EMPTY_KEY && w != ERASED_KEY);
      if ((live >> lane) & 1u) {
        const int at = count + __popc(live & ((1u << lane) - 1u));
        buf_k[at] = w;
        if constexpr (HAS_VALUES) buf_v[at] = val;
      }
      count += __popc(live);
      __syncwarp();
      // 2. a full slab's worth goes to slab wr, which moves on along the chain
      if (count >= E) {
        write_slab<HAS_VALUES>(v, wr, buf_k, buf_v, E, true, 0);
        const int rest = count - E;
        uint32_t k = 0, x = 0;
        if (lane < rest) {
          k = buf_k[E + lane];
          if constexpr (HAS_VALUES) x = buf_v[E + lane];
        }
        __syncwarp();
        if (lane < rest) {
          buf_k[lane] = k;
          if constexpr (HAS_VALUES) buf_v[lane] = x;
        }
        __syncwarp();
        count = rest;
        prev_wr = wr;
        wr = __shfl_sync(FULL_MASK, load_word(word_ptr(v, wr, lane)), NEXT_LANE);
      }
      if (next == NULL_SLAB) break;
      rd = next;
    }
    // 3. the remainder ends the chain at wr (or, if nothing remains, the chain ends before wr)
    uint32_t tail;
    if (count > 0 || wr == b) {
      tail = __shfl_sync(FULL_MASK, load_word(word_ptr(v, wr, lane)), NEXT_LANE);
      write_slab<HAS_VALUES>(v, wr, buf_k, buf_v, count, false, NULL_SLAB);
    } else {
      tail = wr;
      if (lane == 0) store_word(word_ptr(v, prev_wr, NEXT_LANE), NULL_SLAB);
    }
    // 4. clear and free the slabs past the end
    while (tail != NULL_SLAB) {
      const uint32_t after = __shfl_sync(FULL_MASK, load_word(word_ptr(v, tail, lane)), NEXT_LANE);
      store_word(word_ptr(v, tail, lane), EMPTY_KEY);
      if (lane == 0) free_slab(v, tail);
      tail = after;
    }
    __syncwarp();
  }
}

// Adds the set bits of the pool's bitmap (slabs in use, and the unusable tail bits) to *out.
__global__ void count_pool_kernel(view v, unsigned long long *out) {
  const size_t words = size_t(v.num_blocks) * WARP;
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words;
       i += size_t(gridDim.x) * blockDim.x)
    c += __popc(v.bitmap[i]);
  for (int o = WARP / 2; o > 0; o /= 2) c += __shfl_xor_sync(FULL_MASK, c, o);
  if (lane_id() == 0 && c) atomicAdd(out, c);
}

}  // namespace
}  // namespace slab
}  // namespace detail
}  // namespace msplit

using msplit::detail::set_error;
namespace sl = msplit::detail::slab;

namespace {

// Slabs of a table are indexed by 32 bits with all ones reserved (NULL_SLAB); 2^31 keeps every
// index and the 64-bit word offsets well clear of it.
constexpr uint64_t MAX_SLABS = 1ull << 31;

msplit_status check_shape(const char *fn, uint32_t num_buckets, uint32_t capacity) {
  if (num_buckets == 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: num_buckets is 0 (need at least 1)", fn);
  if (uint64_t(num_buckets) + capacity > MAX_SLABS)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: num_buckets %u + capacity_slabs %u is more than 2^31 slabs", fn,
                     num_buckets, capacity);
  return MSPLIT_SUCCESS;
}

msplit_status check_table(const char *fn, const msplit_slab_hash *t) {
  if (!t) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: table is NULL", fn);
  if (!t->d_storage || t->num_buckets == 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: the table is not initialised (msplit_slab_hash_init)", fn);
  return MSPLIT_SUCCESS;
}

unsigned grid_for(size_t items, int threads) {
  constexpr size_t MAX_GRID = 1u << 16;  // grid-stride loops cover the rest
  const size_t g = (items + threads - 1) / threads;
  return unsigned(g < 1 ? 1 : g > MAX_GRID ? MAX_GRID : g);
}

// Expected slabs of a bucket with Poisson(lambda) entries, E slots per slab (at least the head).
double expected_slabs(double lambda, int E) {
  double p = std::exp(-lambda), sum = 0, tail = 1;  // P(X = x), and P(X >= x) before x
  for (int x = 0; x < 100000 && tail > 1e-12; ++x) {
    sum += p * (x == 0 ? 1 : (x + E - 1) / E);
    tail -= p;
    p *= lambda / (x + 1);
  }
  return sum;
}

}  // namespace

extern "C" msplit_status msplit_slab_hash_plan(size_t expected_keys, double utilization,
                                               int has_values, uint32_t *num_buckets,
                                               uint32_t *expected_pool_slabs) {
  constexpr const char *FN = "msplit_slab_hash_plan";
  if (!num_buckets || !expected_pool_slabs)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: num_buckets or expected_pool_slabs is NULL", FN);
  if (!(utilization > 0 && utilization < 1))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: utilization %g is not in (0, 1)", FN,
                     utilization);
  const int E = has_values ? sl::entries_per_slab<true>() : sl::entries_per_slab<false>();
  const double entry_fraction = 1.0 / (sl::WARP / (has_values ? 2 : 1));  // of a slab's bytes
  // utilization(lambda) = lambda x entry_fraction / expected_slabs(lambda) rises with the mean
  // load lambda per bucket (with ripples); take the smallest lambda that reaches the target.
  double lambda = 0.05, best = 0, best_lambda = lambda;
  for (; lambda < 400; lambda *= 1.02) {
    const double u = lambda * entry_fraction / expected_slabs(lambda, E);
    if (u > best) best = u, best_lambda = lambda;
    if (u >= utilization) break;
  }
  if (lambda >= 400) lambda = best_lambda;  // unreachable target: the best one
  const double keys = double(expected_keys > 0 ? expected_keys : 1);
  const double buckets = std::ceil(keys / lambda);
  const double pool = buckets * (expected_slabs(keys / buckets, E) - 1);
  if (buckets + pool > double(MAX_SLABS))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: %zu keys need more than 2^31 slabs", FN,
                     expected_keys);
  *num_buckets = uint32_t(buckets);
  *expected_pool_slabs = uint32_t(std::ceil(pool));
  return MSPLIT_SUCCESS;
}

extern "C" msplit_status msplit_slab_hash_storage_bytes(uint32_t num_buckets,
                                                        uint32_t capacity_slabs, int,
                                                        size_t *bytes) {
  constexpr const char *FN = "msplit_slab_hash_storage_bytes";
  if (!bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: bytes is NULL", FN);
  MSPLIT_TRY(check_shape(FN, num_buckets, capacity_slabs));
  *bytes = sl::layout(num_buckets, capacity_slabs).total;
  return MSPLIT_SUCCESS;
}

extern "C" msplit_status msplit_slab_hash_init(msplit_slab_hash *table, void *d_storage,
                                               size_t bytes, uint32_t num_buckets,
                                               uint32_t capacity_slabs, int has_values,
                                               void *stream) {
  constexpr const char *FN = "msplit_slab_hash_init";
  if (!table) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: table is NULL", FN);
  if (!d_storage) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is NULL", FN);
  MSPLIT_TRY(check_shape(FN, num_buckets, capacity_slabs));
  const sl::layout l(num_buckets, capacity_slabs);
  if (bytes < l.total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE,
                     "%s: bytes %zu is less than the %zu the table needs", FN, bytes, l.total);
  if (reinterpret_cast<uintptr_t>(d_storage) % sl::SLAB_BYTES != 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is not 128-byte aligned", FN);
  const msplit_slab_hash t{d_storage, num_buckets, capacity_slabs, has_values ? 1 : 0};
  const sl::view v = sl::make_view(t);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  char *base = static_cast<char *>(d_storage);
  MSPLIT_CUDA_TRY(cudaMemsetAsync(base + l.counters_offset, 0, sl::SLAB_BYTES, s));
  // every slab empty: empty keys and NULL next indices are all ones
  MSPLIT_CUDA_TRY(cudaMemsetAsync(base + l.slabs_offset, 0xFF, l.total - l.slabs_offset, s));
  if (l.num_blocks) {
    constexpr int T = 256;
    sl::init_bitmap_kernel<<<grid_for(size_t(l.num_blocks) * sl::WARP, T), T, 0, s>>>(v);
    MSPLIT_LAUNCH_CHECK();
  }
  *table = t;
  return MSPLIT_SUCCESS;
}

extern "C" msplit_status msplit_slab_hash_flush(const msplit_slab_hash *table, void *stream) {
  MSPLIT_TRY(check_table("msplit_slab_hash_flush", table));
  constexpr int T = msplit::tuning::HASH_FLUSH_THREADS;
  const unsigned grid = grid_for(size_t(table->num_buckets) * sl::WARP, T);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (table->has_values)
    sl::flush_kernel<true, T><<<grid, T, 0, s>>>(sl::make_view(*table));
  else
    sl::flush_kernel<false, T><<<grid, T, 0, s>>>(sl::make_view(*table));
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

namespace {

// The counters and the count of pool slabs in use (synchronises the stream).
msplit_status read_counters(const char *fn, const msplit_slab_hash *table, cudaStream_t s,
                            unsigned long long (&c)[sl::NUM_COUNTERS]) {
  MSPLIT_TRY(check_table(fn, table));
  const sl::view v = sl::make_view(*table);
  MSPLIT_CUDA_TRY(cudaMemsetAsync(v.counters + sl::POOL_USED, 0, sizeof(unsigned long long), s));
  if (v.num_blocks) {
    constexpr int T = 256;
    sl::count_pool_kernel<<<grid_for(size_t(v.num_blocks) * sl::WARP, T), T, 0, s>>>(
        v, v.counters + sl::POOL_USED);
    MSPLIT_LAUNCH_CHECK();
  }
  MSPLIT_CUDA_TRY(cudaMemcpyAsync(c, v.counters, sizeof c, cudaMemcpyDeviceToHost, s));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(s));
  // the tail bits of the last block were set at init and are not slabs
  c[sl::POOL_USED] -= uint64_t(v.num_blocks) * sl::BLOCK_SLABS - v.capacity;
  return MSPLIT_SUCCESS;
}

}  // namespace

extern "C" msplit_status msplit_slab_hash_stats_sync(const msplit_slab_hash *table,
                                                     msplit_slab_hash_stats *stats, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_stats_sync";
  if (!stats) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: stats is NULL", FN);
  unsigned long long c[sl::NUM_COUNTERS];
  MSPLIT_TRY(read_counters(FN, table, static_cast<cudaStream_t>(stream), c));
  stats->size = c[sl::SIZE];
  stats->pool_slabs_used = c[sl::POOL_USED];
  const double entry_bytes = table->has_values ? 8.0 : 4.0;
  stats->utilization = double(c[sl::SIZE]) * entry_bytes /
                       (double(table->num_buckets + c[sl::POOL_USED]) * double(sl::SLAB_BYTES));
  stats->out_of_slabs = c[sl::OUT_OF_SLABS];
  stats->reserved_keys = c[sl::RESERVED];
  return MSPLIT_SUCCESS;
}

extern "C" msplit_status msplit_slab_hash_check_sync(const msplit_slab_hash *table, void *stream) {
  constexpr const char *FN = "msplit_slab_hash";
  unsigned long long c[sl::NUM_COUNTERS];
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  MSPLIT_TRY(read_counters("msplit_slab_hash_check_sync", table, s, c));
  if (c[sl::OUT_OF_SLABS] == 0 && c[sl::RESERVED] == 0) return MSPLIT_SUCCESS;
  const sl::view v = sl::make_view(*table);
  MSPLIT_CUDA_TRY(
      cudaMemsetAsync(v.counters + sl::OUT_OF_SLABS, 0, 2 * sizeof(unsigned long long), s));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(s));
  if (c[sl::OUT_OF_SLABS])
    return set_error(MSPLIT_ERROR_OUT_OF_CAPACITY,
                     "%s: %llu insert(s) found no free slab (capacity_slabs %u is used up); %llu "
                     "operation(s) had a "
                     "reserved key",
                     FN, c[sl::OUT_OF_SLABS], table->capacity_slabs, c[sl::RESERVED]);
  return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                   "%s: %llu operation(s) had a reserved key (0xffffffff or 0xfffffffe)", FN,
                   c[sl::RESERVED]);
}
