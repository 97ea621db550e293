// range_tree_bench: msplit's range tree (float coordinates) against its alternatives, on the same
// points and boxes, in the same process.
//
//   build    the tree of 2^n points (for each --n), against a CPU range tree of the same layout
//            built on all host cores (std::sort, then each level's node pairs std::merge'd, the
//            nodes dealt over std::thread).
//   count    2^--queries random square boxes of each selectivity (--configs: the fraction of
//            the unit square a box covers, so about selectivity x 2^n points each): counts with
//            their offsets, in queries per second. Against a brute-force GPU count (a block per
//            box scans every point; 2^--bf-queries boxes, the rate scaled) and the CPU tree
//            (the same searches, boxes dealt over std::thread). Every brute-force count is
//            compared with the tree's.
//   report   boxes of about 4,000 points (none below 1,000: the minimum is recorded): the
//            report call after the count, in output bytes (4 per index) per second. Against the
//            brute force writing the same slices (a block per box, shared-memory slots) and
//            the CPU tree.
// Points: x and y uniform in [0, 1) from a counter hash. Protocol: one untimed warm-up, then
// --trials timed runs (CUDA events on the GPU, steady_clock on the CPU); medians, min and max.
//
//   range_tree_bench [--n 22,24] [--configs 1e-6,1e-4,1e-2] [--queries 18] [--bf-queries 12]
//                    [--trials 5] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "msplit/detail/range_tree/search.cuh"
#include "msplit/range_tree.cuh"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using box = msplit::range_box<float>;
using msplit::detail::rt_view;

__global__ void points_kernel(float *x, float *y, uint64_t n) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  x[i] = float(bench::hash32(2 * i) >> 8) * (1.0f / 16777216.0f);
  y[i] = float(bench::hash32(2 * i + 1) >> 8) * (1.0f / 16777216.0f);
}

// Boxes of side sqrt(selectivity) at random places inside the unit square (seed: per selectivity).
std::vector<box> make_boxes(size_t q, double selectivity, uint64_t seed) {
  const float side = float(std::sqrt(selectivity));
  std::vector<box> b(q);
  for (size_t i = 0; i < q; ++i) {
    const float u = float(bench::hash32(seed * 1000003 + 2 * i) >> 8) * (1.0f / 16777216.0f) * (1 - side);
    const float v = float(bench::hash32(seed * 1000003 + 2 * i + 1) >> 8) * (1.0f / 16777216.0f) * (1 - side);
    b[i] = {u, u + side, v, v + side};
  }
  return b;
}

constexpr int BF_THREADS = 256;

// Brute force: a block per box, every point tested; the count, or (offsets given) the indices
// written into the box's slice through a shared-memory cursor.
__global__ void __launch_bounds__(BF_THREADS)
    brute_kernel(const float *x, const float *y, uint64_t n, const box *boxes, uint32_t *counts,
                 const uint64_t *offsets, uint32_t *out) {
  __shared__ unsigned long long cursor;
  __shared__ unsigned long long warp_counts[BF_THREADS / 32];
  const box b = boxes[blockIdx.x];
  if (threadIdx.x == 0) cursor = 0;
  __syncthreads();
  unsigned long long mine = 0;
  for (uint64_t i = threadIdx.x; i < n; i += BF_THREADS) {
    const float px = x[i], py = y[i];
    if (b.x_lo <= px && px <= b.x_hi && b.y_lo <= py && py <= b.y_hi) {
      if (out) out[offsets[blockIdx.x] + atomicAdd(&cursor, 1ull)] = uint32_t(i);
      ++mine;
    }
  }
  if (!counts) return;
  for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
  if (threadIdx.x % 32 == 0) warp_counts[threadIdx.x / 32] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long sum = 0;
    for (int w = 0; w < BF_THREADS / 32; ++w) sum += warp_counts[w];
    counts[blockIdx.x] = uint32_t(sum);
  }
}

