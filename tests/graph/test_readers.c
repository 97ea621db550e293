/* Readers on valid and bad input: one table row per case. Each case is
 * written to a scratch file (gzip-compressed, truncated or corrupted where the
 * row says), loaded without the cache, and checked: valid files against the
 * expected CSR written out by hand (the oracle), bad files for the status and
 * a message that starts "FILE:LINE:" (or names the file, for gzip damage). */
#include "graph_test_util.h"

#include <sys/stat.h>
#include <zlib.h>

enum { PLAIN, GZ, GZ_TRUNCATED, GZ_CORRUPT, GZ_GARBAGE, GZ_ZERO_PAD, GZ_ZERO_PAD_GARBAGE };
#define GZ_PAD_BYTES 512 /* zeros after the stream, as tape blocks leave them */
#define ANY_WEIGHT (-1.0) /* pattern: any generated weight in [min, max] */
#define MAX_ARCS 16

typedef struct {
  const char *file;  /* name in the scratch folder */
  const char *text;
  int gz;            /* PLAIN, GZ, ... */
  int undirected;
  ds_status want;
  const char *where; /* valid: NULL; bad: what the message holds after the file name ('#'
                        stands for a line number) */
  uint32_t n;        /* valid only */
  const char *arcs;  /* valid only: "u v w;..." 0-based, in CSR order; w '*' = generated */
  int float_weights;
  ds_format format;
} reader_case;

