/* DIMACS shortest-path reader (9th DIMACS Implementation Challenge, ".gr"):
 *
 *   c comment
 *   p sp N M        once, before the arcs: N vertices, M arcs
 *   a U V W         one directed arc, 1-based ids, non-negative weight
 *
 * Weights are integers (uint32); a real weight anywhere makes them all float.
 * Errors (DS_ERR_FORMAT, with the line): a missing or repeated 'p' line, a
 * problem type other than 'sp', an arc before the 'p' line, ids 0 or beyond
 * N, bad numbers, an arc count that differs from M, unknown line types;
 * comment lines beyond read_common.h's bound (DS_ERR_UNSUPPORTED).
 */
#include "read_body.h"

#define PROBLEM_WORD_LEN 16

static ds_status read_problem(ds_lex *L, const ds_read_limits *lim, uint64_t *n, uint64_t *m) {
  char word[PROBLEM_WORD_LEN];
  lex_num r;
  L->p++; /* 'p' */
  if (!lex_is_blank(*L->p)) return lex_error(L, DS_ERR_FORMAT, "malformed 'p' line");
  lex_skip_blanks(L);
  lex_token(L, word, sizeof word);
  if (strcmp(word, "sp") != 0)
    return lex_error(L, DS_ERR_FORMAT, "problem type '%s' is not 'sp' (shortest path)", word);
  L->p += 2;
  if ((r = lex_u64(L, n)) != LEX_NUM_OK) return lex_num_error(L, r, "vertex count");
  if ((r = lex_u64(L, m)) != LEX_NUM_OK) return lex_num_error(L, r, "arc count");
  if (!lex_at_eol(L)) return lex_error(L, DS_ERR_FORMAT, "the 'p' line has more than 4 fields");
  if (*n > lim->max_vertices)
    return lex_error(L, DS_ERR_UNSUPPORTED, "%llu vertices are more than the %llu supported",
                     (unsigned long long)*n, (unsigned long long)lim->max_vertices);
  return DS_OK;
}

static ds_status read_arc(ds_lex *L, uint64_t n, ds_edges *e) {
  uint64_t id[2];
  static const char *const what[2] = {"tail vertex", "head vertex"};
  uint32_t wbits = 0;
  lex_num r;
  L->p++; /* 'a' */
  if (!lex_is_blank(*L->p)) return lex_error(L, DS_ERR_FORMAT, "malformed 'a' line");
  for (int k = 0; k < 2; k++) {
    if ((r = lex_u64(L, &id[k])) != LEX_NUM_OK) return lex_num_error(L, r, what[k]);
    if (id[k] == 0 || id[k] > n)
      return lex_error(L, DS_ERR_FORMAT, "%s %llu is out of range [1, %llu]", what[k],
                       (unsigned long long)id[k], (unsigned long long)n);
  }
  ds_status st = take_weight(L, e, &wbits);
  if (st != DS_OK) return st;
  if (!lex_at_eol(L)) return lex_error(L, DS_ERR_FORMAT, "the 'a' line has more than 4 fields");
  return push_edge(e, (uint32_t)(id[0] - 1), (uint32_t)(id[1] - 1), wbits, L->err);
}

static ds_status unknown_line(ds_lex *L) {
  char tok[PROBLEM_WORD_LEN];
  lex_token(L, tok, sizeof tok);
  return lex_error(L, DS_ERR_FORMAT, "unknown line type '%s': a DIMACS .gr file has 'c', 'p' "
                   "and 'a' lines", tok);
}

/* Passes a blank or comment line at the cursor: *passed 0 at another line. */
static ds_status pass_comment(ds_lex *L, int *passed) {
  const char *line = L->p;
  lex_skip_blanks(L);
  *passed = *L->p == '\n' || *L->p == 'c';
  if (!*passed) return DS_OK;
  return lex_pass_comment(L, line);
}

ds_status ds_dimacs_header(ds_lex *L, const ds_read_limits *lim, uint64_t *n, uint64_t *m,
                           int *found) {
  *found = 0;
  while (!lex_eof(L)) {
    int passed;
    ds_status st = pass_comment(L, &passed);
    if (st != DS_OK) return st;
    if (passed) continue;
    if (*L->p == 'a') return lex_error(L, DS_ERR_FORMAT, "an arc before the 'p sp N M' line");
    if (*L->p != 'p') return unknown_line(L);
    if ((st = read_problem(L, lim, n, m)) != DS_OK) return st;
    *found = 1;
    lex_next_line(L);
    return DS_OK;
  }
  return DS_OK;
}

ds_status ds_dimacs_body(ds_lex *L, const ds_body_spec *h, ds_progress *prog, ds_edges *e) {
  while (!lex_eof(L)) {
    int passed;
    ds_status st = pass_comment(L, &passed);
    if (st != DS_OK) return st;
    if (passed) continue;
    switch (*L->p) {
    case 'p':
      return lex_error(L, DS_ERR_FORMAT, "a second 'p' line (the first is line %llu)",
                       (unsigned long long)h->header_line);
    case 'a':
      if (e->count == h->max_entries)
        return lex_error(L, DS_ERR_FORMAT, "more arcs than the %llu that the 'p' line (line "
                         "%llu) gives", (unsigned long long)h->declared,
                         (unsigned long long)h->header_line);
      st = read_arc(L, h->n, e);
      break;
    default: return unknown_line(L);
    }
    if (st != DS_OK) return st;
    lex_next_line(L);
    if ((L->line & (PROGRESS_EVERY_LINES - 1)) == 0)
      ds_progress_update(prog, "parse", lex_fraction(L));
  }
  return DS_OK;
}

ds_status ds_read_dimacs(const char *file, const ds_text *t, const ds_read_limits *lim,
                         ds_progress *prog, ds_edges *e, ds_read_info *info, ds_error *err) {
  ds_lex L;
  uint64_t n = 0, m = 0;
  int found = 0;
  lex_init(&L, file, t, err);
  // 1. the 'p' line, after comments only (a prefix without it yet is no error)
  ds_status st = ds_dimacs_header(&L, lim, &n, &m, &found);
  if (st != DS_OK || (info->header_only && !found)) return st;
  if (!found)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: no 'p sp N M' line in the file", file,
                        (unsigned long long)(L.line - 1));
  const uint64_t p_line = L.line - 1;
  info->n = (uint32_t)n;
  info->declared_entries = m;
  info->header_line = p_line;
  info->header_found = 1;
  if (info->header_only) return DS_OK;
  e->weighted = 1;
  e->weight_type = DS_WEIGHT_U32;
  { /* the whole load's memory before any of it is allocated (as read_mtx.c) */
    const uint64_t cap = max_entries_left(&L), arcs = m < cap ? m : cap;
    const ds_load_size need = {n, arcs, lim->both_directions, 1, t->len};
    st = ds_check_load_memory(file, p_line, &need, lim->max_memory, err);
    if (st == DS_OK) st = ds_edges_reserve(e, arcs, err);
    if (st != DS_OK) return st;
  }
  // 2. the arcs
  const ds_body_spec h = {n, m, m, p_line, DS_MTX_PATTERN, 0, 0};
  if ((st = ds_dimacs_body(&L, &h, prog, e)) != DS_OK) return st;
  if (e->count < m)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: the file ends after %llu arcs, but the 'p' "
                        "line (line %llu) gives %llu", file, (unsigned long long)(L.line - 1),
                        (unsigned long long)e->count, (unsigned long long)p_line,
                        (unsigned long long)m);
  info->n = (uint32_t)n;
  info->symmetric = 0;
  info->index_base = 1;
  info->entries = e->count;
  return DS_OK;
}