// The CPU range tree: the library's layout in host memory, built with std::sort and std::merge,
// queried with the library's own searches (msplit/detail/range_tree/search.cuh).
struct cpu_tree {
  uint64_t n = 0;
  uint32_t levels = 0;
  std::vector<float> xs, ys;
  std::vector<uint32_t> ids, ranks;
  rt_view<float> view() const { return {n, levels, xs.data(), ids.data(), ys.data(), ranks.data(), n, n}; }
};

unsigned host_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// Runs f(begin, end) over [0, items) split among the host's threads.
template <typename F>
void parallel_for(uint64_t items, F f) {
  const unsigned t = unsigned(std::min<uint64_t>(host_threads(), std::max<uint64_t>(items, 1)));
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < t; ++k)
    pool.emplace_back([=] { f(items * k / t, items * (k + 1) / t); });
  for (auto &th : pool) th.join();
}

void cpu_build(cpu_tree &t, const std::vector<float> &x, const std::vector<float> &y) {
  const uint64_t n = x.size();
  t.n = n;
  t.levels = msplit::detail::rt_levels(n);
  t.ids.resize(n);
  t.xs.resize(n);
  t.ys.resize(n * t.levels);
  t.ranks.resize(n * t.levels);
  for (uint64_t i = 0; i < n; ++i) t.ids[i] = uint32_t(i);
  std::sort(t.ids.begin(), t.ids.end(), [&](uint32_t a, uint32_t b) { return x[a] < x[b]; });
  parallel_for(n, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      t.xs[i] = x[t.ids[i]];
      t.ys[i] = y[t.ids[i]];
      t.ranks[i] = uint32_t(i);
    }
  });
  std::vector<std::pair<float, uint32_t>> buf;
  for (uint32_t l = 0; l + 1 < t.levels; ++l) {
    const uint64_t size = uint64_t(1) << l, pairs = (n + 2 * size - 1) / (2 * size);
    const float *ys = &t.ys[l * n];
    const uint32_t *rk = &t.ranks[l * n];
    float *ys_out = &t.ys[(l + 1) * n];
    uint32_t *rk_out = &t.ranks[(l + 1) * n];
    parallel_for(pairs, [&](uint64_t b, uint64_t e) {
      std::vector<std::pair<float, uint32_t>> left, right, merged;
      for (uint64_t p = b; p < e; ++p) {
        const uint64_t s = p * 2 * size, m = std::min(s + size, n), end = std::min(s + 2 * size, n);
        left.clear();
        right.clear();
        merged.clear();
        for (uint64_t i = s; i < m; ++i) left.emplace_back(ys[i], rk[i]);
        for (uint64_t i = m; i < end; ++i) right.emplace_back(ys[i], rk[i]);
        std::merge(left.begin(), left.end(), right.begin(), right.end(), std::back_inserter(merged),
                   [](const auto &a, const auto &c) { return a.first < c.first; });
        for (uint64_t i = 0; i < merged.size(); ++i) {
          ys_out[s + i] = merged[i].first;
          rk_out[s + i] = merged[i].second;
        }
      }
    });
  }
}

// Writes a canonical node's points of [y_lo, y_hi] at *at (a host and device functor, as the
// library's rt_for_canonical takes).
struct cpu_report_node {
  const rt_view<float> *v;
  float y_lo, y_hi;
  uint32_t *out;
  uint64_t *at;
  __host__ __device__ void operator()(uint32_t l, uint64_t first, uint64_t last) const {
    const float *ys = v->ys + l * v->ys_stride;
    const uint64_t s = msplit::detail::rt_lower_bound(ys, first, last, y_lo);
    const uint64_t e = msplit::detail::rt_upper_bound(ys, first, last, y_hi);
    for (uint64_t k = s; k < e; ++k) out[(*at)++] = v->ids[v->ranks[l * v->ranks_stride + k]];
  }
};

