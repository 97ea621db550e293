/* Whole-file input: reads a file (or takes bytes from memory) into one
 * buffer, inflating gzip when the first bytes are gzip's magic (never judged
 * by the name). The text always ends with '\n' and a '\0' sentinel, so a
 * reader can scan a line without testing for the end at every byte.
 * Limits: the text must fit in memory; concatenated gzip members are read
 * one after another, and zero bytes after the last member are padding, as
 * gunzip takes them. A gzip stream is checked while it inflates, since a few
 * kilobytes can inflate to gigabytes: a NUL byte (never in a text file)
 * stops it at once; once the header (the size line, the 'p' line) has
 * inflated, its errors stop it, the load's memory is estimated from the
 * sizes it declares, and the text may not grow beyond DS_GZ_BYTES_PER_ENTRY
 * bytes per declared entry plus DS_GZ_COMMENT_BYTES. */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define GZIP_MAGIC0 0x1f
#define GZIP_MAGIC1 0x8b
#define GZIP_WINDOW_BITS (16 + MAX_WBITS) /* gzip wrapper only */
#define READ_CHUNK ((size_t)1 << 24)
#define INFLATE_CHUNK ((uInt)1 << 30)     /* zlib counts in uInt */
#define TEXT_SLACK (2 + DS_TEXT_PAD)       /* the added '\n' and '\0', then zero padding */
#define PROBE_AFTER ((size_t)64 << 10)     /* inflated bytes before the header is looked for */
#define PROBE_GIVE_UP ((size_t)16 << 20)   /* no header in this much text: stop looking */
#define TOKEN_SHOWN 40                     /* characters quoted before a NUL byte */

static int is_gzip(const unsigned char *b, size_t len) {
  return len >= 2 && b[0] == GZIP_MAGIC0 && b[1] == GZIP_MAGIC1;
}

/* Makes sure t->data has room for need bytes plus the slack. */
static ds_status grow(ds_text *t, size_t *cap, size_t need, const char *name, ds_error *err) {
  if (need + TEXT_SLACK <= *cap) return DS_OK;
  size_t c = *cap ? *cap : ((size_t)1 << 20);
  while (c < need + TEXT_SLACK) c *= 2;
  char *d = realloc(t->data, c);
  if (d == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for %zu bytes of text", name, c);
  t->data = d;
  *cap = c;
  return DS_OK;
}

static ds_status finish(ds_text *t, size_t *cap, const char *name, ds_error *err) {
  ds_status st = grow(t, cap, t->len + 1, name, err);
  if (st != DS_OK) return st;
  t->newline_added = t->len > 0 && t->data[t->len - 1] != '\n';
  if (t->newline_added) t->data[t->len++] = '\n';
  memset(t->data + t->len, 0, 1 + DS_TEXT_PAD); /* the sentinel and the padding */
  return DS_OK;
}

/* The line of the text that inflation had reached: gzip damage is reported
 * as "FILE:LINE: ...", like every other input error. */
static unsigned long long line_reached(const ds_text *t) {
  unsigned long long lines = 1;
  for (const char *p = t->data, *end = t->data + t->len;
       p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
    lines++;
  return lines;
}

static int all_zero(const unsigned char *b, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (b[i] != 0) return 0;
  return 1;
}

ds_status ds_text_nul_check(const char *name, const char *data, size_t from, size_t len,
                            ds_error *err) {
  const char *nul = memchr(data + from, '\0', len - from);
  if (nul == NULL) return DS_OK;
  unsigned long long line = 1;
  const char *start = data;
  for (const char *p = data; p < nul && (p = memchr(p, '\n', (size_t)(nul - p))) != NULL; p++) {
    line++;
    start = p + 1;
  }
  const char *tok = nul; /* the token the NUL byte follows, as the reader would quote it */
  while (tok > start && tok[-1] != ' ' && tok[-1] != '\t' && nul - tok < TOKEN_SHOWN) tok--;
  char shown[TOKEN_SHOWN + 1];
  size_t k = 0;
  for (; tok + k < nul; k++)
    shown[k] = tok[k] >= 0x20 && tok[k] < 0x7f ? tok[k] : '?';
  shown[k] = '\0';
  if (k == 0)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: a NUL byte at column %zu: a graph file is "
                        "text, and text has no NUL bytes", name, line, (size_t)(nul - start) + 1);
  return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: a NUL byte after '%s' (column %zu): a graph "
                      "file is text, and text has no NUL bytes", name, line, shown,
                      (size_t)(nul - start) + 1);
}

