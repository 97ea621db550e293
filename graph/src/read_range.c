/* A text graph file in byte ranges (ds/text_range.h): the header read by
 * every rank from a prefix of the file, a rank's part of the body read with
 * pread, and the part parsed by the one-process readers' body functions
 * (read_body.h), so that a part reports the same errors at the same lines.
 * Limits: regular files only (the ranks read at offsets), no gzip, no cache.
 */
#define _XOPEN_SOURCE 700
#include "ds/text_range.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_body.h"

#define FIRST_PREFIX ((size_t)1 << 16) /* the header is looked for in a prefix this long, */
#define SCAN_CHUNK ((size_t)1 << 16)   /* then twice, ...; a newline in chunks of this */
#define PART_SLACK (2 + DS_TEXT_PAD)   /* the added '\n' and '\0', then zero padding */
#define GZIP_MAGIC "\x1f\x8b"
#define GZIP_MAGIC_LEN 2
#define PARSE_RESERVE_BYTES 16         /* bytes of text a first reservation allows per entry */

static ds_status open_regular(const char *path, int *fd, uint64_t *size, ds_error *err) {
  *fd = open(path, O_RDONLY | O_CLOEXEC);
  if (*fd < 0) return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat sb;
  if (fstat(*fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    close(*fd);
    *fd = -1;
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: not a regular file: the ranks read it at "
                        "offsets, which a pipe or device cannot give", path);
  }
  *size = (uint64_t)sb.st_size;
  return DS_OK;
}

/* len bytes at offset into buf; *got short only at the end of the file. */
static ds_status read_at(int fd, const char *path, void *buf, size_t len, uint64_t offset,
                         size_t *got, ds_error *err) {
  *got = 0;
  while (*got < len) {
    ssize_t k = pread(fd, (char *)buf + *got, len - *got, (off_t)(offset + *got));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0)
      return ds_error_set(err, DS_ERR_IO, "%s: read failed at byte %llu: %s", path,
                          (unsigned long long)(offset + *got), strerror(errno));
    if (k == 0) break;
    *got += (size_t)k;
  }
  return DS_OK;
}

/* A text of len bytes read at offset, ending with '\n' (added where the file
 * lacks it), then '\0' and the padding. */
static ds_status read_text(int fd, const char *path, uint64_t offset, size_t len, ds_text *t,
                           ds_error *err) {
  memset(t, 0, sizeof *t);
  t->data = malloc(len + PART_SLACK);
  if (t->data == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for %zu bytes of text", path, len);
  size_t got;
  ds_status st = read_at(fd, path, t->data, len, offset, &got, err);
  if (st != DS_OK) {
    free(t->data);
    t->data = NULL;
    return st;
  }
  t->len = got;
  t->newline_added = got > 0 && t->data[got - 1] != '\n';
  if (t->newline_added) t->data[t->len++] = '\n';
  memset(t->data + t->len, 0, 1 + DS_TEXT_PAD);
  return DS_OK;
}

/* The NUL check of text_check.c over a part, its line numbers moved by
 * first_line - 1 (that check counts lines from the text it is given). */
static ds_status nul_check(const char *path, const ds_text *t, uint64_t first_line, ds_error *err) {
  ds_error local;
  if (ds_text_nul_check(path, t->data, 0, t->len, &local) == DS_OK) return DS_OK;
  const size_t name_len = strlen(path);
  unsigned long long line = 0;
  int used = 0;
  if (strncmp(local.msg, path, name_len) != 0 ||
      sscanf(local.msg + name_len, ":%llu:%n", &line, &used) != 1 || used == 0) {
    if (err != NULL) *err = local;
    return DS_ERR_FORMAT;
  }
  return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu:%s", path, line + first_line - 1,
                      local.msg + name_len + used);
}

static void lex_over(ds_lex *L, const char *path, const ds_text *t, size_t skip, uint64_t line,
                     ds_error *err) {
  L->p = L->begin = t->data + skip;
  L->end = t->data + t->len;
  L->file = path;
  L->line = line;
  L->comment_bytes = 0;
  L->err = err;
}

/* The header in text t (a prefix of the file, or all of it where at_end):
 * *found 0 where the prefix ends before it. */
