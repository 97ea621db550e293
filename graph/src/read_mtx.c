/* Matrix Market coordinate reader (NIST's format, 1-based indices).
 *
 *   %%MatrixMarket matrix coordinate {real|double|integer|pattern} {general|symmetric}
 *   % comments
 *   rows cols entries
 *   i j [value]            one line per entry
 *
 * Accepted: real/double (float weights), integer (uint32 weights), pattern
 * (weights generated later); general, symmetric (both directions stored).
 * Rejected with DS_ERR_UNSUPPORTED: complex, skew-symmetric, hermitian, dense
 * array, non-matrix objects. DS_ERR_FORMAT for everything malformed: the
 * banner, a non-square size line, too few or too many entries, indices 0 or
 * beyond the size, bad numbers, negative/NaN/inf weights. Blank lines and '%'
 * comment lines are allowed anywhere, within the bound of read_common.h's
 * lex_pass_comment (DS_ERR_UNSUPPORTED beyond it).
 */
#include "read_body.h"

#include <strings.h>

#define BANNER "%%MatrixMarket"
#define BANNER_WORDS 5
#define WORD_LEN 32

/* Splits the banner line into lower-case words. Returns the word count. */
static int banner_words(const ds_lex *L, char words[BANNER_WORDS + 1][WORD_LEN]) {
  const char *p = L->p;
  int k = 0;
  while (*p != '\n' && k <= BANNER_WORDS) {
    while (lex_is_blank(*p)) p++;
    if (*p == '\n') break;
    size_t j = 0;
    while (!lex_is_end(*p)) {
      if (j + 1 < WORD_LEN) words[k][j++] = (char)((*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
      p++;
    }
    words[k++][j] = '\0';
  }
  return k;
}

/* 1. the banner */
static ds_status read_banner(ds_lex *L, ds_mtx_field *field, int *symmetric) {
  char w[BANNER_WORDS + 1][WORD_LEN];
  memset(w, 0, sizeof w);
  if (strncmp(L->p, "%%", 2) != 0) {
    char tok[WORD_LEN];
    lex_token(L, tok, sizeof tok);
    return lex_error(L, DS_ERR_FORMAT, "missing the '%s' banner line: the file starts with '%s'",
                     BANNER, tok);
  }
  int k = banner_words(L, w);
  if (strcasecmp(w[0], BANNER) != 0) {
    char tok[WORD_LEN];
    lex_token(L, tok, sizeof tok); /* as written, not lower-cased */
    return lex_error(L, DS_ERR_FORMAT, "the banner must start with '%s', not '%s'", BANNER, tok);
  }
  if (k != BANNER_WORDS)
    return lex_error(L, DS_ERR_FORMAT, "the banner has %d words; expected '%s matrix coordinate "
                     "FIELD SYMMETRY'", k, BANNER);
  if (strcmp(w[1], "matrix") != 0)
    return lex_error(L, DS_ERR_UNSUPPORTED, "object '%s' is not supported: only 'matrix'", w[1]);
  if (strcmp(w[2], "array") == 0)
    return lex_error(L, DS_ERR_UNSUPPORTED, "dense 'array' files are not supported: a graph "
                     "needs 'coordinate'");
  if (strcmp(w[2], "coordinate") != 0)
    return lex_error(L, DS_ERR_FORMAT, "unknown format '%s': expected 'coordinate'", w[2]);
  /* symmetry before field, so that "complex hermitian" is reported as hermitian */
  if (strcmp(w[4], "general") == 0) *symmetric = 0;
  else if (strcmp(w[4], "symmetric") == 0) *symmetric = 1;
  else if (strcmp(w[4], "skew-symmetric") == 0 || strcmp(w[4], "hermitian") == 0)
    return lex_error(L, DS_ERR_UNSUPPORTED, "'%s' matrices are not supported: only general and "
                     "symmetric", w[4]);
  else
    return lex_error(L, DS_ERR_FORMAT, "unknown symmetry '%s': expected general or symmetric",
                     w[4]);
  if (strcmp(w[3], "real") == 0 || strcmp(w[3], "double") == 0) *field = DS_MTX_REAL;
  else if (strcmp(w[3], "integer") == 0) *field = DS_MTX_INTEGER;
  else if (strcmp(w[3], "pattern") == 0) *field = DS_MTX_PATTERN;
  else if (strcmp(w[3], "complex") == 0)
    return lex_error(L, DS_ERR_UNSUPPORTED, "'complex' matrices are not supported: edge weights "
                     "are real or integer");
  else
    return lex_error(L, DS_ERR_FORMAT, "unknown field '%s': expected real, double, integer or "
                     "pattern", w[3]);
  lex_next_line(L);
  return DS_OK;
}

/* 2. the size line; *found = 0 when a prefix (header_only) ends before it */
static ds_status read_size(ds_lex *L, const ds_read_limits *lim, int prefix, uint64_t *n,
                           uint64_t *nnz, int *found) {
  uint64_t rows, cols;
  lex_num r;
  int more;
  *found = 0;
  ds_status st = lex_skip_comments(L, '%', '%', &more);
  if (st != DS_OK) return st;
  if (!more) {
    if (prefix) return DS_OK;
    return lex_error(L, DS_ERR_FORMAT, "no size line ('rows columns entries') after the banner");
  }
  if ((r = lex_u64(L, &rows)) != LEX_NUM_OK) return lex_num_error(L, r, "row count");
  if ((r = lex_u64(L, &cols)) != LEX_NUM_OK) return lex_num_error(L, r, "column count");
  if ((r = lex_u64(L, nnz)) != LEX_NUM_OK) return lex_num_error(L, r, "entry count");
  if (!lex_at_eol(L)) return lex_error(L, DS_ERR_FORMAT, "the size line has more than 3 fields");
  if (rows != cols)
    return lex_error(L, DS_ERR_FORMAT, "the matrix is %llu x %llu, not square: a graph needs "
                     "as many rows as columns", (unsigned long long)rows, (unsigned long long)cols);
  if (rows > lim->max_vertices)
    return lex_error(L, DS_ERR_UNSUPPORTED, "%llu vertices are more than the %llu supported",
                     (unsigned long long)rows, (unsigned long long)lim->max_vertices);
  *n = rows;
  *found = 1;
  lex_next_line(L);
  return DS_OK;
}

static ds_status index_error(ds_lex *L, const char *what, uint64_t i, uint64_t n) {
  return lex_error(L, DS_ERR_FORMAT, "%s %llu is out of range [1, %llu]", what,
                   (unsigned long long)i, (unsigned long long)n);
}

ds_status ds_mtx_header(ds_lex *L, const ds_read_limits *lim, int prefix, ds_mtx_field *field,
                        int *symmetric, uint64_t *n, uint64_t *nnz, int *found) {
  *found = 0;
  ds_status st = read_banner(L, field, symmetric);
  if (st == DS_OK) st = read_size(L, lim, prefix, n, nnz, found);
  return st;
}

// 3. the entries
ds_status ds_mtx_body(ds_lex *L, const ds_body_spec *h, ds_progress *prog, ds_edges *e) {
  const uint64_t n = h->n;
  const ds_mtx_field field = h->field;
  lex_num r;
  ds_status st;
  for (;;) {
    int more;
    if ((st = lex_skip_comments(L, '%', '%', &more)) != DS_OK) return st;
    if (!more) break;
    uint64_t i, j;
    uint32_t wbits = 0;
    if (e->count == h->max_entries)
      return lex_error(L, DS_ERR_FORMAT, "more entries than the %llu that the size line (line "
                       "%llu) gives", (unsigned long long)h->declared,
                       (unsigned long long)h->header_line);
    if ((r = lex_u64(L, &i)) != LEX_NUM_OK) return lex_num_error(L, r, "row index");
    if (i == 0 || i > n) return index_error(L, "row index", i, n);
    if ((r = lex_u64(L, &j)) != LEX_NUM_OK) return lex_num_error(L, r, "column index");
    if (j == 0 || j > n) return index_error(L, "column index", j, n);
    if (field == DS_MTX_INTEGER) {
      if ((r = lex_u32(L, &wbits)) != LEX_NUM_OK) return lex_num_error(L, r, "integer weight");
    } else if (field == DS_MTX_REAL) {
      float f = 0.0f;
      if ((r = lex_real(L, &f)) != LEX_NUM_OK) return lex_num_error(L, r, "weight");
      memcpy(&wbits, &f, sizeof wbits);
    }
    if (!lex_at_eol(L)) {
      char tok[WORD_LEN];
      lex_token(L, tok, sizeof tok);
      return lex_error(L, DS_ERR_FORMAT, "unexpected '%s' after the entry (a %s file has %d "
                       "fields per line)", tok, field == DS_MTX_PATTERN ? "pattern" : "weighted",
                       field == DS_MTX_PATTERN ? 2 : 3);
    }
    st = push_edge(e, (uint32_t)(i - 1), (uint32_t)(j - 1), wbits, L->err);
    if (st != DS_OK) return st;
    L->p++; /* the '\n' lex_at_eol stopped at */
    L->line++;
    if ((e->count & (PROGRESS_EVERY_LINES - 1)) == 0)
      ds_progress_update(prog, "parse", lex_fraction(L));
  }
  return DS_OK;
}

ds_status ds_read_mtx(const char *file, const ds_text *t, const ds_read_limits *lim,
                      ds_progress *prog, ds_edges *e, ds_read_info *info, ds_error *err) {
  ds_lex L;
  ds_mtx_field field = DS_MTX_PATTERN;
  int symmetric = 0;
  uint64_t n = 0, nnz = 0, size_line;
  int found = 0;
  lex_init(&L, file, t, err);
  ds_status st = ds_mtx_header(&L, lim, info->header_only, &field, &symmetric, &n, &nnz, &found);
  if (st != DS_OK || !found) return st;
  size_line = L.line - 1;
  info->n = (uint32_t)n;
  info->symmetric = symmetric;
  info->declared_entries = nnz;
  info->header_line = size_line;
  info->header_found = 1;
  if (info->header_only) return DS_OK;
  e->weighted = field != DS_MTX_PATTERN;
  e->weight_type = field == DS_MTX_REAL ? DS_WEIGHT_F32 : DS_WEIGHT_U32;
  // the memory the whole load will take, before any of it is allocated; a
  // file cannot hold more entries than its bytes allow, whatever it declares
  const uint64_t cap = max_entries_left(&L), entries = nnz < cap ? nnz : cap;
  const ds_load_size need = {n, entries, symmetric || lim->both_directions, e->weighted, t->len};
  st = ds_check_load_memory(file, size_line, &need, lim->max_memory, err);
  if (st == DS_OK) st = ds_edges_reserve(e, entries, err);
  if (st != DS_OK) return st;

  const ds_body_spec h = {n, nnz, nnz, size_line, field, 0, 0};
  if ((st = ds_mtx_body(&L, &h, prog, e)) != DS_OK) return st;
  if (e->count < nnz)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: the file ends after %llu entries, but the "
                        "size line (line %llu) gives %llu", file, (unsigned long long)(L.line - 1),
                        (unsigned long long)e->count, (unsigned long long)size_line,
                        (unsigned long long)nnz);
  info->n = (uint32_t)n;
  info->symmetric = symmetric;
  info->index_base = 1;
  info->entries = e->count;
  return DS_OK;
}
