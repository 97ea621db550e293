// kcore and tc on Kronecker graphs (edge factor 16, GAP's parameters), generated in memory:
// the GPU backends beside the OpenMP backends on the same machine.
//   kcore: for each small-round setting (--solo ITEMS:ARCS[:BLOCKS_PER_SM], ds_kcore_gpu_options),
//          the time, the rounds (and how many ran on block 0 alone), the time of solo rounds,
//          grid rounds and level filters, and one pass over the arcs to compare a round with;
//          each setting with each variant of the peeling (--variants, the words of
//          ds_kcore_gpu_options_variant: default, base (the plain kernel), spread, agg, localN, winN,
//          bpsmN, all, joined by +).
//   tc:    for each short-row bound and each probe of the long rows (--probes: search, bitmap,
//          hash), the time of preprocessing and of every row class (short rows by a warp; long
//          rows by a block in bins of up to 256, up to 4,096 and more out-arcs) with its rows,
//          pairs probed and triangles: which probe pays for which class (docs/performance.md).
//   --csr: first the CSR build of the raw edge list (self loops, duplicates) on the CPU and on
//          the GPU for each transfer mode (--transfers: staged, register, pageable), the copies
//          and the device build apart, checked to be identical to the CPU's.
//
//   kron_bench [--scales 20,21] [--short 16,64,256] [--probes bitmap,hash,search]
//              [--solo default,0:0,1024:2048] [--variants default,base,spread+agg] [--trials 10]
//              [--cpu-trials 3] [--threads 16] [--csr] [--transfers staged,register,pageable]
//              [--no-tc] [--graphs FILES] [--json FILE]
//   --no-tc: kcore (and --csr) alone. --graphs FILES: kcore on these files too (made
//   undirected), and without --scales on them alone.
//
// GPU times are the libraries' own (CUDA events; the CSR copies by the host clock), CPU times
// wall clock; a warm-up first, then the median of the trials.
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

static const char *const TRANSFER_NAMES[] = {"staged", "register", "pageable"};

/* The CSR of Kronecker scale `scale`'s raw edges, on the CPU (threads) and on the GPU with each
 * transfer mode. */
static bool csr_build(int scale, int trials, int cpu_trials, int threads,
                      const std::vector<std::string> &transfers, FILE *f, bool &first) {
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
  ds_graph cpu;
  std::vector<double> tc;
  omp_set_num_threads(threads);
  for (int t = 0; t <= std::max(cpu_trials, 1); t++) {
    const double t0 = omp_get_wtime();
    if (ds_csr_build(&e, raw.symmetric, nullptr, &cpu, &err) != DS_OK) return false;
    if (t > 0) tc.push_back(wall_ms(t0));
    if (t < std::max(cpu_trials, 1)) ds_graph_free(&cpu);
  }
  bool all_same = true;
  for (const std::string &name : transfers) {
    int mode = 0;
    while (mode < 3 && name != TRANSFER_NAMES[mode]) mode++;
    if (mode == 3) {
      std::fprintf(stderr, "unknown transfer '%s' (staged, register, pageable)\n", name.c_str());
      return false;
    }
    ds_graph gpu;
    std::vector<double> tg, up, dev, down;
    ds_csr_gpu_stats cs{};
    for (int t = 0; t <= trials; t++) {
      const double t0 = omp_get_wtime();
      if (ds_csr_build_gpu_ex(0, &e, raw.symmetric, nullptr, (ds_csr_gpu_transfer)mode, &gpu, &cs,
                              &err) != DS_OK) {
        std::fprintf(stderr, "GPU CSR build: %s\n", err.msg);
        return false;
      }
      if (t > 0) {
        tg.push_back(wall_ms(t0));
        up.push_back(cs.upload_ms), dev.push_back(cs.sort_ms + cs.arcs_ms);
        down.push_back(cs.download_ms);
      }
      if (t < trials) ds_graph_free(&gpu);
    }
    const bool same = cpu.n == gpu.n && cpu.m == gpu.m &&
                      !std::memcmp(cpu.row_offsets, gpu.row_offsets, 8 * ((size_t)cpu.n + 1)) &&
                      !std::memcmp(cpu.col, gpu.col, 4 * (size_t)cpu.m) &&
                      !std::memcmp(cpu.weights, gpu.weights, 4 * (size_t)cpu.m);
    all_same &= same;
    std::printf("kron%d csr build of %llu edges: cpu %d threads %.1f ms, gpu %s %.1f ms (%.1fx; "
                "upload %.1f, device build %.1f, download %.1f), %s\n",
                scale, (unsigned long long)e.count, threads, median(tc), name.c_str(), median(tg),
                median(tc) / median(tg), median(up), median(dev), median(down),
                same ? "identical" : "DIFFERENT");
    if (f) {
      std::fprintf(f,
                   "%s    {\"graph\": \"kron%d\", \"program\": \"csr_build\", \"edges\": %llu, "
                   "\"arcs\": %llu, \"cpu_ms\": %.3f, \"threads\": %d, \"transfer\": \"%s\", "
                   "\"gpu_ms\": %.3f, \"upload_ms\": %.3f, \"device_build_ms\": %.3f, "
                   "\"download_ms\": %.3f, \"identical\": %s}",
                   first ? "" : ",\n", scale, (unsigned long long)e.count,
                   (unsigned long long)cpu.m, median(tc), threads, name.c_str(), median(tg),
                   median(up), median(dev), median(down), same ? "true" : "false");
      first = false;
    }
    ds_graph_free(&gpu);
  }
  ds_graph_free(&cpu);
  ds_gen_edges_free(&raw);
  return all_same;
}

