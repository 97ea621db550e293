/* Graph files loaded by the ranks, each parsing its byte range
 * (app/dist/dfile.c over graph/src/read_range.c), against the one-process
 * load of the same file (ds_graph_load, no cache) on 1 to 5 and 7 simulated
 * ranks: every rank's rows equal the whole graph's. Inputs: the bundled
 * graphs given on the command line, and files made here to cross the parts'
 * boundaries in every way: CRLF lines, comment and blank lines anywhere,
 * blanks padding lines longer than a part, no final newline, a byte order
 * mark, a real weight in the last part of an edge list (the parts before
 * turn float), pattern weights, symmetric files, files smaller than the rank
 * count. Bad files: the one-process load's error, status and message, on
 * every rank, its line number included, also where the count of the header
 * and a bad line compete for the first error; gzip is refused. Binary caches
 * of the bundled graphs, each rank its exact range of arcs, against the
 * one-process read of the cache; a spoiled or short cache fails on every rank.
 * On every load, the whole graph's statistics from the parts (ds_dgraph_stats_of)
 * give the one-process run's delta, buckets, distance width, median weight and
 * candidate sources, also on files made for the rules' other branches (a heavy
 * tail of weights, paths beyond 32 bits); and ds_dfile_ranged sends gzip, a
 * FIFO and nothing else to the whole-file load. */
#include "ds_test.h"

#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist/dfile.h"
#include "dist_test_util.h"

static const int RANKS[] = {1, 2, 3, 4, 5, 7};
#define N_RANKS (int)(sizeof RANKS / sizeof RANKS[0])
#define TEXT_MAX (1u << 20)
#define BOM "\xEF\xBB\xBF"

/* ---- files ------------------------------------------------------------- */

typedef struct {
  char *s;
  size_t len;
} text;

static void put(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->s + t->len, TEXT_MAX - t->len, fmt, ap);
  va_end(ap);
  if (k < 0 || t->len + (size_t)k >= TEXT_MAX) {
    fprintf(stderr, "test text too long\n");
    exit(2);
  }
  t->len += (size_t)k;
}

static text text_new(void) {
  text t = {malloc(TEXT_MAX), 0};
  if (t.s == NULL) exit(2);
  t.s[0] = '\0';
  return t;
}

/* How a made file dresses its lines. */
typedef struct {
  const char *eol;    /* "\n" or "\r\n" */
  int comments;       /* a comment line every few lines */
  int blanks;         /* blank lines every few lines */
  int pad;            /* pad some lines with this many blanks */
  int no_final_eol;   /* drop the last newline */
  int bom;            /* a UTF-8 byte order mark first */
} dress;

static uint64_t rnd(uint64_t *s) { return ds_splitmix64_next(s); }

/* Between two entry lines: the dressing's comment, blank and padded lines. */
static void dress_line(text *t, const dress *d, uint64_t *s, char comment) {
  if (d->comments && rnd(s) % 5 == 0) put(t, "%c a comment that crosses a boundary%s", comment, d->eol);
  if (d->blanks && rnd(s) % 7 == 0) put(t, "%s", d->eol);
  if (d->blanks && rnd(s) % 11 == 0) put(t, " \t %s", d->eol);
  if (d->pad && rnd(s) % 9 == 0) put(t, "%*s", d->pad, "");
}

static void finish(text *t, const dress *d) {
  if (d->no_final_eol) {
    while (t->len > 0 && (t->s[t->len - 1] == '\n' || t->s[t->len - 1] == '\r')) t->len--;
  }
}

typedef enum { W_PATTERN, W_INT, W_REAL } wkind;

