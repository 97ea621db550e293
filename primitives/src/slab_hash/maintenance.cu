// msplit slab hash, the C API's table management: planning, storage, init, flush, the counters.
// The kernels here are the ones that the bulk operations do not share with device references:
// the bitmap set-up, flush (compaction) and the pool count.
#include <cuda_runtime.h>

#include <cmath>

#include "msplit/detail/error.cuh"
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/detail/slab_hash/bulk.cuh"
#include "msplit/slab_hash.h"
#include "msplit/detail/slab_hash/tuning.h"

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

// Writes slab s's data lanes from a warp's buffer of `count` entries (whole entries, STRIDE
// words each; the rest empty, all ones); its next index becomes `next` unless keep_next.
template <class F>
__device__ void write_slab(const view &v, uint32_t s, const uint32_t *buf, int count,
                           bool keep_next, uint32_t next) {
  const int lane = lane_id();
  uint32_t x = ~0u;
  if (lane < count * F::STRIDE)
    x = buf[lane];
  else if (lane == NEXT_LANE)
    x = next;
  if (lane != NEXT_LANE || !keep_next) store_word(word_ptr(v, s, lane), x);
}

// Flush: each warp streams through one chain, packing its live entries into a buffer in shared
// memory and writing them back, a full slab at a time, into the chain's own slabs from the head
// on. The slab written is never ahead of the slab read (each slab read gives at most one slab of
// entries), so nothing is overwritten before it is read. The slabs left over are cleared to 0xFF
// and returned to the pool, and the last slab kept ends the chain. A chain longer than the pool (a
// cycle: a corrupted table) is left as it is, counted and recorded as a give-up.
template <class F, int THREADS>
__global__ void __launch_bounds__(THREADS) flush_kernel(view v) {
  constexpr int E = F::ENTRIES, S = F::STRIDE;
  __shared__ uint32_t buf_sh[THREADS / WARP][2 * E * S];
  const int lane = lane_id();
  uint32_t *buf = buf_sh[threadIdx.x / WARP];
  const uint32_t warps = gridDim.x * (THREADS / WARP);
  for (uint32_t b = (blockIdx.x * THREADS + threadIdx.x) / WARP; b < v.num_buckets; b += warps) {
    uint32_t rd = b, wr = b, prev_wr = NULL_SLAB, hops = 0;
    int count = 0;
    bool cyclic = false;
    while (true) {
      // 1. append the live entries of slab rd to the buffer
      const uint32_t w = load_word(word_ptr(v, rd, lane));
      const uint32_t next = __shfl_sync(FULL_MASK, w, NEXT_LANE);
      const uint32_t live =
          F::KEY_LANES & ~lanes_holding<F>(w, F::EMPTY, lane) & ~lanes_holding<F>(w, F::ERASED, lane);
      // each word of a live entry goes to its place in the buffer
      const int entry = lane - lane % S;
      if (lane < E * S && ((live >> entry) & 1u))
        buf[(count + __popc(live & ((1u << entry) - 1u))) * S + lane - entry] = w;
      count += __popc(live);
      __syncwarp();
      // 2. a full slab's worth goes to slab wr, which moves on along the chain
      if (count >= E) {
        write_slab<F>(v, wr, buf, E, true, 0);
        const int rest = (count - E) * S;  // words, fewer than a slab's data lanes
        uint32_t x = 0;
        if (lane < rest) x = buf[E * S + lane];
        __syncwarp();
        if (lane < rest) buf[lane] = x;
        __syncwarp();
        count -= E;
        prev_wr = wr;
        wr = __shfl_sync(FULL_MASK, load_word(word_ptr(v, wr, lane)), NEXT_LANE);
      }
      if (next == NULL_SLAB) break;
      if (++hops > v.capacity + 1) {
        cyclic = true;
        break;
      }
      rd = next;
    }
    if (cyclic) {
      if (lane == 0) {
        atomicAdd(v.counters + GAVE_UP, 1ull);
        record_give_up(v, MSPLIT_SITE_HASH_CHAIN, b, hops);
      }
      continue;
    }
    // 3. the remainder ends the chain at wr (or, if nothing remains, the chain ends before wr)
    uint32_t tail;
    if (count > 0 || wr == b) {
      tail = __shfl_sync(FULL_MASK, load_word(word_ptr(v, wr, lane)), NEXT_LANE);
      write_slab<F>(v, wr, buf, count, false, NULL_SLAB);
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

// Calls f(format<Key, Value>{}) for a table's key and value types; MSPLIT_ERROR_UNSUPPORTED for
// types that no format has.
template <class Fn>
msplit_status with_format(const char *fn, msplit_type key, msplit_type value, Fn f) {
  const auto by_value = [&](auto key_tag) {
    using K = decltype(key_tag);
    switch (value) {
      case MSPLIT_TYPE_NONE: return f(sl::format<K, void>{});
      case MSPLIT_TYPE_U32: return f(sl::format<K, uint32_t>{});
      case MSPLIT_TYPE_U64: return f(sl::format<K, uint64_t>{});
      default:
        return set_error(MSPLIT_ERROR_UNSUPPORTED,
                         "%s: value_type %d is not MSPLIT_TYPE_NONE, _U32 or _U64", fn, int(value));
    }
  };
  if (key == MSPLIT_TYPE_U32) return by_value(uint32_t{});
  if (key == MSPLIT_TYPE_U64) return by_value(uint64_t{});
  return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: key_type %d is not MSPLIT_TYPE_U32 or _U64", fn,
                   int(key));
}

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
                                               msplit_type key_type, msplit_type value_type,
                                               uint32_t *num_buckets,
                                               uint32_t *expected_pool_slabs) {
  constexpr const char *FN = "msplit_slab_hash_plan";
  int E = 0;
  double entry_fraction = 0;  // of a slab's bytes
  MSPLIT_TRY(with_format(FN, key_type, value_type, [&](auto f) {
    using F = decltype(f);
    E = F::ENTRIES;
    entry_fraction = double(F::ENTRY_BYTES) / double(sl::SLAB_BYTES);
    return MSPLIT_SUCCESS;
  }));
  if (!num_buckets || !expected_pool_slabs)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: num_buckets or expected_pool_slabs is NULL", FN);
  if (!(utilization > 0 && utilization < 1))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: utilization %g is not in (0, 1)", FN,
                     utilization);
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
                                                        uint32_t capacity_slabs, size_t *bytes) {
  constexpr const char *FN = "msplit_slab_hash_storage_bytes";
  if (!bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: bytes is NULL", FN);
  MSPLIT_TRY(check_shape(FN, num_buckets, capacity_slabs));
  *bytes = sl::layout(num_buckets, capacity_slabs).total;
  return MSPLIT_SUCCESS;
}

extern "C" msplit_status msplit_slab_hash_init(msplit_slab_hash *table, void *d_storage,
                                               size_t bytes, uint32_t num_buckets,
                                               uint32_t capacity_slabs, msplit_type key_type,
                                               msplit_type value_type, void *stream) {
  constexpr const char *FN = "msplit_slab_hash_init";
  int stride = 0;
  MSPLIT_TRY(with_format(FN, key_type, value_type, [&](auto f) {
    stride = decltype(f)::STRIDE;
    return MSPLIT_SUCCESS;
  }));
  if (!table) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: table is NULL", FN);
  if (!d_storage) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is NULL", FN);
  MSPLIT_TRY(check_shape(FN, num_buckets, capacity_slabs));
  const sl::layout l(num_buckets, capacity_slabs);
  if (bytes < l.total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE,
                     "%s: bytes %zu is less than the %zu the table needs", FN, bytes, l.total);
  if (reinterpret_cast<uintptr_t>(d_storage) % sl::SLAB_BYTES != 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is not 128-byte aligned", FN);
  if (stride == 4) {  // 16-byte entries: the 128-bit CAS of compute capability 9.0
    int device = 0, major = 0;
    MSPLIT_CUDA_TRY(cudaGetDevice(&device));
    MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major < 9)
      return set_error(MSPLIT_ERROR_UNSUPPORTED,
                       "%s: 16-byte entries (%s keys, %s values) need the 128-bit CAS of compute "
                       "capability 9.0; device %d has %d.x",
                       FN, sl::type_name(key_type), sl::type_name(value_type), device, major);
  }
  const msplit_slab_hash t{d_storage,  num_buckets, capacity_slabs,
                           value_type != MSPLIT_TYPE_NONE ? 1 : 0, key_type, value_type};
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
  return with_format("msplit_slab_hash_flush", table->key_type, table->value_type, [&](auto f) {
    sl::flush_kernel<decltype(f), T><<<grid, T, 0, s>>>(sl::make_view(*table));
    MSPLIT_LAUNCH_CHECK();
    return MSPLIT_SUCCESS;
  });
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
  double entry_bytes = 0;
  MSPLIT_TRY(with_format(FN, table->key_type, table->value_type, [&](auto f) {
    entry_bytes = double(decltype(f)::ENTRY_BYTES);
    return MSPLIT_SUCCESS;
  }));
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
  if (c[sl::OUT_OF_SLABS] == 0 && c[sl::RESERVED] == 0 && c[sl::GAVE_UP] == 0) return MSPLIT_SUCCESS;
  const sl::view v = sl::make_view(*table);
  MSPLIT_CUDA_TRY(
      cudaMemsetAsync(v.counters + sl::OUT_OF_SLABS, 0, 2 * sizeof(unsigned long long), s));
  MSPLIT_CUDA_TRY(cudaMemsetAsync(v.counters + sl::GAVE_UP, 0,
                                  (sl::NUM_COUNTERS - sl::GAVE_UP) * sizeof(unsigned long long), s));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(s));
  if (c[sl::GAVE_UP]) {  // the table's counters as an error record, which says the rest
    msplit_error_record r{};
    r.code = MSPLIT_ERROR_STALLED;
    r.primitive = MSPLIT_PRIMITIVE_SLAB_HASH;
    r.site = uint32_t(c[sl::GAVE_UP_SITE]);
    r.detail[0] = c[sl::GAVE_UP_BUCKET];
    r.detail[1] = c[sl::GAVE_UP_STEPS];
    r.detail[2] = c[sl::GAVE_UP];
    return msplit_error_record_status(&r);
  }
  if (c[sl::OUT_OF_SLABS])
    return set_error(MSPLIT_ERROR_OUT_OF_CAPACITY,
                     "%s: %llu insert(s) found no free slab (capacity_slabs %u is used up); %llu "
                     "operation(s) had a "
                     "reserved key",
                     FN, c[sl::OUT_OF_SLABS], table->capacity_slabs, c[sl::RESERVED]);
  const bool wide = table->key_type == MSPLIT_TYPE_U64;
  return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: %llu operation(s) had a reserved key (%s)",
                   FN, c[sl::RESERVED],
                   wide ? "0xffffffffffffffff or 0xfffffffffffffffe" : "0xffffffff or 0xfffffffe");
}