#define MM "%%MatrixMarket matrix coordinate "
static const reader_case cases[] = {
    /* ---- valid Matrix Market ---- */
    {"int.mtx", MM "integer general\n% c\n3 3 4\n1 2 5\n2 3 7\n1 2 3\n3 3 9\n", PLAIN, 0, DS_OK,
     NULL, 3, "0 1 3;1 2 7", 0, DS_FORMAT_MTX},
    {"realsym.mtx", MM "real symmetric\n3 3 2\n2 1 1.5\n3 2 2.25e0\n", PLAIN, 0, DS_OK, NULL, 3,
     "0 1 1.5;1 0 1.5;1 2 2.25;2 1 2.25", 1, DS_FORMAT_MTX},
    {"crlf.mtx", "%%matrixmarket MATRIX Coordinate double General\r\n\r\n%x\r\n2 2 1\r\n1\t2\t"
     "0.5\r\n", PLAIN, 0, DS_OK, NULL, 2, "0 1 0.5", 1, DS_FORMAT_MTX},
    {"pat.mtx", MM "pattern general\n3 3 2\n1 3\n3 1", PLAIN, 0, DS_OK, NULL, 3, "0 2 *;2 0 *", 0,
     DS_FORMAT_MTX},
    {"zero.mtx", MM "integer general\n2 2 2\n1 2 0\n2 1 0\n", PLAIN, 0, DS_OK, NULL, 2,
     "0 1 0;1 0 0", 0, DS_FORMAT_MTX},
    {"empty_graph.mtx", MM "integer general\n4 4 0\n", PLAIN, 0, DS_OK, NULL, 4, "", 0,
     DS_FORMAT_MTX},
    {"empty_real.mtx", MM "real general\n4 4 0\n", PLAIN, 0, DS_OK, NULL, 4, "", 1, DS_FORMAT_MTX},
    {"empty_arcs.gr", "p sp 2 0\n", PLAIN, 0, DS_OK, NULL, 2, "", 0, DS_FORMAT_DIMACS},
    {"real_ints.mtx", MM "real general\n3 3 3\n1 2 4294967296\n2 3 7\n3 1 "
     "123456789012345678901234\n", PLAIN, 0, DS_OK, NULL, 3,
     "0 1 4294967296;1 2 7;2 0 123456789012345678901234", 1, DS_FORMAT_MTX},
    {"padded.mtx.gz", MM "integer general\n3 3 2\n1 2 4\n3 2 6\n", GZ_ZERO_PAD, 0, DS_OK, NULL,
     3, "0 1 4;2 1 6", 0, DS_FORMAT_MTX},
    {"undir.mtx", MM "integer general\n3 3 2\n1 2 4\n2 1 6\n", PLAIN, 1, DS_OK, NULL, 3,
     "0 1 4;1 0 4", 0, DS_FORMAT_MTX},
    {"zipped.mtx.gz", MM "integer general\n3 3 2\n1 2 4\n3 2 6\n", GZ, 0, DS_OK, NULL, 3,
     "0 1 4;2 1 6", 0, DS_FORMAT_MTX},
    {"bom.mtx", "\xEF\xBB\xBF" MM "integer general\n2 2 1\n2 1 8\n", PLAIN, 0, DS_OK, NULL, 2,
     "1 0 8", 0, DS_FORMAT_MTX},
    {"bom.mtx.gz", "\xEF\xBB\xBF" MM "integer general\n2 2 1\n2 1 8\n", GZ, 0, DS_OK, NULL, 2,
     "1 0 8", 0, DS_FORMAT_MTX},
    {"bom.gr", "\xEF\xBB\xBFp sp 2 1\na 2 1 8\n", PLAIN, 0, DS_OK, NULL, 2, "1 0 8", 0,
     DS_FORMAT_DIMACS},
    {"by_content.txt", MM "integer general\n2 2 1\n2 1 8\n", PLAIN, 0, DS_OK, NULL, 2, "1 0 8", 0,
     DS_FORMAT_MTX},
    /* ---- valid DIMACS and edge lists ---- */
    {"r.gr", "c road\np sp 3 4\na 1 2 5\na 2 3 6\nc mid\na 3 1 7\na 1 2 9\n", PLAIN, 0, DS_OK, NULL,
     3, "0 1 5;1 2 6;2 0 7", 0, DS_FORMAT_DIMACS},
    {"real.dat", "p sp 2 2\na 1 2 3\na 2 1 1.5\n", PLAIN, 0, DS_OK, NULL, 2, "0 1 3;1 0 1.5", 1,
     DS_FORMAT_DIMACS},
    {"g.el", "# comment\n0 1\n1 2\n\n2 1\n", PLAIN, 0, DS_OK, NULL, 3, "0 1 *;1 2 *;2 1 *", 0,
     DS_FORMAT_EL},
    {"g.wel", "% c\n0 1 3\n1 2 4\n", PLAIN, 0, DS_OK, NULL, 3, "0 1 3;1 2 4", 0, DS_FORMAT_WEL},
    {"noext", "0 2 1.25\n2 0 4\n", PLAIN, 0, DS_OK, NULL, 3, "0 2 1.25;2 0 4", 1, DS_FORMAT_WEL},
    {"noext2", "3 0\n", PLAIN, 0, DS_OK, NULL, 4, "3 0 *", 0, DS_FORMAT_EL},
    /* ---- bad Matrix Market ---- */
    {"nobanner.mtx", "3 3 1\n1 2\n", PLAIN, 0, DS_ERR_FORMAT, ":1: missing", 0, NULL, 0, 0},
    {"badbanner.mtx", "%%MatrixMarkt matrix coordinate real general\n2 2 0\n", PLAIN, 0,
     DS_ERR_FORMAT, ":1:", 0, NULL, 0, 0},
    {"short_banner.mtx", "%%MatrixMarket matrix coordinate real\n2 2 0\n", PLAIN, 0, DS_ERR_FORMAT,
     ":1:", 0, NULL, 0, 0},
    {"complex.mtx", MM "complex general\n2 2 0\n", PLAIN, 0, DS_ERR_UNSUPPORTED, ":1:", 0, NULL, 0, 0},
    {"herm.mtx", MM "real hermitian\n2 2 0\n", PLAIN, 0, DS_ERR_UNSUPPORTED, ":1:", 0, NULL, 0, 0},
    {"skew.mtx", MM "real skew-symmetric\n2 2 0\n", PLAIN, 0, DS_ERR_UNSUPPORTED, ":1:", 0, NULL, 0, 0},
    {"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", PLAIN, 0,
     DS_ERR_UNSUPPORTED, ":1:", 0, NULL, 0, 0},
    {"vector.mtx", "%%MatrixMarket vector coordinate real general\n2 2 0\n", PLAIN, 0,
     DS_ERR_UNSUPPORTED, ":1:", 0, NULL, 0, 0},
    {"field.mtx", MM "quaternion general\n2 2 0\n", PLAIN, 0, DS_ERR_FORMAT, ":1:", 0, NULL, 0, 0},
    {"nosize.mtx", MM "real general\n% only a comment\n", PLAIN, 0, DS_ERR_FORMAT, ":3: no size", 0,
     NULL, 0, 0},
    {"size2.mtx", MM "real general\n3 3\n", PLAIN, 0, DS_ERR_FORMAT, ":2: missing entry count", 0,
     NULL, 0, 0},
    {"nonsquare.mtx", MM "real general\n3 4 1\n1 2 1\n", PLAIN, 0, DS_ERR_FORMAT, ":2:", 0, NULL, 0, 0},
    {"huge_n.mtx", MM "pattern general\n5000000000 5000000000 0\n", PLAIN, 0, DS_ERR_UNSUPPORTED,
     ":2:", 0, NULL, 0, 0},
    {"few.mtx", MM "integer general\n3 3 3\n1 2 1\n2 3 1\n", PLAIN, 0, DS_ERR_FORMAT,
     ":4: the file ends after 2 entries", 0, NULL, 0, 0},
    {"many.mtx", MM "integer general\n3 3 1\n1 2 1\n2 3 1\n", PLAIN, 0, DS_ERR_FORMAT,
     ":4: more entries", 0, NULL, 0, 0},
    {"row0.mtx", MM "integer general\n3 3 1\n0 2 1\n", PLAIN, 0, DS_ERR_FORMAT, ":3: row index 0", 0,
     NULL, 0, 0},
    {"colbig.mtx", MM "integer general\n3 3 2\n1 2 1\n1 4 1\n", PLAIN, 0, DS_ERR_FORMAT,
     ":4: column index 4 is out of range", 0, NULL, 0, 0},
    {"token.mtx", MM "integer general\n3 3 1\n1 x 1\n", PLAIN, 0, DS_ERR_FORMAT, ":3: column index 'x'",
     0, NULL, 0, 0},
    {"glued.mtx", MM "integer general\n3 3 1\n1 2x 1\n", PLAIN, 0, DS_ERR_FORMAT, ":3:", 0, NULL, 0, 0},
    {"negint.mtx", MM "integer general\n3 3 1\n1 2 -3\n", PLAIN, 0, DS_ERR_FORMAT, ":3:", 0, NULL, 0, 0},
    {"negreal.mtx", MM "real general\n3 3 2\n1 2 1\n2 3 -1.5\n", PLAIN, 0, DS_ERR_FORMAT,
     ":4: weight '-1.5' is negative", 0, NULL, 0, 0},
    {"nan.mtx", MM "real general\n3 3 1\n1 2 nan\n", PLAIN, 0, DS_ERR_FORMAT, ":3: weight 'nan' is not "
     "a finite", 0, NULL, 0, 0},
    {"inf.mtx", MM "real general\n3 3 1\n1 2 -Inf\n", PLAIN, 0, DS_ERR_FORMAT, ":3:", 0, NULL, 0, 0},
    {"fbig.mtx", MM "real general\n3 3 1\n1 2 1e39\n", PLAIN, 0, DS_ERR_FORMAT, ":3: weight '1e39' is "
     "too large", 0, NULL, 0, 0},
    {"ibig.mtx", MM "integer general\n3 3 1\n1 2 4294967296\n", PLAIN, 0, DS_ERR_FORMAT, ":3:", 0,
     NULL, 0, 0},
    {"idxbig.mtx", MM "integer general\n3 3 1\n99999999999999999999999 2 1\n", PLAIN, 0, DS_ERR_FORMAT,
     ":3: row index '99999999999999999999999' is too large", 0, NULL, 0, 0},
    {"extra.mtx", MM "pattern general\n3 3 1\n1 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":3: unexpected '3'", 0,
     NULL, 0, 0},
    {"noweight.mtx", MM "real general\n3 3 1\n1 2\n", PLAIN, 0, DS_ERR_FORMAT, ":3: missing weight", 0,
     NULL, 0, 0},
    {"nul.mtx", MM "integer general\n3 3 1\n1 2 \0031\n", PLAIN, 0, DS_ERR_FORMAT,
     ":3: a NUL byte at column 5", 0, NULL, 0, 0},
    {"nul7.mtx", MM "integer general\n3 3 1\n1 2 7\003\n", PLAIN, 0, DS_ERR_FORMAT,
     ":3: a NUL byte after '7'", 0, NULL, 0, 0},
    {"nul7.mtx.gz", MM "integer general\n3 3 1\n1 2 7\003\n", GZ, 0, DS_ERR_FORMAT,
     ":3: a NUL byte after '7'", 0, NULL, 0, 0},
    /* ---- bad gzip ---- */
    {"trunc.mtx.gz", MM "integer general\n3 3 2\n1 2 4\n3 2 6\n", GZ_TRUNCATED, 0, DS_ERR_FORMAT,
     ":#: truncated gzip", 0, NULL, 0, 0},
    {"corrupt.mtx.gz", MM "integer general\n3 3 2\n1 2 4\n3 2 6\n", GZ_CORRUPT, 0, DS_ERR_FORMAT,
     ":#: corrupt gzip", 0, NULL, 0, 0},
    {"garbage.mtx.gz", MM "integer general\n3 3 2\n1 2 4\n3 2 6\n", GZ_GARBAGE, 0, DS_ERR_FORMAT,
     ":5: 4 bytes of garbage", 0, NULL, 0, 0},
    {"padgarbage.mtx.gz", MM "integer general\n3 3 2\n1 2 4\n3 2 6\n", GZ_ZERO_PAD_GARBAGE, 0,
     DS_ERR_FORMAT, ":5: 516 bytes of garbage", 0, NULL, 0, 0},
    {"badsize.mtx.gz", MM "integer general\n3 4 1\n1 2 4\n", GZ, 0, DS_ERR_FORMAT,
     ":2: the matrix is 3 x 4", 0, NULL, 0, 0},
    /* ---- bad DIMACS ---- */
    {"early.gr", "c x\na 1 2 3\np sp 2 1\n", PLAIN, 0, DS_ERR_FORMAT, ":2: an arc before", 0, NULL, 0, 0},
    {"twop.gr", "p sp 2 1\np sp 2 1\na 1 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":2: a second", 0, NULL, 0, 0},
    {"maxflow.gr", "p max 2 1\na 1 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":1: problem type 'max'", 0, NULL,
     0, 0},
    {"fewarcs.gr", "p sp 3 3\na 1 2 3\na 2 3 3\n", PLAIN, 0, DS_ERR_FORMAT, ":3: the file ends after 2",
     0, NULL, 0, 0},
    {"manyarcs.gr", "p sp 3 1\na 1 2 3\na 2 3 3\n", PLAIN, 0, DS_ERR_FORMAT, ":3: more arcs", 0, NULL,
     0, 0},
    {"zero.gr", "p sp 3 1\na 0 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":2: tail vertex 0", 0, NULL, 0, 0},
    {"range.gr", "p sp 3 1\na 1 4 3\n", PLAIN, 0, DS_ERR_FORMAT, ":2: head vertex 4", 0, NULL, 0, 0},
    {"unknown.gr", "p sp 3 1\nx 1 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":2: unknown line type 'x'", 0, NULL,
     0, 0},
    {"negw.gr", "p sp 3 1\na 1 2 -7\n", PLAIN, 0, DS_ERR_FORMAT, ":2: weight '-7' is negative", 0, NULL,
     0, 0},
    {"nop.gr", "c only\nc comments\n", PLAIN, 0, DS_ERR_FORMAT, ":2: no 'p sp", 0, NULL, 0, 0},
    /* ---- bad edge lists ---- */
    {"four.el", "0 1\n1 2 3 4\n", PLAIN, 0, DS_ERR_FORMAT, ":2:", 0, NULL, 0, 0},
    {"fourfirst", "0 1 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":1: an edge line has 4 fields", 0, NULL, 0, 0},
    {"mixed", "0 1\n1 2 3\n", PLAIN, 0, DS_ERR_FORMAT, ":2: unexpected '3'", 0, NULL, 0, 0},
    {"noweight.wel", "0 1 2\n1 2\n", PLAIN, 0, DS_ERR_FORMAT, ":2: missing weight", 0, NULL, 0, 0},
    {"negid.el", "0 1\n-1 2\n", PLAIN, 0, DS_ERR_FORMAT, ":2: source vertex '-1' is negative", 0, NULL,
     0, 0},
    {"bigid.el", "0 4294967295\n", PLAIN, 0, DS_ERR_FORMAT, ":1: vertex id 4294967295", 0, NULL, 0, 0},
    {"infw.wel", "0 1 inf\n", PLAIN, 0, DS_ERR_FORMAT, ":1: weight 'inf' is not a finite", 0, NULL, 0, 0},
    {"comments.el", "# a\n# b\n", PLAIN, 0, DS_ERR_FORMAT, ":2:", 0, NULL, 0, 0},
    /* ---- bad files ---- */
    {"empty.mtx", "", PLAIN, 0, DS_ERR_FORMAT, ":1: the file is empty", 0, NULL, 0, 0},
    {"what.txt", "hello world\n", PLAIN, 0, DS_ERR_FORMAT, ":1: cannot tell the format", 0, NULL, 0, 0},
};

/* Writes a case's file; returns 0 when it cannot be made. */
static int make_file(const char *path, const reader_case *c) {
  size_t len = strlen(c->text);
  if (c->gz == PLAIN) {
    char copy[4096];
    memcpy(copy, c->text, len);
    for (size_t i = 0; i < len; i++) /* \003 in a case stands for a NUL byte */
      if (copy[i] == '\003') copy[i] = '\0';
    write_bytes(path, copy, len);
    return 1;
  }
  char copy[4096];
  memcpy(copy, c->text, len);
  for (size_t i = 0; i < len; i++)
    if (copy[i] == '\003') copy[i] = '\0';
  gzFile z = gzopen(path, "wb");
  if (z == NULL || gzwrite(z, copy, (unsigned)len) != (int)len || gzclose(z) != Z_OK) return 0;
  FILE *f = fopen(path, "rb");
  unsigned char buf[8192];
  size_t k = fread(buf, 1, sizeof buf - GZ_PAD_BYTES - 8, f);
  fclose(f);
  if (c->gz == GZ_TRUNCATED) k -= 12;           /* lose the end of the deflate data and the trailer */
  if (c->gz == GZ_CORRUPT) buf[k / 2] ^= 0x5A;  /* inside the deflate data */
  if (c->gz == GZ_GARBAGE) memcpy(buf + k, "junk", 4), k += 4;
  if (c->gz == GZ_ZERO_PAD || c->gz == GZ_ZERO_PAD_GARBAGE) memset(buf + k, 0, GZ_PAD_BYTES), k += GZ_PAD_BYTES;
  if (c->gz == GZ_ZERO_PAD_GARBAGE) memcpy(buf + k, "junk", 4), k += 4;
  write_bytes(path, buf, k);
  return 1;
}

/* Does msg start with pattern, where '#' in the pattern stands for a line
 * number (one or more digits)? */
static int starts_like(const char *msg, const char *pattern) {
  for (; *pattern; pattern++) {
    if (*pattern != '#') {
      if (*msg++ != *pattern) return 0;
      continue;
    }
    if (*msg < '0' || *msg > '9') return 0;
    while (*msg >= '0' && *msg <= '9') msg++;
  }
  return 1;
}

/* Compares g with the expected arc list. */
static void check_arcs(const reader_case *c, const ds_graph *g) {
  char spec[512];
  snprintf(spec, sizeof spec, "%s", c->arcs);
  uint64_t k = 0;
  for (char *tok = strtok(spec, ";"); tok; tok = strtok(NULL, ";"), k++) {
    unsigned u, v;
    char w[32];
    if (sscanf(tok, "%u %u %31s", &u, &v, w) != 3) {
      CHECK(0, "%s: bad arc spec '%s'", c->file, tok);
      return;
    }
    if (k >= g->m || u >= g->n) {
      CHECK(0, "%s: arc %llu (%u %u) missing (m = %llu)", c->file, (unsigned long long)k, u, v,
            (unsigned long long)g->m);
      return;
    }
    CHECK(g->row_offsets[u] <= k && k < g->row_offsets[u + 1] && g->col[k] == v,
          "%s: arc %llu should be %u -> %u", c->file, (unsigned long long)k, u, v);
    if (w[0] == '*') {
      uint32_t x = ((const uint32_t *)g->weights)[k];
      CHECK(g->weights_generated && x >= 1 && x <= 1000, "%s: generated weight %u", c->file, x);
    } else if (c->float_weights) {
      CHECK(((const float *)g->weights)[k] == (float)atof(w), "%s: arc %llu weight %g, want %s",
            c->file, (unsigned long long)k, (double)((const float *)g->weights)[k], w);
    } else {
      CHECK(((const uint32_t *)g->weights)[k] == (uint32_t)strtoul(w, NULL, 10),
            "%s: arc %llu weight %u, want %s", c->file, (unsigned long long)k,
            ((const uint32_t *)g->weights)[k], w);
    }
  }
  CHECK(k == g->m, "%s: %llu arcs, want %llu", c->file, (unsigned long long)g->m,
        (unsigned long long)k);
}

static void run_case(const char *dir, const reader_case *c) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, c->file);
  if (!make_file(path, c)) {
    CHECK(0, "%s: cannot write the case", c->file);
    return;
  }
  ds_load_options opt = options_no_cache();
  opt.undirected = c->undirected;
  ds_graph g;
  ds_error err;
  memset(&g, POISON_BYTE, sizeof g);
  memset(&err, 0, sizeof err);
  ds_status st = ds_graph_load(path, &opt, &g, &err);
  CHECK(st == c->want, "%s: status %s, want %s (%s)", c->file, ds_status_name(st),
        ds_status_name(c->want), err.msg);
  if (st != DS_OK) {
    char prefix[4096 + 64];
    snprintf(prefix, sizeof prefix, "%s%s", path, c->where ? c->where : ":");
    CHECK(starts_like(err.msg, prefix), "%s: message '%s' should start '%s'", c->file, err.msg,
          prefix);
    CHECK(g.row_offsets == NULL && g.col == NULL && g.weights == NULL,
          "%s: a failed load left arrays behind", c->file);
    return;
  }
  if (c->want != DS_OK) return;
  ds_error cerr;
  CHECK(ds_csr_check(&g, &cerr) == DS_OK, "%s: %s", c->file, cerr.msg);
  CHECK(g.n == c->n, "%s: n = %u, want %u", c->file, g.n, c->n);
  CHECK(g.format == c->format, "%s: format %s, want %s", c->file, ds_format_name(g.format),
        ds_format_name(c->format));
  CHECK(g.weight_type == (c->float_weights ? DS_WEIGHT_F32 : DS_WEIGHT_U32), "%s: weight type %d",
        c->file, g.weight_type);
  int base = c->format == DS_FORMAT_EL || c->format == DS_FORMAT_WEL ? 0 : 1;
  CHECK(g.weights_generated == (strchr(c->arcs, '*') != NULL), "%s: weights %s", c->file,
        g.weights_generated ? "described as generated" : "not generated");
  CHECK(g.index_base == base, "%s: index base %d", c->file, g.index_base);
  check_arcs(c, &g);
  ds_graph_free(&g);
}

/* A directory and a missing file. */
static void run_path_cases(const char *dir) {
  char missing[2048];
  snprintf(missing, sizeof missing, "%s/does_not_exist.mtx", dir);
  const char *paths[] = {dir, missing};
  const char *what[] = {"is a directory", "cannot open"};
  for (int i = 0; i < 2; i++) {
    ds_load_options opt = options_no_cache();
    ds_graph g;
    ds_error err;
    ds_status st = ds_graph_load(paths[i], &opt, &g, &err);
    CHECK(st == DS_ERR_IO, "%s: status %s, want io", paths[i], ds_status_name(st));
    CHECK(strncmp(err.msg, paths[i], strlen(paths[i])) == 0 && strstr(err.msg, what[i]),
          "%s: message '%s'", paths[i], err.msg);
  }
}

/* ---- memory: the load's estimate (gzip bombs: test_text_limits.c) ---------- */

/* Files whose declared size needs more memory than the limit are refused
 * before anything is allocated, with the estimate and the limit; a small
 * graph passes a small limit. */
static void memory_guard(const char *dir) {
  static const struct {
    const char *file, *text;
    ds_status want;
    const char *says; /* after the path */
  } files[] = {
      {"n3e8.mtx", MM "pattern general\n300000000 300000000 0\n", DS_ERR_NOMEM,
       ":2: the graph needs about 4."},
      {"n3e8.gr", "c big\np sp 300000000 0\n", DS_ERR_NOMEM, ":2: the graph needs about 4."},
      {"m1e9.mtx", MM "integer general\n10 10 1000000000\n1 2 3\n", DS_OK, NULL},
      {"small.mtx", MM "integer general\n3 3 2\n1 2 3\n2 3 4\n", DS_OK, NULL},
  };
  const uint64_t limit = (uint64_t)1 << 30;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[1200], want[1400];
    snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
    write_bytes(path, files[i].text, strlen(files[i].text));
    ds_load_options opt = options_no_cache();
    opt.max_memory = limit;
    ds_graph g;
    ds_error err;
    ds_status st = ds_graph_load(path, &opt, &g, &err);
    if (files[i].want == DS_OK) {
      /* m1e9 declares far more entries than its bytes can hold: the estimate
         counts what the file can hold, so it is refused for its short count */
      CHECK(st == DS_OK || (st == DS_ERR_FORMAT && strstr(err.msg, "the file ends after")),
            "%s: %s (%s)", files[i].file, ds_status_name(st), err.msg);
      if (st == DS_OK) ds_graph_free(&g);
      continue;
    }
    snprintf(want, sizeof want, "%s%s", path, files[i].says);
    CHECK(st == files[i].want && strncmp(err.msg, want, strlen(want)) == 0 &&
              strstr(err.msg, "1.1 GB are allowed"),
          "%s: status %s, message '%s' (want '%s...')", files[i].file, ds_status_name(st),
          err.msg, want);
  }
  uint64_t have = 0;
  CHECK(ds_host_memory_available(&have, NULL) == DS_OK && have > 0, "no available memory known");
}

