// msplit_bench: multisplit throughput against CUB on the same inputs, in the same process.
//
// For each n, distribution, m and mode (keys, pairs = u32 keys + u32 values): every requested
// multisplit variant (delta buckets through the template API), the reduced-bit sort (bucket
// labels, then CUB SortPairs on ceil(log2 m) bits: the strongest sort-based method in Ashkiani,
// Davidson, Meyer and Owens, "GPU Multisplit"), CUB DevicePartition two-way (m = 2) and
// three-way (m = 3); the variant "grid" is msplit::grid_multisplit_keys (keys only) in a
// cooperative kernel of every resident block, launched per run; "warp" and "block" are the
// paper's WMS and BMS (paper_multisplit.cuh: not in the library), each checked against the
// library's result once per configuration; once per n and mode: CUB
// DeviceRadixSort on full 32-bit keys and a device-to-device copy (the bandwidth reference).
// Protocol: one warm-up, then --trials timed runs (CUDA events), median, min and max. Inputs are
// regenerated per (n, distribution, m) with a fixed seed; every input is larger than twice the L2
// (n >= 2^25), so nothing is reused from L2 between trials.
//
//   msplit_bench [--n 25,28] [--m 2,3,4,8,10,16,32,64,128,256] [--dist uniform,one,binomial,quarter]
//                [--variants onepass,direct,warp,block,grid] [--modes keys,pairs] [--trials 10]
//                [--no-baselines] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <cooperative_groups.h>

#include "msplit/grid_multisplit.cuh"
#include "msplit/msplit.h"
#include "msplit/multisplit.cuh"
#include "bench_util.h"
#include "paper_multisplit.cuh"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using bench::dev_pool;
using bench::hash32;
using bench::split_list;
using bench::timer;

enum dist_kind { UNIFORM, ONE, BINOMIAL, QUARTER };
const char *dist_names[] = {"uniform", "one", "binomial", "quarter"};

// keys: bucket from the distribution, then a uniform key inside that bucket's delta range
__global__ void gen_keys(uint32_t *keys, uint32_t *values, size_t n, uint32_t m, uint32_t delta, int dist,
                         uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = hash32(seed * 0x9E3779B97F4A7C15ull + i);
    uint32_t b;
    switch (dist) {
      case ONE: b = m / 2; break;
      case BINOMIAL: {
        uint32_t c = 0;
        for (uint32_t j = 0; j + 1 < m; j += 32) {
          const uint32_t r = hash32(seed + 77 + i * 131 + j);
          const uint32_t bits = min(32u, m - 1 - j);
          c += __popc(bits == 32 ? r : r & ((1u << bits) - 1));
        }
        b = c;
        break;
      }
      case QUARTER: b = (h & 3) == 0 ? (h >> 2) % m : m / 2; break;
      default: b = h % m; break;
    }
    const uint32_t r = hash32(seed + 1 + i * 7);
    keys[i] = b * delta + r % delta;
    if (values) values[i] = uint32_t(i);
  }
}

__global__ void label_keys(const uint32_t *keys, uint32_t *labels, size_t n, msplit::delta_bucket<uint32_t> op) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    labels[i] = min(op(keys[i]), op.num_buckets - 1);
}
__global__ void label_pack(const uint32_t *keys, const uint32_t *values, uint32_t *labels, uint64_t *packed,
                           size_t n, msplit::delta_bucket<uint32_t> op) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    labels[i] = min(op(keys[i]), op.num_buckets - 1);
    packed[i] = (uint64_t(values[i]) << 32) | keys[i];
  }
}

__global__ void __launch_bounds__(msplit::tuning::MULTISPLIT_BLOCK_THREADS)
    grid_split(const uint32_t *in, uint32_t *out, uint32_t n, uint32_t m, msplit::delta_bucket<uint32_t> op,
               uint32_t *counts, size_t *off) {
  __shared__ msplit::grid_multisplit_storage<> sm;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  msplit::grid_multisplit_keys(grid, sm, in, out, n, m, op, counts, off);
}

struct below {
  uint32_t t;
  __device__ bool operator()(const uint32_t &k) const { return k < t; }
};
struct between {
  uint32_t lo, hi;
  __device__ bool operator()(const uint32_t &k) const { return k >= lo && k < hi; }
};

