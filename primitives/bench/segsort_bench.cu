// segsort_bench: segmented sort throughput against CUB on the same inputs, in the same process.
//
// For each segment-length distribution: msplit_segmented_sort (pairs, u32 keys + u32 values, u32
// offsets, through the C API), CUB's DeviceSegmentedSort::SortPairs and ::StableSortPairs, and
// DeviceSegmentedRadixSort::SortPairs on the same device arrays. msplit's output is compared
// element for element with CUB's stable sort (both are stable, so they must agree exactly).
// Distributions: "lenL" = back-to-back segments of exactly L items; "powerlaw" = lengths with
// P(len >= x) ~ x^-(alpha - 1) on 1 .. 2^16 (Pareto, alpha 1.5: most items in segments longer than
// 4,096) and "powerlaw2" (alpha 2: most segments short, a long tail). Keys are uniform 32-bit.
// Protocol: one warm-up, then --trials timed runs (CUDA events), median, min and max. n = 2^26
// pairs by default (1 GB moved per run, many times the L2). Bandwidth bound: each pair read and
// written once (16 bytes) at the measured device-to-device copy bandwidth.
//
//   segsort_bench [--n 26] [--dists len8,len32,len128,len512,len2048,len4096,powerlaw,powerlaw2,len1048576,len67108864]
//                 [--trials 10] [--no-cub] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "bench_util.h"
#include "msplit/msplit.h"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using bench::hash32;

__global__ void gen_pairs(uint32_t *keys, uint32_t *values, size_t n, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    keys[i] = hash32(seed * 0x9E3779B97F4A7C15ull + i);
    values[i] = uint32_t(i);
  }
}

// Back-to-back segment offsets (num_segments + 1 entries) covering exactly n items.
std::vector<uint32_t> make_offsets(const std::string &dist, size_t n, uint64_t seed) {
  std::vector<uint32_t> off{0};
  size_t pos = 0;
  if (dist.rfind("len", 0) == 0) {
    const size_t len = size_t(std::atoll(dist.c_str() + 3));
    while (pos < n) off.push_back(uint32_t(pos = std::min(n, pos + len)));
    return off;
  }
  const double alpha = dist == "powerlaw2" ? 2.0 : 1.5, max_len = 65536.0;
  uint64_t s = seed;
  while (pos < n) {
    const double u = double(hash32(s++) >> 8) / double(1u << 24);
    const double x = std::pow(1.0 - u * (1.0 - std::pow(max_len, 1.0 - alpha)), -1.0 / (alpha - 1.0));
    const size_t len = std::max<size_t>(1, size_t(x));
    off.push_back(uint32_t(pos = std::min(n, pos + len)));
  }
  return off;
}

struct result {
  std::string method, dist;
  size_t n, segments, temp_bytes;
  double median_ms, min_ms, max_ms, gps, bound_fraction;
};

}  // namespace