/* "default" or ITEMS:ARCS[:BLOCKS_PER_SM]. */
static bool parse_solo(const std::string &text, ds_kcore_gpu_options *o) {
  ds_kcore_gpu_options_default(o);
  if (text == "default") return true;
  unsigned items = 0, blocks = 0;
  unsigned long long arcs = 0;
  const int got = std::sscanf(text.c_str(), "%u:%llu:%u", &items, &arcs, &blocks);
  if (got < 2) return false;
  o->solo_items = items;
  o->solo_arcs = arcs;
  o->blocks_per_sm = got == 3 ? blocks : 0;
  return true;
}

/* kcore on the GPU with each small-round setting and variant, beside the OpenMP backend. */
static bool bench_kcore(const ds_graph &g, const std::string &name, const std::vector<std::string> &solos,
                        const std::vector<std::string> &variants, int trials, int cpu_trials,
                        int threads, FILE *f, bool &first) {
  ds_error err;
  std::vector<uint32_t> core_cpu(g.n + 1), core(g.n + 1);
  std::vector<double> kcpu;
  for (int t = 0; t <= cpu_trials && cpu_trials > 0; t++) {
    const double t0 = omp_get_wtime();
    if (ds_kcore_cpu(&g, threads, core_cpu.data(), &err) != DS_OK) return false;
    if (t > 0) kcpu.push_back(wall_ms(t0));
  }
  for (const std::string &solo : solos)
  for (const std::string &variant : variants) {
    ds_kcore_gpu_options opt;
    if (!parse_solo(solo, &opt)) {
      std::fprintf(stderr, "--solo: '%s' is not default or ITEMS:ARCS[:BLOCKS]\n", solo.c_str());
      return false;
    }
    if (!ds_kcore_gpu_options_variant(&opt, variant.c_str())) {
      std::fprintf(stderr, "--variants: '%s' is not default, base, spread, agg, all, localN, winN or "
                           "bpsmN joined by +\n", variant.c_str());
      return false;
    }
    ds_kcore_gpu *kg = nullptr;
    if (ds_kcore_gpu_open(0, &g, &opt, &kg, &err) != DS_OK) {
      std::fprintf(stderr, "kcore open: %s\n", err.msg);
      return false;
    }
    std::vector<double> kms, solo_ms, grid_ms, level_ms, pass_ms, rounds;
    ds_kcore_gpu_stats ks{};
    for (int t = 0; t <= trials; t++) {
      double ms = 0.0;
      if (ds_kcore_gpu_run(kg, core.data(), &ms, &ks, &err) != DS_OK) {
        std::fprintf(stderr, "kcore run: %s\n", err.msg);
        ds_kcore_gpu_close(kg);
        return false;
      }
      if (t == 0) continue;
      kms.push_back(ms), solo_ms.push_back(ks.solo_ms), grid_ms.push_back(ks.grid_ms);
      level_ms.push_back(ks.level_ms), pass_ms.push_back(ks.arc_pass_ms);
      rounds.push_back((double)ks.rounds);
    }
    ds_kcore_gpu_close(kg);
    uint32_t degeneracy = 0;
    ds_kcore_summary(core.data(), g.n, &degeneracy, nullptr);
    const bool same =
        cpu_trials == 0 || std::equal(core.begin(), core.begin() + g.n, core_cpu.begin());
    /* rounds can vary between trials with local_arcs (which lane lowers a vertex first) */
    const double per_round = median(rounds) > 0 ? median(kms) / median(rounds) : 0.0;
    std::printf("%s kcore solo %s (%u:%llu:%u) variant %s: gpu %.3f ms (%.1fx cpu %.3f ms), "
                "%u windows, %u levels, %llu rounds (%llu solo, %llu local peels); solo %.3f, "
                "grid %.3f, levels %.3f ms; %.4f ms/round = %.2f arc passes (%.4f ms); "
                "degeneracy %u, %s\n",
                name.c_str(), solo.c_str(), opt.solo_items, (unsigned long long)opt.solo_arcs,
                opt.blocks_per_sm, variant.c_str(), median(kms), median(kcpu) / median(kms),
                median(kcpu), ks.windows, ks.levels, (unsigned long long)median(rounds),
                (unsigned long long)ks.solo_rounds, (unsigned long long)ks.local_peels,
                median(solo_ms), median(grid_ms), median(level_ms), per_round,
                per_round / std::max(median(pass_ms), 1e-9), median(pass_ms), degeneracy,
                same ? "same cores" : "CORES DIFFER");
    if (f) {
      std::fprintf(f,
                   "%s    {\"graph\": \"%s\", \"program\": \"kcore\", \"vertices\": %u, "
                   "\"arcs\": %llu, \"solo_items\": %u, \"solo_arcs\": %llu, "
                   "\"blocks_per_sm\": %u, \"variant\": \"%s\", \"spread\": %u, "
                   "\"aggregate\": %u, \"local_arcs\": %u, \"window\": %u, "
                   "\"local_peels\": %llu, \"gpu_ms\": %.4f, \"cpu_ms\": %.4f, \"threads\": %d, "
                   "\"windows\": %u, \"levels\": %u, \"rounds\": %llu, \"solo_rounds\": %llu, "
                   "\"solo_ms\": %.4f, \"grid_ms\": %.4f, \"level_ms\": %.4f, "
                   "\"ms_per_round\": %.5f, \"arc_pass_ms\": %.5f, \"degeneracy\": %u, "
                   "\"same_as_cpu\": %s}",
                   first ? "" : ",\n", name.c_str(), g.n, (unsigned long long)g.m, opt.solo_items,
                   (unsigned long long)opt.solo_arcs, opt.blocks_per_sm, variant.c_str(),
                   opt.spread, opt.aggregate, opt.local_arcs, opt.window,
                   (unsigned long long)ks.local_peels, median(kms),
                   median(kcpu), threads, ks.windows, ks.levels,
                   (unsigned long long)median(rounds), (unsigned long long)ks.solo_rounds,
                   median(solo_ms), median(grid_ms),
                   median(level_ms), per_round, median(pass_ms), degeneracy,
                   same ? "true" : "false");
      first = false;
    }
    if (!same) return false;
  }
  return true;
}