/* What the stream check knows of the text inflated so far. */
typedef struct {
  const ds_read_limits *lim; /* NULL: no header probe (bytes from the fuzzer without limits) */
  int done;                  /* the header was found, or is not coming */
  int is_cache;              /* the text is a binary cache: no text checks */
  size_t max_text;           /* the bound from the declared size */
} stream_check;

/* Looks for the header in the complete lines inflated so far; on finding
 * it, bounds the text and checks the load's memory. Stream ended: last. */
static ds_status probe_header(const char *name, ds_text *t, stream_check *sc, int last,
                              ds_error *err) {
  if (sc->done || sc->is_cache || (!last && t->len < PROBE_AFTER)) return DS_OK;
  const char *nl = t->data + t->len;
  while (nl > t->data && nl[-1] != '\n') nl--;
  if (nl == t->data) return DS_OK; /* not one complete line yet */
  nl--;
  // a view of the complete lines: a text of its own, sentinel and padding included
  ds_text view = {t->data, (size_t)(nl - t->data) + 1, 0, 0};
  char saved[1 + DS_TEXT_PAD];
  memcpy(saved, t->data + view.len, sizeof saved); /* the buffer has TEXT_SLACK bytes beyond */
  memset(t->data + view.len, 0, sizeof saved);
  ds_format fmt = DS_FORMAT_AUTO;
  ds_error quiet;
  ds_status st = DS_OK;
  ds_read_info info;
  memset(&info, 0, sizeof info);
  info.header_only = 1;
  if (ds_detect_format(name, &view, &fmt, &quiet) == DS_OK &&
      (fmt == DS_FORMAT_MTX || fmt == DS_FORMAT_DIMACS)) {
    ds_edges e;
    memset(&e, 0, sizeof e);
    st = (fmt == DS_FORMAT_MTX ? ds_read_mtx : ds_read_dimacs)(name, &view, sc->lim, NULL, &e,
                                                                &info, err);
    ds_edges_free(&e);
  } else if (fmt != DS_FORMAT_AUTO) {
    sc->done = 1; /* an edge list (no declared size) or a cache */
  }
  memcpy(t->data + view.len, saved, sizeof saved);
  if (st != DS_OK) return st;
  if (info.header_found) {
    sc->done = 1;
    const uint64_t entries = info.declared_entries;
    const uint64_t bound = (uint64_t)view.len + DS_GZ_COMMENT_BYTES +
                           (entries < UINT64_MAX / DS_GZ_BYTES_PER_ENTRY - 1
                                ? (entries + 1) * DS_GZ_BYTES_PER_ENTRY : UINT64_MAX / 2);
    if (bound < sc->max_text) sc->max_text = (size_t)bound;
    const uint64_t text_entries = sc->max_text / 4; /* "1 2\n": no file holds more */
    const ds_load_size need = {info.n, entries < text_entries ? entries : text_entries,
                               info.symmetric || sc->lim->both_directions, 1, t->len};
    return ds_check_load_memory(name, info.header_line, &need, sc->lim->max_memory, err);
  }
  if (last || t->len >= PROBE_GIVE_UP) sc->done = 1;
  return DS_OK;
}

