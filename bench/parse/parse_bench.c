/* Parse benchmark of the graph layer (issue 2 targets: >= 250 MB/s of .mtx
 * text per core; the binary cache loaded >= 10x faster than the text).
 *
 * 1. writes a random Matrix Market file of about --mb MB into --dir (fixed
 *    seed; "integer general" by default, or pattern / real), or takes the
 *    Matrix Market file --input (for example a graphgen Kronecker graph);
 * 2. times, after one untimed warm-up, --trials runs of each stage, one core:
 *      read    the file into memory (page cache warm)
 *      parse   the in-memory text to an edge list (ds_stage_parse_mtx) <- the MB/s target
 *      load    ds_graph_load without the cache (read + parse + CSR build)
 *      cache   ds_graph_load from the binary cache
 * 3. prints the median and the min..max spread of each, MB/s of text, and the
 *    cache speedup against "load" and against "parse"; --json FILE writes them.
 * Times are the thread's CPU time (one core's work; the machine may be shared)
 * with the wall time beside them.
 */
#define _POSIX_C_SOURCE 200809L
#include "ds/graph.h"
#include "ds/graph_stages.h"
#include "ds/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_MB 300
#define DEFAULT_TRIALS 5
#define MAX_TRIALS 50
#define GEN_SEED 12345u
#define VERTICES_LOG2 22 /* 4M vertices: 7-digit ids, as in large road and social graphs */
#define MB 1e6
#ifndef DS_GIT_COMMIT
#define DS_GIT_COMMIT "unknown"
#endif
#define CPU_NAME_LEN 256

/* The CPU model from /proc/cpuinfo ("unknown" elsewhere). */
static void cpu_name(char *out, size_t len) {
  snprintf(out, len, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
      snprintf(out, len, "%s", strchr(line, ':') + 2);
      out[strcspn(out, "\n")] = '\0';
      break;
    }
  if (f) fclose(f);
}

typedef struct {
  double mb;
  int trials;
  const char *dir, *field, *json, *input;
} bench_args;

/* CPU time of this thread: on a shared machine it measures one core's work,
 * where wall time also counts the time other processes held the core. */
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Monotonic wall time, printed beside the CPU time. */
static double wall_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = GEN_SEED;
static uint64_t next_rand(void) { return rng = ds_splitmix64(rng); }

/* The test file: random entries (1-based), weights 1..1000 or reals. */
static int write_input(const char *path, const bench_args *a, uint64_t *entries) {
  const uint64_t n = (uint64_t)1 << VERTICES_LOG2;
  const int pattern = !strcmp(a->field, "pattern"), real = !strcmp(a->field, "real");
  const double bytes_per_line = pattern ? 16.0 : real ? 24.0 : 20.0;
  *entries = (uint64_t)(a->mb * MB / bytes_per_line);
  FILE *f = fopen(path, "w");
  if (f == NULL) return perror(path), 0;
  fprintf(f, "%%%%MatrixMarket matrix coordinate %s general\n%%%% parse_bench seed %u\n"
          "%llu %llu %llu\n", a->field, GEN_SEED, (unsigned long long)n, (unsigned long long)n,
          (unsigned long long)*entries);
  for (uint64_t i = 0; i < *entries; i++) {
    uint64_t r = next_rand();
    unsigned long long u = 1 + (r & (n - 1)), v = 1 + ((r >> 32) & (n - 1));
    if (pattern) fprintf(f, "%llu %llu\n", u, v);
    else if (real) fprintf(f, "%llu %llu %.6f\n", u, v, (double)(r >> 54) / 7.0);
    else fprintf(f, "%llu %llu %llu\n", u, v, (unsigned long long)(1 + (r >> 54) % 1000));
  }
  return fclose(f) == 0;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

typedef struct {
  const char *name;
  double t[MAX_TRIALS], median, lo, hi;    /* CPU seconds */
  double wall[MAX_TRIALS], wall_median;    /* wall seconds */
} stage;

static double median_of(double *t, int trials) {
  qsort(t, (size_t)trials, sizeof t[0], cmp_double);
  return trials % 2 ? t[trials / 2] : 0.5 * (t[trials / 2 - 1] + t[trials / 2]);
}

static void summarize(stage *s, int trials) {
  s->median = median_of(s->t, trials);
  s->lo = s->t[0];
  s->hi = s->t[trials - 1];
  s->wall_median = median_of(s->wall, trials);
}

static int fail(const char *what, const ds_error *err) {
  fprintf(stderr, "parse_bench: %s: %s\n", what, err->msg);
  return 1;
}

static int parse_args(int argc, char **argv, bench_args *a) {
  a->mb = DEFAULT_MB;
  a->trials = DEFAULT_TRIALS;
  a->dir = "/tmp";
  a->field = "integer";
  a->json = NULL;
  a->input = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--mb") && v) a->mb = atof(v), i++;
    else if (!strcmp(argv[i], "--trials") && v) a->trials = atoi(v), i++;
    else if (!strcmp(argv[i], "--dir") && v) a->dir = v, i++;
    else if (!strcmp(argv[i], "--field") && v) a->field = v, i++;
    else if (!strcmp(argv[i], "--json") && v) a->json = v, i++;
    else if (!strcmp(argv[i], "--input") && v) a->input = v, i++;
    else {
      fprintf(stderr, "usage: parse_bench [--mb MB] [--trials N] [--dir DIR] "
              "[--field integer|pattern|real] [--input FILE.mtx] [--json FILE]\n");
      return 0;
    }
  }
  if (a->trials < 1 || a->trials > MAX_TRIALS || a->mb <= 0) {
    fprintf(stderr, "parse_bench: --trials must be 1..%d and --mb positive\n", MAX_TRIALS);
    return 0;
  }
  if (strcmp(a->field, "integer") && strcmp(a->field, "pattern") && strcmp(a->field, "real")) {
    fprintf(stderr, "parse_bench: --field must be integer, pattern or real\n");
    return 0;
  }
  return 1;
}