/* tc on the GPU: every short-row bound with every probe of the long rows, per class. */
static bool bench_tc_gpu(const ds_graph &g, const std::string &sc, const std::string &sm,
                         const std::string &probe, int trials, uint64_t cpu_total, bool check,
                         FILE *f, bool &first) {
  ds_error err;
  ds_tc_gpu_options opt;
  ds_tc_gpu_options_default(&opt);
  opt.short_max = (uint32_t)std::atoi(sm.c_str());
  if (!ds_tc_gpu_options_intersect(&opt, probe.c_str())) {
    std::fprintf(stderr, "--probes: unknown probe '%s'\n", probe.c_str());
    return false;
  }
  ds_tc_gpu *gpu = nullptr;
  if (ds_tc_gpu_open(0, &g, &opt, &gpu, &err) != DS_OK) {
    std::fprintf(stderr, "open: %s\n", err.msg);
    return false;
  }
  constexpr int C = DS_TC_GPU_CLASSES;
  std::vector<double> total, prep, cls[C], build[C];
  uint64_t triangles = 0;
  ds_tc_gpu_stats st{};
  for (int t = 0; t <= trials; t++) {
    double ms = 0.0;
    if (ds_tc_gpu_run(gpu, &triangles, nullptr, &ms, &st, &err) != DS_OK) {
      std::fprintf(stderr, "run: %s\n", err.msg);
      ds_tc_gpu_close(gpu);
      return false;
    }
    if (t == 0) continue;  // warm-up
    total.push_back(ms);
    prep.push_back(st.prep_ms);
    for (int c = 0; c < C; c++) cls[c].push_back(st.class_ms[c]), build[c].push_back(st.class_build_ms[c]);
  }
  ds_tc_gpu_close(gpu);
  const bool same = !check || triangles == cpu_total;
  std::printf("%-6s %6s %-7s %9.3f %9.3f", sc.c_str(), sm.c_str(), probe.c_str(), median(total),
              median(prep));
  for (int c = 0; c < C; c++) std::printf(" %9.3f", median(cls[c]));
  std::printf(" %12llu%s\n", (unsigned long long)triangles, same ? "" : " DIFFERS FROM CPU");
  for (int c = 1; c < C; c++)
    if (st.class_rows[c])
      std::printf("         class %d: %llu rows, %llu pairs, %llu triangles, %.3f ms (build %.3f)\n",
                  c, (unsigned long long)st.class_rows[c], (unsigned long long)st.class_pairs[c],
                  (unsigned long long)st.class_triangles[c], median(cls[c]), median(build[c]));
  if (f) {
    std::fprintf(f,
                 "%s    {\"graph\": \"kron%s\", \"program\": \"tc\", \"backend\": \"gpu\", "
                 "\"vertices\": %u, \"arcs\": %llu, \"short_max\": %s, \"long_probe\": \"%s\", "
                 "\"median_ms\": %.4f, \"prep_ms\": %.4f, \"triangles\": %llu, \"classes\": [",
                 first ? "" : ",\n", sc.c_str(), g.n, (unsigned long long)g.m, sm.c_str(),
                 probe.c_str(), median(total), median(prep), (unsigned long long)triangles);
    static const char *const MAX_LEN[C] = {"short_max", "256", "4096", "null"};
    for (int c = 0; c < C; c++)
      std::fprintf(f,
                   "%s{\"class\": %d, \"max_out_arcs\": %s, \"probe\": \"%s\", \"ms\": %.4f, "
                   "\"build_ms\": %.4f, \"rows\": %llu, \"pairs\": %llu, \"triangles\": %llu}",
                   c ? ", " : "", c, c ? MAX_LEN[c] : sm.c_str(),
                   c ? probe.c_str() : "search", median(cls[c]), median(build[c]),
                   (unsigned long long)st.class_rows[c], (unsigned long long)st.class_pairs[c],
                   (unsigned long long)st.class_triangles[c]);
    std::fprintf(f, "]}");
    first = false;
  }
  return same;
}

