// hash_bench: the slab hash's rates (M operations/s) and what bounds them.
//
// The bound: a find that hits reads at least one 128-byte slab at a random place, so the first
// measurement is the GPU's rate of random 128-byte reads, taken the way the table reads (each warp
// loads 32 random lines, one coalesced 128-byte load each, all in flight) from a buffer of the
// table's size; every rate below is also given as a fraction of it ("bound_fraction": operations
// per second / lines per second).
// Then, for each key width (--key-bits, a list: 32-bit keys and values, 64-bit keys and values), each n
// (2^24, 2^26 unique random keys) and each target memory
// utilization (buckets from msplit_slab_hash_plan; the utilization reached is measured and
// reported): bulk insert into an empty table, find of present keys (hit) and of absent keys
// (miss), erase of every key, and mixed batches of n operations (insert/erase/find-hit/find-miss
// = 50/50/0/0, 20/20/30/30, 10/10/40/40, distinct keys per batch) on a table that holds the n
// keys; the incremental build (batches of 2^16 into a table planned for n); the allocator alone
// (10^6 slab allocations by whole warps); and the probe group's effect (4, 8 and 32 slab loads in
// flight per warp) on find (32-bit keys). Tables are rebuilt, untimed, before every timed run that
// changes them.
// Protocol: one warm-up, then --trials timed runs (CUDA events), median, min and max.
// The peers' figures (H100, 2^26 keys) are recorded in the JSON as reference constants.
//
//   hash_bench [--n 24,26] [--util 0.5,0.65,0.75,0.85] [--key-bits 32] [--trials 10]
//              [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.h"
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/slab_hash.cuh"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using bench::hash32;

struct result {
  std::string op;
  int key_bits, log_n;
  double target_util, util, median_ms, min_ms, max_ms, mops, bound_fraction;
  size_t ops;
};

// Keys: a bijective 32-bit mix of the index (MurmurHash3's finaliser), so that indices [0, n) give
// n distinct keys (the present ones) and [n, 2n) n others (the absent ones).
__host__ __device__ uint32_t key_of(uint32_t i) {
  uint32_t h = i * 0x9E3779B1u + 0x7F4A7C15u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// 64-bit keys: a bijective 64-bit mix (MurmurHash3's 64-bit finaliser) of the index, so that
// every key uses the high word; one of the reserved keys may come out of [0, 2n) only with
// probability about 2n / 2^63 (the build's size check would show it).
__host__ __device__ uint64_t key_of(uint64_t i) {
  uint64_t h = i * 0x9E3779B97F4A7C15ull + 0x7F4A7C159E3779B9ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

template <typename K>
__global__ void gen_keys(K *keys, K *values, size_t first, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    keys[i] = key_of(K(first + i));
    if (values) values[i] = K(first + i);
  }
}

// A mixed batch of n operations: operation i is an insert of absent key n + i, an erase or a find
// of present key i, or a find of absent key n + i, by the percentages (distinct keys throughout).
template <typename K>
__global__ void gen_mixed(uint8_t *ops, K *keys, K *values, size_t n, int ins, int era, int hit) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const int r = int(hash32(i * 0x9E3779B97F4A7C15ull + 12345) % 100);
    uint8_t op;
    bool absent;
    if (r < ins)
      op = MSPLIT_HASH_OP_INSERT, absent = true;
    else if (r < ins + era)
      op = MSPLIT_HASH_OP_ERASE, absent = false;
    else if (r < ins + era + hit)
      op = MSPLIT_HASH_OP_FIND, absent = false;
    else
      op = MSPLIT_HASH_OP_FIND, absent = true;
    ops[i] = op;
    keys[i] = key_of(K(absent ? n + i : i));
    values[i] = K(i);
  }
}

// Random 128-byte line reads as the table does them: each warp loads 32 lines (one coalesced
// load each) chosen by a hash, all in flight, `rounds` times; the sum keeps the loads.
__global__ void random_lines(const uint32_t *buf, size_t lines, int rounds,
                             unsigned long long *sink) {
  const int lane = threadIdx.x % 32;
  const size_t warp = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / 32;
  uint32_t acc = 0;
  for (int r = 0; r < rounds; ++r) {
    uint32_t w[32];
    const uint64_t base = (uint64_t(warp) * rounds + r) * 32;
#pragma unroll
    for (int j = 0; j < 32; ++j) {
      const size_t line = size_t((uint64_t(hash32(base + j)) * lines) >> 32);
      w[j] = msplit::detail::slab::load_word(buf + line * 32 + lane);
    }
#pragma unroll
    for (int j = 0; j < 32; ++j) acc += w[j];
  }
  if (acc == 0x12345678u) atomicAdd(sink, 1ull);
}