__global__ void count_differences(const uint32_t *a, const uint32_t *b, size_t n, unsigned long long *diff) {
  unsigned long long d = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    d += a[i] != b[i];
  if (d) atomicAdd(diff, d);
}

// The paper's variants (not the library's) are checked: their output must equal the library's
// (a stable multisplit has one result), else the bench stops.
void check_against_library(const uint32_t *kin, const uint32_t *kout, const uint32_t *vin, const uint32_t *vout,
                           size_t n, uint32_t m, msplit::delta_bucket<uint32_t> op, dev_pool &ref_keys,
                           dev_pool &ref_values, dev_pool &temp, const char *what) {
  uint32_t *rk = static_cast<uint32_t *>(ref_keys.get(n * 4)), *rv = static_cast<uint32_t *>(ref_values.get(n * 4));
  size_t bytes = 0;
  if (vin) {
    MS(msplit::multisplit_pairs(nullptr, &bytes, kin, rk, vin, rv, n, m, op, nullptr, 0, MSPLIT_VARIANT_AUTO));
    void *t = temp.get(bytes);
    MS(msplit::multisplit_pairs(t, &bytes, kin, rk, vin, rv, n, m, op, nullptr, 0, MSPLIT_VARIANT_AUTO));
  } else {
    MS(msplit::multisplit_keys(nullptr, &bytes, kin, rk, n, m, op, nullptr, 0, MSPLIT_VARIANT_AUTO));
    void *t = temp.get(bytes);
    MS(msplit::multisplit_keys(t, &bytes, kin, rk, n, m, op, nullptr, 0, MSPLIT_VARIANT_AUTO));
  }
  unsigned long long *d_diff = static_cast<unsigned long long *>(temp.get(sizeof(unsigned long long)));
  CHECK_CUDA(cudaMemset(d_diff, 0, sizeof *d_diff));
  count_differences<<<1024, 256>>>(rk, kout, n, d_diff);
  if (vin) count_differences<<<1024, 256>>>(rv, vout, n, d_diff);
  CHECK_CUDA(cudaGetLastError());
  unsigned long long diff = 0;
  CHECK_CUDA(cudaMemcpy(&diff, d_diff, sizeof diff, cudaMemcpyDeviceToHost));
  if (diff != 0) {
    std::fprintf(stderr, "msplit_bench: %s (m = %u, n = %zu) differs from the library in %llu elements\n", what, m, n,
                 diff);
    std::exit(1);
  }
}

