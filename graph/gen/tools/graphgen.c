/* graphgen: write a generated graph as Matrix Market (and its binary cache).
 *
 *   graphgen kron --scale 20 --edge-factor 16 --seed 1 -o kron20.mtx
 *
 * Each kind maps onto a ds_gen_spec (ds/gen.h); the graph goes through
 * ds_csr_build, so the file holds what a load would hold: no self-loops, no
 * duplicates; an undirected graph is a "symmetric" file with each edge once,
 * which a load stores with both directions and knows to be undirected. The
 * cache is written beside a regular file only (not beside /dev/stdout or a
 * FIFO, which are never cached). Exit codes: 0 success, 1 generation or write
 * failure (also OpenMP's threads not starting), 2 usage error (also a spec
 * the generators refuse: a weight range the distribution cannot take, a grid
 * beyond 32-bit ids).
 */
/* clock_gettime, isatty, stat under -std=c11 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ds/gen.h"
#include "ds/graph.h"
#include "ds/threads.h"

#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define PROGRESS_AFTER_S 1.0 /* draw the bar only for runs longer than this */
#define PROGRESS_WIDTH 40

static const char *usage_text =
    "usage: graphgen KIND [options] -o OUT.mtx\n"
    "\n"
    "Generate a graph (deterministic for a seed) and write it as a Matrix Market\n"
    "file with integer weights (symmetric, each edge once, when undirected), plus\n"
    "the binary cache next to it (none beside a stream or FIFO: -o /dev/stdout).\n"
    "\n"
    "kinds and their options:\n"
    "  kron     Graph500 Kronecker, 2^scale vertices, edge_factor * 2^scale edges\n"
    "           --scale S (16)  --edge-factor E (16)  --a --b --c (0.57 0.19 0.19)\n"
    "           --noise X (0)  --no-permute                       undirected\n"
    "  rmat     R-MAT with any n: --n N  --m M (16 N)  --a --b --c  --noise X  --no-permute\n"
    "           (the thesis's: --n 800000 --m 4800000 --a 0.5 --b 0.1 --c 0.1)  directed\n"
    "  grid     rows x cols 4-neighbour grid: --rows R (256)  --cols C (256)   undirected\n"
    "  geo      random geometric graph in the unit square: --n N (65536) and\n"
    "           --radius R or --degree D (8; radius = sqrt(D / (pi N)));\n"
    "           --geo-weights distance|random (distance: scaled onto MIN:MAX)  undirected\n"
    "  uniform  uniform random (Erdos-Renyi G(n,m) style): --n N  --m M (8 N)  undirected\n"
    "\n"
    "common options:\n"
    "  -o, --output FILE   the .mtx to write (required)\n"
    "  --weights MIN:MAX   integer weight range (default 1:255)\n"
    "  --weight-dist D     uniform (default) | log (log-uniform by octaves, MIN >= 1) |\n"
    "                      bimodal (99 %: MIN .. MIN + (MAX-MIN)/65536, 1 %: the top half)\n"
    "  --seed S            random seed (default 1)\n"
    "  --directed          store arcs one way   --undirected  store both directions\n"
    "                      (one of the two; the default is the kind's)\n"
    "  --no-cache          do not write the binary cache\n"
    "  --threads N         OpenMP threads (the output does not depend on it)\n"
    "  --quiet             no summary line, no progress bar\n"
    "  -h, --help          this text\n"
    "\n"
    "exit codes: 0 success, 1 generation or write failure, 2 usage error\n";

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "graphgen: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nrun 'graphgen --help' for the options\n");
  return EXIT_USAGE;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- strict number parsing -------------------------------------------- */
static int parse_u64(const char *s, uint64_t max, uint64_t *out) {
  if (!s || !*s || *s == '-' || *s == '+') return 0;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v > max) return 0;
  *out = v;
  return 1;
}

