/* The text as it arrives (text_check.c): the checks file_read.c runs on every
 * chunk it reads or inflates, and the bound on comment lines that the readers
 * share with them. */
#ifndef DS_TEXT_CHECK_H
#define DS_TEXT_CHECK_H

#include "graph_internal.h"

#define DS_DECLARED_NONE UINT64_MAX /* no header declares the entries (an edge list) */

/* What the checks know of a text so far. Set up by ds_text_check_begin; the
 * fields are the checker's own. */
typedef struct {
  const char *name;
  ds_read_limits lim;      /* the caller's, or the defaults */
  int every_line;          /* classify every line (a stream: gzip, a pipe), not only those
                              up to the first content line */
  int gzipped;             /* bound the text by the entries (DS_GZ_BYTES_PER_ENTRY) */
  uint64_t input_bytes;    /* the input's size where known (a regular file, memory); else 0 */
  int is_cache;            /* the text starts with the cache magic: binary, not checked */
  int banner_probed;       /* a first line "%%..." was checked as a banner */
  int probed;              /* the first content line was checked (format, header) */
  uint64_t declared;       /* entries the header declares, or DS_DECLARED_NONE */
  size_t nul_from;         /* bytes checked for NUL bytes */
  size_t line_start;       /* where the first line not yet passed starts */
  uint64_t line;           /* its number, while lines are classified */
  uint64_t comment_bytes;  /* of the comment and blank lines passed */
  uint64_t data_bytes, data_lines; /* of the other lines passed */
} ds_text_check;

/* lim NULL: the defaults (UINT32_MAX vertices, the host's memory, the
 * format from the content). */
void ds_text_check_begin(ds_text_check *c, const char *name, const ds_read_limits *lim,
                         int every_line, int gzipped, uint64_t input_bytes);
/* Checks t->data[0, t->len) as far as it is new: NUL bytes, line lengths,
 * the first content line, comment lines, the gzip bound. t has its
 * TEXT_SLACK bytes beyond t->len (file_read.c); once complete, with its final
 * '\n', it has no line left open. Errors:
 * DS_ERR_FORMAT "NAME:LINE: problem" for what cannot be a graph, DS_ERR_UNSUPPORTED
 * for a text beyond the limits, DS_ERR_NOMEM for a header whose sizes do not fit
 * in memory. t's bytes are unchanged on return (a check may change them
 * for a while). */
ds_status ds_text_check_more(ds_text_check *c, ds_text *t, ds_error *err);

/* DS_ERR_UNSUPPORTED "FILE:LINE: ..." when comment bytes of comment and
 * blank lines exceed DS_TEXT_COMMENT_BYTES plus DS_TEXT_COMMENT_PER_DATA per
 * byte of data lines; DS_OK otherwise. */
ds_status ds_text_comments_check(const char *file, uint64_t line, uint64_t comment,
                                 uint64_t data, ds_error *err);

/* The 1-based line of data[pos] (the lines of data[0, pos) counted), and
 * where it starts (may be NULL). O(pos): for messages. */
uint64_t ds_text_line_of(const char *data, size_t pos, size_t *line_start);

#endif /* DS_TEXT_CHECK_H */
