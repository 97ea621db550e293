// kcore and tc on Kronecker graphs (edge factor 16, GAP's parameters), generated in memory:
// the GPU backends beside the OpenMP backends on the same machine, and the GPU triangle
// counter's row classes: the time of each intersection class (short rows by a warp, long rows
// by a block) and of preprocessing, for every pair of short-row bound and long-row probe
// (binary search of a shared copy, or a shared bitmap). It measures which probe pays for which
// rows; the defaults of ds_tc_gpu_options come from it (docs/performance.md). With --csr, first
// the CSR build of the raw edge list (self loops, duplicates) on the CPU and on the GPU
// (ds_csr_build_gpu: wall clock, transfers both ways included), checked to be identical.
//
//   kron_bench [--scales 20,21] [--short 16,64,256] [--trials 10] [--cpu-trials 3]
//              [--threads 16] [--csr] [--json FILE]
//
// GPU times are the libraries' own (CUDA events), CPU times wall clock; a warm-up first, then
// the median of the trials.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.h"
extern "C" {
#include "ds/csr_gpu.h"
#include "ds/gen.h"
#include "kcore.h"
#include "tc.h"
}
#include <omp.h>

#ifndef DS_GIT_COMMIT
#define DS_GIT_COMMIT "unknown"
#endif

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

static double wall_ms(double t0) { return (omp_get_wtime() - t0) * 1e3; }

/* The CSR of Kronecker scale `scale`'s raw edges, on the CPU (threads) and the GPU. */
static bool csr_build(int scale, int trials, int cpu_trials, int threads, FILE *f, bool &first) {
  ds_gen_spec spec;
  ds_gen_spec_default(&spec, DS_GEN_KRON);
  spec.scale = (uint32_t)scale;
  spec.seed = 1;
  ds_gen_edge_list raw;
  ds_error err;
  if (ds_gen_edges(&spec, &raw, &err) != DS_OK) {
    std::fprintf(stderr, "kron %d edges: %s\n", scale, err.msg);
    return false;
  }
  const ds_edge_list e = ds_gen_edges_view(&raw);
  ds_graph cpu, gpu;
  std::vector<double> tc, tg, up, sort, arcs, down;
  ds_csr_gpu_stats cs{};
  omp_set_num_threads(threads);
  for (int t = 0; t <= std::max(cpu_trials, 1); t++) {
    const double t0 = omp_get_wtime();
    if (ds_csr_build(&e, raw.symmetric, nullptr, &cpu, &err) != DS_OK) return false;
    if (t > 0) tc.push_back(wall_ms(t0));
    if (t < std::max(cpu_trials, 1)) ds_graph_free(&cpu);
  }
  for (int t = 0; t <= trials; t++) {
    const double t0 = omp_get_wtime();
    if (ds_csr_build_gpu_stats(0, &e, raw.symmetric, nullptr, &gpu, &cs, &err) != DS_OK) {
      std::fprintf(stderr, "GPU CSR build: %s\n", err.msg);
      return false;
    }
    if (t > 0) {
      tg.push_back(wall_ms(t0));
      up.push_back(cs.upload_ms), sort.push_back(cs.sort_ms), arcs.push_back(cs.arcs_ms);
      down.push_back(cs.download_ms);
    }
    if (t < trials) ds_graph_free(&gpu);
  }
  const bool same = cpu.n == gpu.n && cpu.m == gpu.m &&
                    !std::memcmp(cpu.row_offsets, gpu.row_offsets, 8 * ((size_t)cpu.n + 1)) &&
                    !std::memcmp(cpu.col, gpu.col, 4 * (size_t)cpu.m) &&
                    !std::memcmp(cpu.weights, gpu.weights, 4 * (size_t)cpu.m);
  std::printf("kron%d csr build of %llu edges: cpu %d threads %.1f ms, gpu %.1f ms (%.1fx; "
              "upload %.1f, sort %.1f, arcs %.1f, download %.1f), %s\n",
              scale, (unsigned long long)e.count, threads, median(tc), median(tg),
              median(tc) / median(tg), median(up), median(sort), median(arcs), median(down),
              same ? "identical" : "DIFFERENT");
  if (f) {
    std::fprintf(f,
                 "%s    {\"graph\": \"kron%d\", \"program\": \"csr_build\", \"edges\": %llu, "
                 "\"arcs\": %llu, \"cpu_ms\": %.3f, \"threads\": %d, \"gpu_ms\": %.3f, "
                 "\"upload_ms\": %.3f, \"sort_ms\": %.3f, \"arcs_ms\": %.3f, "
                 "\"download_ms\": %.3f, \"identical\": %s}",
                 first ? "" : ",\n", scale, (unsigned long long)e.count,
                 (unsigned long long)cpu.m, median(tc), threads, median(tg), median(up),
                 median(sort), median(arcs), median(down), same ? "true" : "false");
    first = false;
  }
  ds_graph_free(&cpu);
  ds_graph_free(&gpu);
  ds_gen_edges_free(&raw);
  return same;
}