static int parse_double(const char *s, double *out) {
  if (!s || !*s) return 0;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || *end || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

/* --- progress bar ------------------------------------------------------ */
typedef struct {
  double start;
  double gen_done; /* time generation reported 1.0 */
  int tty;
  int drawn;
} progress_state;

static void on_progress(void *ctx, double fraction) {
  progress_state *p = ctx;
  double t = now_s();
  const int first_done = fraction >= 1.0 && p->gen_done == 0;
  if (first_done) p->gen_done = t;
  if (!p->tty || t - p->start < PROGRESS_AFTER_S) return;
  if (fraction >= 1.0 && !first_done) return; /* 1.0 comes from each generator and from ds_gen_edges */
  int fill = (int)(fraction * PROGRESS_WIDTH + 0.5);
  char bar[PROGRESS_WIDTH + 1];
  for (int i = 0; i < PROGRESS_WIDTH; i++) bar[i] = i < fill ? '#' : ' ';
  bar[PROGRESS_WIDTH] = '\0';
  fprintf(stderr, "\rgraphgen: generating [%s] %3d%%", bar, (int)(fraction * 100 + 0.5));
  if (fraction >= 1.0) fprintf(stderr, "\ngraphgen: building the CSR ...");
  fflush(stderr);
  p->drawn = 1;
}

static void progress_end(progress_state *p) {
  if (p->drawn) fprintf(stderr, " done\n");
  p->drawn = 0;
}

/* --- options ----------------------------------------------------------- */
typedef struct {
  const char *name;
  int takes_value;
} option_def;

/* Which option applies to which kinds (bit per ds_gen_kind). */
#define K(kind) (1u << (kind))
#define ALL_KINDS (K(DS_GEN_KRON) | K(DS_GEN_RMAT) | K(DS_GEN_GRID) | K(DS_GEN_GEO) | K(DS_GEN_UNIFORM))
typedef struct {
  const char *name;
  unsigned kinds;
} option_scope;

static const option_scope scopes[] = {
    {"--scale", K(DS_GEN_KRON)},
    {"--edge-factor", K(DS_GEN_KRON)},
    {"--a", K(DS_GEN_KRON) | K(DS_GEN_RMAT)},
    {"--b", K(DS_GEN_KRON) | K(DS_GEN_RMAT)},
    {"--c", K(DS_GEN_KRON) | K(DS_GEN_RMAT)},
    {"--noise", K(DS_GEN_KRON) | K(DS_GEN_RMAT)},
    {"--no-permute", K(DS_GEN_KRON) | K(DS_GEN_RMAT)},
    {"--n", K(DS_GEN_RMAT) | K(DS_GEN_GEO) | K(DS_GEN_UNIFORM)},
    {"--m", K(DS_GEN_RMAT) | K(DS_GEN_UNIFORM)},
    {"--rows", K(DS_GEN_GRID)},
    {"--cols", K(DS_GEN_GRID)},
    {"--radius", K(DS_GEN_GEO)},
    {"--degree", K(DS_GEN_GEO)},
    {"--geo-weights", K(DS_GEN_GEO)},
    {"-o", ALL_KINDS},
    {"--output", ALL_KINDS},
    {"--weights", ALL_KINDS},
    {"--weight-dist", ALL_KINDS},
    {"--seed", ALL_KINDS},
    {"--directed", ALL_KINDS},
    {"--undirected", ALL_KINDS},
    {"--no-cache", ALL_KINDS},
    {"--threads", ALL_KINDS},
    {"--quiet", ALL_KINDS},
};

static int is_flag(const char *name) {
  static const char *flags[] = {"--no-permute", "--directed", "--undirected", "--no-cache",
                                "--quiet"};
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (strcmp(name, flags[i]) == 0) return 1;
  return 0;
}

typedef struct {
  ds_gen_spec spec;
  const char *output;
  int no_cache, quiet, threads;
  int m_given, n_given, radius_given, degree_given, directed_given, undirected_given;
} cli;

static int parse_kind(const char *s, ds_gen_kind *kind) {
  for (int k = DS_GEN_KRON; k <= DS_GEN_UNIFORM; k++)
    if (strcmp(s, ds_gen_kind_name((ds_gen_kind)k)) == 0) {
      *kind = (ds_gen_kind)k;
      return 1;
    }
  return 0;
}

/* Apply one option with its value; returns 0 or EXIT_USAGE after a message. */
static int apply(cli *c, const char *opt, const char *val) {
  ds_gen_spec *s = &c->spec;
  uint64_t u = 0;
  double d = 0;
  char msg[256];
#define BAD(what)                                                                 \
  do {                                                                            \
    snprintf(msg, sizeof msg, "%s '%%s' is not %s", opt, what);                   \
    return usage_error(msg, val);                                                 \
  } while (0)
  if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) {
    c->output = val;
  } else if (!strcmp(opt, "--scale")) {
    if (!parse_u64(val, 31, &u) || u < 1) BAD("an integer in [1, 31]");
    s->scale = (uint32_t)u;
  } else if (!strcmp(opt, "--edge-factor")) {
    if (!parse_u64(val, UINT32_MAX, &u) || u < 1) BAD("a positive integer");
    s->edge_factor = (uint32_t)u;
  } else if (!strcmp(opt, "--a") || !strcmp(opt, "--b") || !strcmp(opt, "--c")) {
    if (!parse_double(val, &d) || d < 0 || d > 1) BAD("a probability in [0, 1]");
    if (opt[2] == 'a') s->a = d;
    else if (opt[2] == 'b') s->b = d;
    else s->c = d;
  } else if (!strcmp(opt, "--noise")) {
    if (!parse_double(val, &d) || d < 0 || d >= 1) BAD("a number in [0, 1)");
    s->noise = d;
  } else if (!strcmp(opt, "--no-permute")) {
    s->permute = 0;
  } else if (!strcmp(opt, "--n")) {
    if (!parse_u64(val, UINT32_MAX, &u) || u < 1) BAD("a vertex count in [1, 4294967295]");
    s->n = (uint32_t)u;
    c->n_given = 1;
  } else if (!strcmp(opt, "--m")) {
    if (!parse_u64(val, UINT64_MAX, &u)) BAD("a non-negative integer");
    s->m = u;
    c->m_given = 1;
  } else if (!strcmp(opt, "--rows") || !strcmp(opt, "--cols")) {
    if (!parse_u64(val, UINT32_MAX, &u) || u < 1) BAD("a positive integer");
    if (opt[2] == 'r') s->rows = (uint32_t)u;
    else s->cols = (uint32_t)u;
  } else if (!strcmp(opt, "--radius")) {
    if (!parse_double(val, &d) || d <= 0) BAD("a positive number");
    s->radius = d;
    c->radius_given = 1;
  } else if (!strcmp(opt, "--degree")) {
    if (!parse_double(val, &d) || d <= 0) BAD("a positive number");
    s->degree = d;
    s->radius = 0;
    c->degree_given = 1;
  } else if (!strcmp(opt, "--geo-weights")) {
    if (!strcmp(val, "distance")) s->geo_weight = DS_GEN_GEO_WEIGHT_DISTANCE;
    else if (!strcmp(val, "random")) s->geo_weight = DS_GEN_GEO_WEIGHT_RANDOM;
    else BAD("'distance' or 'random'");
  } else if (!strcmp(opt, "--weight-dist")) {
    if (ds_weight_dist_parse(val, &s->weight_dist, NULL) != DS_OK)
      BAD("'uniform', 'log' or 'bimodal'");
  } else if (!strcmp(opt, "--weights")) {
    const char *colon = strchr(val, ':');
    uint64_t lo = 0, hi = 0;
    char left[32];
    size_t len = colon ? (size_t)(colon - val) : 0;
    if (!colon || len >= sizeof left) BAD("MIN:MAX");
    memcpy(left, val, len);
    left[len] = '\0';
    if (!parse_u64(left, UINT32_MAX, &lo) || !parse_u64(colon + 1, UINT32_MAX, &hi))
      BAD("MIN:MAX with integers in [0, 4294967295]");
    if (lo > hi) BAD("MIN:MAX with MIN <= MAX");
    s->weight_min = (uint32_t)lo;
    s->weight_max = (uint32_t)hi;
  } else if (!strcmp(opt, "--seed")) {
    if (!parse_u64(val, UINT64_MAX, &u)) BAD("a non-negative integer");
    s->seed = u;
  } else if (!strcmp(opt, "--directed")) {
    s->symmetric = 0;
    c->directed_given = 1;
  } else if (!strcmp(opt, "--undirected")) {
    s->symmetric = 1;
    c->undirected_given = 1;
  } else if (!strcmp(opt, "--no-cache")) {
    c->no_cache = 1;
  } else if (!strcmp(opt, "--quiet")) {
    c->quiet = 1;
  } else if (!strcmp(opt, "--threads")) {
    if (!parse_u64(val, 4096, &u) || u < 1) BAD("an integer in [1, 4096]");
    c->threads = (int)u;
  }
#undef BAD
  return 0;
}

