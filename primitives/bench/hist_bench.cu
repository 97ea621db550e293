// hist_bench: msplit's histogram against CUB's DeviceHistogram on the same samples, in the same
// process.
//
// For each sample type, distribution and m: msplit::histogram_even against
// cub::DeviceHistogram::HistogramEven, and msplit::histogram_range against HistogramRange, on the
// same bins (even bins of width span / m from 0; range boundaries at the same places), both
// overwriting a 32-bit histogram; the two histograms are compared (a "match" column). Then the
// ablations behind detail/histogram/tuning.h: each way of counting forced (sliced shared counters
// vs global atomics, and two slice sizes, at large m).
// Samples: f32 uniform in [0, 1024) ("uniform") or all 512.5 ("equal"); u8/u16/u32 uniform over the
// type (span 2^8, 2^16, 2^32). Protocol: one warm-up, then --trials timed runs (CUDA events),
// median, min and max. The bound: the samples read once at the measured copy bandwidth.
//
//   hist_bench [--n 28] [--m 2,16,256,1024,4096,65536] [--types f32] [--dist uniform]
//              [--trials 20] [--no-ablation] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cub/device/device_histogram.cuh>

#include "msplit/histogram.cuh"
#include "bench_util.h"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using bench::dev_pool;
using bench::hash32;
using bench::split_list;
using bench::timer;

struct result {
  std::string method, type, dist, kind;
  size_t n;
  uint32_t m;
  double median_ms, min_ms, max_ms, gsps, bound_fraction;
  size_t temp_bytes;
  int match;  // 1 equal to CUB's histogram, 0 not, -1 not compared
};

// Samples: uniform over the span, or all one value in the middle.
template <typename T>
__global__ void gen_samples(T *s, size_t n, bool equal, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t h = hash32(seed * 0x9E3779B97F4A7C15ull + i);
    if constexpr (std::is_floating_point_v<T>) s[i] = equal ? T(512.5) : T(h >> 8) * T(1024.0 / 16777216.0);
    else s[i] = equal ? T(T(~T(0)) / 2) : T(h);
  }
}

// The span of the samples' values, as the bins' level type.
template <typename T>
double span_of() {
  if constexpr (std::is_floating_point_v<T>) return 1024.0;
  else return double(uint64_t(1) << (8 * sizeof(T)));
}

template <typename T> const char *type_name();
template <> const char *type_name<float>() { return "f32"; }
template <> const char *type_name<uint8_t>() { return "u8"; }
template <> const char *type_name<uint16_t>() { return "u16"; }
template <> const char *type_name<uint32_t>() { return "u32"; }

// CUB's level type for T samples: int for 8/16-bit (so that the top bin can end at 2^bits),
// 64-bit for u32 (the top boundary 2^32), T for floats.
template <typename T>
using cub_level_t = std::conditional_t<std::is_floating_point_v<T>, T, std::conditional_t<sizeof(T) < 4, int, long long>>;

struct bench_state {
  std::vector<result> results;
  timer tm;
  dev_pool p_temp, p_hist, p_hist_cub, p_levels, p_levels_cub;
  double copy_bw = 0;
  int trials = 20;
  void add(result r, const char *n_label) {
    r.gsps = r.n / (r.median_ms * 1e-3) / 1e9;
    results.push_back(r);
    std::printf("%-18s %-4s %-8s %-5s n=2^%-2s m=%-6u %9.3f ms  %7.1f G/s  %5.1f%% of bound%s\n", r.method.c_str(),
                r.type.c_str(), r.dist.c_str(), r.kind.c_str(), n_label, r.m, r.median_ms, r.gsps,
                100 * r.bound_fraction, r.match == 0 ? "  MISMATCH vs CUB" : "");
    std::fflush(stdout);
  }
};

bool same_hist(const uint32_t *a, const uint32_t *b, uint32_t m) {
  std::vector<uint32_t> ha(m), hb(m);
  CHECK_CUDA(cudaMemcpy(ha.data(), a, m * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hb.data(), b, m * 4, cudaMemcpyDeviceToHost));
  return ha == hb;
}

