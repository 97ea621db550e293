/* Helpers the readers share: passing comment lines, appending an edge, and
 * integer weights that turn into float weights when the first real number
 * appears (DIMACS, .wel). */
#ifndef DS_READ_COMMON_H
#define DS_READ_COMMON_H

#include "lex.h"
#include "text_check.h"

#define PROGRESS_EVERY_LINES ((uint64_t)1 << 20) /* progress checks per lines */
#define MIN_BYTES_PER_ENTRY 4                    /* "1 2\n": bounds a reservation */
#define EDGES_MIN_GROWTH 1024

static inline double lex_fraction(const ds_lex *L) {
  return (double)(L->p - L->begin) / (double)(L->end - L->begin + 1);
}

static inline void lex_init(ds_lex *L, const char *file, const ds_text *t, ds_error *err) {
  L->p = L->begin = ds_text_start(t);
  L->end = t->data + t->len;
  L->file = file;
  L->line = 1;
  L->comment_bytes = 0;
  L->err = err;
}

/* Passes the comment or blank line that starts at line (the cursor on it),
 * counting its bytes against those of the data lines before it: a file of
 * gigabytes of comments stops where it passes the bound
 * (ds_text_comments_check), not at its end. */
static inline ds_status lex_pass_comment(ds_lex *L, const char *line) {
  lex_next_line(L);
  L->comment_bytes += (uint64_t)(L->p - line);
  if (L->comment_bytes <= DS_TEXT_COMMENT_BYTES) return DS_OK;
  const uint64_t data = (uint64_t)(L->p - L->begin) - L->comment_bytes;
  return ds_text_comments_check(L->file, L->line - 1, L->comment_bytes, data, L->err);
}

/* Passes blank lines and comment lines (their first character that is not
 * blank is c1 or c2), counted by lex_pass_comment. *more: 1 with the cursor
 * at the start of a content line, 0 at the end of the text. */
static inline ds_status lex_skip_comments(ds_lex *L, char c1, char c2, int *more) {
  for (;;) {
    if (lex_eof(L)) {
      *more = 0;
      return DS_OK;
    }
    const char *p = L->p;
    while (lex_is_blank(*p)) p++;
    if (*p != '\n' && *p != c1 && *p != c2) {
      *more = 1;
      return DS_OK;
    }
    ds_status st = lex_pass_comment(L, L->p);
    if (st != DS_OK) return st;
  }
}

/* Edges a text of this many bytes left can hold at most. */
static inline uint64_t max_entries_left(const ds_lex *L) {
  return (uint64_t)(L->end - L->p) / MIN_BYTES_PER_ENTRY + 1;
}

static inline ds_status push_edge(ds_edges *e, uint32_t u, uint32_t v, uint32_t wbits,
                                  ds_error *err) {
  if (e->count == e->cap) {
    ds_status st = ds_edges_reserve(e, e->cap * 2 + EDGES_MIN_GROWTH, err);
    if (st != DS_OK) return st;
  }
  e->src[e->count] = u;
  e->dst[e->count] = v;
  if (e->weighted) e->w[e->count] = wbits;
  e->count++;
  return DS_OK;
}

/* Reads a weight into *bits in the list's current type, switching the whole
 * list to float at the first real number. */
static inline ds_status take_weight(ds_lex *L, ds_edges *e, uint32_t *bits) {
  int is_real = 0;
  uint32_t u = 0;
  float f = 0.0f;
  lex_num r = lex_weight(L, &is_real, &u, &f);
  if (r != LEX_NUM_OK) return lex_num_error(L, r, "weight");
  if (is_real && e->weight_type == DS_WEIGHT_U32) {
    for (uint64_t i = 0; i < e->count; i++) {
      float g = (float)e->w[i];
      memcpy(&e->w[i], &g, sizeof g);
    }
    e->weight_type = DS_WEIGHT_F32;
  }
  if (e->weight_type == DS_WEIGHT_F32 && !is_real) f = (float)u;
  if (e->weight_type == DS_WEIGHT_F32) memcpy(bits, &f, sizeof f);
  else *bits = u;
  return DS_OK;
}

#endif /* DS_READ_COMMON_H */
