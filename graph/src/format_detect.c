/* Which reader a text needs: from its content first, then from its name.
 *
 *   starts with the cache magic          -> DS_FORMAT_CACHE
 *   starts with "%%"                     -> Matrix Market (the banner is checked there)
 *   first content line 'c ', 'p ', 'a '  -> DIMACS
 *   name .mtx                            -> Matrix Market (so a missing banner is reported)
 *   name .gr                             -> DIMACS
 *   first content line starts a number   -> edge list: .wel by name, else .el (load.c asks
 *                                           the reader for 2 or 3 fields by the name
 *                                           .el/.wel, and lets it count them otherwise)
 * Anything else is DS_ERR_FORMAT with line 1 (or the first non-comment line).
 * ds_reader_format applies a forced format and the fields of edge lists on
 * top, for the load (load.c) and for the checks of the text as it arrives
 * (text_check.c), so that both read a text alike.
 */
#include "graph_internal.h"

#include <string.h>

#define EXT_LEN 16

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int digit(char c) { return c >= '0' && c <= '9'; }

ds_status ds_detect_format(const char *file, const ds_text *t, ds_format *fmt, ds_error *err) {
  char ext[EXT_LEN];
  const char *p = ds_text_start(t), *end = t->data + t->len;
  ds_extension_of(file, ext, sizeof ext);
  // 1. signatures at the start
  if ((size_t)(end - p) >= DS_CACHE_MAGIC_LEN && memcmp(p, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) == 0) {
    *fmt = DS_FORMAT_CACHE;
    return DS_OK;
  }
  if (strncmp(p, "%%", 2) == 0) {
    *fmt = DS_FORMAT_MTX;
    return DS_OK;
  }
  // 2. the first line that is not blank and not a '#'/'%' comment
  uint64_t line = 1;
  while (p < end) {
    const char *q = p;
    while (blank(*q)) q++;
    if (*q != '\n' && *q != '#' && *q != '%') break;
    const char *nl = memchr(q, '\n', (size_t)(end - q));
    p = nl ? nl + 1 : end;
    line++;
  }
  while (p < end && blank(*p)) p++;
  if (p < end && (*p == 'c' || *p == 'p' || *p == 'a') && (blank(p[1]) || p[1] == '\n')) {
    *fmt = DS_FORMAT_DIMACS;
    return DS_OK;
  }
  // 3. content that could be several things: the name decides
  if (strcmp(ext, "mtx") == 0) { /* the reader reports the missing banner */
    *fmt = DS_FORMAT_MTX;
    return DS_OK;
  }
  if (strcmp(ext, "gr") == 0) {
    *fmt = DS_FORMAT_DIMACS;
    return DS_OK;
  }
  if (p < end && digit(*p)) {
    *fmt = strcmp(ext, "wel") == 0 ? DS_FORMAT_WEL : DS_FORMAT_EL; /* load.c: fields */
    return DS_OK;
  }
  if (p >= end)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: the file holds only comments and blank "
                        "lines", file, (unsigned long long)(line - 1));
  return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: cannot tell the format: not Matrix Market "
                      "(no '%%%%MatrixMarket' banner), not DIMACS ('p sp', 'a' lines), not an edge "
                      "list (lines 'u v [w]')", file, (unsigned long long)line);
}

ds_status ds_reader_format(const char *file, const ds_text *t, ds_format forced, ds_format *fmt,
                           int *fields, ds_error *err) {
  *fields = 0;
  *fmt = forced;
  if (forced == DS_FORMAT_EL || forced == DS_FORMAT_WEL) {
    *fields = forced == DS_FORMAT_WEL ? DS_WEL_FIELDS : DS_EL_FIELDS;
    return DS_OK;
  }
  if (forced != DS_FORMAT_AUTO) return DS_OK;
  ds_status st = ds_detect_format(file, t, fmt, err);
  if (st != DS_OK || (*fmt != DS_FORMAT_EL && *fmt != DS_FORMAT_WEL)) return st;
  char ext[EXT_LEN]; /* the name asks for the fields, or the reader counts them */
  ds_extension_of(file, ext, sizeof ext);
  *fields = strcmp(ext, "wel") == 0 ? DS_WEL_FIELDS : strcmp(ext, "el") == 0 ? DS_EL_FIELDS : 0;
  return DS_OK;
}

ds_reader_fn ds_reader_of(ds_format f) {
  switch (f) {
  case DS_FORMAT_MTX: return ds_read_mtx;
  case DS_FORMAT_DIMACS: return ds_read_dimacs;
  case DS_FORMAT_EL:
  case DS_FORMAT_WEL: return ds_read_el;
  default: return NULL;
  }
}