static text make_mtx(uint32_t n, uint32_t nnz, wkind w, int symmetric, const dress *d, uint64_t seed) {
  text t = text_new();
  uint64_t s = seed;
  if (d->bom) put(&t, BOM);
  put(&t, "%%%%MatrixMarket matrix coordinate %s %s%s", w == W_PATTERN ? "pattern" : w == W_INT ?
      "integer" : "real", symmetric ? "symmetric" : "general", d->eol);
  put(&t, "%% made by test_dist_file%s", d->eol);
  put(&t, "%u %u %u%s", n, n, nnz, d->eol);
  for (uint32_t k = 0; k < nnz; k++) {
    dress_line(&t, d, &s, '%');
    const uint32_t i = 1 + (uint32_t)(rnd(&s) % n), j = 1 + (uint32_t)(rnd(&s) % n);
    if (w == W_PATTERN) put(&t, "%u %u%s", i, j, d->eol);
    else if (w == W_INT) put(&t, "%u\t%u %u%s", i, j, (uint32_t)(rnd(&s) % 1000), d->eol);
    else put(&t, "%u %u %.6g%s", i, j, ds_unit_double(rnd(&s)) * 50, d->eol);
  }
  finish(&t, d);
  return t;
}

/* An edge list; with real_from < count, the entries from there on have real weights. */
static text make_el(uint32_t n, uint32_t count, int weighted, uint32_t real_from, const dress *d,
                    uint64_t seed) {
  text t = text_new();
  uint64_t s = seed;
  if (d->bom) put(&t, BOM);
  put(&t, "# an edge list%s", d->eol);
  for (uint32_t k = 0; k < count; k++) {
    dress_line(&t, d, &s, k % 2 ? '#' : '%');
    const uint32_t u = (uint32_t)(rnd(&s) % n), v = (uint32_t)(rnd(&s) % n);
    if (!weighted) put(&t, "%u %u%s", u, v, d->eol);
    else if (k >= real_from) put(&t, "%u %u %.3f%s", u, v, ds_unit_double(rnd(&s)) * 9, d->eol);
    else put(&t, "%u %u %u%s", u, v, (uint32_t)(rnd(&s) % 100), d->eol);
  }
  finish(&t, d);
  return t;
}

static text make_gr(uint32_t n, uint32_t m, const dress *d, uint64_t seed) {
  text t = text_new();
  uint64_t s = seed;
  put(&t, "c a DIMACS graph%sc with comments%s", d->eol, d->eol);
  put(&t, "p sp %u %u%s", n, m, d->eol);
  for (uint32_t k = 0; k < m; k++) {
    dress_line(&t, d, &s, 'c');
    put(&t, "a %u %u %u%s", 1 + (uint32_t)(rnd(&s) % n), 1 + (uint32_t)(rnd(&s) % n),
        (uint32_t)(rnd(&s) % 500), d->eol);
  }
  finish(&t, d);
  return t;
}

/* ---- the ranks ----------------------------------------------------------- */

typedef struct {
  const char *path;
  ds_load_options opt;
  ds_dgraph g[TEST_MAX_RANKS];
  ds_dfile_info info[TEST_MAX_RANKS];
  ds_dgraph_stats stats[TEST_MAX_RANKS];
} load_arg;

static ds_status load_rank(ds_comm *c, void *argp, ds_error *err) {
  load_arg *a = argp;
  const int r = ds_comm_rank(c);
  ds_status st = ds_dfile_build(c, a->path, &a->opt, &a->g[r], &a->info[r], err);
  if (st == DS_OK) st = ds_dgraph_stats_of(c, &a->g[r], &a->stats[r], err);
  return st;
}

/* Loads path on R simulated ranks; the caller frees the parts and the arg. */
static load_arg *run_ranks(const char *path, const ds_load_options *opt, int R, ds_status *rs,
                           ds_error *re, ds_status *st, ds_error *err) {
  load_arg *a = calloc(1, sizeof *a);
  if (a == NULL) exit(2);
  a->path = path;
  a->opt = *opt;
  *st = ds_comm_inproc_run(R, NULL, load_rank, a, rs, re, err);
  return a;
}

static void run_free(load_arg *a, int R) {
  for (int r = 0; r < R; r++) ds_dgraph_free(&a->g[r]);
  free(a);
}