// CPU counts; with out, also the indices into the slices of offsets.
void cpu_query(const cpu_tree &t, const std::vector<box> &boxes, std::vector<uint32_t> &counts,
               const std::vector<uint64_t> *offsets, std::vector<uint32_t> *out) {
  const rt_view<float> v = t.view();
  parallel_for(boxes.size(), [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) {
      if (!out) {
        counts[i] = uint32_t(msplit::detail::rt_count_box(v, boxes[i]));
        continue;
      }
      uint64_t lo, hi, at = (*offsets)[i];
      if (msplit::detail::rt_x_ranks(v, boxes[i], &lo, &hi))
        msplit::detail::rt_for_canonical(lo, hi, cpu_report_node{&v, boxes[i].y_lo, boxes[i].y_hi, out->data(), &at});
    }
  });
}

// Host timing: one untimed warm-up, then `trials` runs.
template <typename F>
bench::timing cpu_time(F f, int trials) {
  std::vector<double> t;
  for (int i = 0; i <= trials; ++i) {
    const auto a = std::chrono::steady_clock::now();
    f();
    const auto b = std::chrono::steady_clock::now();
    if (i) t.push_back(std::chrono::duration<double, std::milli>(b - a).count());
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front(), t.back()};
}

struct row {
  std::string op, method;
  int n_log2;
  double selectivity, items;  // items: boxes (count), output bytes (report), points (build)
  bench::timing t;
  double extra;  // report: the least points of a box; count: the mean points of a box
};

template <typename U>
U *dev_alloc(size_t count) {
  void *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(U)));
  return static_cast<U *>(p);
}

}  // namespace

