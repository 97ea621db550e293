/* The body of a text graph file: the lines after its header (Matrix Market's
 * size line, DIMACS's 'p' line; all of an edge list), parsed by one function
 * per format from a lexer that may start at any line's start with its line
 * number already counted. The one-process readers (read_*.c) run it over the
 * whole text after the header; a rank of a distributed load over its byte
 * range of the file (read_range.c), so that both report the same errors at
 * the same lines. The checks that need the whole file (the entry count
 * against the header's, an edge list's vertex count and weight type) are the
 * callers'. */
#ifndef DS_READ_BODY_H
#define DS_READ_BODY_H

#include "read_common.h"

/* What a Matrix Market file's entries hold. */
typedef enum { DS_MTX_PATTERN = 0, DS_MTX_INTEGER = 1, DS_MTX_REAL = 2 } ds_mtx_field;

/* What the header says, and how far to go. */
typedef struct {
  uint64_t n;           /* Matrix Market, DIMACS: ids in [1, n]; edge lists: ids below n */
  uint64_t declared;    /* entries the header declares (for messages) */
  uint64_t max_entries; /* an entry past this many (counted in e) is an error: "more entries
                           than the `declared` that the header gives" */
  uint64_t header_line; /* the size line or the 'p' line (for messages) */
  ds_mtx_field field;   /* Matrix Market */
  int fields;           /* edge lists: DS_EL_FIELDS or DS_WEL_FIELDS */
  int one_line;         /* edge lists: stop after the first edge line, keeping nothing (the
                           header check of a text as it arrives) */
} ds_body_spec;

/* Each appends the entries of the lines from L's cursor to the end of its
 * text to e (0-based ids; e->weighted and e->weight_type set by the caller,
 * an edge list's turning float at its first real weight); errors are
 * "FILE:LINE: problem" with L's line numbers. *max_id (edge lists): the
 * largest id seen, updated. */
ds_status ds_mtx_body(ds_lex *L, const ds_body_spec *h, ds_progress *prog, ds_edges *e);
ds_status ds_dimacs_body(ds_lex *L, const ds_body_spec *h, ds_progress *prog, ds_edges *e);
ds_status ds_el_body(ds_lex *L, const ds_body_spec *h, ds_progress *prog, ds_edges *e,
                     uint64_t *max_id);

/* Matrix Market's banner and size line (read_mtx.c), from the text's start:
 * *found 0 where a prefix (header_only) ends before the size line. */
ds_status ds_mtx_header(ds_lex *L, const ds_read_limits *lim, int prefix, ds_mtx_field *field,
                        int *symmetric, uint64_t *n, uint64_t *nnz, int *found);
/* DIMACS's lines before the 'p' line, and that line (read_dimacs.c): *found 0
 * where the text ends before it. */
ds_status ds_dimacs_header(ds_lex *L, const ds_read_limits *lim, uint64_t *n, uint64_t *m,
                           int *found);
/* The fields of an edge list's first edge line, at L's cursor (read_el.c):
 * DS_ERR_FORMAT where it has neither 2 nor 3. */
ds_status ds_el_fields(ds_lex *L, int *fields);

#endif /* DS_READ_BODY_H */