static void options(ds_load_options *opt) {
  ds_load_options_default(opt);
  opt->use_cache = 0;
  opt->progress = 0;
  opt->seed = 31;
  opt->weight_min = 1;
  opt->weight_max = 70;
}

/* The parts' statistics, on every rank, give what the one-process run
 * computes from the whole graph: delta (exactly for integer weights; float
 * sums in another order within a relative 1e-9), buckets, width, median. */
static void check_stats(const char *what, int R, const load_arg *a, const ds_graph *whole) {
  uint32_t with_arcs = 0;
  for (uint32_t v = 0; v < whole->n; v++) with_arcs += whole->row_offsets[v + 1] > whole->row_offsets[v];
  const double delta = ds_delta_auto(whole), median = ds_median_weight(whole);
  const int is_float = whole->weight_type == DS_WEIGHT_F32;
  for (int r = 0; r < R; r++) {
    const ds_dgraph_stats *s = &a->stats[r];
    const double d = ds_dgraph_delta_auto(s);
    CHECK(s->n == whole->n && s->m == whole->m && s->with_arcs == with_arcs, "%s R=%d rank %d: "
          "stats n %u m %llu with arcs %u, one process %u %llu %u", what, R, r, s->n,
          (unsigned long long)s->m, s->with_arcs, whole->n, (unsigned long long)whole->m, with_arcs);
    CHECK(is_float ? fabs(d - delta) <= 1e-9 * delta : d == delta, "%s R=%d rank %d: delta %.17g, "
          "one process %.17g", what, R, r, d, delta);
    CHECK(s->median == median, "%s R=%d rank %d: median %.17g, one process %.17g", what, R, r,
          s->median, median);
    CHECK(ds_dgraph_buckets_auto(s, delta) == ds_buckets_auto(whole, delta), "%s R=%d rank %d: "
          "buckets %u, one process %u", what, R, r, ds_dgraph_buckets_auto(s, delta),
          ds_buckets_auto(whole, delta));
    CHECK(ds_dgraph_dist_width(s) == ds_sssp_dist_width(whole), "%s R=%d rank %d: width %d, one "
          "process %d", what, R, r, (int)ds_dgraph_dist_width(s), (int)ds_sssp_dist_width(whole));
    CHECK(strcmp(a->info[r].name, whole->name) == 0, "%s R=%d rank %d: name '%s', one process "
          "'%s'", what, R, r, a->info[r].name, whole->name);
  }
}

/* The file on every rank count gives the one-process load's graph. */
static void check_same(const char *what, const char *path, int undirected) {
  ds_load_options opt;
  options(&opt);
  opt.undirected = undirected;
  ds_graph whole;
  ds_error err;
  if (!CHECK(ds_graph_load(path, &opt, &whole, &err) == DS_OK, "%s: the one-process load: %s",
             what, err.msg))
    return;
  for (int k = 0; k < N_RANKS; k++) {
    const int R = RANKS[k];
    ds_status rs[TEST_MAX_RANKS], st;
    load_arg *a = run_ranks(path, &opt, R, rs, NULL, &st, &err);
    if (CHECK(st == DS_OK, "%s R=%d: %s", what, R, err.msg)) {
      const uint64_t bad = test_rows_differ(a->g, R, &whole);
      CHECK(bad == 0, "%s R=%d: %llu rows differ from the one-process load's (all: the parts do "
            "not tile it)", what, R, (unsigned long long)bad);
      CHECK(a->g[0].weight_type == whole.weight_type && a->g[0].symmetric == whole.symmetric,
            "%s R=%d: weight type %d symmetric %d, one process %d %d", what, R,
            (int)a->g[0].weight_type, a->g[0].symmetric, (int)whole.weight_type, whole.symmetric);
      check_stats(what, R, a, &whole);
      // the parts tile the body, and their lines and entries add up
      uint64_t bytes = 0, entries = 0;
      for (int r = 0; r < R; r++) {
        const ds_dfile_info *in = &a->info[r];
        CHECK(r == 0 || in->part_offset == a->info[r - 1].part_offset + a->info[r - 1].part_bytes ||
              in->part_bytes == 0, "%s R=%d: part %d starts at %llu", what, R, r,
              (unsigned long long)in->part_offset);
        bytes += in->part_bytes;
        entries += in->entries;
      }
      const uint64_t expect = a->info[0].layout.format == DS_FORMAT_CACHE ? whole.m
                                                                           : whole.input_entries;
      CHECK(entries == expect, "%s R=%d: %llu entries, one process %llu", what, R,
            (unsigned long long)entries, (unsigned long long)expect);
      CHECK(bytes >= a->info[0].layout.file_bytes - a->info[0].layout.body_offset, "%s R=%d: the "
            "parts hold %llu bytes of the body's %llu", what, R, (unsigned long long)bytes,
            (unsigned long long)(a->info[0].layout.file_bytes - a->info[0].layout.body_offset));
    }
    run_free(a, R);
  }
  ds_graph_free(&whole);
}