static ds_status parse_header(const char *path, const ds_text *t, int at_end, ds_text_layout *lay,
                              int *found, ds_error *err) {
  const ds_read_limits lim = {UINT32_MAX, 0, 0, lay->format};
  ds_lex L;
  const size_t start = (size_t)(ds_text_start(t) - t->data);
  lex_over(&L, path, t, start, 1, err);
  ds_status st = DS_OK;
  uint64_t n = 0, declared = 0;
  *found = 0;
  switch (lay->format) {
  case DS_FORMAT_MTX: {
    ds_mtx_field field = DS_MTX_PATTERN;
    st = ds_mtx_header(&L, &lim, !at_end, &field, &lay->symmetric, &n, &declared, found);
    lay->weighted = field != DS_MTX_PATTERN;
    lay->weight_type = field == DS_MTX_REAL ? DS_WEIGHT_F32 : DS_WEIGHT_U32;
    break;
  }
  case DS_FORMAT_DIMACS:
    st = ds_dimacs_header(&L, &lim, &n, &declared, found);
    if (st == DS_OK && !*found && at_end)
      st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: no 'p sp N M' line in the file", path,
                        (unsigned long long)(L.line - 1));
    lay->weighted = 1;
    break;
  default: { /* an edge list: no header, the first edge line gives the field count */
    int more = 0;
    st = lex_skip_comments(&L, '#', '%', &more);
    if (st == DS_OK && more && lay->fields == 0) st = ds_el_fields(&L, &lay->fields);
    if (st == DS_OK && !more && at_end)
      st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: no edges in the file", path,
                        (unsigned long long)(L.line - 1));
    *found = more;
    lay->weighted = lay->fields == DS_WEL_FIELDS;
    lay->format = lay->weighted ? DS_FORMAT_WEL : DS_FORMAT_EL;
    lay->declared = UINT64_MAX;
    lay->index_base = 0;
    /* the body is the whole text: comment lines before the first edge line too */
    lay->body_offset = start;
    lay->body_line = 1;
    return st;
  }
  }
  if (st != DS_OK || !*found) return st;
  lay->n = (uint32_t)n;
  lay->declared = declared;
  lay->header_line = L.line - 1;
  lay->body_offset = (uint64_t)(L.p - t->data);
  lay->body_line = L.line;
  lay->index_base = 1;
  return DS_OK;
}

ds_status ds_text_layout_read(const char *path, ds_format forced, ds_text_layout *lay,
                              ds_error *err) {
  if (path == NULL || lay == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_text_layout_read: path and lay must not be NULL");
  memset(lay, 0, sizeof *lay);
  int fd;
  uint64_t size;
  ds_status st = open_regular(path, &fd, &size, err);
  if (st != DS_OK) return st;
  lay->file_bytes = size;
  ds_text t;
  memset(&t, 0, sizeof t);
  // 1. what the file is: not gzip, not a cache; the format from a first prefix
  size_t len = size < FIRST_PREFIX ? (size_t)size : FIRST_PREFIX;
  if ((st = read_text(fd, path, 0, len, &t, err)) != DS_OK) goto done;
  if (t.len >= GZIP_MAGIC_LEN && memcmp(t.data, GZIP_MAGIC, GZIP_MAGIC_LEN) == 0) {
    st = ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: gzip-compressed text cannot be read in "
                      "parts by several ranks (a compressed stream cannot be entered in the "
                      "middle): gunzip it first", path);
    goto done;
  }
  if (t.len >= DS_CACHE_MAGIC_LEN && memcmp(t.data, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) == 0) {
    st = ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: a binary cache, which is read whole, not in "
                      "parts of text", path);
    goto done;
  }
  if (forced == DS_FORMAT_CACHE) {
    st = ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: the cache format is not read in parts of "
                      "text", path);
    goto done;
  }
  st = ds_reader_format(path, &t, forced, &lay->format, &lay->fields, err);
  if (st != DS_OK) goto done;
  if (lay->format == DS_FORMAT_EL && lay->fields == 0 && forced == DS_FORMAT_EL)
    lay->fields = DS_EL_FIELDS;
  if (lay->format == DS_FORMAT_WEL && lay->fields == 0) lay->fields = DS_WEL_FIELDS;
  // 2. the header, in ever longer prefixes until it is found or the file ends
  for (;;) {
    const int at_end = len == size;
    if (!at_end) { /* whole lines only: the prefix ends at its last newline */
      size_t keep = t.len > 0 ? t.len - 1 : 0; /* the last byte is the added newline */
      while (keep > 0 && t.data[keep - 1] != '\n') keep--;
      if (keep > 0) {
        t.len = keep;
        memset(t.data + t.len, 0, 1 + DS_TEXT_PAD);
      }
    }
    if ((st = ds_text_nul_check(path, t.data, 0, t.len, err)) != DS_OK) goto done;
    int found = 0;
    if ((st = parse_header(path, &t, at_end, lay, &found, err)) != DS_OK || found) goto done;
    if (at_end) {
      st = ds_error_set(err, DS_ERR_FORMAT, "%s: no header found", path); /* unreachable: each
                        format reports its own missing header at the end */
      goto done;
    }
    len = size / 2 < len ? (size_t)size : 2 * len;
    free(t.data);
    if ((st = read_text(fd, path, 0, len, &t, err)) != DS_OK) goto done;
  }