int main(int argc, char **argv) {
  std::string dists_s = "len8,len32,len128,len512,len2048,len4096,powerlaw,powerlaw2,len1048576,len67108864";
  std::string json, commit = MSPLIT_BENCH_COMMIT;
  int log2n = 26, trials = 10;
  bool cub = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--n") log2n = std::atoi(next().c_str());
    else if (a == "--dists") dists_s = next();
    else if (a == "--trials") trials = std::atoi(next().c_str());
    else if (a == "--no-cub") cub = false;
    else if (a == "--json") json = next();
    else if (a == "--commit") commit = next();
    else {
      std::fprintf(stderr, "usage: segsort_bench [--n 26] [--dists ...] [--trials 10] [--no-cub] [--json FILE] [--commit SHA]\n");
      return 2;
    }
  }
  const size_t n = size_t(1) << log2n;
  if (!bench::require_device()) return 77;
  bench::machine mc;
  const double copy_bw = bench::copy_bandwidth(n * 8, trials);
  std::printf("# %s, CUDA runtime %d, n = 2^%d pairs (u32 + u32), copy bandwidth %.0f GB/s\n", mc.prop.name, mc.runtime,
              log2n, copy_bw / 1e9);
  const double bytes_moved = 16.0 * double(n);

  uint32_t *kin, *vin, *kout, *vout, *kref, *vref, *d_off;
  CHECK_CUDA(cudaMalloc(&kin, n * 4));
  CHECK_CUDA(cudaMalloc(&vin, n * 4));
  CHECK_CUDA(cudaMalloc(&kout, n * 4));
  CHECK_CUDA(cudaMalloc(&vout, n * 4));
  CHECK_CUDA(cudaMalloc(&kref, n * 4));
  CHECK_CUDA(cudaMalloc(&vref, n * 4));
  gen_pairs<<<1024, 256>>>(kin, vin, n, 1);
  CHECK_CUDA(cudaGetLastError());
  bench::dev_pool p_temp, p_off;
  bench::timer tm;
  std::vector<result> results;
  int failures = 0;
  std::printf("%-10s %10s  %-22s %10s %10s %8s %12s\n", "dist", "segments", "method", "median_ms", "G pairs/s", "bound",
              "temp MB");
  for (const std::string &dist : bench::split_list(dists_s)) {
    const std::vector<uint32_t> off = make_offsets(dist, n, 7);
    const size_t S = off.size() - 1;
    d_off = static_cast<uint32_t *>(p_off.get(off.size() * 4));
    CHECK_CUDA(cudaMemcpy(d_off, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
    const int *ib = reinterpret_cast<const int *>(d_off), *ie = ib + 1;
    auto add = [&](const char *method, size_t temp_bytes, const bench::timing &t) {
      const double gps = double(n) / (t.median_ms * 1e-3) / 1e9;
      const double frac = bytes_moved / (t.median_ms * 1e-3) / copy_bw;
      results.push_back({method, dist, n, S, temp_bytes, t.median_ms, t.min_ms, t.max_ms, gps, frac});
      std::printf("%-10s %10zu  %-22s %10.3f %10.2f %8.3f %12.1f\n", dist.c_str(), S, method, t.median_ms, gps, frac,
                  double(temp_bytes) / 1e6);
      std::fflush(stdout);
    };
    // msplit
    size_t bytes = 0;
    MS(msplit_segmented_sort(nullptr, &bytes, kin, kout, vin, vout, n, S, d_off, d_off + 1, MSPLIT_TYPE_U32,
                             MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, 0, nullptr));
    void *t = p_temp.get(bytes);
    const size_t ms_bytes = bytes;
    add("msplit", ms_bytes, tm.run([&] {
      MS(msplit_segmented_sort(t, &bytes, kin, kout, vin, vout, n, S, d_off, d_off + 1, MSPLIT_TYPE_U32,
                               MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, 0, nullptr));
    }, trials));
    MS(msplit_check_sync(t, ms_bytes, nullptr));
    if (!cub) continue;
    // CUB, same arrays (two-phase: `call(temp, bytes)` with temp NULL sizes it); the stable
    // sort's output is the reference
    auto time_cub = [&](const char *method, auto call) {
      size_t cub_bytes = 0;
      CHECK_CUDA(call(nullptr, cub_bytes));
      void *cub_temp = p_temp.get(cub_bytes);
      add(method, cub_bytes, tm.run([&] { CHECK_CUDA(call(cub_temp, cub_bytes)); }, trials));
    };
    const int64_t n64 = int64_t(n), s64 = int64_t(S);
    time_cub("cub_stable_sort_pairs", [&](void *tp, size_t &tb) {
      return cub::DeviceSegmentedSort::StableSortPairs(tp, tb, kin, kref, vin, vref, n64, s64, ib, ie);
    });
    {
      std::vector<uint32_t> a(n), b(n), c(n), d(n);
      CHECK_CUDA(cudaMemcpy(a.data(), kout, n * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(b.data(), kref, n * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(c.data(), vout, n * 4, cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(d.data(), vref, n * 4, cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t i = 0; i < n; ++i) bad += a[i] != b[i] || c[i] != d[i];
      std::printf("%-10s %10zu  msplit vs CUB stable: %s (%zu differ)\n", dist.c_str(), S, bad ? "MISMATCH" : "identical",
                  bad);
      failures += bad != 0;
    }
    time_cub("cub_sort_pairs", [&](void *tp, size_t &tb) {
      return cub::DeviceSegmentedSort::SortPairs(tp, tb, kin, kref, vin, vref, n64, s64, ib, ie);
    });
    if (double(n) / double(S) < 32) {  // one block per segment: seconds per run there, and no contest
      std::printf("%-10s %10zu  cub_segmented_radix: skipped (mean length below 32)\n", dist.c_str(), S);
      continue;
    }
    time_cub("cub_segmented_radix", [&](void *tp, size_t &tb) {
      return cub::DeviceSegmentedRadixSort::SortPairs(tp, tb, kin, kref, vin, vref, n64, s64, ib, ie);
    });
  }

  if (!json.empty()) {
    FILE *f = bench::json_open(json, "segsort_bench", mc, commit, bench::command_line(argc, argv), trials,
                               "each pair read and written once (16 bytes per pair) / measured copy bandwidth");
    if (!f) return 1;
    std::fprintf(f, "  \"copy_bandwidth_gbs\": %.1f,\n  \"results\": [\n", copy_bw / 1e9);
    for (size_t i = 0; i < results.size(); ++i) {
      const result &r = results[i];
      std::fprintf(f,
                   "    {\"method\": \"%s\", \"mode\": \"pairs\", \"dist\": \"%s\", \"n\": %zu, \"segments\": %zu, "
                   "\"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, \"g_pairs_per_s\": %.2f, "
                   "\"bound_fraction\": %.3f, \"temp_bytes\": %zu}%s\n",
                   r.method.c_str(), r.dist.c_str(), r.n, r.segments, r.median_ms, r.min_ms, r.max_ms, r.gps,
                   r.bound_fraction, r.temp_bytes, i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("# wrote %s\n", json.c_str());
  }
  std::printf("%s\n", failures ? "FAIL: msplit and CUB differ" : "# msplit agrees with CUB's stable sort everywhere");
  return failures ? 1 : 0;
}
