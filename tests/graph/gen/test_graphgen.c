/* End-to-end tests of the graphgen tool (its path is argv[1]):
 *
 *   1. usage errors exit 2 with a message naming the problem, also the specs
 *      the generators refuse and --directed with --undirected; --help exits 0;
 *      an unwritable output exits 1, and so do threads that cannot start (under
 *      a ulimit -v, not in sanitizer builds, whose shadow memory needs more);
 *   2. for every kind, the .mtx it writes loads (ds_graph_load, no cache) into
 *      exactly the graph ds_gen_graph builds in-process from the same
 *      parameters, undirected ones marked symmetric, and the cache it writes
 *      next to it loads into the same graph; --no-cache writes no cache;
 *   3. -o /dev/stdout writes the graph to standard output, the summary to
 *      stderr, and no cache.
 */
#include "gen_test_util.h"

#include <sys/stat.h>
#include <sys/wait.h>

/* A limit on the address space is no test under AddressSanitizer, whose shadow
 * memory alone passes it. */
#if defined(__SANITIZE_ADDRESS__)
#define LIMITS_TESTABLE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIMITS_TESTABLE 0
#endif
#endif
#ifndef LIMITS_TESTABLE
#define LIMITS_TESTABLE 1
#endif
#define ADDRESS_LIMIT_KIB "1000000" /* room for graphgen, not for 4096 thread stacks */

static const char *tool;
static char dir[256];

/* Runs graphgen with args after the shell commands before (limits), stdout to
 * dir/out.txt and stderr to dir/err.txt; returns the exit code. */
static int run_after(const char *before, const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s '%s' %s >'%s/out.txt' 2>'%s/err.txt'", before, tool, args, dir,
           dir);
  int st = system(cmd);
  if (st == -1 || !WIFEXITED(st)) return -1;
  return WEXITSTATUS(st);
}

static int run(const char *args) { return run_after("", args); }

static int err_contains(const char *word) {
  char path[512], buf[4096];
  snprintf(path, sizeof path, "%s/err.txt", dir);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return strstr(buf, word) != NULL;
}

