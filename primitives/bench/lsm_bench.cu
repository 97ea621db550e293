// lsm_bench: msplit's GPU LSM (32-bit keys and values) against its public alternatives, on the
// same data, in the same process.
//
//   inserts  batches of 2^--batch pairs into a dictionary growing to 2^--max pairs; the rate of
//            each batch's update, and their harmonic mean (all pairs over all the updates' time),
//            against rebuilding a sorted array with CUB (the batch appended, then SortPairs of the
//            whole set after each batch: what a static sorted array costs to keep current).
//   lookups  2^--queries lookups of stored keys (random order) at 2^--lookup-at pairs, against
//            msplit's slab hash holding the same pairs (find); every answer compared. Measured in
//            two states: 2^--lookup-at - 2^--batch pairs (every level below the top occupied: the
//            most levels to search) and 2^--lookup-at pairs (one level).
//   ranges   2^--queries range queries of 8 stored keys each ([k_p, k_p+7] of the sorted keys),
//            count with offsets and then the report, at the same state.
//   cleanup  a cleanup of the structure after 2^--max - 2^--batch pairs (every level occupied),
//            the rate in entries processed per second.
// Keys are a bijective hash of the entry's index (all distinct), values the index. Protocol: one untimed warm-up, then --trials timed runs with CUDA
// events (inserts: each batch's update timed, the whole growth repeated per trial); medians, min
// and max of the trials.
//
//   lsm_bench [--batch 20] [--max 27] [--lookup-at 26] [--queries 24] [--trials 5] [--json FILE]
//             [--commit SHA]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "bench_util.h"
#include "msplit/lsm.cuh"
#include "msplit/slab_hash.h"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using K = uint32_t;
using V = uint32_t;
using table = msplit::lsm<K, V>;

// MurmurHash3's finaliser: a bijection of 32-bit words, so that distinct indexes give distinct
// keys (duplicates would let the slab hash, whose concurrent inserts keep either copy, differ).
__device__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

__global__ void make_pairs_kernel(K *keys, V *values, uint64_t n) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = fmix32(uint32_t(i));
  values[i] = V(i);  // never the reserved value below 2^32 - 1 pairs
}

// Queries: stored keys picked by a hash of the query's index (lookups), or ranges of 8
// consecutive keys of the sorted array.
__global__ void make_queries_kernel(const K *keys, uint64_t stored, const K *sorted, uint64_t sorted_n, K *lookups,
                                    K *lo, K *hi, uint64_t q) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= q) return;
  const uint64_t h = bench::hash32(i + 0x9e3779b97f4a7c15ull);
  lookups[i] = keys[h % stored];
  const uint64_t p = h % (sorted_n - 7);
  lo[i] = sorted[p];
  hi[i] = sorted[p + 7];
}

// Answers that differ between the LSM (a, fa) and the slab hash (b, rb), but for the slab hash's
// two reserved keys, which it does not store.
__global__ void count_diff_kernel(const K *queries, const V *a, const uint8_t *fa, const uint32_t *b,
                                  const uint8_t *rb, uint64_t n, unsigned long long *diff) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n || queries[i] >= MSPLIT_HASH_ERASED_KEY) return;
  const bool found_b = rb[i] == MSPLIT_HASH_DONE;
  if (bool(fa[i]) != found_b || (found_b && a[i] != b[i])) atomicAdd(diff, 1ull);
}

unsigned blocks(uint64_t n) { return unsigned((n + 255) / 256); }

struct dev_array {
  void *p = nullptr;
  explicit dev_array(size_t bytes) { CHECK_CUDA(cudaMalloc(&p, bytes)); }
  ~dev_array() { cudaFree(p); }
  template <typename T> T *as() const { return static_cast<T *>(p); }
};