struct result {
  std::string method, mode, dist;
  size_t n;
  uint32_t m;
  double median_ms, min_ms, max_ms, geps, bound_fraction;
};

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> ns = {"25", "28"}, msl = {"2", "3", "4", "8", "10", "16", "32", "64", "128", "256"};
  std::vector<std::string> dists = {"uniform", "one", "binomial", "quarter"}, variants = {"onepass", "direct", "warp", "block",
                                                                                     "grid"};
  std::vector<std::string> modes = {"keys", "pairs"};
  int trials = 10;
  bool baselines = true;
  std::string json, commit = MSPLIT_BENCH_COMMIT, command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "msplit_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--n") ns = split_list(next());
    else if (a == "--m") msl = split_list(next());
    else if (a == "--dist") dists = split_list(next());
    else if (a == "--variants") variants = split_list(next());
    else if (a == "--modes") modes = split_list(next());
    else if (a == "--trials") trials = std::max(1, std::atoi(next().c_str()));
    else if (a == "--no-baselines") baselines = false;
    else if (a == "--json") json = next();
    else if (a == "--commit") commit = next();
    else {
      std::fprintf(stderr, "msplit_bench: unknown option %s (see the header of msplit_bench.cu)\n", a.c_str());
      return 2;
    }
  }
  if (!bench::require_device()) return 77;
  const bench::machine mc;
  const cudaDeviceProp &prop = mc.prop;
  std::printf("# %s, CUDA runtime %d, driver %d, commit %s\n# %s\n", prop.name, mc.runtime, mc.driver, commit.c_str(),
              command.c_str());

  std::vector<result> results;
  timer tm;
  dev_pool p_kin, p_kout, p_vin, p_vout, p_temp, p_lab, p_lab2, p_pack, p_pack2, p_off, p_sel;
  auto variant_of = [](const std::string &v) {
    if (v == "direct") return MSPLIT_VARIANT_DIRECT;
    if (v == "sort") return MSPLIT_VARIANT_SORT;
    if (v == "auto") return MSPLIT_VARIANT_AUTO;
    return MSPLIT_VARIANT_ONEPASS;
  };

  for (const std::string &ns_s : ns) {
    const size_t n = size_t(1) << std::atoi(ns_s.c_str());
    uint32_t *kin = static_cast<uint32_t *>(p_kin.get(n * 4)), *kout = static_cast<uint32_t *>(p_kout.get(n * 4));
    uint32_t *vin = static_cast<uint32_t *>(p_vin.get(n * 4)), *vout = static_cast<uint32_t *>(p_vout.get(n * 4));
    double copy_bw = 0;  // bytes read + written per second
    auto add = [&](const std::string &method, const std::string &mode, const std::string &dist, uint32_t m,
                   double med, double mn, double mx, double min_bytes) {
      result r{method, mode, dist, n, m, med, mn, mx, n / (med * 1e-3) / 1e9,
               copy_bw > 0 ? (min_bytes / (med * 1e-3)) / copy_bw : 0};
      results.push_back(r);
      std::printf("%-14s %-5s %-8s n=2^%-2d m=%-4u %9.3f ms  %7.1f G/s  %5.1f%% of bound\n", method.c_str(),
                  mode.c_str(), dist.c_str(), std::atoi(ns_s.c_str()), m, med, r.geps, 100 * r.bound_fraction);
      std::fflush(stdout);
    };
    gen_keys<<<4096, 256>>>(kin, vin, n, 2, 1u << 31, UNIFORM, 1);
    CHECK_CUDA(cudaDeviceSynchronize());
    {  // bandwidth reference
      double med, mn, mx;
      tm.run([&] { CHECK_CUDA(cudaMemcpyAsync(kout, kin, n * 4, cudaMemcpyDeviceToDevice)); }, trials, med, mn, mx);
      copy_bw = 2.0 * n * 4 / (med * 1e-3);
      add("copy", "keys", "-", 0, med, mn, mx, 2.0 * n * 4);
      std::printf("# copy bandwidth %.0f GB/s (read + write)\n", copy_bw / 1e9);
    }
    for (const std::string &mode : modes) {
      const bool pairs = mode == "pairs";
      const double min_bytes = 2.0 * n * (pairs ? 8 : 4);
      if (baselines) {  // CUB radix sort on full 32-bit keys
        double med, mn, mx;
        size_t bytes = 0;
        if (pairs) {
          CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kin, kout, vin, vout, n));
          void *t = p_temp.get(bytes);
          tm.run([&] { CHECK_CUDA(cub::DeviceRadixSort::SortPairs(t, bytes, kin, kout, vin, vout, n)); }, trials, med, mn, mx);
        } else {
          CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, kin, kout, n));
          void *t = p_temp.get(bytes);
          tm.run([&] { CHECK_CUDA(cub::DeviceRadixSort::SortKeys(t, bytes, kin, kout, n)); }, trials, med, mn, mx);
        }
        add("cub_sort32", mode, "uniform", 0, med, mn, mx, min_bytes);
      }
      for (const std::string &dist_s : dists) {
        int dist = UNIFORM;
        for (int d = 0; d < 4; ++d)
          if (dist_s == dist_names[d]) dist = d;
        for (const std::string &m_s : msl) {
          const uint32_t m = uint32_t(std::atoi(m_s.c_str()));
          const uint32_t delta = uint32_t((uint64_t(1) << 32) / m);
          gen_keys<<<4096, 256>>>(kin, vin, n, m, delta, dist, 1000 + m);
          CHECK_CUDA(cudaDeviceSynchronize());
          const msplit::delta_bucket<uint32_t> op(0, delta, m);
          size_t *off = static_cast<size_t *>(p_off.get((m + 1) * sizeof(size_t)));
          for (const std::string &v_s : variants) {
            const msplit_variant v = variant_of(v_s);
            size_t bytes = 0;
            double med, mn, mx;
            if (v_s == "grid") {
              if (pairs || n > 0xFFFFFFFFull) continue;
              int per_sm = 0;
              CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_split,
                                                                       msplit::tuning::MULTISPLIT_BLOCK_THREADS, 0));
              const unsigned blocks = unsigned(per_sm * prop.multiProcessorCount);
              uint32_t *counts = static_cast<uint32_t *>(
                  p_temp.get(msplit::grid_multisplit_count_words(blocks, m) * sizeof(uint32_t)));
              const uint32_t *a_in = kin;
              uint32_t *a_out = kout, a_n = uint32_t(n), a_m = m;
              msplit::delta_bucket<uint32_t> a_op = op;
              size_t *a_off = off;
              void *args[] = {&a_in, &a_out, &a_n, &a_m, &a_op, &counts, &a_off};
              tm.run([&] {
                CHECK_CUDA(cudaLaunchCooperativeKernel((void *)grid_split, dim3(blocks),
                                                       dim3(msplit::tuning::MULTISPLIT_BLOCK_THREADS), args, 0, 0));
              }, trials, med, mn, mx);
              add("ms_grid", mode, dist_s, m, med, mn, mx, min_bytes);
              continue;
            }
            if (v_s == "warp" || v_s == "block") {
              if (n > 0xFFFFFFFFull) continue;
              const bool wms = v_s == "warp";
              auto run = [&](void *t, size_t *b) {
                if (pairs)
                  return wms ? paper::multisplit<paper::level::WARP>(t, b, kin, kout, vin, vout, n, m, op, off, 0)
                             : paper::multisplit<paper::level::BLOCK>(t, b, kin, kout, vin, vout, n, m, op, off, 0);
                const msplit::detail::no_value *nv = nullptr;
                msplit::detail::no_value *nvo = nullptr;
                return wms ? paper::multisplit<paper::level::WARP>(t, b, kin, kout, nv, nvo, n, m, op, off, 0)
                           : paper::multisplit<paper::level::BLOCK>(t, b, kin, kout, nv, nvo, n, m, op, off, 0);
              };
              MS(run(nullptr, &bytes));
              void *t = p_temp.get(bytes);
              tm.run([&] { MS(run(t, &bytes)); }, trials, med, mn, mx);
              check_against_library(kin, kout, pairs ? vin : nullptr, pairs ? vout : nullptr, n, m, op, p_lab,
                                    p_lab2, p_pack, v_s.c_str());
              add("ms_" + v_s, mode, dist_s, m, med, mn, mx, min_bytes);
              continue;
            }
            if (pairs) {
              MS(msplit::multisplit_pairs(nullptr, &bytes, kin, kout, vin, vout, n, m, op, off, 0, v));
              void *t = p_temp.get(bytes);
              tm.run([&] { MS(msplit::multisplit_pairs(t, &bytes, kin, kout, vin, vout, n, m, op, off, 0, v)); },
                     trials, med, mn, mx);
            } else {
              MS(msplit::multisplit_keys(nullptr, &bytes, kin, kout, n, m, op, off, 0, v));
              void *t = p_temp.get(bytes);
              tm.run([&] { MS(msplit::multisplit_keys(t, &bytes, kin, kout, n, m, op, off, 0, v)); }, trials, med,
                     mn, mx);
            }
            add("ms_" + v_s, mode, dist_s, m, med, mn, mx, min_bytes);
          }
          if (!baselines) continue;
          {  // reduced-bit sort: labels, then CUB SortPairs on ceil(log2 m) bits
            int bits = 0;
            while ((1u << bits) < m) ++bits;
            uint32_t *lab = static_cast<uint32_t *>(p_lab.get(n * 4)), *lab2 = static_cast<uint32_t *>(p_lab2.get(n * 4));
            size_t bytes = 0;
            double med, mn, mx;
            if (pairs) {
              uint64_t *pk = static_cast<uint64_t *>(p_pack.get(n * 8)), *pk2 = static_cast<uint64_t *>(p_pack2.get(n * 8));
              CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, lab, lab2, pk, pk2, n, 0, bits));
              void *t = p_temp.get(bytes);
              tm.run([&] {
                label_pack<<<4096, 256>>>(kin, vin, lab, pk, n, op);
                CHECK_CUDA(cub::DeviceRadixSort::SortPairs(t, bytes, lab, lab2, pk, pk2, n, 0, bits));
              }, trials, med, mn, mx);
            } else {
              CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, lab, lab2, kin, kout, n, 0, bits));
              void *t = p_temp.get(bytes);
              tm.run([&] {
                label_keys<<<4096, 256>>>(kin, lab, n, op);
                CHECK_CUDA(cub::DeviceRadixSort::SortPairs(t, bytes, lab, lab2, kin, kout, n, 0, bits));
              }, trials, med, mn, mx);
            }
            add("reduced_sort", mode, dist_s, m, med, mn, mx, min_bytes);
          }
          if (!pairs && (m == 2 || m == 3)) {  // CUB partition (keys)
            int *nsel = static_cast<int *>(p_sel.get(2 * sizeof(int)));
            size_t bytes = 0;
            double med, mn, mx;
            if (m == 2) {
              const below sel{delta};
              CHECK_CUDA(cub::DevicePartition::If(nullptr, bytes, kin, kout, nsel, n, sel));
              void *t = p_temp.get(bytes);
              tm.run([&] { CHECK_CUDA(cub::DevicePartition::If(t, bytes, kin, kout, nsel, n, sel)); }, trials, med, mn, mx);
              add("cub_partition2", mode, dist_s, m, med, mn, mx, min_bytes);
            } else {
              const between s1{0, delta}, s2{delta, 2 * delta};
              uint32_t *second = static_cast<uint32_t *>(p_lab.get(n * 4)), *rest = static_cast<uint32_t *>(p_lab2.get(n * 4));
              CHECK_CUDA(cub::DevicePartition::If(nullptr, bytes, kin, kout, second, rest, nsel, n, s1, s2));
              void *t = p_temp.get(bytes);
              tm.run([&] { CHECK_CUDA(cub::DevicePartition::If(t, bytes, kin, kout, second, rest, nsel, n, s1, s2)); }, trials,
                     med, mn, mx);
              add("cub_partition3", mode, dist_s, m, med, mn, mx, min_bytes);
            }
          }
        }
      }
    }
  }

  // summary: uniform, largest n, G elements/s per method and m
  std::printf("\n# summary (uniform, n = 2^%s): G elements/s\n", ns.back().c_str());
  const size_t nmax = size_t(1) << std::atoi(ns.back().c_str());
  for (const std::string &mode : modes) {
    std::vector<std::string> methods;
    for (const result &r : results)
      if (r.mode == mode && r.n == nmax && r.dist == "uniform" && r.m > 0 &&
          std::find(methods.begin(), methods.end(), r.method) == methods.end())
        methods.push_back(r.method);
    std::printf("%-6s %4s", mode.c_str(), "m");
    for (const std::string &me : methods) std::printf(" %14s", me.c_str());
    std::printf("\n");
    for (const std::string &m_s : msl) {
      const uint32_t m = uint32_t(std::atoi(m_s.c_str()));
      std::printf("%-6s %4u", "", m);
      for (const std::string &me : methods) {
        double g = -1;
        for (const result &r : results)
          if (r.mode == mode && r.n == nmax && r.dist == "uniform" && r.m == m && r.method == me) g = r.geps;
        if (g < 0) std::printf(" %14s", "-");
        else std::printf(" %14.1f", g);
      }
      std::printf("\n");
    }
    for (const result &r : results)
      if (r.mode == mode && r.n == nmax && r.m == 0) std::printf("%-6s %s: %.1f G/s\n", "", r.method.c_str(), r.geps);
  }

  if (!json.empty()) {
    FILE *f = bench::json_open(json, "msplit_bench", mc, commit, command, trials,
                               "bytes that must move (read + write of keys or pairs once) / measured copy bandwidth");
    if (!f) return 1;
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < results.size(); ++i) {
      const result &r = results[i];
      std::fprintf(f,
                   "    {\"method\": \"%s\", \"mode\": \"%s\", \"dist\": \"%s\", \"n\": %zu, \"m\": %u, \"median_ms\": %.4f, "
                   "\"min_ms\": %.4f, \"max_ms\": %.4f, \"g_elements_per_s\": %.2f, \"bound_fraction\": %.3f}%s\n",
                   r.method.c_str(), r.mode.c_str(), r.dist.c_str(), r.n, r.m, r.median_ms, r.min_ms, r.max_ms, r.geps,
                   r.bound_fraction, i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("# wrote %s\n", json.c_str());
  }
  return 0;
}