template <typename T>
void run_type(bench_state &st, const T *d_s, size_t n, const char *n_label, const std::string &dist,
              const std::vector<uint32_t> &ms) {
  using L = msplit::histogram_level_t<T>;
  using CL = cub_level_t<T>;
  const double bytes = double(n) * sizeof(T);
  auto fraction = [&](double ms) { return st.copy_bw > 0 ? bytes / (ms * 1e-3) / st.copy_bw : 0; };
  for (uint32_t m : ms) {
    const double span = span_of<T>();
    if (!std::is_floating_point_v<T> && span < m) continue;  // integer bins narrower than 1
    uint32_t *h = static_cast<uint32_t *>(st.p_hist.get(size_t(m) * 4));
    uint32_t *hc = static_cast<uint32_t *>(st.p_hist_cub.get(size_t(m) * 4));
    // boundaries b * span / m, as msplit's and CUB's level types
    std::vector<L> lv(size_t(m) + 1);
    std::vector<CL> lvc(size_t(m) + 1);
    for (uint32_t b = 0; b <= m; ++b) {
      const double x = double(b) * span / m;
      lvc[b] = CL(x);
      lv[b] = b == m && !std::is_floating_point_v<T> && x > double(std::numeric_limits<L>::max())
                  ? std::numeric_limits<L>::max()  // u32: 2^32 is no u32 (the top sample is then in no bin)
                  : L(x);
    }
    L *d_lv = static_cast<L *>(st.p_levels.get(lv.size() * sizeof(L)));
    CL *d_lvc = static_cast<CL *>(st.p_levels_cub.get(lvc.size() * sizeof(CL)));
    CHECK_CUDA(cudaMemcpy(d_lv, lv.data(), lv.size() * sizeof(L), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_lvc, lvc.data(), lvc.size() * sizeof(CL), cudaMemcpyHostToDevice));
    const L lower = L(0), width = L(span / m);
    const int num_levels = int(m) + 1;
    const int64_t nn = int64_t(n);
    for (const char *kind : {"even", "range"}) {
      const bool even = kind[0] == 'e';
      size_t mb = 0, cb = 0;
      double med, mn, mx;
      // msplit
      if (even) MS(msplit::histogram_even(nullptr, &mb, d_s, n, m, lower, width, h));
      else MS(msplit::histogram_range(nullptr, &mb, d_s, n, m, d_lv, h));
      void *t = st.p_temp.get(mb);
      if (even) st.tm.run([&] { MS(msplit::histogram_even(t, &mb, d_s, n, m, lower, width, h)); }, st.trials, med, mn, mx);
      else st.tm.run([&] { MS(msplit::histogram_range(t, &mb, d_s, n, m, d_lv, h)); }, st.trials, med, mn, mx);
      const std::string method = std::string("msplit_") + kind;
      result r{method, type_name<T>(), dist, kind, n, m, med, mn, mx, 0, fraction(med), mb, -1};
      // CUB, same bins
      if (even) {
        CHECK_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, cb, d_s, hc, num_levels, CL(0), CL(span), nn));
        void *tc = st.p_temp.get(std::max(cb, mb));
        st.tm.run([&] { CHECK_CUDA(cub::DeviceHistogram::HistogramEven(tc, cb, d_s, hc, num_levels, CL(0), CL(span), nn)); },
                  st.trials, med, mn, mx);
      } else {
        CHECK_CUDA(cub::DeviceHistogram::HistogramRange(nullptr, cb, d_s, hc, num_levels, d_lvc, nn));
        void *tc = st.p_temp.get(std::max(cb, mb));
        st.tm.run([&] { CHECK_CUDA(cub::DeviceHistogram::HistogramRange(tc, cb, d_s, hc, num_levels, d_lvc, nn)); },
                  st.trials, med, mn, mx);
      }
      // msplit's histogram again (CUB's run reused the temporary storage), then compare
      if (even) MS(msplit::histogram_even(t, &mb, d_s, n, m, lower, width, h));
      else MS(msplit::histogram_range(t, &mb, d_s, n, m, d_lv, h));
      CHECK_CUDA(cudaDeviceSynchronize());
      r.match = same_hist(h, hc, m) ? 1 : 0;
      st.add(r, n_label);
      st.add(result{std::string("cub_") + kind, type_name<T>(), dist, kind, n, m, med, mn, mx, 0, fraction(med), cb, -1},
             n_label);
    }
  }
}