struct stats {
  double median, min, max;
};
stats summarise(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

// The structure and its temporary storage, filled with the first `batches` batches.
struct lsm_state {
  table t;
  dev_array *storage = nullptr, *temp = nullptr;
  size_t storage_bytes = 0, temp_bytes = 0;
  uint64_t b, max_n;
  lsm_state(uint64_t b_, uint64_t max_, uint64_t queries) : b(b_), max_n(max_) {
    MS(table::storage_bytes(max_n, b, &storage_bytes));
    storage = new dev_array(storage_bytes);
    MS(t.init(storage->p, storage_bytes, max_n, b));
    size_t s = 0;
    MS(t.update(nullptr, &s, nullptr, nullptr, nullptr, b));
    temp_bytes = s;
    MS(t.cleanup(nullptr, &s));
    temp_bytes = std::max(temp_bytes, s);
    MS(t.count(nullptr, &s, nullptr, nullptr, queries, nullptr, nullptr));
    temp_bytes = std::max(temp_bytes, s);
    temp = new dev_array(temp_bytes);
  }
  ~lsm_state() {
    delete temp;
    delete storage;
  }
  void fill(const K *keys, const V *values, uint64_t batches) {
    MS(t.init(storage->p, storage_bytes, max_n, b));
    for (uint64_t i = 0; i < batches; ++i)
      MS(t.update(temp->p, &temp_bytes, keys + i * b, values + i * b, nullptr, b));
  }
};

}  // namespace

