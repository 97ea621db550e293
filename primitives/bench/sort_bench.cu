// sort_bench: msplit radix sort against CUB DeviceRadixSort on the same data, in the same process.
//
// Configurations (uniform random keys from a fixed seed; values = positions): u32 keys on all 32
// bits and on bit ranges [0, b) for b = 1, 2, 4, 6, 8, 16; u32 + u32 pairs; u64 + u32 pairs; u64
// keys. Both sorts use the plain in/out form (inputs untouched) and every msplit result is
// compared with CUB's, element for element, on the device. Protocol: one warm-up, then --trials
// timed runs (CUDA events), median, min and max; inputs of 2^28 elements (1 GB of u32 keys, far
// larger than the L2). The bandwidth bound: an LSD sort with P passes moves at least
// key + P x 2 x (key + value) bytes per element (one read to count, then a read and a write per
// pass), reported as a fraction of the device-to-device copy bandwidth. First it compares the
// temporary storage of both for 120 calls (every key and value width, several n and bit ranges).
//
//   sort_bench [--n 28] [--configs keys32,bits1,bits2,bits4,bits6,bits8,bits16,pairs32,pairs64_32,keys64]
//              [--trials 10] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "msplit/radix_sort.cuh"
#include "bench_util.h"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using bench::hash32;

template <typename K>
__global__ void gen(K *keys, uint32_t *values, size_t n, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t k = hash32(seed * 0x9E3779B97F4A7C15ull + i);
    if (sizeof(K) == 8) k |= uint64_t(hash32(seed + 0x51ED27ull * i + 1)) << 32;
    keys[i] = K(k);
    if (values) values[i] = uint32_t(i);
  }
}

template <typename T>
__global__ void count_diff(const T *a, const T *b, size_t n, unsigned long long *diff) {
  unsigned long long d = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    d += a[i] != b[i];
  if (d) atomicAdd(diff, d);
}

template <typename T>
unsigned long long differences(const T *a, const T *b, size_t n) {
  unsigned long long *d, h = 0;
  CHECK_CUDA(cudaMalloc(&d, sizeof h));
  CHECK_CUDA(cudaMemset(d, 0, sizeof h));
  count_diff<<<2048, 256>>>(a, b, n, d);
  CHECK_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  return h;
}

// The upfront histogram alone (all passes' digit counts in one read), for u32 keys on 32 bits:
// the part of a sort that is not a sweep.
double histogram_ms(size_t n, int trials) {
  using namespace msplit::detail;
  uint32_t *keys;
  unsigned long long *hist;
  CHECK_CUDA(cudaMalloc(&keys, n * 4));
  CHECK_CUDA(cudaMalloc(&hist, 4 * RADIX_DIGITS * sizeof *hist));
  gen<uint32_t><<<4096, 256>>>(keys, nullptr, n, 7);
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  constexpr int HT = msplit::tuning::RADIX_HISTOGRAM_THREADS, HI = msplit::tuning::RADIX_HISTOGRAM_ITEMS;
  const size_t tiles = (n + size_t(HT) * HI - 1) / (size_t(HT) * HI);
  const size_t grid = std::min(tiles, size_t(sms) * msplit::tuning::RADIX_HISTOGRAM_BLOCKS_PER_SM);
  const radix_histogram_args<uint32_t> a{keys, n, make_key_codec<uint32_t>(false), 0, 32, 4, hist};
  bench::timer tm;
  const bench::timing t = tm.run(
      [&] {
        CHECK_CUDA(cudaMemsetAsync(hist, 0, 4 * RADIX_DIGITS * sizeof *hist));
        radix_histogram_kernel<HT, HI, uint32_t><<<unsigned(grid), HT>>>(a);
      },
      trials);
  cudaFree(keys);
  cudaFree(hist);
  return t.median_ms;
}

// Temporary storage of msplit and CUB for the same call (size queries only), for each key and
// value width, several n and bit ranges; returns the number of calls where msplit needs more.
template <typename K, typename V>
int temp_vs_cub(const char *name) {
  constexpr bool PAIRS = !std::is_void_v<V>;
  using VV = std::conditional_t<PAIRS, V, uint32_t>;
  int worse = 0;
  const int width = int(sizeof(K) * 8);
  for (size_t n : {size_t(1000), size_t(1000003), size_t(1) << 28, (size_t(1) << 31) + 4097})
    for (int bits : {1, 6, 8, 16, width}) {
      size_t mine = 0, cub_bytes = 0;
      K *k = nullptr;
      VV *v = nullptr;
      if constexpr (PAIRS) {
        MS(msplit::radix_sort_pairs(nullptr, &mine, k, k, v, v, n, 0, bits));
        CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, k, k, v, v, n, 0, bits));
      } else {
        MS(msplit::radix_sort_keys(nullptr, &mine, k, k, n, 0, bits));
        CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, k, k, n, 0, bits));
      }
      if (mine > cub_bytes) {
        ++worse;
        std::printf("# temp %s n=%zu bits=%d: msplit %zu > CUB %zu\n", name, n, bits, mine, cub_bytes);
      }
    }
  return worse;
}