// Each warp allocates `per_warp` slabs from the pool.
__global__ void alloc_kernel(msplit::detail::slab::view v, int per_warp,
                             unsigned long long *failed) {
  msplit::detail::slab::allocator a;
  a.start(v, (blockIdx.x * blockDim.x + threadIdx.x) / 32);
  int fails = 0;
  for (int i = 0; i < per_warp; ++i) fails += a.allocate(v) == msplit::detail::slab::NULL_SLAB;
  if (threadIdx.x % 32 == 0 && fails) atomicAdd(failed, static_cast<unsigned long long>(fails));
}

struct state {
  bench::timer tm;
  std::vector<result> results;
  double line_rate = 0;  // random 128-byte lines per second
  int trials = 10;
  void add(const char *op, int key_bits, int log_n, double target, double util, size_t ops,
           const bench::timing &t) {
    const double mops = double(ops) / (t.median_ms * 1e-3) / 1e6;
    results.push_back({op, key_bits, log_n, target, util, t.median_ms, t.min_ms, t.max_ms, mops,
                       mops * 1e6 / line_rate, ops});
    std::printf(
        "%-14s k%d 2^%d util %.2f (target %.2f): %9.1f M/s  %.3f of the read bound  (%.3f ms)\n",
        op, key_bits, log_n, util, target, mops, mops * 1e6 / line_rate, t.median_ms);
  }
};

// A map of K keys to K values (32 or 64 bits).
template <typename K, int PROBE_GROUP>
void run_size(state &st, int log_n, double target) {
  using table_t = msplit::slab_map<K, K, PROBE_GROUP>;
  const int key_bits = int(sizeof(K) * 8);
  const size_t n = size_t(1) << log_n;
  uint32_t buckets = 0, pool = 0;
  MS(table_t::plan(n, target, &buckets, &pool));
  // room for the mixed batches' inserts too (erased slots are not reused before a flush)
  constexpr double ENTRIES = table_t::format::ENTRIES;
  const uint32_t capacity = uint32_t(pool * 1.3 + double(n) / ENTRIES * 0.6) + 4096;
  size_t bytes = 0;
  MS(table_t::storage_bytes(buckets, capacity, &bytes));
  void *storage = nullptr;
  K *keys = nullptr, *values = nullptr, *out = nullptr;
  uint8_t *ops = nullptr;
  CHECK_CUDA(cudaMalloc(&storage, bytes));
  CHECK_CUDA(cudaMalloc(&keys, 2 * n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&values, 2 * n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&ops, n));
  gen_keys<<<4096, 256>>>(keys, values, 0, 2 * n);
  CHECK_CUDA(cudaGetLastError());
  table_t t;
  const auto init = [&] { MS(t.init(storage, bytes, buckets, capacity)); };
  const auto build = [&] {
    init();
    MS(t.insert(keys, values, n));
  };
  const bool main_group = PROBE_GROUP == msplit::tuning::HASH_PROBE_GROUP;
  build();
  msplit_slab_hash_stats s{};
  MS(t.stats_sync(&s));
  MS(t.check_sync());
  if (s.size != n) std::printf("# note: size %llu of %zu keys\n", (unsigned long long)s.size, n);
  const double util = s.utilization;
  const auto add = [&](const char *op, const bench::timing &tm) {
    st.add(op, key_bits, log_n, target, util, n, tm);
  };
  const std::string group = main_group ? "" : "_g" + std::to_string(PROBE_GROUP);
  add(("find_hit" + group).c_str(), st.tm.run([&] { MS(t.find(keys, n, out)); }, st.trials));
  add(("find_miss" + group).c_str(),
      st.tm.run([&] { MS(t.find(keys + n, n, out)); }, st.trials));
  if (main_group) {
    add("insert", st.tm.run_after(
                      init, [&] { MS(t.insert(keys, values, n)); }, st.trials));
    add("erase", st.tm.run_after(
                     build, [&] { MS(t.erase(keys, n)); }, st.trials));
    const int mixes[3][3] = {{50, 50, 0}, {20, 20, 30}, {10, 10, 40}};
    const char *mix_names[3] = {"mixed_50_50_0_0", "mixed_20_20_30_30", "mixed_10_10_40_40"};
    K *mkeys = out;  // the mixed batch's keys reuse `out`; its values go to values + n
    for (int m = 0; m < 3; ++m) {
      gen_mixed<<<4096, 256>>>(ops, mkeys, values + n, n, mixes[m][0], mixes[m][1], mixes[m][2]);
      CHECK_CUDA(cudaGetLastError());
      add(mix_names[m],
          st.tm.run_after(
              build, [&] { MS(t.apply(ops, mkeys, values + n, n, nullptr)); }, st.trials));
    }
    gen_keys<<<4096, 256>>>(keys, values, 0, 2 * n);  // restore the values the mixed batches used
    CHECK_CUDA(cudaGetLastError());
    // incremental: batches of 2^16 into a table planned for n
    if (target == 0.65) {
      constexpr size_t BATCH = size_t(1) << 16;
      const auto batches = [&] {
        for (size_t b = 0; b < n; b += BATCH)
          MS(t.insert(keys + b, values + b, std::min(BATCH, n - b)));
      };
      add("incremental_2^16", st.tm.run_after(init, batches, std::max(st.trials / 2, 3)));
    }
  }
  CHECK_CUDA(cudaFree(ops));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(values));
  CHECK_CUDA(cudaFree(keys));
  CHECK_CUDA(cudaFree(storage));
}

}  // namespace

