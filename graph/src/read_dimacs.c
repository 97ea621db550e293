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
#include "read_common.h"

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

ds_status ds_read_dimacs(const char *file, const ds_text *t, const ds_read_limits *lim,
                         ds_progress *prog, ds_edges *e, ds_read_info *info, ds_error *err) {
  ds_lex L;
  uint64_t n = 0, m = 0, p_line = 0;
  ds_status st = DS_OK;
  lex_init(&L, file, t, err);
  if (info->header_only) { /* DIMACS needs the 'p' line before any arc: stop at the first one */
    lex_skip_blanks(&L);
    while (!lex_eof(&L) && (*L.p == 'c' || *L.p == '\n')) {
      lex_next_line(&L);
      lex_skip_blanks(&L);
    }
    if (lex_eof(&L)) return DS_OK;
  }
  e->weighted = 1;
  e->weight_type = DS_WEIGHT_U32;
  while (!lex_eof(&L)) {
    const char *line = L.p;
    lex_skip_blanks(&L);
    if (*L.p == '\n' || *L.p == 'c') { /* blank or a comment */
      if ((st = lex_pass_comment(&L, line)) != DS_OK) return st;
      continue;
    }
    switch (*L.p) {
    case 'p':
      if (p_line)
        return lex_error(&L, DS_ERR_FORMAT, "a second 'p' line (the first is line %llu)",
                         (unsigned long long)p_line);
      st = read_problem(&L, lim, &n, &m);
      if (st != DS_OK) break;
      p_line = L.line;
      info->n = (uint32_t)n;
      info->declared_entries = m;
      info->header_line = p_line;
      info->header_found = 1;
      if (info->header_only) return DS_OK;
      { /* the whole load's memory before any of it is allocated (as read_mtx.c) */
        const uint64_t cap = max_entries_left(&L), arcs = m < cap ? m : cap;
        const ds_load_size need = {n, arcs, lim->both_directions, 1, t->len};
        st = ds_check_load_memory(file, p_line, &need, lim->max_memory, err);
        if (st == DS_OK) st = ds_edges_reserve(e, arcs, err);
      }
      break;
    case 'a':
      if (!p_line) return lex_error(&L, DS_ERR_FORMAT, "an arc before the 'p sp N M' line");
      if (e->count == m)
        return lex_error(&L, DS_ERR_FORMAT, "more arcs than the %llu that the 'p' line (line "
                         "%llu) gives", (unsigned long long)m, (unsigned long long)p_line);
      st = read_arc(&L, n, e);
      break;
    default: {
      char tok[PROBLEM_WORD_LEN];
      lex_token(&L, tok, sizeof tok);
      return lex_error(&L, DS_ERR_FORMAT, "unknown line type '%s': a DIMACS .gr file has 'c', "
                       "'p' and 'a' lines", tok);
    }
    }
    if (st != DS_OK) return st;
    lex_next_line(&L);
    if ((L.line & (PROGRESS_EVERY_LINES - 1)) == 0)
      ds_progress_update(prog, "parse", lex_fraction(&L));
  }
  if (!p_line)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: no 'p sp N M' line in the file", file,
                        (unsigned long long)(L.line - 1));
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