int main(int argc, char **argv) {
  std::vector<std::string> scales = {"20", "21"}, shorts = {"16", "64", "256"};
  int trials = 10, cpu_trials = 3, threads = 16, csr = 0;
  std::string json;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--scales" && i + 1 < argc) scales = bench::split_list(argv[++i]);
    else if (a == "--short" && i + 1 < argc) shorts = bench::split_list(argv[++i]);
    else if (a == "--trials" && i + 1 < argc) trials = std::max(1, std::atoi(argv[++i]));
    else if (a == "--cpu-trials" && i + 1 < argc) cpu_trials = std::max(0, std::atoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else if (a == "--csr") csr = 1;
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--scales L] [--short L] [--trials T] [--cpu-trials T] "
                           "[--threads N] [--csr] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  if (!bench::require_device()) return 77;
  bench::machine mc;
  FILE *f = json.empty() ? nullptr
                         : bench::json_open(json, "kron_bench", mc, DS_GIT_COMMIT,
                                            bench::command_line(argc, argv), trials,
                                            "intersections: probes of shared memory, not DRAM");
  if (!json.empty() && f == nullptr) return 1;
  if (f) std::fprintf(f, "  \"results\": [\n");
  bool first = true;
  std::printf("%-6s %6s %-7s %9s %9s %9s %9s %12s\n", "scale", "short", "probe", "total_ms",
              "prep_ms",
              "short_ms", "long_ms", "triangles");
  for (const std::string &sc : scales) {
    ds_graph g;
    ds_error err;
    if (csr && !csr_build(std::atoi(sc.c_str()), trials, cpu_trials, threads, f, first)) return 1;
    const uint32_t scale = (uint32_t)std::atoi(sc.c_str());
    if (ds_gen_kron(scale, 16, 0.57, 0.19, 0.19, 1, 1, 1, &g, &err) != DS_OK) {
      std::fprintf(stderr, "kron %s: %s\n", sc.c_str(), err.msg);
      return 1;
    }
    // kcore: GPU, then the OpenMP backend
    std::vector<uint32_t> core(g.n + 1);
    ds_kcore_gpu *kg = nullptr;
    std::vector<double> kms, rms;
    ds_kcore_gpu_stats ks{};
    if (ds_kcore_gpu_open(0, &g, &kg, &err) != DS_OK) {
      std::fprintf(stderr, "kcore open: %s\n", err.msg);
      return 1;
    }
    for (int t = 0; t <= trials; t++) {
      double ms = 0.0;
      if (ds_kcore_gpu_run(kg, core.data(), &ms, &ks, &err) != DS_OK) {
        std::fprintf(stderr, "kcore run: %s\n", err.msg);
        return 1;
      }
      if (t > 0) kms.push_back(ms), rms.push_back(ks.rounds ? ms / ks.rounds : 0.0);
    }
    ds_kcore_gpu_close(kg);
    uint32_t degeneracy = 0;
    ds_kcore_summary(core.data(), g.n, &degeneracy, nullptr);
    std::vector<uint32_t> core_cpu(g.n + 1);
    std::vector<double> kcpu;
    for (int t = 0; t <= cpu_trials && cpu_trials > 0; t++) {
      const double t0 = omp_get_wtime();
      if (ds_kcore_cpu(&g, threads, core_cpu.data(), &err) != DS_OK) return 1;
      if (t > 0) kcpu.push_back((omp_get_wtime() - t0) * 1e3);
    }
    const bool same =
        cpu_trials == 0 || std::equal(core.begin(), core.begin() + g.n, core_cpu.begin());
    std::printf("kron%s kcore: gpu %.3f ms (%u windows, %u levels, %llu rounds, %.4f ms/round), "
                "cpu %d threads %.3f ms, degeneracy %u, %s\n",
                sc.c_str(), median(kms), ks.windows, ks.levels, (unsigned long long)ks.rounds,
                median(rms), threads, median(kcpu), degeneracy,
                same ? "same cores" : "CORES DIFFER");
    if (f) {
      std::fprintf(f,
                   "%s    {\"graph\": \"kron%s\", \"program\": \"kcore\", \"vertices\": %u, "
                   "\"arcs\": %llu, \"gpu_ms\": %.4f, \"cpu_ms\": %.4f, \"threads\": %d, "
                   "\"windows\": %u, \"levels\": %u, \"rounds\": %llu, \"ms_per_round\": %.5f, "
                   "\"degeneracy\": %u, \"same_as_cpu\": %s}",
                   first ? "" : ",\n", sc.c_str(), g.n, (unsigned long long)g.m, median(kms),
                   median(kcpu), threads, ks.windows, ks.levels, (unsigned long long)ks.rounds,
                   median(rms), degeneracy, same ? "true" : "false");
      first = false;
    }
    // tc: the OpenMP backend, then the GPU's classes
    uint64_t tc_cpu_total = 0;
    std::vector<double> tcpu;
    for (int t = 0; t <= cpu_trials && cpu_trials > 0; t++) {
      const double t0 = omp_get_wtime();
      if (ds_tc_cpu(&g, threads, &tc_cpu_total, nullptr, &err) != DS_OK) return 1;
      if (t > 0) tcpu.push_back((omp_get_wtime() - t0) * 1e3);
    }
    std::printf("kron%s tc: cpu %d threads %.3f ms, %llu triangles\n", sc.c_str(), threads,
                median(tcpu), (unsigned long long)tc_cpu_total);
    if (f) {
      std::fprintf(f,
                   ",\n    {\"graph\": \"kron%s\", \"program\": \"tc\", \"backend\": \"cpu\", "
                   "\"threads\": %d, \"median_ms\": %.4f, \"triangles\": %llu}",
                   sc.c_str(), threads, median(tcpu), (unsigned long long)tc_cpu_total);
    }
    for (const std::string &sm : shorts)
      for (int probe = 0; probe < 2; probe++) {
        ds_tc_gpu_options opt = {(uint32_t)std::atoi(sm.c_str()), (ds_tc_probe)probe};
        ds_tc_gpu *gpu = nullptr;
        if (ds_tc_gpu_open(0, &g, &opt, &gpu, &err) != DS_OK) {
          std::fprintf(stderr, "open: %s\n", err.msg);
          return 1;
        }
        std::vector<double> total, prep, shrt, lng;
        uint64_t triangles = 0;
        ds_tc_gpu_stats st;
        for (int t = 0; t <= trials; t++) {
          double ms = 0.0;
          if (ds_tc_gpu_run(gpu, &triangles, nullptr, &ms, &st, &err) != DS_OK) {
            std::fprintf(stderr, "run: %s\n", err.msg);
            return 1;
          }
          if (t == 0) continue;  // warm-up
          total.push_back(ms);
          prep.push_back(st.prep_ms);
          shrt.push_back(st.short_ms);
          lng.push_back(st.long_ms);
        }
        ds_tc_gpu_close(gpu);
        const char *pname = probe ? "bitmap" : "search";
        std::printf("%-6s %6s %-7s %9.3f %9.3f %9.3f %9.3f %12llu%s\n", sc.c_str(), sm.c_str(),
                    pname, median(total), median(prep), median(shrt), median(lng),
                    (unsigned long long)triangles,
                    cpu_trials == 0 || triangles == tc_cpu_total ? "" : " DIFFERS FROM CPU");
        if (f) {
          std::fprintf(f,
                       "%s    {\"graph\": \"kron%s\", \"program\": \"tc\", \"backend\": \"gpu\", "
                       "\"vertices\": %u, \"arcs\": %llu, \"short_max\": %s, "
                       "\"long_probe\": \"%s\", \"median_ms\": %.4f, \"prep_ms\": %.4f, "
                       "\"short_ms\": %.4f, \"long_ms\": %.4f, \"short_rows\": %llu, "
                       "\"long_rows\": %llu, \"triangles\": %llu}",
                       first ? "" : ",\n", sc.c_str(), g.n, (unsigned long long)g.m, sm.c_str(),
                       pname,
                       median(total), median(prep), median(shrt), median(lng),
                       (unsigned long long)st.short_rows, (unsigned long long)st.long_rows,
                       (unsigned long long)triangles);
          first = false;
        }
      }
    ds_graph_free(&g);
  }
  if (f) {
    std::fprintf(f, "\n  ]\n}\n");
    std::fclose(f);
  }
  return 0;
}