int main(int argc, char **argv) {
  std::vector<std::string> scales = {"20", "21"}, shorts = {"16", "64", "256"},
                           probes = {"bitmap", "hash", "search"}, solos = {"default"},
                           variants = {"default"},
                           transfers = {"staged", "register", "pageable"};
  int trials = 10, cpu_trials = 3, threads = 16, csr = 0, no_tc = 0, scales_given = 0;
  std::vector<std::string> files;
  std::string json;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--scales" && i + 1 < argc) scales = bench::split_list(argv[++i]), scales_given = 1;
    else if (a == "--graphs" && i + 1 < argc) files = bench::split_list(argv[++i]);
    else if (a == "--short" && i + 1 < argc) shorts = bench::split_list(argv[++i]);
    else if (a == "--probes" && i + 1 < argc) probes = bench::split_list(argv[++i]);
    else if (a == "--solo" && i + 1 < argc) solos = bench::split_list(argv[++i]);
    else if (a == "--variants" && i + 1 < argc) variants = bench::split_list(argv[++i]);
    else if (a == "--no-tc") no_tc = 1;
    else if (a == "--transfers" && i + 1 < argc) transfers = bench::split_list(argv[++i]);
    else if (a == "--trials" && i + 1 < argc) trials = std::max(1, std::atoi(argv[++i]));
    else if (a == "--cpu-trials" && i + 1 < argc) cpu_trials = std::max(0, std::atoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else if (a == "--csr") csr = 1;
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--scales L] [--short L] [--probes L] [--solo L] "
                           "[--variants L] [--no-tc] [--graphs FILES] [--trials T] "
                           "[--cpu-trials T] [--threads N] [--csr] [--transfers L] "
                           "[--json FILE]\n", argv[0]);
      return 2;
    }
  }
  if (!files.empty() && !scales_given) scales.clear(); /* --graphs alone: no Kronecker graphs */
  if (!bench::require_device()) return 77;
  bench::machine mc;
  FILE *f = json.empty() ? nullptr
                         : bench::json_open(json, "kron_bench", mc, DS_GIT_COMMIT,
                                            bench::command_line(argc, argv), trials,
                                            "intersections: probes of shared memory or of the "
                                            "slab hash in DRAM");
  if (!json.empty() && f == nullptr) return 1;
  if (f) std::fprintf(f, "  \"results\": [\n");
  bool first = true, ok = true;
  for (const std::string &sc : scales) {
    ds_graph g;
    ds_error err;
    if (csr && !csr_build(std::atoi(sc.c_str()), trials, cpu_trials, threads, transfers, f, first))
      ok = false;
    const uint32_t scale = (uint32_t)std::atoi(sc.c_str());
    if (ds_gen_kron(scale, 16, 0.57, 0.19, 0.19, 1, 1, 1, &g, &err) != DS_OK) {
      std::fprintf(stderr, "kron %s: %s\n", sc.c_str(), err.msg);
      return 1;
    }
    ok &= bench_kcore(g, "kron" + sc, solos, variants, trials, cpu_trials, threads, f, first);
    if (no_tc) {
      ds_graph_free(&g);
      continue;
    }
    // tc: the OpenMP backend, then the GPU's classes
    uint64_t tc_cpu_total = 0;
    std::vector<double> tcpu;
    for (int t = 0; t <= cpu_trials && cpu_trials > 0; t++) {
      const double t0 = omp_get_wtime();
      if (ds_tc_cpu(&g, threads, &tc_cpu_total, nullptr, &err) != DS_OK) return 1;
      if (t > 0) tcpu.push_back(wall_ms(t0));
    }
    std::printf("kron%s tc: cpu %d threads %.3f ms, %llu triangles\n", sc.c_str(), threads,
                median(tcpu), (unsigned long long)tc_cpu_total);
    if (f) {
      std::fprintf(f,
                   "%s    {\"graph\": \"kron%s\", \"program\": \"tc\", \"backend\": \"cpu\", "
                   "\"threads\": %d, \"median_ms\": %.4f, \"triangles\": %llu}",
                   first ? "" : ",\n", sc.c_str(), threads, median(tcpu),
                   (unsigned long long)tc_cpu_total);
      first = false;
    }
    std::printf("%-6s %6s %-7s %9s %9s %9s %9s %9s %9s %12s\n", "scale", "short", "probe",
                "total_ms", "prep_ms", "short_ms", "c1_ms", "c2_ms", "c3_ms", "triangles");
    for (const std::string &sm : shorts)
      for (const std::string &probe : probes)
        ok &= bench_tc_gpu(g, sc, sm, probe, trials, tc_cpu_total, cpu_trials > 0, f, first);
    ds_graph_free(&g);
  }
  // files (made undirected): kcore alone
  for (const std::string &path : files) {
    ds_load_options lo;
    ds_load_options_default(&lo);
    lo.undirected = 1;
    lo.use_cache = 0;
    ds_graph g;
    ds_error err;
    if (ds_graph_load(path.c_str(), &lo, &g, &err) != DS_OK) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), err.msg);
      return 1;
    }
    ok &= bench_kcore(g, g.name, solos, variants, trials, cpu_trials, threads, f, first);
    ds_graph_free(&g);
  }
  if (f) {
    std::fprintf(f, "\n  ]\n}\n");
    std::fclose(f);
  }
  return ok ? 0 : 1;
}