int main(int argc, char **argv) {
  int lg_batch = 20, lg_max = 27, lg_lookup = 26, lg_queries = 24, trials = 5;
  std::string json, commit = MSPLIT_BENCH_COMMIT;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has = i + 1 < argc;
    if (a == "--batch" && has) lg_batch = std::atoi(argv[++i]);
    else if (a == "--max" && has) lg_max = std::atoi(argv[++i]);
    else if (a == "--lookup-at" && has) lg_lookup = std::atoi(argv[++i]);
    else if (a == "--queries" && has) lg_queries = std::atoi(argv[++i]);
    else if (a == "--trials" && has) trials = std::atoi(argv[++i]);
    else if (a == "--json" && has) json = argv[++i];
    else if (a == "--commit" && has) commit = argv[++i];
    else {
      std::fprintf(stderr, "usage: lsm_bench [--batch 20] [--max 27] [--lookup-at 26] [--queries 24] [--trials 5] "
                           "[--json FILE] [--commit SHA]\n");
      return 2;
    }
  }
  if (lg_batch < 4 || lg_max <= lg_batch || lg_lookup <= lg_batch || lg_lookup > lg_max || trials < 1) {
    std::fprintf(stderr, "lsm_bench: need 4 <= batch < lookup-at <= max and trials >= 1\n");
    return 2;
  }
  if (!bench::require_device()) return 77;
  const bench::machine mc;
  std::printf("# %s, CUDA runtime %d, driver %d; commit %s\n", mc.prop.name, mc.runtime, mc.driver, commit.c_str());
  const uint64_t b = uint64_t(1) << lg_batch, max_n = uint64_t(1) << lg_max, at = uint64_t(1) << lg_lookup;
  const uint64_t q = uint64_t(1) << lg_queries, batches = max_n / b;

  // 1. the pairs, and the sorted keys (for the ranges' bounds)
  dev_array keys(max_n * sizeof(K)), values(max_n * sizeof(V));
  make_pairs_kernel<<<blocks(max_n), 256>>>(keys.as<K>(), values.as<V>(), max_n);
  CHECK_CUDA(cudaGetLastError());
  lsm_state lsm(b, max_n, q);
  bench::timer tm;
  cudaEvent_t ev[2];
  for (cudaEvent_t &e : ev) CHECK_CUDA(cudaEventCreate(&e));

  // 2. inserts: every batch's update timed; the whole growth once untimed, then per trial
  std::vector<double> lsm_rate, lsm_batch_min, cub_rate;
  std::vector<cudaEvent_t> marks(batches + 1);
  for (cudaEvent_t &e : marks) CHECK_CUDA(cudaEventCreate(&e));
  for (int trial = 0; trial <= trials; ++trial) {
    MS(lsm.t.init(lsm.storage->p, lsm.storage_bytes, max_n, b));
    CHECK_CUDA(cudaEventRecord(marks[0]));
    for (uint64_t i = 0; i < batches; ++i) {
      MS(lsm.t.update(lsm.temp->p, &lsm.temp_bytes, keys.as<K>() + i * b, values.as<V>() + i * b, nullptr, b));
      CHECK_CUDA(cudaEventRecord(marks[i + 1]));
    }
    CHECK_CUDA(cudaEventSynchronize(marks[batches]));
    MS(msplit::check_sync(lsm.temp->p, lsm.temp_bytes));
    double total_ms = 0, slowest_rate = 1e300;
    for (uint64_t i = 0; i < batches; ++i) {
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, marks[i], marks[i + 1]));
      total_ms += ms;
      slowest_rate = std::min(slowest_rate, double(b) / (ms * 1e-3));
    }
    if (trial) {  // the first is the warm-up
      lsm_rate.push_back(double(max_n) / (total_ms * 1e-3));  // the harmonic mean of equal batches' rates
      lsm_batch_min.push_back(slowest_rate);
    }
  }
  {  // the CUB way: append the batch, SortPairs of everything so far
    dev_array all_k(max_n * sizeof(K)), all_v(max_n * sizeof(V)), sorted_k(max_n * sizeof(K)),
        sorted_v(max_n * sizeof(V));
    size_t cub_bytes = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, all_k.as<K>(), sorted_k.as<K>(), all_v.as<V>(),
                                               sorted_v.as<V>(), int(max_n)));
    dev_array cub_temp(cub_bytes);
    for (int trial = 0; trial <= trials; ++trial) {
      CHECK_CUDA(cudaEventRecord(ev[0]));
      for (uint64_t i = 0; i < batches; ++i) {
        const uint64_t n = (i + 1) * b;
        CHECK_CUDA(cudaMemcpyAsync(all_k.as<K>() + i * b, keys.as<K>() + i * b, b * sizeof(K),
                                   cudaMemcpyDeviceToDevice));
        CHECK_CUDA(cudaMemcpyAsync(all_v.as<V>() + i * b, values.as<V>() + i * b, b * sizeof(V),
                                   cudaMemcpyDeviceToDevice));
        size_t bytes = cub_bytes;
        CHECK_CUDA(cub::DeviceRadixSort::SortPairs(cub_temp.p, bytes, all_k.as<K>(), sorted_k.as<K>(),
                                                   all_v.as<V>(), sorted_v.as<V>(), int(n)));
      }
      CHECK_CUDA(cudaEventRecord(ev[1]));
      CHECK_CUDA(cudaEventSynchronize(ev[1]));
      float ms = 0;
      CHECK_CUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
      if (trial) cub_rate.push_back(double(max_n) / (ms * 1e-3));
    }
    // the queries: lookups of stored keys, ranges over 8 consecutive sorted keys (of the first `at`)
    CHECK_CUDA(cub::DeviceRadixSort::SortKeys(cub_temp.p, cub_bytes, keys.as<K>(), sorted_k.as<K>(), int(at)));
    dev_array lookups(q * sizeof(K)), lo(q * sizeof(K)), hi(q * sizeof(K));
    make_queries_kernel<<<blocks(q), 256>>>(keys.as<K>(), at, sorted_k.as<K>(), at, lookups.as<K>(), lo.as<K>(),
                                            hi.as<K>(), q);
    CHECK_CUDA(cudaGetLastError());

    // 3. lookups and ranges in two states: every level but the top one occupied, then one level
    dev_array out(q * sizeof(V)), found(q), hash_out(q * sizeof(V)), hash_res(q), counts(q * sizeof(uint32_t)),
        offsets((q + 1) * sizeof(uint64_t)), range_k(8 * q * sizeof(K)), range_v(8 * q * sizeof(V));
    unsigned long long *diff = nullptr;
    CHECK_CUDA(cudaMalloc(&diff, sizeof *diff));
    msplit_slab_hash hash{};
    uint32_t num_buckets = 0, pool = 0;
    size_t hash_bytes = 0;
    MS(msplit_slab_hash_plan(at, 0.65, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &num_buckets, &pool));
    MS(msplit_slab_hash_storage_bytes(num_buckets, pool + pool / 2 + 1024, &hash_bytes));
    dev_array hash_storage(hash_bytes);
    MS(msplit_slab_hash_init(&hash, hash_storage.p, hash_bytes, num_buckets, pool + pool / 2 + 1024,
                             MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr));
    MS(msplit_slab_hash_insert(&hash, keys.as<K>(), values.as<V>(), at, MSPLIT_HASH_OP_INSERT_OR_ASSIGN, nullptr,
                               nullptr));
    MS(msplit_slab_hash_check_sync(&hash, nullptr));
    const bench::timing hash_t =
        tm.run([&] { MS(msplit_slab_hash_find(&hash, lookups.p, q, hash_out.p, hash_res.as<uint8_t>(), nullptr)); },
               trials);
    std::printf("%-26s %10s %10s %10s %s\n", "operation", "ms", "G/s", "min G/s", "note");
    const auto line = [&](const char *what, double ms, double per, double max_ms, const char *note) {
      std::printf("%-26s %10.3f %10.3f %10.3f %s\n", what, ms, per / (ms * 1e6), per / (max_ms * 1e6), note);
    };
    const stats lr = summarise(lsm_rate), lb = summarise(lsm_batch_min), cr = summarise(cub_rate);
    std::printf("%-26s %10s %10.3f %10.3f harmonic mean of %llu batches (slowest batch %.3f G/s)\n", "insert lsm", "-",
                lr.median * 1e-9, lr.min * 1e-9, (unsigned long long)batches, lb.median * 1e-9);
    std::printf("%-26s %10s %10.3f %10.3f SortPairs of the whole set after each batch\n", "insert cub rebuild", "-",
                cr.median * 1e-9, cr.min * 1e-9);
    line("lookup slab hash", hash_t.median_ms, double(q), hash_t.max_ms, "");

    FILE *f = json.empty() ? nullptr
                           : bench::json_open(json, "lsm_bench", mc, commit, bench::command_line(argc, argv), trials,
                                              "rates in operations per second; inserts: all pairs over the summed "
                                              "update times (the harmonic mean of the per-batch rates)");
    if (f) {
      std::fprintf(f, "  \"batch_log2\": %d, \"max_log2\": %d, \"lookup_at_log2\": %d, \"queries_log2\": %d,\n",
                   lg_batch, lg_max, lg_lookup, lg_queries);
      std::fprintf(f, "  \"results\": [\n");
      std::fprintf(f,
                   "    {\"op\": \"insert\", \"lsm_Gps\": %.4f, \"lsm_min_Gps\": %.4f, \"lsm_max_Gps\": %.4f, "
                   "\"lsm_slowest_batch_Gps\": %.4f, \"cub_rebuild_Gps\": %.4f, \"cub_rebuild_min_Gps\": %.4f, "
                   "\"cub_rebuild_max_Gps\": %.4f},\n",
                   lr.median * 1e-9, lr.min * 1e-9, lr.max * 1e-9, lb.median * 1e-9, cr.median * 1e-9,
                   cr.min * 1e-9, cr.max * 1e-9);
      std::fprintf(f, "    {\"op\": \"lookup_slab_hash\", \"ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, \"Gps\": %.4f}",
                   hash_t.median_ms, hash_t.min_ms, hash_t.max_ms, double(q) / (hash_t.median_ms * 1e6));
    }
    bool mismatch = false;
    for (const uint64_t state_batches : {at / b - 1, at / b}) {
      lsm.fill(keys.as<K>(), values.as<V>(), state_batches);
      const int levels = __builtin_popcountll(lsm.t.handle().occupied);
      const bench::timing look_t =
          tm.run([&] { MS(lsm.t.lookup(lookups.as<K>(), q, out.as<V>(), found.as<uint8_t>())); }, trials);
      CHECK_CUDA(cudaMemset(diff, 0, sizeof *diff));
      count_diff_kernel<<<blocks(q), 256>>>(lookups.as<K>(), out.as<V>(), found.as<uint8_t>(), hash_out.as<uint32_t>(),
                                            hash_res.as<uint8_t>(), q, diff);
      unsigned long long d = 0;
      CHECK_CUDA(cudaMemcpy(&d, diff, sizeof d, cudaMemcpyDeviceToHost));
      // (in the smaller state the queries of the last batch's keys are absent from the LSM only)
      const bool full = state_batches == at / b;
      mismatch = mismatch || (full && d != 0);
      const bench::timing range_t = tm.run(
          [&] {
            MS(lsm.t.count(lsm.temp->p, &lsm.temp_bytes, lo.as<K>(), hi.as<K>(), q, counts.as<uint32_t>(),
                           offsets.as<uint64_t>()));
            MS(lsm.t.range(lsm.temp->p, &lsm.temp_bytes, lo.as<K>(), hi.as<K>(), q, offsets.as<uint64_t>(),
                           range_k.as<K>(), range_v.as<V>()));
          },
          trials);
      MS(msplit::check_sync(lsm.temp->p, lsm.temp_bytes));
      uint64_t reported = 0;
      CHECK_CUDA(cudaMemcpy(&reported, offsets.as<uint64_t>() + q, sizeof reported, cudaMemcpyDeviceToHost));
      char what[64], note[96];
      std::snprintf(what, sizeof what, "lookup lsm, %d level%s", levels, levels == 1 ? "" : "s");
      std::snprintf(note, sizeof note, "%llu answers differ from the slab hash%s", d, full ? "" : " (expected: a batch less)");
      line(what, look_t.median_ms, double(q), look_t.max_ms, note);
      std::snprintf(what, sizeof what, "range of 8 lsm, %d level%s", levels, levels == 1 ? "" : "s");
      std::snprintf(note, sizeof note, "count + report; %.2f entries per query", double(reported) / double(q));
      line(what, range_t.median_ms, double(q), range_t.max_ms, note);
      if (f)
        std::fprintf(f,
                     ",\n    {\"op\": \"lookup\", \"levels\": %d, \"ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, "
                     "\"Gps\": %.4f, \"slab_hash_ms\": %.4f, \"differences\": %llu},\n"
                     "    {\"op\": \"range8\", \"levels\": %d, \"ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, "
                     "\"Gps\": %.4f, \"entries_per_query\": %.3f}",
                     levels, look_t.median_ms, look_t.min_ms, look_t.max_ms, double(q) / (look_t.median_ms * 1e6),
                     hash_t.median_ms, d, levels, range_t.median_ms, range_t.min_ms, range_t.max_ms,
                     double(q) / (range_t.median_ms * 1e6), double(reported) / double(q));
    }
    CHECK_CUDA(cudaFree(diff));

    // 4. cleanup of every level but the top one (the structure rebuilt before each run)
    const uint64_t clean_batches = batches - 1, entries = clean_batches * b;
    const bench::timing clean_t = tm.run_after([&] { lsm.fill(keys.as<K>(), values.as<V>(), clean_batches); },
                                               [&] { MS(lsm.t.cleanup(lsm.temp->p, &lsm.temp_bytes)); }, trials);
    line("cleanup lsm", clean_t.median_ms, double(entries), clean_t.max_ms, "entries processed per second");
    if (f) {
      std::fprintf(f,
                   ",\n    {\"op\": \"cleanup\", \"entries\": %llu, \"ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, "
                   "\"Gps\": %.4f}\n  ]\n}\n",
                   (unsigned long long)entries, clean_t.median_ms, clean_t.min_ms, clean_t.max_ms,
                   double(entries) / (clean_t.median_ms * 1e6));
      std::fclose(f);
    }
    for (cudaEvent_t &e : marks) cudaEventDestroy(e);
    for (cudaEvent_t &e : ev) cudaEventDestroy(e);
    return mismatch ? 1 : 0;
  }
}