done:
  free(t.data);
  close(fd);
  return st;
}

/* The offset after the first newline at or after `from`; the file's end
 * where none follows. */
static ds_status after_newline(int fd, const char *path, uint64_t from, uint64_t size,
                               uint64_t *at, ds_error *err) {
  char buf[SCAN_CHUNK];
  for (uint64_t pos = from; pos < size;) {
    size_t got;
    ds_status st = read_at(fd, path, buf, sizeof buf, pos, &got, err);
    if (st != DS_OK) return st;
    if (got == 0) break;
    const char *nl = memchr(buf, '\n', got);
    if (nl != NULL) {
      *at = pos + (uint64_t)(nl - buf) + 1;
      return DS_OK;
    }
    pos += got;
  }
  *at = size;
  return DS_OK;
}

ds_status ds_text_part_read(const char *path, const ds_text_layout *lay, uint64_t begin,
                            uint64_t end, int first, int last, ds_text_part *part,
                            ds_error *err) {
  if (path == NULL || lay == NULL || part == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_text_part_read: path, lay and part must not be NULL");
  memset(part, 0, sizeof *part);
  if (begin > end || begin < lay->body_offset || end > lay->file_bytes)
    return ds_error_set(err, DS_ERR_ARG, "%s: part [%llu, %llu) is not within the body [%llu, "
                        "%llu)", path, (unsigned long long)begin, (unsigned long long)end,
                        (unsigned long long)lay->body_offset, (unsigned long long)lay->file_bytes);
  int fd;
  uint64_t size;
  ds_status st = open_regular(path, &fd, &size, err);
  if (st != DS_OK) return st;
  if (size != lay->file_bytes) {
    close(fd);
    return ds_error_set(err, DS_ERR_IO, "%s: the file has %llu bytes, not the %llu its header "
                        "was read from: it changed during the load", path,
                        (unsigned long long)size, (unsigned long long)lay->file_bytes);
  }
  // 1. where the part starts and ends: after the newlines at or after begin and end
  uint64_t from = lay->body_offset, to = size;
  if (!first) st = after_newline(fd, path, begin, size, &from, err);
  if (st == DS_OK && !last) st = after_newline(fd, path, end, size, &to, err);
  if (st == DS_OK && to < from) to = from; /* begin and end within one line */
  // 2. its bytes, and its lines
  ds_text t;
  memset(&t, 0, sizeof t);
  if (st == DS_OK) st = read_text(fd, path, from, (size_t)(to - from), &t, err);
  close(fd);
  if (st != DS_OK) return st;
  part->data = t.data;
  part->len = t.len;
  part->offset = from;
  for (const char *p = t.data, *e = t.data + t.len; (p = memchr(p, '\n', (size_t)(e - p))) != NULL;
       p++)
    part->lines++;
  return DS_OK;
}

void ds_text_part_free(ds_text_part *part) {
  if (part == NULL) return;
  free(part->data);
  memset(part, 0, sizeof *part);
}

ds_status ds_text_part_parse(const char *path, const ds_text_layout *lay,
                             const ds_text_part *part, uint64_t first_line,
                             uint64_t max_entries, ds_text_part_edges *out, ds_error *err) {
  if (path == NULL || lay == NULL || part == NULL || out == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_text_part_parse: arguments must not be NULL");
  memset(out, 0, sizeof *out);
  ds_text t;
  memset(&t, 0, sizeof t);
  t.data = part->data;
  t.len = part->len;
  ds_status st = part->len > 0 ? nul_check(path, &t, first_line, err) : DS_OK;
  if (st != DS_OK) return st;
  // 1. the edges, as the reader of the format keeps them
  ds_edges e;
  memset(&e, 0, sizeof e);
  e.weighted = lay->weighted;
  e.weight_type = lay->weight_type;
  st = ds_edges_reserve(&e, part->len / PARSE_RESERVE_BYTES + 1, err);
  ds_lex L;
  lex_over(&L, path, &t, 0, first_line, err);
  if (part->len == 0) L.end = L.p; /* nothing: the lexer is at its end at once */
  ds_body_spec h = {lay->n, lay->declared, max_entries, lay->header_line, DS_MTX_PATTERN,
                    lay->fields, 0};
  uint64_t max_id = 0;
  if (st == DS_OK) {
    switch (lay->format) {
    case DS_FORMAT_MTX:
      h.field = !lay->weighted ? DS_MTX_PATTERN
                : lay->weight_type == DS_WEIGHT_F32 ? DS_MTX_REAL : DS_MTX_INTEGER;
      st = ds_mtx_body(&L, &h, NULL, &e);
      break;
    case DS_FORMAT_DIMACS: st = ds_dimacs_body(&L, &h, NULL, &e); break;
    case DS_FORMAT_EL:
    case DS_FORMAT_WEL:
      h.n = UINT32_MAX; /* the one-process load's vertex limit */
      st = ds_el_body(&L, &h, NULL, &e, &max_id);
      break;
    default:
      st = ds_error_set(err, DS_ERR_ARG, "%s: format '%s' is not read in parts", path,
                        ds_format_name(lay->format));
    }
  }
  if (st != DS_OK) {
    const uint64_t before = e.count;
    ds_edges_free(&e);
    out->count = before;
    return st;
  }
  // 2. 0-based ids and what the caller checks across the parts
  if (lay->index_base == 1)
    for (uint64_t i = 0; i < e.count; i++) {
      if (e.src[i] > max_id) max_id = e.src[i];
      if (e.dst[i] > max_id) max_id = e.dst[i];
    }
  out->src = e.src;
  out->dst = e.dst;
  out->w = e.weighted ? e.w : NULL;
  if (!e.weighted) free(e.w);
  out->count = e.count;
  out->weight_type = e.weight_type;
  out->max_id = max_id;
  out->end_line = first_line + part->lines;
  return DS_OK;
}

void ds_text_part_edges_to_float(ds_text_part_edges *e) {
  if (e->weight_type == DS_WEIGHT_F32 || e->w == NULL) {
    e->weight_type = DS_WEIGHT_F32;
    return;
  }
  for (uint64_t i = 0; i < e->count; i++) {
    const float f = (float)e->w[i];
    memcpy(&e->w[i], &f, sizeof f);
  }
  e->weight_type = DS_WEIGHT_F32;
}

void ds_text_part_edges_free(ds_text_part_edges *e) {
  if (e == NULL) return;
  free(e->src);
  free(e->dst);
  free(e->w);
  memset(e, 0, sizeof *e);
}

/* ---- the binary cache ------------------------------------------------------- */

#define OFFSETS_CHUNK ((size_t)1 << 16) /* row offsets read at a time */

static ds_status cache_invalid(const char *path, ds_error *err, const char *what,
                               unsigned long long a, unsigned long long b) {
  return ds_error_set(err, DS_ERR_FORMAT, "%s: the cache does not hold a valid graph: %s (%llu, "
                      "%llu)", path, what, a, b);
}

int ds_file_is_cache(const char *path) {
  int fd;
  uint64_t size;
  ds_error ignored;
  if (path == NULL || open_regular(path, &fd, &size, &ignored) != DS_OK) return 0;
  char magic[DS_CACHE_MAGIC_LEN];
  size_t got = 0;
  const int yes = read_at(fd, path, magic, sizeof magic, 0, &got, &ignored) == DS_OK &&
                  got == sizeof magic && memcmp(magic, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) == 0;
  close(fd);
  return yes;
}

/* Row offset v, read from the file. */
static ds_status offset_at(int fd, const char *path, const ds_cache_layout *lay, uint32_t v,
                           uint64_t *off, ds_error *err) {
  size_t got;
  ds_status st = read_at(fd, path, off, sizeof *off, lay->offsets_at + (uint64_t)v * sizeof *off,
                         &got, err);
  if (st == DS_OK && got != sizeof *off)
    st = ds_error_set(err, DS_ERR_IO, "%s: the cache ends inside its row offsets", path);
  if (st == DS_OK && *off > lay->m)
    st = cache_invalid(path, err, "row offset beyond the arcs", v, *off);
  return st;
}

ds_status ds_cache_part_read(const char *path, const ds_cache_layout *lay, uint64_t begin,
                             uint64_t end, ds_text_part_edges *out, ds_error *err) {
  if (path == NULL || lay == NULL || out == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_part_read: arguments must not be NULL");
  memset(out, 0, sizeof *out);
  if (begin > end || end > lay->m)
    return ds_error_set(err, DS_ERR_ARG, "%s: arcs [%llu, %llu) are not within the cache's %llu",
                        path, (unsigned long long)begin, (unsigned long long)end,
                        (unsigned long long)lay->m);
  int fd;
  uint64_t size;
  ds_status st = open_regular(path, &fd, &size, err);
  if (st != DS_OK) return st;
  const size_t len = (size_t)(end - begin), cap = len ? len : 1;
  uint32_t *src = malloc(cap * sizeof *src), *dst = malloc(cap * sizeof *dst);
  uint32_t *w = malloc(cap * sizeof *w);
  uint64_t *off = malloc(OFFSETS_CHUNK * sizeof *off);
  if (src == NULL || dst == NULL || w == NULL || off == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for %zu arcs", path, len);
    goto done;
  }
  if (size != lay->file_bytes) {
    st = ds_error_set(err, DS_ERR_IO, "%s: the cache has %llu bytes, not the %llu its header "
                      "was read from: it changed during the load", path,
                      (unsigned long long)size, (unsigned long long)lay->file_bytes);
    goto done;
  }
  // 1. the heads and weights: exact ranges of fixed-size records
  size_t got;
  if ((st = read_at(fd, path, dst, len * sizeof *dst, lay->col_at + begin * sizeof *dst, &got,
                    err)) != DS_OK ||
      (st = read_at(fd, path, w, len * sizeof *w, lay->weights_at + begin * sizeof *w, &got,
                    err)) != DS_OK)
    goto done;
  for (size_t k = 0; k < len; k++)
    if (dst[k] >= lay->n) {
      st = cache_invalid(path, err, "arc with a head beyond the vertices", begin + k, dst[k]);
      goto done;
    }
  // 2. the tail of the first arc: the last row starting at or before it (binary search)
  uint32_t lo = 0, hi = lay->n; /* offsets[lo] <= begin < offsets[hi] once narrowed */
  while (len > 0 && hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    uint64_t o;
    if ((st = offset_at(fd, path, lay, mid, &o, err)) != DS_OK) goto done;
    if (o <= begin) lo = mid;
    else hi = mid;
  }
  // 3. the rows from there on, a chunk of offsets at a time, until the range's arcs have tails
  uint64_t prev = 0;
  size_t k = 0;
  for (uint32_t v = lo; k < len && v < lay->n;) {
    const size_t want = (size_t)(lay->n + 1 - v) < OFFSETS_CHUNK ? (size_t)(lay->n + 1 - v)
                                                                : OFFSETS_CHUNK;
    if ((st = read_at(fd, path, off, want * sizeof *off,
                      lay->offsets_at + (uint64_t)v * sizeof *off, &got, err)) != DS_OK)
      goto done;
    if (got != want * sizeof *off) {
      st = ds_error_set(err, DS_ERR_IO, "%s: the cache ends inside its row offsets", path);
      goto done;
    }
    for (size_t j = 0; j + 1 < want && k < len; j++, v++) {
      if (off[j] < prev || off[j + 1] < off[j] || off[j + 1] > lay->m) {
        st = cache_invalid(path, err, "row offsets that decrease or pass the arcs", v, off[j]);
        goto done;
      }
      prev = off[j];
      for (; k < len && begin + k < off[j + 1]; k++) {
        if (begin + k < off[j]) { /* an arc before its row: the offsets skip it */
          st = cache_invalid(path, err, "arc outside every row", begin + k, off[j]);
          goto done;
        }
        src[k] = v;
      }
    }
  }
  if (k < len) st = cache_invalid(path, err, "arcs beyond the last row", begin + k, lay->m);
done:
  close(fd);
  free(off);
  if (st != DS_OK) {
    free(src);
    free(dst);
    free(w);
    return st;
  }
  out->src = src;
  out->dst = dst;
  out->w = w;
  out->count = len;
  out->weight_type = lay->weight_type;
  return DS_OK;
}