static int parse_args(int argc, char **argv, cli *c) {
  memset(c, 0, sizeof *c);
  ds_gen_kind kind;
  if (!parse_kind(argv[1], &kind)) {
    if (argv[1][0] == '-') return usage_error("the first argument must be the kind, not '%s'", argv[1]);
    return usage_error("unknown kind '%s' (kron, rmat, grid, geo, uniform)", argv[1]);
  }
  ds_gen_spec_default(&c->spec, kind);
  for (int i = 2; i < argc; i++) {
    const char *opt = argv[i], *val = NULL;
    char name[64];
    const char *eq = strncmp(opt, "--", 2) == 0 ? strchr(opt, '=') : NULL;
    if (eq) { /* --name=value */
      size_t len = (size_t)(eq - opt);
      if (len >= sizeof name) return usage_error("unknown option '%s'", opt);
      memcpy(name, opt, len);
      name[len] = '\0';
      val = eq + 1;
      opt = name;
    }
    if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
      fputs(usage_text, stdout);
      exit(0);
    }
    const option_scope *sc = NULL;
    for (size_t k = 0; k < sizeof scopes / sizeof scopes[0]; k++)
      if (!strcmp(opt, scopes[k].name)) sc = &scopes[k];
    if (!sc) return usage_error("unknown option '%s'", argv[i]);
    if (!(sc->kinds & K(kind))) {
      char msg[160];
      snprintf(msg, sizeof msg, "option '%%s' does not apply to kind '%s'", ds_gen_kind_name(kind));
      return usage_error(msg, opt);
    }
    if (is_flag(opt)) {
      if (val) return usage_error("option '%s' takes no value", opt);
    } else if (!val) {
      if (i + 1 >= argc) return usage_error("option '%s' needs a value", opt);
      val = argv[++i];
    }
    int rc = apply(c, opt, val);
    if (rc) return rc;
  }
  if (!c->output) return usage_error("%s", "no output file: give -o FILE.mtx");
  size_t out_len = strlen(c->output);
  if (out_len > 3 && strcmp(c->output + out_len - 3, ".gz") == 0)
    return usage_error("output '%s': graphgen writes uncompressed Matrix Market (gzip it after)",
                       c->output);
  if (c->radius_given && c->degree_given)
    return usage_error("%s", "give --radius or --degree, not both");
  if (c->directed_given && c->undirected_given)
    return usage_error("%s", "give --directed or --undirected, not both");
  if ((kind == DS_GEN_RMAT || kind == DS_GEN_UNIFORM) && c->n_given && !c->m_given)
    c->spec.m = (uint64_t)c->spec.n * (kind == DS_GEN_RMAT ? 16 : 8);
  if ((kind == DS_GEN_RMAT || kind == DS_GEN_UNIFORM) && c->spec.n < 2)
    return usage_error("%s", "--n must be at least 2 for this kind");
  if ((kind == DS_GEN_KRON || kind == DS_GEN_RMAT) && c->spec.a + c->spec.b + c->spec.c > 1.0 + 1e-12)
    return usage_error("%s", "--a + --b + --c must not exceed 1 (d = 1 - a - b - c)");
  /* what the generators refuse is a usage error too, found before anything is drawn */
  ds_error why;
  if (ds_gen_spec_check(&c->spec, &why) != DS_OK) return usage_error("%s", why.msg);
  return 0;
}