struct result {
  std::string config;
  int bits;
  double ms, ms_min, ms_max, cub_ms, cub_min, cub_max;
  size_t temp, cub_temp;
  unsigned long long diff;
};

// One configuration: K keys, V values (void: keys only), bits [0, end_bit).
template <typename K, typename V>
result run_config(const std::string &name, size_t n, int end_bit, int trials) {
  constexpr bool PAIRS = !std::is_void_v<V>;
  K *kin, *kout, *kcub;
  uint32_t *vin = nullptr, *vout = nullptr, *vcub = nullptr;
  CHECK_CUDA(cudaMalloc(&kin, n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&kout, n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&kcub, n * sizeof(K)));
  if (PAIRS) {
    CHECK_CUDA(cudaMalloc(&vin, n * 4));
    CHECK_CUDA(cudaMalloc(&vout, n * 4));
    CHECK_CUDA(cudaMalloc(&vcub, n * 4));
  }
  gen<K><<<4096, 256>>>(kin, vin, n, 7);
  CHECK_CUDA(cudaGetLastError());
  result r{name, end_bit, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  bench::dev_pool pool, cub_pool;
  void *temp = nullptr, *cub_temp = nullptr;
  if constexpr (PAIRS) {
    MS(msplit::radix_sort_pairs(nullptr, &r.temp, kin, kout, vin, vout, n, 0, end_bit));
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, r.cub_temp, kin, kcub, vin, vcub, n, 0, end_bit));
  } else {
    MS(msplit::radix_sort_keys(nullptr, &r.temp, kin, kout, n, 0, end_bit));
    CHECK_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, r.cub_temp, kin, kcub, n, 0, end_bit));
  }
  temp = pool.get(r.temp);
  cub_temp = cub_pool.get(r.cub_temp);
  bench::timer tm;
  size_t tb = r.temp, cb = r.cub_temp;
  tm.run(
      [&] {
        if constexpr (PAIRS) MS(msplit::radix_sort_pairs(temp, &tb, kin, kout, vin, vout, n, 0, end_bit));
        else MS(msplit::radix_sort_keys(temp, &tb, kin, kout, n, 0, end_bit));
      },
      trials, r.ms, r.ms_min, r.ms_max);
  tm.run(
      [&] {
        if constexpr (PAIRS) CHECK_CUDA(cub::DeviceRadixSort::SortPairs(cub_temp, cb, kin, kcub, vin, vcub, n, 0, end_bit));
        else CHECK_CUDA(cub::DeviceRadixSort::SortKeys(cub_temp, cb, kin, kcub, n, 0, end_bit));
      },
      trials, r.cub_ms, r.cub_min, r.cub_max);
  r.diff = differences(kout, kcub, n) + (PAIRS ? differences(vout, vcub, n) : 0);
  cudaFree(kin);
  cudaFree(kout);
  cudaFree(kcub);
  cudaFree(vin);
  cudaFree(vout);
  cudaFree(vcub);
  cudaFree(pool.p);
  cudaFree(cub_pool.p);
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  bench::sweep_args args;
  args.ns = {"28"};
  args.configs = bench::split_list("keys32,bits1,bits2,bits4,bits6,bits8,bits16,pairs32,pairs64_32,keys64");
  args.commit = MSPLIT_BENCH_COMMIT;
  if (!args.parse(argc, argv, "sort_bench")) return 2;
  const std::vector<std::string> &ns = args.ns, &configs = args.configs;
  const int trials = args.trials;
  const std::string &json = args.json, &commit = args.commit;
  if (!bench::require_device()) return 77;
  const bench::machine mc;
  const double bw = bench::copy_bandwidth(size_t(1) << 30, trials);
  std::printf("# %s, CUDA runtime %d, driver %d; copy bandwidth %.0f GB/s; commit %s\n", mc.prop.name, mc.runtime,
              mc.driver, bw / 1e9, commit.c_str());
  const int worse = temp_vs_cub<uint32_t, void>("u32") + temp_vs_cub<uint32_t, uint32_t>("u32+u32") +
                    temp_vs_cub<uint32_t, uint64_t>("u32+u64") + temp_vs_cub<uint64_t, void>("u64") +
                    temp_vs_cub<uint64_t, uint32_t>("u64+u32") + temp_vs_cub<uint64_t, uint64_t>("u64+u64");
  std::printf("# temporary storage: %d of 120 calls need more than CUB's\n", worse);
  for (const std::string &sn : ns)
    std::printf("# upfront histogram of 2^%s u32 keys, 4 passes: %.3f ms\n", sn.c_str(),
                histogram_ms(size_t(1) << std::atoi(sn.c_str()), trials));
  std::printf("%-11s %5s %3s %9s %9s %7s %7s %9s %9s %7s %12s %12s %s\n", "config", "log2n", "bits", "ms", "Gitems/s",
              "of bw", "", "cub ms", "cub G/s", "of bw", "temp", "cub temp", "speedup");
  FILE *f = json.empty() ? nullptr
                         : bench::json_open(json, "sort_bench", mc, commit, bench::command_line(argc, argv), trials,
                                            "LSD sort: key + passes x 2 x (key + value) bytes per element, as a "
                                            "fraction of the device-to-device copy bandwidth");
  if (f) std::fprintf(f, "  \"copy_bandwidth_GBps\": %.1f,\n  \"results\": [\n", bw / 1e9);
  bool first = true, mismatch = false;
  for (const std::string &sn : ns) {
    const int lg = std::atoi(sn.c_str());
    const size_t n = size_t(1) << lg;
    for (const std::string &c : configs) {
      result r;
      size_t kbytes = 4, vbytes = 0;
      if (c == "keys32") r = run_config<uint32_t, void>(c, n, 32, trials);
      else if (c.rfind("bits", 0) == 0) r = run_config<uint32_t, void>(c, n, std::atoi(c.c_str() + 4), trials);
      else if (c == "pairs32") r = run_config<uint32_t, uint32_t>(c, n, 32, trials), vbytes = 4;
      else if (c == "pairs64_32") r = run_config<uint64_t, uint32_t>(c, n, 64, trials), kbytes = 8, vbytes = 4;
      else if (c == "keys64") r = run_config<uint64_t, void>(c, n, 64, trials), kbytes = 8;
      else {
        std::fprintf(stderr, "sort_bench: unknown config %s\n", c.c_str());
        return 2;
      }
      const int passes = (r.bits + 7) / 8;
      const double bytes = double(n) * double(kbytes + passes * 2 * (kbytes + vbytes));
      const double g = double(n) / (r.ms * 1e6), cg = double(n) / (r.cub_ms * 1e6);
      const double fr = bytes / (r.ms * 1e-3) / bw, cfr = bytes / (r.cub_ms * 1e-3) / bw;
      std::printf("%-11s %5d %3d %9.3f %9.2f %6.1f%% %7s %9.3f %9.2f %6.1f%% %12zu %12zu %.2fx%s\n", c.c_str(), lg,
                  r.bits, r.ms, g, 100 * fr, "", r.cub_ms, cg, 100 * cfr, r.temp, r.cub_temp, r.cub_ms / r.ms,
                  r.diff ? "  MISMATCH" : "");
      mismatch = mismatch || r.diff;
      if (f) {
        std::fprintf(f,
                     "%s    {\"config\": \"%s\", \"log2n\": %d, \"key_bytes\": %zu, \"value_bytes\": %zu, \"bits\": %d, "
                     "\"msplit_ms\": %.4f, \"msplit_min_ms\": %.4f, \"msplit_max_ms\": %.4f, \"msplit_Gitems\": %.3f, "
                     "\"msplit_bw_fraction\": %.3f, \"cub_ms\": %.4f, \"cub_min_ms\": %.4f, \"cub_max_ms\": %.4f, "
                     "\"cub_Gitems\": %.3f, \"cub_bw_fraction\": %.3f, \"msplit_temp_bytes\": %zu, "
                     "\"cub_temp_bytes\": %zu, \"mismatches\": %llu}",
                     first ? "" : ",\n", c.c_str(), lg, kbytes, vbytes, r.bits, r.ms, r.ms_min, r.ms_max, g, fr,
                     r.cub_ms, r.cub_min, r.cub_max, cg, cfr, r.temp, r.cub_temp, r.diff);
        first = false;
      }
    }
  }
  if (f) {
    std::fprintf(f, "\n  ]\n}\n");
    std::fclose(f);
  }
  return mismatch ? 1 : 0;
}