static void test_usage(void) {
  static const struct {
    const char *args;
    int code;
    const char *word; /* in stderr */
  } cases[] = {
      {"", 2, "usage"},
      {"bogus -o x.mtx", 2, "unknown kind"},
      {"--scale 3", 2, "kind"},
      {"kron", 2, "-o"},
      {"kron --scale 0 -o x.mtx", 2, "--scale"},
      {"kron --scale abc -o x.mtx", 2, "--scale"},
      {"kron --scale 40 -o x.mtx", 2, "--scale"},
      {"kron --scale", 2, "needs a value"},
      {"kron --frobnicate 1 -o x.mtx", 2, "unknown option"},
      {"grid --scale 4 -o x.mtx", 2, "does not apply"},
      {"kron --weights 5:1 -o x.mtx", 2, "--weights"},
      {"kron --weights 5 -o x.mtx", 2, "--weights"},
      {"kron --weights -1:5 -o x.mtx", 2, "--weights"},
      {"kron --a 0.9 -o x.mtx", 2, "exceed"},
      {"rmat --n 1 -o x.mtx", 2, "--n"},
      {"geo --radius -0.5 -o x.mtx", 2, "--radius"},
      {"geo --geo-weights maybe -o x.mtx", 2, "--geo-weights"},
      {"geo --radius 0.1 --degree 5 -o x.mtx", 2, "not both"},
      {"kron --quiet=1 -o x.mtx", 2, "takes no value"},
      {"grid -o x.mtx.gz", 2, "uncompressed"},
      {"uniform --m 12x -o x.mtx", 2, "--m"},
      {"kron --directed --undirected -o x.mtx", 2, "not both"},
      {"rmat --undirected --directed -o x.mtx", 2, "not both"},
      {"grid --rows 100000 --cols 100000 -o x.mtx", 2, "32-bit"},
      {"kron --weight-dist log --weights 0:5 -o x.mtx", 2, "at least 1"},
      {"geo --weight-dist bimodal -o x.mtx", 2, "distance weights"},
      {"--help", 0, ""},
      {"kron --help", 0, ""},
      {"grid --rows 3 --cols 3 -o /nonexistent-dir/x.mtx", 1, "nonexistent-dir"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int code = run(cases[i].args);
    CHECK(code == cases[i].code, "graphgen %s: exit %d, expected %d", cases[i].args, code,
          cases[i].code);
    CHECK(err_contains(cases[i].word), "graphgen %s: stderr does not mention '%s'", cases[i].args,
          cases[i].word);
  }
  char path[512];
  snprintf(path, sizeof path, "%s/out.txt", dir);
  run("--help");
  FILE *f = fopen(path, "r");
  char line[256] = "";
  if (f) {
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
  }
  CHECK(strstr(line, "usage: graphgen") != NULL, "--help prints '%s'", line);
  if (LIMITS_TESTABLE) { /* libgomp would print its own message and exit 1 */
    int code = run_after("ulimit -v " ADDRESS_LIMIT_KIB ";", "grid --threads 4096 --no-cache -o x.mtx");
    CHECK(code == 1 && err_contains("graphgen: cannot start 4096 threads"),
          "--threads 4096 under ulimit -v: exit %d, expected 1 and graphgen's message", code);
  }
}

/* The description a load gives, through the cache or the text. */
static int same_meta(const ds_graph *x, const ds_graph *y) {
  return x->symmetric == y->symmetric && x->weights_generated == y->weights_generated &&
         x->weight_min == y->weight_min && x->weight_max == y->weight_max &&
         x->weight_seed == y->weight_seed && x->format == y->format &&
         x->index_base == y->index_base && x->input_entries == y->input_entries &&
         strcmp(x->name, y->name) == 0;
}

static void test_round_trip(void) {
  static const struct {
    const char *args;
    ds_gen_kind kind;
  } cases[] = {
      {"kron --scale 10 --edge-factor 8 --seed 4 --weights 1:255", DS_GEN_KRON},
      {"rmat --n 1000 --m 6000 --a 0.5 --b 0.1 --c 0.1 --weights 0:1000 --seed 5", DS_GEN_RMAT},
      {"grid --rows 17 --cols 23 --seed 6 --weights 3:9", DS_GEN_GRID},
      {"geo --n 1500 --degree 6 --seed 7 --weights 1:100", DS_GEN_GEO},
      {"uniform --n 800 --m 5000 --seed 8 --undirected", DS_GEN_UNIFORM},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ds_gen_spec s;
    ds_gen_spec_default(&s, cases[i].kind);
    switch (cases[i].kind) {
      case DS_GEN_KRON: s.scale = 10; s.edge_factor = 8; s.seed = 4; break;
      case DS_GEN_RMAT:
        s.n = 1000; s.m = 6000; s.a = 0.5; s.b = 0.1; s.c = 0.1; s.seed = 5;
        s.weight_min = 0; s.weight_max = 1000;
        break;
      case DS_GEN_GRID: s.rows = 17; s.cols = 23; s.seed = 6; s.weight_min = 3; s.weight_max = 9; break;
      case DS_GEN_GEO: s.n = 1500; s.degree = 6; s.seed = 7; s.weight_max = 100; break;
      case DS_GEN_UNIFORM: s.n = 800; s.m = 5000; s.seed = 8; break;
    }
    char mtx[512], args[1024], cpath[1024];
    snprintf(mtx, sizeof mtx, "%s/g%zu.mtx", dir, i);
    snprintf(args, sizeof args, "%s --quiet -o '%s'", cases[i].args, mtx);
    int code = run(args);
    CHECK(code == 0, "graphgen %s: exit %d", args, code);
    if (code != 0) continue;

    ds_graph want, got;
    ds_error err;
    if (ds_gen_graph(&s, &want, &err) != DS_OK) {
      CHECK(0, "ds_gen_graph: %s", err.msg);
      continue;
    }
    ds_load_options opt;
    ds_load_options_default(&opt);
    CHECK(ds_cache_path(mtx, &opt, cpath, sizeof cpath, &err) == DS_OK, "cache path: %s", err.msg);
    struct stat sb;
    CHECK(stat(cpath, &sb) == 0, "graphgen %s wrote no cache at %s", cases[i].args, cpath);
    struct stat before;
    CHECK(stat(cpath, &before) == 0, "no cache %s", cpath);
    ds_graph text;
    memset(&text, 0, sizeof text);
    for (int use_cache = 0; use_cache <= 1; use_cache++) {
      opt.use_cache = use_cache;
      memset(&got, POISON_BYTE, sizeof got);
      ds_status st = ds_graph_load(mtx, &opt, &got, &err);
      CHECK(st == DS_OK, "load %s (cache %d): %s", mtx, use_cache, err.msg);
      if (st != DS_OK) continue;
      CHECK(same_graph(&want, &got), "graphgen %s: the loaded graph (cache %d) differs from "
            "ds_gen_graph's (n %u/%u, m %llu/%llu)", cases[i].args, use_cache, got.n, want.n,
            (unsigned long long)got.m, (unsigned long long)want.m);
      if (use_cache == 0) { /* an undirected graph's file says so: no rebuild in kcore, tc */
        CHECK(got.symmetric == want.symmetric, "graphgen %s: the file loads as %s", cases[i].args,
              got.symmetric ? "symmetric" : "directed");
        text = got;
        continue;
      }
      CHECK(same_meta(&text, &got),
            "graphgen %s: the cache describes the graph unlike the text (name '%s'/'%s', "
            "symmetric %d/%d, generated %d/%d, weights %u..%u/%u..%u, format %d/%d)",
            cases[i].args, got.name, text.name, got.symmetric, text.symmetric,
            got.weights_generated, text.weights_generated, got.weight_min, got.weight_max,
            text.weight_min, text.weight_max, (int)got.format, (int)text.format);
      ds_graph_free(&got);
    }
    ds_graph_free(&text);
    /* the load used graphgen's cache, it did not rewrite it */
    struct stat after;
    CHECK(stat(cpath, &after) == 0 && after.st_mtime == before.st_mtime &&
              after.st_ino == before.st_ino,
          "graphgen %s: the load rewrote the cache (graphgen's was stale)", cases[i].args);
    ds_graph_free(&want);
    remove(cpath);
    remove(mtx);
  }
  /* --no-cache */
  char mtx[512], args[1024], cpath[1024];
  snprintf(mtx, sizeof mtx, "%s/nocache.mtx", dir);
  snprintf(args, sizeof args, "grid --rows 4 --cols 4 --no-cache --quiet -o '%s'", mtx);
  CHECK(run(args) == 0, "graphgen %s failed", args);
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_error err;
  struct stat sb;
  if (ds_cache_path(mtx, &opt, cpath, sizeof cpath, &err) == DS_OK)
    CHECK(stat(cpath, &sb) != 0, "--no-cache wrote %s", cpath);
  CHECK(stat(mtx, &sb) == 0, "--no-cache wrote no %s", mtx);
  remove(mtx);
}

/* -o /dev/stdout: the graph on standard output, whole, the summary on stderr, no cache
 * (none can be written beside a stream, and none is wanted) */
static void test_stdout(void) {
  int code = run("grid --rows 3 --cols 4 --seed 6 -o /dev/stdout");
  CHECK(code == 0, "graphgen -o /dev/stdout: exit %d", code);
  CHECK(err_contains("grid_3x4: 12 vertices, 34 arcs"), "-o /dev/stdout: no summary on stderr");
  char out[512];
  snprintf(out, sizeof out, "%s/out.txt", dir);
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_GRID);
  s.rows = 3;
  s.cols = 4;
  s.seed = 6;
  ds_load_options opt = options_no_cache();
  ds_graph want, got;
  ds_error err;
  if (!CHECK(ds_gen_graph(&s, &want, &err) == DS_OK, "ds_gen_graph: %s", err.msg)) return;
  if (CHECK(ds_graph_load(out, &opt, &got, &err) == DS_OK, "-o /dev/stdout wrote no graph: %s",
            err.msg)) {
    CHECK(same_graph(&want, &got) && got.symmetric, "-o /dev/stdout: not the graph");
    ds_graph_free(&got);
  }
  ds_graph_free(&want);
  struct stat sb;
  CHECK(stat("/dev/stdout.dscache", &sb) != 0, "a cache beside /dev/stdout");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_graphgen PATH_TO_GRAPHGEN\n");
    return 2;
  }
  tool = argv[1];
  scratch_make(dir, sizeof dir, "graphgen");
  test_usage();
  test_round_trip();
  test_stdout();
  scratch_remove(dir);
  return ds_test_finish("test_graphgen");
}