/* Numbers of every length (1 to 14 characters, leading zeros included, so
 * both the 8-byte fast path and the byte loop run) parsed from a .wel file
 * must give the CSR that ds_csr_build makes from the same integers. */
static void random_numbers(const char *dir) {
  enum { N = 3000, E = 20000, MAX_ZEROS = 12 };
  static uint32_t s[E], d[E], w[E];
  uint64_t x = 0x9E3779B97F4A7C15ull;
  char path[1200];
  snprintf(path, sizeof path, "%s/numbers.wel", dir);
  FILE *f = fopen(path, "w");
  for (int i = 0; i < E; i++) {
    uint32_t *fields[3] = {&s[i], &d[i], &w[i]};
    for (int k = 0; k < 3; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      *fields[k] = k < 2 ? (uint32_t)(x % N) : (uint32_t)((x >> 20) % 100000000);
      if (i == 0 && k == 0) *fields[k] = N - 1; /* so the graph has all N vertices */
      fprintf(f, "%s%0*u", k ? (x & 64 ? "\t" : " ") : "", (int)((x >> 40) % MAX_ZEROS) + 1,
              *fields[k]);
    }
    fputs(x & 128 ? " \r\n" : "\n", f);
  }
  fclose(f);
  ds_edge_list el = {N, E, s, d, DS_WEIGHT_U32, w};
  ds_graph want, got;
  ds_error err;
  ds_load_options opt = options_no_cache();
  CHECK(ds_csr_build(&el, 0, &opt, &want, &err) == DS_OK, "%s", err.msg);
  if (ds_graph_load(path, &opt, &got, &err) != DS_OK) {
    CHECK(0, "numbers.wel: %s", err.msg);
  } else {
    CHECK(same_graph(&want, &got), "numbers.wel: the parsed CSR differs (n %u, m %llu)", got.n,
          (unsigned long long)got.m);
    ds_graph_free(&got);
  }
  ds_graph_free(&want);
}

int main(void) {
  char dir[1024];
  scratch_make(dir, sizeof dir, "readers");
  memory_guard(dir);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(dir, &cases[i]);
  run_path_cases(dir);
  random_numbers(dir);
  scratch_remove(dir);
  return ds_test_finish("readers: %zu cases", sizeof cases / sizeof cases[0] + 2);
}
