/* Edge-list reader: ".el" (u v) and ".wel" (u v w), 0-based ids, one edge a
 * line, '#' or '%' comment lines and blank lines anywhere. The field count
 * of the first edge line says which (a forced format overrides it); every
 * later line must have the same. The graph has max id + 1 vertices. Weights
 * are integers (uint32) until a real number appears, then all float.
 * Errors (DS_ERR_FORMAT, with the line): a wrong field count, bad numbers,
 * ids too large, negative/NaN/inf weights, a file without edges; comment
 * lines beyond read_common.h's bound (DS_ERR_UNSUPPORTED). header_only (a
 * prefix of the text, text_check.c): the first edge line alone is read.
 */
#include "read_body.h"

#define TOKEN_LEN 32

static int count_fields(const char *p) {
  int k = 0;
  for (;;) {
    while (lex_is_blank(*p)) p++;
    if (*p == '\n') return k;
    k++;
    while (!lex_is_end(*p)) p++;
  }
}

ds_status ds_el_fields(ds_lex *L, int *fields) {
  *fields = count_fields(L->p);
  if (*fields != DS_EL_FIELDS && *fields != DS_WEL_FIELDS)
    return lex_error(L, DS_ERR_FORMAT, "an edge line has %d fields: expected 2 (u v) or 3 "
                     "(u v w)", *fields);
  return DS_OK;
}

ds_status ds_el_body(ds_lex *L, const ds_body_spec *h, ds_progress *prog, ds_edges *e,
                     uint64_t *max_id) {
  const uint64_t id_limit = h->n; /* ids must be < the vertex limit */
  const int fields = h->fields;
  ds_status st;
  lex_num r;
  for (;;) {
    int more;
    if ((st = lex_skip_comments(L, '#', '%', &more)) != DS_OK) return st;
    if (!more) break;
    // u v [w]
    uint64_t u, v;
    uint32_t wbits = 0;
    if ((r = lex_u64(L, &u)) != LEX_NUM_OK) return lex_num_error(L, r, "source vertex");
    if ((r = lex_u64(L, &v)) != LEX_NUM_OK) return lex_num_error(L, r, "target vertex");
    if (u >= id_limit || v >= id_limit)
      return lex_error(L, DS_ERR_FORMAT, "vertex id %llu is too large (at most %llu)",
                       (unsigned long long)(u > v ? u : v), (unsigned long long)(id_limit - 1));
    if (fields == DS_WEL_FIELDS && (st = take_weight(L, e, &wbits)) != DS_OK) return st;
    if (!lex_at_eol(L)) {
      char tok[TOKEN_LEN];
      lex_token(L, tok, sizeof tok);
      return lex_error(L, DS_ERR_FORMAT, "unexpected '%s': this edge list has %d fields per line",
                       tok, fields);
    }
    if (h->one_line) return DS_OK;
    if (u > *max_id) *max_id = u;
    if (v > *max_id) *max_id = v;
    st = push_edge(e, (uint32_t)u, (uint32_t)v, wbits, L->err);
    if (st != DS_OK) return st;
    L->p++;
    L->line++;
    if ((e->count & (PROGRESS_EVERY_LINES - 1)) == 0)
      ds_progress_update(prog, "parse", lex_fraction(L));
  }
  return DS_OK;
}

ds_status ds_read_el(const char *file, const ds_text *t, const ds_read_limits *lim,
                     ds_progress *prog, ds_edges *e, ds_read_info *info, ds_error *err) {
  ds_lex L;
  lex_init(&L, file, t, err);
  int fields = info->fields; /* forced by the caller, or 0: from the first edge line */
  uint64_t max_id = 0;
  int more;
  // 1. the first edge line fixes the field count
  ds_status st = lex_skip_comments(&L, '#', '%', &more);
  if (st != DS_OK) return st;
  if (more) {
    if (fields == 0 && (st = ds_el_fields(&L, &fields)) != DS_OK) return st;
    e->weighted = fields == DS_WEL_FIELDS;
    e->weight_type = DS_WEIGHT_U32;
    st = info->header_only ? DS_OK : ds_edges_reserve(e, max_entries_left(&L) / 4 + 1, err);
    if (st != DS_OK) return st;
  }
  // 2. the edges
  const ds_body_spec h = {lim->max_vertices, 0, UINT64_MAX, 0, DS_MTX_PATTERN, fields,
                          info->header_only};
  if (more && (st = ds_el_body(&L, &h, prog, e, &max_id)) != DS_OK) return st;
  if (info->header_only) {
    info->header_found = more;
    return DS_OK; /* a prefix without an edge line yet is no error */
  }
  if (e->count == 0)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: no edges in the file", file,
                        (unsigned long long)(L.line - 1));
  info->n = (uint32_t)(max_id + 1);
  info->symmetric = 0;
  info->index_base = 0;
  info->entries = e->count;
  info->fields = fields;
  return DS_OK;
}