/* Inflates gzip bytes (one or more members) into t. */
static ds_status inflate_all(const char *name, const unsigned char *in, size_t in_len,
                             size_t max_len, const ds_read_limits *lim, ds_progress *prog,
                             ds_text *t, ds_error *err) {
  z_stream z;
  size_t cap = 0;
  ds_status st = DS_OK;
  stream_check sc = {lim, lim == NULL, 0, max_len};
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, GZIP_WINDOW_BITS) != Z_OK)
    return ds_error_set(err, DS_ERR_NOMEM, "%s: cannot start zlib", name);
  size_t consumed = 0;
  st = grow(t, &cap, in_len < max_len / 4 ? in_len * 4 : max_len, name, err);
  while (st == DS_OK) {
    // 1. room for more output
    if (t->len + TEXT_SLACK >= cap) {
      if (t->len >= sc.max_text) {
        st = ds_error_set(err, DS_ERR_UNSUPPORTED, "%s:%llu: the gzip data inflates to more than "
                          "%zu bytes%s", name, line_reached(t), sc.max_text,
                          sc.max_text < max_len ? ", more than the entries its header declares "
                          "can take" : "");
        break;
      }
      st = grow(t, &cap, cap, name, err);
      if (st != DS_OK) break;
    }
    size_t in_left = in_len - consumed, out_room = cap - TEXT_SLACK - t->len;
    z.next_in = (Bytef *)(in + consumed);
    z.avail_in = (uInt)(in_left < INFLATE_CHUNK ? in_left : INFLATE_CHUNK);
    z.next_out = (Bytef *)t->data + t->len;
    z.avail_out = (uInt)(out_room < INFLATE_CHUNK ? out_room : INFLATE_CHUNK);
    uInt in_before = z.avail_in, out_before = z.avail_out;
    int rc = inflate(&z, Z_NO_FLUSH);
    consumed += in_before - z.avail_in;
    const size_t old_len = t->len;
    t->len += out_before - z.avail_out;
    ds_progress_update(prog, "inflate", in_len ? (double)consumed / (double)in_len : 1.0);
    // 2. the text so far: no NUL byte, a sound header
    const int last = rc == Z_STREAM_END && all_zero(in + consumed, in_len - consumed);
    if (old_len < DS_CACHE_MAGIC_LEN && t->len >= DS_CACHE_MAGIC_LEN) /* binary: no text checks */
      sc.is_cache = memcmp(t->data, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) == 0;
    st = probe_header(name, t, &sc, last, err);
    if (st == DS_OK && !sc.is_cache) st = ds_text_nul_check(name, t->data, old_len, t->len, err);
    if (st != DS_OK) break;
    // 3. what zlib said
    if (rc == Z_STREAM_END) {
      if (last) break; /* the end, or zero padding after it */
      if (!is_gzip(in + consumed, in_len - consumed)) {
        st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: %zu bytes of garbage after the gzip "
                          "data (at compressed byte %zu)", name, line_reached(t),
                          in_len - consumed, consumed);
        break;
      }
      inflateReset(&z); /* next member */
    } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
      st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: corrupt gzip data at compressed byte %zu "
                        "(after %zu bytes of text): %s", name, line_reached(t), consumed, t->len,
                        z.msg ? z.msg : "invalid data");
    } else if (rc == Z_MEM_ERROR) {
      st = ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory inflating", name);
    } else if (rc == Z_BUF_ERROR || (rc == Z_OK && consumed == in_len && z.avail_out > 0)) {
      if (consumed == in_len)
        st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: truncated gzip file: the data ends "
                          "after %zu bytes of text without the end of the stream", name,
                          line_reached(t), t->len);
      else if (z.avail_out > 0)
        st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: gzip data stalls at compressed byte "
                          "%zu", name, line_reached(t), consumed);
    } else if (rc != Z_OK) {
      st = ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: gzip error %d at compressed byte %zu", name,
                        line_reached(t), rc, consumed);
    }
  }
  inflateEnd(&z);
  if (st == DS_OK) st = finish(t, &cap, name, err);
  return st;
}

static ds_status from_bytes(const char *name, const unsigned char *b, size_t len, size_t max_len,
                            const ds_read_limits *lim, ds_progress *prog, ds_text *t,
                            ds_error *err) {
  if (is_gzip(b, len)) {
    t->gzipped = 1;
    return inflate_all(name, b, len, max_len, lim, prog, t, err);
  }
  size_t cap = 0;
  t->len = 0;
  if (len > max_len || len > SIZE_MAX / 4)
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: %zu bytes is more than the %zu allowed",
                        name, len, max_len);
  ds_status st = grow(t, &cap, len, name, err);
  if (st != DS_OK) return st;
  if (len) memcpy(t->data, b, len);
  t->len = len;
  return finish(t, &cap, name, err);
}