/* The graph name a load gives a file: no directories, no ".gz", no extension. */
static void name_of_file(const char *path, char *out, size_t len) {
  const char *base = strrchr(path, '/');
  snprintf(out, len, "%s", base ? base + 1 : path);
  size_t n = strlen(out);
  if (n > 3 && strcmp(out + n - 3, ".gz") == 0) out[n -= 3] = '\0';
  char *dot = strrchr(out, '.');
  if (dot && dot != out) *dot = '\0';
}

/* Does path name the file of standard output (/dev/stdout, or the file it was
 * redirected to)? */
static int is_stdout(const char *path) {
  struct stat a, b;
  return stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

static int fail(const char *what, const ds_error *err) {
  fprintf(stderr, "graphgen: %s: %s\n", what, err->msg);
  return EXIT_FAIL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return EXIT_USAGE;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  cli c;
  int rc = parse_args(argc, argv, &c);
  if (rc) return rc;
  ds_error err;
  if (ds_threads_start(c.threads, NULL, &err) != DS_OK) {
    fprintf(stderr, "graphgen: %s: give fewer --threads\n", err.msg);
    return EXIT_FAIL;
  }

  // 1. generate and build the CSR
  progress_state prog = {now_s(), 0, !c.quiet && isatty(STDERR_FILENO), 0};
  c.spec.progress = on_progress;
  c.spec.progress_ctx = &prog;
  ds_graph g;
  ds_status st = ds_gen_graph(&c.spec, &g, &err);
  progress_end(&prog);
  if (st != DS_OK) return fail("generation failed", &err);
  double t_built = now_s();
  char gen_name[sizeof g.name];
  memcpy(gen_name, g.name, sizeof gen_name);

  // 2. Matrix Market
  if (prog.tty && t_built - prog.start >= PROGRESS_AFTER_S) {
    fprintf(stderr, "graphgen: writing %s ...\n", c.output);
    fflush(stderr);
  }
  st = ds_mtx_write(c.output, &g, &err);
  if (st != DS_OK) {
    ds_graph_free(&g);
    return fail("writing the graph failed", &err);
  }
  double t_written = now_s();

  // 3. the binary cache, keyed like a later load of the file with default options; none
  // beside a stream or FIFO (no stamp: a load never caches them)
  ds_input_stamp stamp;
  st = c.no_cache ? DS_ERR_UNSUPPORTED : ds_input_stamp_of(c.output, &stamp, &err);
  if (st == DS_OK) {
    ds_load_options opt;
    ds_load_options_default(&opt);
    char cpath[4096];
    st = ds_cache_path(c.output, &opt, cpath, sizeof cpath, &err);
    /* describe the graph as reading the .mtx would: an integer file, symmetric when
       undirected (each edge an entry), named after the file, weights from it */
    g.format = DS_FORMAT_MTX;
    g.index_base = 1;
    g.weights_generated = 0;
    g.weight_min = g.weight_max = 0;
    g.weight_seed = 0;
    g.input_entries = g.symmetric ? g.m / 2 : g.m;
    name_of_file(c.output, g.name, sizeof g.name);
    if (st == DS_OK) st = ds_cache_write(cpath, &g, &opt, &stamp, &err);
  }
  if (st != DS_OK && st != DS_ERR_UNSUPPORTED) {
    ds_graph_free(&g);
    return fail("writing the cache failed", &err);
  }
  double t_end = now_s();

  if (!c.quiet) {
    /* the summary goes where the graph does not: stderr when the graph went to stdout */
    FILE *f = is_stdout(c.output) ? stderr : stdout;
    double gen_s = (prog.gen_done > 0 ? prog.gen_done : t_built) - prog.start;
    fprintf(f, "graphgen: %s: %u vertices, %llu arcs (%s), weights %u..%u, seed %llu -> %s\n",
            gen_name, g.n, (unsigned long long)g.m, c.spec.symmetric ? "undirected" : "directed",
            c.spec.weight_min, c.spec.weight_max, (unsigned long long)c.spec.seed, c.output);
    fprintf(f, "graphgen: time: generate %.2f s, csr %.2f s, write mtx %.2f s, cache %.2f s\n",
            gen_s, t_built - prog.start - gen_s, t_written - t_built, t_end - t_written);
  }
  ds_graph_free(&g);
  return 0;
}