int main(int argc, char **argv) {
  if (!bench::require_device()) return 77;
  // --queries and --bf-queries are taken out before the common options are parsed
  int queries_log2 = 18, bf_log2 = 12;
  std::vector<char *> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--queries" && i + 1 < argc) queries_log2 = std::atoi(argv[++i]);
    else if (a == "--bf-queries" && i + 1 < argc) bf_log2 = std::atoi(argv[++i]);
    else rest.push_back(argv[i]);
  }
  bench::sweep_args args;
  args.ns = {"22", "24"};
  args.configs = {"1e-6", "1e-4", "1e-2"};
  args.trials = 5;
  args.commit = MSPLIT_BENCH_COMMIT;
  if (!args.parse(int(rest.size()), rest.data(), "range_tree_bench [--queries 18] [--bf-queries 12]")) return 2;
  // the brute force answers the first boxes of every run, a report run's 2^14 at most
  if (args.trials < 1 || queries_log2 < 0 || queries_log2 > 26 || bf_log2 < 0 || bf_log2 > queries_log2 ||
      bf_log2 > 14) {
    std::fprintf(stderr, "range_tree_bench: --trials >= 1, 0 <= --bf-queries <= 14, --bf-queries <= --queries <= 26\n");
    return 2;
  }
  const bench::machine mc;
  std::printf("# %s, %u host threads, commit %s\n", mc.prop.name, host_threads(), args.commit.c_str());
  const size_t q = size_t(1) << queries_log2, q_bf = size_t(1) << bf_log2;
  bench::timer tm;
  std::vector<row> rows;
  for (const std::string &ns : args.ns) {
    const int lg = std::atoi(ns.c_str());
    if (lg < 1 || lg > 30) {
      std::fprintf(stderr, "range_tree_bench: --n %s is not in 1..30\n", ns.c_str());
      return 2;
    }
    const size_t n = size_t(1) << lg;
    float *d_x = dev_alloc<float>(n), *d_y = dev_alloc<float>(n);
    points_kernel<<<unsigned((n + 255) / 256), 256>>>(d_x, d_y, n);
    CHECK_CUDA(cudaGetLastError());
    std::vector<float> hx(n), hy(n);
    CHECK_CUDA(cudaMemcpy(hx.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hy.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

    // build
    msplit::range_tree<float> tree;
    size_t bytes = 0, temp_bytes = 0;
    MS(msplit::range_tree<float>::storage_bytes(n, &bytes));
    MS(msplit::range_tree<float>::temp_bytes_for(n, q, &temp_bytes));
    void *d_storage = dev_alloc<unsigned char>(bytes);
    void *d_temp = dev_alloc<unsigned char>(temp_bytes);
    const bench::timing tb =
        tm.run([&] { MS(tree.build(d_temp, &temp_bytes, d_storage, bytes, d_x, d_y, n)); }, args.trials);
    MS(msplit::check_sync(d_temp, temp_bytes));
    rows.push_back({"build", "msplit", lg, 0, double(n), tb, double(bytes)});
    cpu_tree ct;
    rows.push_back({"build", "cpu_tree", lg, 0, double(n), cpu_time([&] { cpu_build(ct, hx, hy); }, args.trials),
                    0});

    box *d_boxes = dev_alloc<box>(q);
    uint32_t *d_counts = dev_alloc<uint32_t>(q), *d_bf_counts = dev_alloc<uint32_t>(q);
    uint64_t *d_offsets = dev_alloc<uint64_t>(q + 1);
    std::vector<double> sels;
    for (const std::string &c : args.configs) sels.push_back(std::atof(c.c_str()));
    const double report_sel = 4000.0 / double(n);
    if (report_sel < 1) sels.push_back(-report_sel);  // negative: the report run (below)
    // the brute force over the first q_bf boxes: counts, or the indices into their slices
    auto brute = [&](uint32_t *counts, uint32_t *out) {
      return tm.run(
          [&] {
            brute_kernel<<<unsigned(q_bf), BF_THREADS>>>(d_x, d_y, n, d_boxes, counts, d_offsets, out);
            CHECK_CUDA(cudaGetLastError());
          },
          args.trials);
    };
    for (size_t si = 0; si < sels.size(); ++si) {
      const bool is_report = sels[si] < 0;
      const double sel = std::fabs(sels[si]);
      // a report run answers at most 2^14 boxes: their output (about 16 KB each) stays in memory
      const size_t qn = is_report ? std::min<size_t>(q, 1 << 14) : q;
      const std::vector<box> boxes = make_boxes(qn, sel, 17 + si);
      CHECK_CUDA(cudaMemcpy(d_boxes, boxes.data(), qn * sizeof(box), cudaMemcpyHostToDevice));
      // the tree's counts, checked against the brute force's on the first q_bf boxes
      const bench::timing tc =
          tm.run([&] { MS(tree.count(d_temp, &temp_bytes, d_boxes, qn, d_counts, d_offsets)); }, args.trials);
      MS(msplit::check_sync(d_temp, temp_bytes));
      const bench::timing tbf = brute(d_bf_counts, nullptr);
      std::vector<uint32_t> counts(qn), bf(q_bf);
      std::vector<uint64_t> offsets(qn + 1);
      CHECK_CUDA(cudaMemcpy(counts.data(), d_counts, qn * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(bf.data(), d_bf_counts, q_bf * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      CHECK_CUDA(cudaMemcpy(offsets.data(), d_offsets, (qn + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < q_bf; ++i)
        if (bf[i] != counts[i]) {
          std::fprintf(stderr, "range_tree_bench: box %zu: the tree counts %u, the brute force %u\n", i, counts[i],
                       bf[i]);
          return 1;
        }
      std::vector<uint32_t> cpu_counts(qn);
      const bench::timing tcc = cpu_time([&] { cpu_query(ct, boxes, cpu_counts, nullptr, nullptr); }, args.trials);
      if (cpu_counts != counts) {
        std::fprintf(stderr, "range_tree_bench: the CPU tree's counts differ from the GPU tree's\n");
        return 1;
      }
      const double mean = double(offsets[qn]) / double(qn);
      if (!is_report) {
        rows.push_back({"count", "msplit", lg, sel, double(qn), tc, mean});
        rows.push_back({"count", "brute_force_gpu", lg, sel, double(q_bf), tbf, mean});
        rows.push_back({"count", "cpu_tree", lg, sel, double(qn), tcc, mean});
        continue;
      }
      // the report: output bytes per second, each method writing the same slices; the GPU tree's
      // slices compared (as sets) with the CPU tree's
      const uint64_t total = offsets[qn];
      const double least = double(*std::min_element(counts.begin(), counts.end()));
      uint32_t *d_out = dev_alloc<uint32_t>(total);
      const bench::timing tr =
          tm.run([&] { MS(tree.report(d_temp, &temp_bytes, d_boxes, qn, d_offsets, d_out)); }, args.trials);
      MS(msplit::check_sync(d_temp, temp_bytes));
      std::vector<uint32_t> gpu_out(total), cpu_out(total);
      CHECK_CUDA(cudaMemcpy(gpu_out.data(), d_out, total * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      const bench::timing trb = brute(nullptr, d_out);
      const bench::timing trc = cpu_time([&] { cpu_query(ct, boxes, cpu_counts, &offsets, &cpu_out); }, args.trials);
      for (size_t i = 0; i < qn; ++i) {
        const auto b0 = long(offsets[i]), b1 = long(offsets[i + 1]);
        std::sort(gpu_out.begin() + b0, gpu_out.begin() + b1);
        std::sort(cpu_out.begin() + b0, cpu_out.begin() + b1);
      }
      if (gpu_out != cpu_out) {
        std::fprintf(stderr, "range_tree_bench: the GPU tree's reports differ from the CPU tree's\n");
        return 1;
      }
      CHECK_CUDA(cudaFree(d_out));
      rows.push_back({"report", "msplit", lg, sel, 4.0 * double(total), tr, least});
      rows.push_back({"report", "brute_force_gpu", lg, sel, 4.0 * double(offsets[q_bf]), trb, least});
      rows.push_back({"report", "cpu_tree", lg, sel, 4.0 * double(total), trc, least});
    }
    for (void *p : {(void *)d_x, (void *)d_y, d_storage, d_temp, (void *)d_boxes, (void *)d_counts,
                    (void *)d_bf_counts, (void *)d_offsets})
      CHECK_CUDA(cudaFree(p));
  }

  // rates: build in points/s, count in boxes/s, report in output bytes/s
  std::printf("%-7s %-16s %5s %11s %10s %14s\n", "op", "method", "log2n", "selectivity", "ms", "rate");
  for (const row &r : rows)
    std::printf("%-7s %-16s %5d %11.3g %10.3f %14.4g %s\n", r.op.c_str(), r.method.c_str(), r.n_log2, r.selectivity,
                r.t.median_ms, r.items / (r.t.median_ms * 1e-3),
                r.op == "build" ? "points/s" : r.op == "count" ? "boxes/s" : "bytes/s");
  if (!args.json.empty()) {
    FILE *f = bench::json_open(args.json, "range_tree_bench", mc, args.commit, bench::command_line(argc, argv),
                               args.trials, "latency of dependent binary searches (count); output bytes (report)");
    if (!f) return 1;
    std::fprintf(f, "  \"queries_log2\": %d, \"bf_queries_log2\": %d, \"host_threads\": %u,\n", queries_log2, bf_log2,
                 host_threads());
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < rows.size(); ++i) {
      const row &r = rows[i];
      std::fprintf(f,
                   "    {\"op\": \"%s\", \"method\": \"%s\", \"n_log2\": %d, \"selectivity\": %.6g, \"ms\": %.4f, "
                   "\"min_ms\": %.4f, \"max_ms\": %.4f, \"rate\": %.6g, \"unit\": \"%s\", \"%s\": %.6g}%s\n",
                   r.op.c_str(), r.method.c_str(), r.n_log2, r.selectivity, r.t.median_ms, r.t.min_ms, r.t.max_ms,
                   r.items / (r.t.median_ms * 1e-3),
                   r.op == "build" ? "points/s" : r.op == "count" ? "boxes/s" : "bytes/s",
                   r.op == "build" ? "storage_bytes" : r.op == "count" ? "mean_points" : "least_points", r.extra,
                   i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }
  return 0;
}