/* The file fails on every rank count with the one-process load's status and message. */
static void check_error(const char *what, const char *path, const char *expect) {
  ds_load_options opt;
  options(&opt);
  ds_graph whole;
  ds_error want, err;
  const ds_status st0 = ds_graph_load(path, &opt, &whole, &want);
  if (!CHECK(st0 != DS_OK, "%s: the one-process load accepted it", what)) {
    ds_graph_free(&whole);
    return;
  }
  CHECK(expect == NULL || strstr(want.msg, expect) != NULL, "%s: the one-process load says '%s', "
        "not '%s'", what, want.msg, expect);
  for (int k = 0; k < N_RANKS; k++) {
    const int R = RANKS[k];
    ds_status rs[TEST_MAX_RANKS], st;
    ds_error re[TEST_MAX_RANKS];
    load_arg *a = run_ranks(path, &opt, R, rs, re, &st, &err);
    for (int r = 0; r < R; r++)
      CHECK(rs[r] == st0 && strstr(re[r].msg, want.msg) != NULL, "%s R=%d rank %d: %d '%s', one "
            "process %d '%s'", what, R, r, rs[r], re[r].msg, st0, want.msg);
    run_free(a, R);
  }
}

/* ---- the cases ------------------------------------------------------------- */

static const dress PLAIN = {"\n", 0, 0, 0, 0, 0};
static const dress CRLF_ALL = {"\r\n", 1, 1, 40, 1, 0};
static const dress MESSY = {"\n", 1, 1, 300, 0, 1};

static void write_text(const char *dir, const char *name, const text *t, char *path, size_t len) {
  snprintf(path, len, "%s/%s", dir, name);
  write_bytes(path, t->s, t->len);
}