int main(int argc, char **argv) {
  std::string n_s = "24,26", util_s = "0.5,0.65,0.75,0.85", bits_s = "32", json,
              commit = MSPLIT_BENCH_COMMIT;
  int trials = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--n" && more)
      n_s = argv[++i];
    else if (a == "--util" && more)
      util_s = argv[++i];
    else if (a == "--key-bits" && more)
      bits_s = argv[++i];
    else if (a == "--trials" && more)
      trials = std::atoi(argv[++i]);
    else if (a == "--json" && more)
      json = argv[++i];
    else if (a == "--commit" && more)
      commit = argv[++i];
    else {
      std::fprintf(
          stderr,
          "usage: hash_bench [--n 24,26] [--util 0.5,0.65,0.75,0.85] [--key-bits 32] "
          "[--trials 10] [--json FILE] [--commit SHA]\n");
      return 2;
    }
  }
  const std::string command = bench::command_line(argc, argv);
  if (!bench::require_device()) return 77;
  const bench::machine mc;
  std::printf("# %s, CUDA runtime %d, driver %d, commit %s\n# %s\n", mc.prop.name, mc.runtime,
              mc.driver, commit.c_str(), command.c_str());
  state st;
  st.trials = trials;

  // 1. the bound: random 128-byte line reads from 1 GiB (a 2^26-key table's size)
  {
    const size_t bytes = size_t(1) << 30, lines = bytes / 128;
    uint32_t *buf = nullptr;
    unsigned long long *sink = nullptr;
    CHECK_CUDA(cudaMalloc(&buf, bytes));
    CHECK_CUDA(cudaMalloc(&sink, 8));
    CHECK_CUDA(cudaMemset(buf, 1, bytes));
    const int blocks = mc.prop.multiProcessorCount * 8, threads = 256, rounds = 64;
    const size_t reads = size_t(blocks) * threads / 32 * rounds * 32;
    bench::timer tm;
    const bench::timing t =
        tm.run([&] { random_lines<<<blocks, threads>>>(buf, lines, rounds, sink); }, trials);
    st.line_rate = double(reads) / (t.median_ms * 1e-3);
    std::printf("# random 128-byte reads: %.0f M lines/s (%.0f GB/s)\n", st.line_rate / 1e6,
                st.line_rate * 128 / 1e9);
    CHECK_CUDA(cudaFree(sink));
    CHECK_CUDA(cudaFree(buf));
  }

  // 2. the allocator: 10^6 slab allocations by whole warps
  double alloc_ms = 0;
  {
    const uint32_t capacity = 1u << 21;
    size_t bytes = 0;
    MS(msplit_slab_hash_storage_bytes(1, capacity, &bytes));
    void *storage = nullptr;
    unsigned long long *failed = nullptr;
    CHECK_CUDA(cudaMalloc(&storage, bytes));
    CHECK_CUDA(cudaMalloc(&failed, 8));
    CHECK_CUDA(cudaMemset(failed, 0, 8));
    msplit_slab_hash t{};
    const int per_warp = 32, warps = 1000000 / per_warp;
    const auto init = [&] {
      MS(msplit_slab_hash_init(&t, storage, bytes, 1, capacity, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32,
                               nullptr));
    };
    const auto allocate = [&] {
      alloc_kernel<<<(warps * 32 + 255) / 256, 256>>>(msplit::detail::slab::make_view(t), per_warp,
                                                      failed);
    };
    const bench::timing tm = st.tm.run_after(init, allocate, trials);
    alloc_ms = tm.median_ms;
    unsigned long long f = 0;
    CHECK_CUDA(cudaMemcpy(&f, failed, 8, cudaMemcpyDeviceToHost));
    std::printf("# allocator: %d slab allocations in %.3f ms (min %.3f), %llu failed\n",
                warps * per_warp, tm.median_ms, tm.min_ms, f);
    CHECK_CUDA(cudaFree(failed));
    CHECK_CUDA(cudaFree(storage));
  }

  // 3. the table, for each key width
  for (const std::string &bs : bench::split_list(bits_s)) {
    const int bits = std::atoi(bs.c_str());
    if (bits != 32 && bits != 64) {
      std::fprintf(stderr, "hash_bench: --key-bits %s: each width is 32 or 64\n", bs.c_str());
      return 2;
    }
    for (const std::string &ns : bench::split_list(n_s))
      for (const std::string &us : bench::split_list(util_s)) {
        const int log_n = std::atoi(ns.c_str());
        constexpr int G = msplit::tuning::HASH_PROBE_GROUP;
        if (bits == 64) {
          run_size<uint64_t, G>(st, log_n, std::atof(us.c_str()));
          continue;
        }
        run_size<uint32_t, G>(st, log_n, std::atof(us.c_str()));
        if (us == "0.65") {  // the probe group's effect on find
          run_size<uint32_t, 4>(st, log_n, 0.65);
          run_size<uint32_t, 32>(st, log_n, 0.65);
        }
      }
  }

  if (!json.empty()) {
    FILE *f =
        bench::json_open(json, "hash_bench", mc, commit, command, trials,
                         "random 128-byte line reads per second (a find reads at least one slab)");
    if (!f) return 1;
    std::fprintf(f, "  \"random_128B_lines_per_s\": %.4g,\n  \"alloc_1e6_ms\": %.4f,\n",
                 st.line_rate, alloc_ms);
    std::fprintf(
        f,
        "  \"reference_mops_h100_2e26\": {\"source\": \"issue table, measured on the project's "
        "H100 "
        "2026-11-23\", \"slabhash_util_0.65\": [8100, 13500, 11800], \"cuco_static_map_load_0.8\": "
        "[9700, 15800, 5700], \"cuco_static_map_load_0.5\": [11100, 21200, 18000], "
        "\"bght_bcht_load_0.8\": [7400, 13000, 9400], \"columns\": [\"insert\", \"find_hit\", "
        "\"find_miss\"]},\n");
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < st.results.size(); ++i) {
      const result &r = st.results[i];
      std::fprintf(
          f,
          "    {\"op\": \"%s\", \"key_bits\": %d, \"value_bits\": %d, \"log2_n\": %d, "
          "\"ops\": %zu, \"target_utilization\": %.2f, "
          "\"utilization\": %.4f, \"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, "
          "\"mops\": %.1f, \"bound_fraction\": %.3f}%s\n",
          r.op.c_str(), r.key_bits, r.key_bits, r.log_n, r.ops, r.target_util, r.util, r.median_ms, r.min_ms, r.max_ms,
          r.mops, r.bound_fraction, i + 1 < st.results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("# wrote %s\n", json.c_str());
  }
  return 0;
}