// The ablations of detail/histogram/tuning.h on f32 samples: each way of counting forced, for even
// bins and for range bins (boundaries at the same places).
void run_ablation(bench_state &st, const float *d_s, size_t n, const char *n_label, const std::string &dist) {
  using msplit::detail::hist_mode;
  const double bytes = double(n) * 4;
  struct forced {
    const char *name;
    hist_mode mode;
    uint32_t slice;
    std::vector<uint32_t> ms;
  };
  const std::vector<forced> runs = {
      {"shared", hist_mode::SHARED, 16384, {2, 4, 8, 16, 32, 64, 4096, 65536}},
      {"shared_slice8k", hist_mode::SHARED, 8192, {65536}},
      {"shared_slice32k", hist_mode::SHARED, 32768, {65536}},
      {"global", hist_mode::GLOBAL, 0, {4096, 65536, 1u << 18}},
  };
  auto time_plan = [&](const char *kind, const forced &f, uint32_t m, auto op) {
    uint32_t *h = static_cast<uint32_t *>(st.p_hist.get(size_t(m) * 4));
    const size_t stage = msplit::detail::histogram_stage_bytes(op, msplit::tuning::HIST_MAX_STAGE_BYTES);
    const msplit::detail::hist_plan p = msplit::detail::plan_for_mode(f.mode, m, f.slice ? f.slice : m, stage);
    double med, mn, mx;
    st.tm.run([&] {
      CHECK_CUDA(cudaMemsetAsync(h, 0, size_t(m) * 4));
      MS((msplit::detail::histogram_run_plan<float, float>(p, d_s, n, m, op, h, false, nullptr, false, 0)));
    }, st.trials, med, mn, mx);
    st.add(result{std::string("force_") + f.name, "f32", dist, kind, n, m, med, mn, mx, 0,
                  st.copy_bw > 0 ? bytes / (med * 1e-3) / st.copy_bw : 0, 0, -1},
           n_label);
  };
  for (const forced &f : runs) {
    for (uint32_t m : f.ms) {
      time_plan("even", f, m, msplit::delta_bucket<float>(0.0f, 1024.0f / m, m));
      std::vector<float> lv(size_t(m) + 1);
      for (uint32_t b = 0; b <= m; ++b) lv[b] = float(double(b) * 1024.0 / m);
      float *d_lv = static_cast<float *>(st.p_levels.get(lv.size() * sizeof(float)));
      CHECK_CUDA(cudaMemcpy(d_lv, lv.data(), lv.size() * sizeof(float), cudaMemcpyHostToDevice));
      msplit::splitter_bucket<float> range;
      range.splitters = d_lv;
      range.num_splitters = m + 1;
      time_plan("range", f, m, range);
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  std::string n_s = "28", commit = MSPLIT_BENCH_COMMIT, json;
  std::vector<std::string> msl = {"2", "16", "256", "1024", "4096", "65536"}, types = {"f32"}, dists = {"uniform"};
  int trials = 20;
  bool ablation = true;
  const std::string command = bench::command_line(argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "hist_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--n") n_s = next();
    else if (a == "--m") msl = split_list(next());
    else if (a == "--types") types = split_list(next());
    else if (a == "--dist") dists = split_list(next());
    else if (a == "--trials") trials = std::max(1, std::atoi(next().c_str()));
    else if (a == "--no-ablation") ablation = false;
    else if (a == "--json") json = next();
    else if (a == "--commit") commit = next();
    else {
      std::fprintf(stderr, "hist_bench: unknown option %s (see the header of hist_bench.cu)\n", a.c_str());
      return 2;
    }
  }
  if (!bench::require_device()) return 77;
  bench_state st;  // its timer's events need the device
  st.trials = trials;
  const bench::machine mc;
  std::printf("# %s, CUDA runtime %d, driver %d, commit %s\n# %s\n", mc.prop.name, mc.runtime, mc.driver,
              commit.c_str(), command.c_str());
  const size_t n = size_t(1) << std::atoi(n_s.c_str());
  std::vector<uint32_t> ms;
  for (const std::string &m : msl) ms.push_back(uint32_t(std::atoi(m.c_str())));
  st.copy_bw = bench::copy_bandwidth(n * 4, st.trials);
  std::printf("# copy bandwidth %.0f GB/s (read + write), n = 2^%s\n", st.copy_bw / 1e9, n_s.c_str());

  void *d_s = nullptr;
  CHECK_CUDA(cudaMalloc(&d_s, n * 4));
  for (const std::string &dist : dists) {
    const bool equal = dist == "equal";
    for (const std::string &ty : types) {
      if (ty == "f32") {
        gen_samples<<<4096, 256>>>(static_cast<float *>(d_s), n, equal, 1);
        run_type(st, static_cast<const float *>(d_s), n, n_s.c_str(), dist, ms);
        if (ablation) run_ablation(st, static_cast<const float *>(d_s), n, n_s.c_str(), dist);
      } else if (ty == "u8") {
        gen_samples<<<4096, 256>>>(static_cast<uint8_t *>(d_s), n, equal, 2);
        run_type(st, static_cast<const uint8_t *>(d_s), n, n_s.c_str(), dist, ms);
      } else if (ty == "u16") {
        gen_samples<<<4096, 256>>>(static_cast<uint16_t *>(d_s), n, equal, 3);
        run_type(st, static_cast<const uint16_t *>(d_s), n, n_s.c_str(), dist, ms);
      } else if (ty == "u32") {
        gen_samples<<<4096, 256>>>(static_cast<uint32_t *>(d_s), n, equal, 4);
        run_type(st, static_cast<const uint32_t *>(d_s), n, n_s.c_str(), dist, ms);
      } else {
        std::fprintf(stderr, "hist_bench: unknown type %s (f32, u8, u16, u32)\n", ty.c_str());
        return 2;
      }
      CHECK_CUDA(cudaGetLastError());
    }
  }

  // summary: G samples/s, msplit vs CUB and the ratio
  std::printf("\n# summary (n = 2^%s): G samples/s, msplit / CUB\n", n_s.c_str());
  std::printf("%-4s %-8s %6s %9s %9s %6s %9s %9s %6s\n", "type", "dist", "m", "even", "cub_even", "x", "range",
              "cub_range", "x");
  for (const std::string &dist : dists)
    for (const std::string &ty : types)
      for (uint32_t m : ms) {
        double g[4] = {-1, -1, -1, -1};
        const char *names[4] = {"msplit_even", "cub_even", "msplit_range", "cub_range"};
        for (const result &r : st.results)
          for (int k = 0; k < 4; ++k)
            if (r.type == ty && r.dist == dist && r.m == m && r.method == names[k]) g[k] = r.gsps;
        if (g[0] < 0) continue;
        std::printf("%-4s %-8s %6u %9.1f %9.1f %6.2f %9.1f %9.1f %6.2f\n", ty.c_str(), dist.c_str(), m, g[0], g[1],
                    g[0] / g[1], g[2], g[3], g[2] / g[3]);
      }

  if (!json.empty()) {
    FILE *f = bench::json_open(json, "hist_bench", mc, commit, command, st.trials,
                               "samples read once (n x sample bytes) / measured copy bandwidth (read + write)");
    if (!f) return 1;
    std::fprintf(f, "  \"copy_bandwidth_gbps\": %.1f,\n  \"results\": [\n", st.copy_bw / 1e9);
    for (size_t i = 0; i < st.results.size(); ++i) {
      const result &r = st.results[i];
      std::fprintf(f,
                   "    {\"method\": \"%s\", \"type\": \"%s\", \"dist\": \"%s\", \"kind\": \"%s\", \"n\": %zu, \"m\": %u, "
                   "\"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, \"g_samples_per_s\": %.2f, "
                   "\"bound_fraction\": %.3f, \"temp_bytes\": %zu, \"match_cub\": %d}%s\n",
                   r.method.c_str(), r.type.c_str(), r.dist.c_str(), r.kind.c_str(), r.n, r.m, r.median_ms, r.min_ms,
                   r.max_ms, r.gsps, r.bound_fraction, r.temp_bytes, r.match, i + 1 < st.results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("# wrote %s\n", json.c_str());
  }
  CHECK_CUDA(cudaFree(d_s));
  return 0;
}