static void made_files(const char *dir) {
  char path[4200];
  const struct {
    const char *name;
    int kind; /* 0 mtx, 1 el, 2 gr */
    wkind w;
    int symmetric;
    const dress *d;
    uint32_t n, count;
  } cases[] = {
      {"int.mtx", 0, W_INT, 0, &PLAIN, 50, 400},     {"real_crlf.mtx", 0, W_REAL, 0, &CRLF_ALL, 80, 300},
      {"pat_sym.mtx", 0, W_PATTERN, 1, &MESSY, 40, 200}, {"int_sym.mtx", 0, W_INT, 1, &CRLF_ALL, 30, 90},
      {"plain.el", 1, W_PATTERN, 0, &MESSY, 70, 250}, {"mixed.wel", 1, W_REAL, 0, &CRLF_ALL, 60, 300},
      {"int.wel", 1, W_INT, 0, &PLAIN, 60, 300},      {"crlf.gr", 2, W_INT, 0, &CRLF_ALL, 90, 350},
      {"messy.gr", 2, W_INT, 0, &MESSY, 20, 100},     {"one.mtx", 0, W_INT, 0, &PLAIN, 3, 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    text t;
    const uint64_t seed = 1000 + k;
    if (cases[k].kind == 0)
      t = make_mtx(cases[k].n, cases[k].count, cases[k].w, cases[k].symmetric, cases[k].d, seed);
    else if (cases[k].kind == 1) /* mixed.wel: real weights in its last tenth */
      t = make_el(cases[k].n, cases[k].count, cases[k].w != W_PATTERN,
                  cases[k].w == W_REAL ? cases[k].count * 9 / 10 : UINT32_MAX, cases[k].d, seed);
    else
      t = make_gr(cases[k].n, cases[k].count, cases[k].d, seed);
    write_text(dir, cases[k].name, &t, path, sizeof path);
    check_same(cases[k].name, path, 0);
    if (k == 0) check_same("int.mtx undirected", path, 1);
    free(t.s);
  }
  // files of fewer bytes than ranks, with and without a final newline
  const struct {
    const char *name, *bytes;
  } tiny[] = {{"two.el", "0 1\n"}, {"bare.el", "1 0"}, {"crlf.el", "0 1\r\n"},
              {"small.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2"}};
  for (size_t k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
    snprintf(path, sizeof path, "%s/%s", dir, tiny[k].name);
    write_bytes(path, tiny[k].bytes, strlen(tiny[k].bytes));
    check_same(tiny[k].name, path, 0);
  }
  // the rules' other branches: 5 arcs a vertex (neither sparse nor dense) with 1 % of the
  // weights a million times the rest (delta from the median), integer and real; weights near
  // 2^31 on paths of many vertices (64-bit distances)
  for (int real = 0; real <= 1; real++) {
    text t = text_new();
    uint64_t sd = 77 + (uint64_t)real;
    const uint32_t n = 400, nnz = 5 * n;
    put(&t, "%%%%MatrixMarket matrix coordinate %s general\n%u %u %u\n", real ? "real" : "integer",
        n, n, nnz);
    for (uint32_t k = 0; k < nnz; k++) {
      const uint32_t i = 1 + k % n, j = 1 + (uint32_t)(rnd(&sd) % n);
      const uint32_t w = rnd(&sd) % 100 == 0 ? 1000000u : 1u + (uint32_t)(rnd(&sd) % 9);
      if (real) put(&t, "%u %u %u.25\n", i, j, w);
      else put(&t, "%u %u %u\n", i, j, w);
    }
    write_text(dir, real ? "heavy_real.mtx" : "heavy.mtx", &t, path, sizeof path);
    check_same(real ? "heavy tail, real" : "heavy tail", path, 0);
    free(t.s);
  }
  text t = text_new();
  put(&t, "p sp 40 39\n");
  for (uint32_t v = 1; v < 40; v++) put(&t, "a %u %u %u\n", v, v + 1, 2147483000u + v);
  write_text(dir, "wide.gr", &t, path, sizeof path);
  check_same("wide paths", path, 0);
  free(t.s);
}

/* What the ranks read in ranges, and what a program loads whole instead. */
static void ranged(const char *dir, const char *text_file) {
  char path[4200], why[512];
  CHECK(ds_dfile_ranged(text_file, why, sizeof why) == 1 && why[0] == '\0', "%s: not ranged: "
        "'%s'", text_file, why);
  snprintf(path, sizeof path, "%s/packed.mtx.gz", dir);
  CHECK(ds_dfile_ranged(path, why, sizeof why) == 0 && strstr(why, "gzip-compressed") != NULL &&
        strstr(why, path) != NULL, "gzip: ranged, or '%s'", why);
  snprintf(path, sizeof path, "%s/fifo.mtx", dir);
  if (mkfifo(path, 0600) == 0) { /* (a FIFO is never opened: nothing blocks) */
    CHECK(ds_dfile_ranged(path, why, sizeof why) == 0 && strstr(why, "not a regular file") != NULL,
          "FIFO: ranged, or '%s'", why);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/missing.mtx", dir);
  CHECK(ds_dfile_ranged(path, NULL, 0) == 1, "a missing file: not left to the ranks' load");
  CHECK(ds_dfile_ranged(dir, NULL, 0) == 1, "a folder: not left to the ranks' load");
}

/* A bad line at line `at` of an otherwise good file of `lines` entry lines. */
static void bad_files(const char *dir) {
  char path[4200];
  const struct {
    const char *name, *header, *bad, *expect;
    uint32_t lines, at;
  } cases[] = {
      {"token.mtx", "%%%%MatrixMarket matrix coordinate integer general\n9 9 %u\n", "3 x 4\n",
       ":%u: column index", 200, 170},
      {"range.mtx", "%%%%MatrixMarket matrix coordinate integer general\n9 9 %u\n", "3 10 4\n",
       ":%u: column index 10 is out of range", 200, 90},
      {"weight.wel", "# %u lines\n", "1 2 -3.5\n", ":%u: weight", 300, 250},
      {"fields.el", "# %u lines\n", "1 2 3\n", ":%u: unexpected '3'", 300, 299},
      {"type.gr", "p sp 9 %u\n", "x 1 2 3\n", ":%u: unknown line type 'x'", 150, 140},
      {"second_p.gr", "p sp 9 %u\n", "p sp 9 9\n", ":%u: a second 'p' line (the first is line 1)",
       150, 60},
      {"nul.el", "# %u lines\n", "1 2\0003\n", ":%u: a NUL byte", 300, 200}, /* 6 bytes */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    text t = text_new();
    put(&t, cases[k].header, cases[k].lines);
    const uint32_t header_lines = 1 + (strchr(cases[k].header, '\n') != strrchr(cases[k].header, '\n'));
    const int gr = strstr(cases[k].name, ".gr") != NULL;
    for (uint32_t i = 0; i < cases[k].lines; i++) {
      if (i + 1 + header_lines == cases[k].at) {
        const size_t len = strlen(cases[k].bad) + (strstr(cases[k].name, "nul") ? 3 : 0);
        memcpy(t.s + t.len, cases[k].bad, len);
        t.len += len;
      } else {
        const char *line = gr ? "a %u %u 5\n" : strstr(cases[k].name, ".el") ? "%u %u\n" : "%u %u 7\n";
        put(&t, line, 1 + i % 9, 1 + (i * 7) % 9);
      }
    }
    write_text(dir, cases[k].name, &t, path, sizeof path);
    char expect[128];
    snprintf(expect, sizeof expect, cases[k].expect, cases[k].at);
    check_error(cases[k].name, path, expect);
    free(t.s);
  }

  // the header's count against a bad line: the error the one-process reader meets first
  const struct {
    const char *name;
    uint32_t declared, lines, bad_at; /* bad_at 0: none */
    const char *expect;
  } counts[] = {
      {"more.mtx", 100, 200, 0, ":103: more entries than the 100"},
      {"more_then_bad.mtx", 100, 200, 180, ":103: more entries than the 100"},
      {"bad_then_more.mtx", 150, 200, 60, ":60: row index"},
      {"fewer.mtx", 300, 200, 0, ":202: the file ends after 200 entries, but the size line (line 2)"},
  };
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
    text t = text_new();
    put(&t, "%%%%MatrixMarket matrix coordinate integer general\n9 9 %u\n", counts[k].declared);
    for (uint32_t line = 3; line < 3 + counts[k].lines; line++) {
      if (line == counts[k].bad_at) put(&t, "zz 1 1\n");
      else put(&t, "%u %u 1\n", 1 + line % 9, 1 + (line * 5) % 9);
    }
    write_text(dir, counts[k].name, &t, path, sizeof path);
    check_error(counts[k].name, path, counts[k].expect);
    free(t.s);
  }
  snprintf(path, sizeof path, "%s/comments.el", dir);
  const char *comments = "# nothing\n\n% here\n";
  write_bytes(path, comments, strlen(comments));
  check_error("comments only", path, NULL);
  // gzip: the parts cannot be entered in the middle
  snprintf(path, sizeof path, "%s/packed.mtx.gz", dir);
  write_bytes(path, "\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
  ds_load_options opt;
  options(&opt);
  ds_status rs[TEST_MAX_RANKS], st;
  ds_error re[TEST_MAX_RANKS], err;
  load_arg *a = run_ranks(path, &opt, 2, rs, re, &st, &err);
  for (int r = 0; r < 2; r++)
    CHECK(rs[r] == DS_ERR_UNSUPPORTED && strstr(re[r].msg, "gzip") != NULL, "gzip, rank %d: %d "
          "'%s'", r, rs[r], re[r].msg);
  run_free(a, 2);
}

/* Binary caches, each rank its exact range of arcs: the graphs the text loads
 * cached, against the one-process read of the cache; a cache spoiled in a
 * later part, or cut short, fails on every rank. */
static void cache_files(const char *dir, const char *const *inputs, int n_inputs) {
  char path[4200];
  ds_load_options opt;
  options(&opt);
  opt.use_cache = 1;
  opt.cache_dir = dir;
  for (int k = 0; k < n_inputs; k++) {
    ds_graph g;
    ds_load_info info;
    ds_error err;
    if (!CHECK(ds_graph_load_info(inputs[k], &opt, &g, &info, &err) == DS_OK && info.cache_written,
               "%s: no cache written: %s", inputs[k], err.msg))
      continue;
    check_same(info.cache_path, info.cache_path, 0);
    ds_graph_free(&g);
    if (k != 0) continue;
    // the first cache spoiled: a head beyond the vertices in its last arc, then cut short
    FILE *f = fopen(info.cache_path, "rb");
    if (f == NULL) exit(2);
    text t = text_new();
    t.len = fread(t.s, 1, TEXT_MAX, f);
    fclose(f);
    const uint32_t beyond = UINT32_MAX - 1;
    ds_cache_layout lay;
    REQUIRE(ds_cache_layout_read(info.cache_path, &lay, &err) == DS_OK, "%s", err.msg);
    memcpy(t.s + lay.col_at + (lay.m - 1) * sizeof(uint32_t), &beyond, sizeof beyond);
    write_text(dir, "spoiled.dscache", &t, path, sizeof path);
    load_arg *a;
    ds_status rs[TEST_MAX_RANKS], st;
    ds_error re[TEST_MAX_RANKS];
    for (int R = 1; R <= 3; R++) {
      a = run_ranks(path, &opt, R, rs, re, &st, &err);
      for (int r = 0; r < R; r++)
        CHECK(rs[r] == DS_ERR_FORMAT && strstr(re[r].msg, "head beyond the vertices") != NULL,
              "spoiled cache R=%d rank %d: %d '%s'", R, r, rs[r], re[r].msg);
      run_free(a, R);
    }
    t.len -= 4;
    write_text(dir, "short.dscache", &t, path, sizeof path);
    a = run_ranks(path, &opt, 2, rs, re, &st, &err);
    for (int r = 0; r < 2; r++)
      CHECK(rs[r] == DS_ERR_FORMAT && strstr(re[r].msg, "wrong length") != NULL,
            "short cache rank %d: %d '%s'", r, rs[r], re[r].msg);
    run_free(a, 2);
    free(t.s);
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) check_same(argv[i], argv[i], 0);
  char dir[4096];
  scratch_make(dir, sizeof dir, "dist_file");
  made_files(dir);
  bad_files(dir);
  ranged(dir, argc > 1 ? argv[1] : dir);
  cache_files(dir, (const char *const *)argv + 1, argc - 1);
  scratch_remove(dir);
  return ds_test_finish("dist file");
}