ds_status ds_text_from_memory(const char *name, const void *bytes, size_t len, size_t max_len,
                              const ds_read_limits *lim, ds_text *t, ds_error *err) {
  memset(t, 0, sizeof *t);
  ds_status st = from_bytes(name, bytes, len, max_len, lim, NULL, t, err);
  if (st != DS_OK) ds_text_free(t);
  return st;
}

/* Reads the raw bytes of a file: regular files in one go, anything else
 * (a pipe, /dev/stdin) in growing chunks. *out_cap leaves room for the slack. */
static ds_status read_raw(const char *path, unsigned char **out, size_t *out_len,
                          size_t *out_cap, ds_progress *prog, ds_error *err) {
  ds_status st = DS_OK;
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    st = ds_error_set(err, DS_ERR_IO, "%s: cannot stat: %s", path, strerror(errno));
    goto done;
  }
  if (S_ISDIR(sb.st_mode)) {
    st = ds_error_set(err, DS_ERR_IO, "%s: is a directory, not a graph file", path);
    goto done;
  }
  cap = (S_ISREG(sb.st_mode) ? (size_t)sb.st_size : READ_CHUNK) + TEXT_SLACK + 1;
  buf = ds_alloc_big(cap);
  for (;;) {
    if (buf == NULL) {
      st = ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for %zu bytes", path, cap);
      goto done;
    }
    if (len + TEXT_SLACK + 1 > cap) { /* the file grew, or it is not a regular file */
      unsigned char *b = realloc(buf, cap * 2);
      if (b == NULL) {
        free(buf);
        buf = NULL;
        continue;
      }
      buf = b;
      cap *= 2;
    }
    size_t room = cap - TEXT_SLACK - len;
    ssize_t got = read(fd, buf + len, room < READ_CHUNK ? room : READ_CHUNK);
    if (got < 0) {
      if (errno == EINTR) continue;
      st = ds_error_set(err, DS_ERR_IO, "%s: read failed after %zu bytes: %s", path, len,
                        strerror(errno));
      goto done;
    }
    if (got == 0) break;
    len += (size_t)got;
    if (S_ISREG(sb.st_mode) && sb.st_size > 0)
      ds_progress_update(prog, "read", (double)len / (double)sb.st_size);
  }
done:
  close(fd);
  if (st != DS_OK) {
    free(buf);
    return st;
  }
  *out = buf;
  *out_len = len;
  *out_cap = cap;
  return DS_OK;
}

ds_status ds_text_read_file(const char *path, ds_text *t, const ds_read_limits *lim,
                            ds_progress *prog, ds_error *err) {
  unsigned char *raw = NULL;
  size_t raw_len = 0, cap = 0;
  memset(t, 0, sizeof *t);
  ds_status st = read_raw(path, &raw, &raw_len, &cap, prog, err);
  if (st != DS_OK) return st;
  if (raw_len == 0) {
    free(raw);
    return ds_error_set(err, DS_ERR_FORMAT, "%s:1: the file is empty", path);
  }
  if (is_gzip(raw, raw_len)) {
    t->gzipped = 1;
    st = inflate_all(path, raw, raw_len, SIZE_MAX / 2, lim, prog, t, err);
    free(raw);
  } else { /* the raw buffer becomes the text: it has room for the slack */
    t->data = (char *)raw;
    t->len = raw_len;
    st = finish(t, &cap, path, err);
  }
  if (st == DS_OK && t->len == 0)
    st = ds_error_set(err, DS_ERR_FORMAT, "%s:1: the file is empty (its gzip data holds no "
                      "text)", path);
  if (st != DS_OK) ds_text_free(t);
  return st;
}

void ds_text_free(ds_text *t) {
  free(t->data);
  t->data = NULL;
  t->len = 0;
}