int main(int argc, char **argv) {
  bench_args a;
  if (!parse_args(argc, argv, &a)) return 2;
  char path[4096], cpath[4200];
  uint64_t entries = 0;
  struct stat sb;
  if (a.input != NULL) {
    snprintf(path, sizeof path, "%s", a.input);
  } else {
    snprintf(path, sizeof path, "%s/ds_parse_bench_%s.mtx", a.dir, a.field);
    double t0 = wall_s();
    if (!write_input(path, &a, &entries)) return 1;
    printf("generated %s in %.1f s\n", path, wall_s() - t0);
  }
  if (stat(path, &sb) != 0) return perror(path), 1;
  const double text_mb = (double)sb.st_size / MB;

  ds_load_options nocache, cached;
  ds_load_options_default(&nocache);
  nocache.use_cache = 0;
  nocache.progress = 0;
  cached = nocache;
  cached.use_cache = 1;
  ds_error err;
  if (ds_cache_path(path, &cached, cpath, sizeof cpath, &err) != DS_OK) return fail("cache", &err);
  remove(cpath);
  stage st[4] = {{.name = "read"}, {.name = "parse"}, {.name = "load"}, {.name = "cache"}};
  for (int trial = -1; trial < a.trials; trial++) { /* trial -1: the warm-up */
    double c[5], w[5];
    // read + parse
    ds_stage_text *text = NULL;
    c[0] = cpu_s(), w[0] = wall_s();
    if (ds_stage_read(path, &text, NULL, &err) != DS_OK) return fail("read", &err);
    c[1] = cpu_s(), w[1] = wall_s();
    ds_stage_edges *e = NULL;
    ds_stage_summary info;
    if (ds_stage_parse_mtx(path, text, &e, &info, &err) != DS_OK) return fail("parse", &err);
    c[2] = cpu_s(), w[2] = wall_s();
    entries = info.entries;
    a.field = !info.weighted ? "pattern" : info.weight_type == DS_WEIGHT_F32 ? "real" : "integer";
    ds_stage_edges_free(e);
    ds_stage_text_free(text);
    // whole load without, then with the cache (the warm-up writes it)
    ds_graph g;
    double l0 = cpu_s(), lw0 = wall_s();
    if (ds_graph_load(path, trial < 0 ? &cached : &nocache, &g, &err) != DS_OK)
      return fail("load", &err);
    c[3] = cpu_s(), w[3] = wall_s();
    ds_graph_free(&g);
    double k0 = cpu_s(), kw0 = wall_s();
    if (ds_graph_load(path, &cached, &g, &err) != DS_OK) return fail("cache load", &err);
    c[4] = cpu_s(), w[4] = wall_s();
    ds_graph_free(&g);
    if (trial < 0) continue;
    const double c_start[4] = {c[0], c[1], l0, k0}, w_start[4] = {w[0], w[1], lw0, kw0};
    const double c_end[4] = {c[1], c[2], c[3], c[4]}, w_end[4] = {w[1], w[2], w[3], w[4]};
    for (int k = 0; k < 4; k++) {
      st[k].t[trial] = c_end[k] - c_start[k];
      st[k].wall[trial] = w_end[k] - w_start[k];
    }
  }
  printf("input: %s, %.1f MB, %llu entries (%s)\n", path, text_mb, (unsigned long long)entries,
         a.field);
  stat(cpath, &sb);
  const double cache_mb = (double)sb.st_size / MB;
  for (int k = 0; k < 4; k++) {
    summarize(&st[k], a.trials);
    printf("%-6s cpu median %8.3f s (%.3f..%.3f) %8.1f MB/s of text | wall median %8.3f s "
           "%8.1f MB/s\n", st[k].name, st[k].median, st[k].lo, st[k].hi, text_mb / st[k].median,
           st[k].wall_median, text_mb / st[k].wall_median);
  }
  /* the text load builds the CSR on all threads: compare it by wall time */
  const double vs_load = st[2].wall_median / st[3].wall_median;
  const double vs_parse = st[1].median / st[3].median;
  printf("cache file %.1f MB; cache load is %.1fx faster than the text load (wall), %.1fx faster "
         "than the parse alone (cpu)\n", cache_mb, vs_load, vs_parse);
  if (a.json) {
    struct utsname u;
    uname(&u);
    FILE *f = fopen(a.json, "w");
    if (f == NULL) return perror(a.json), 1;
    char cpu[CPU_NAME_LEN];
    cpu_name(cpu, sizeof cpu);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const double ram_gib = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) /
                           (double)((uint64_t)1 << 30);
    fprintf(f, "{\n  \"benchmark\": \"parse\",\n  \"commit\": \"%s\",\n  \"date\": \"%s\",\n"
            "  \"cpu\": \"%s\",\n  \"machine\": \"%s, %ld cores online, %.0f GiB RAM\",\n"
            "  \"input\": \"%s\",\n  \"command\": \"", DS_GIT_COMMIT, date, cpu, cpu,
            sysconf(_SC_NPROCESSORS_ONLN), ram_gib, path);
    for (int i = 0; i < argc; i++) fprintf(f, "%s%s", i ? " " : "", argv[i]);
    fprintf(f, "\",\n  \"time\": \"thread CPU time (wall beside it); the text load builds the "
            "CSR on all threads\",\n");
    fprintf(f, "  \"host\": \"%s\",\n  \"field\": \"%s\",\n"
            "  \"text_mb\": %.1f,\n  \"entries\": %llu,\n  \"cache_mb\": %.1f,\n  \"trials\": %d,\n"
            "  \"stages\": {\n", u.nodename, a.field, text_mb, (unsigned long long)entries,
            cache_mb, a.trials);
    for (int k = 0; k < 4; k++)
      fprintf(f, "    \"%s\": {\"cpu_median_s\": %.4f, \"cpu_min_s\": %.4f, \"cpu_max_s\": %.4f, "
              "\"text_mb_per_cpu_s\": %.1f, \"wall_median_s\": %.4f}%s\n", st[k].name,
              st[k].median, st[k].lo, st[k].hi, text_mb / st[k].median, st[k].wall_median,
              k < 3 ? "," : "");
    fprintf(f, "  },\n  \"cache_speedup_vs_load_wall\": %.2f,\n  \"cache_speedup_vs_parse_cpu\": %.2f\n}\n",
            vs_load, vs_parse);
    fclose(f);
  }
  remove(cpath);
  if (a.input == NULL) remove(path);
  return 0;
}
