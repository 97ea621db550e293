/* Whole-file input: reads a file (or takes bytes from memory) into one
 * buffer, inflating gzip when the first bytes are gzip's magic (never judged
 * by the name). The text always ends with '\n' and a '\0' sentinel, so a
 * reader can scan a line without testing for the end at every byte.
 * Every chunk is checked as it arrives (text_check.c: NUL bytes, line
 * lengths, the first content line, comment lines, the gzip bound): a file is
 * read a chunk at a time and gzip data inflated a step at a time, so an
 * input that cannot be a graph (/dev/zero, `yes | gzip`, a gzip bomb) stops
 * at its first chunk, or where it passes a bound, instead of after the whole
 * stream, which may never end.
 * Limits: the text must fit in memory; concatenated gzip members are read
 * one after another, and zero bytes after the last member are padding, as
 * gunzip takes them. */
#define _POSIX_C_SOURCE 200809L
#include "text_check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define GZIP_MAGIC0 0x1f
#define GZIP_MAGIC1 0x8b
#define GZIP_MAGIC_LEN 2
#define GZIP_WINDOW_BITS (16 + MAX_WBITS) /* gzip wrapper only */
#define READ_CHUNK ((size_t)1 << 24)     /* one read() at most */
#define GZ_IN_CHUNK ((size_t)1 << 20)    /* compressed bytes read at a time */
#define INFLATE_STEP ((size_t)1 << 20)   /* text inflated between two checks */
#define FIRST_CAP ((size_t)1 << 20)      /* a text of unknown size starts here, then doubles */
#define TEXT_SLACK (2 + DS_TEXT_PAD)     /* the added '\n' and '\0', then zero padding */

static int is_gzip(const unsigned char *b, size_t len) {
  return len >= GZIP_MAGIC_LEN && b[0] == GZIP_MAGIC0 && b[1] == GZIP_MAGIC1;
}

/* Where the bytes come from: a descriptor, or memory (the fuzzer). */
typedef struct {
  const char *name;
  int fd;                   /* >= 0: read() from it; else mem */
  const unsigned char *mem;
  size_t mem_len;
  uint64_t taken;           /* bytes taken so far */
  uint64_t size;            /* all of them where known (a regular file, memory); else 0 */
  ds_progress *prog;
} source;

/* Up to cap bytes into buf; *got is 0 at the end. */
static ds_status take(source *s, void *buf, size_t cap, size_t *got, ds_error *err) {
  const size_t want = cap < READ_CHUNK ? cap : READ_CHUNK;
  *got = 0;
  if (s->fd < 0) {
    const size_t left = s->mem_len - (size_t)s->taken;
    *got = left < want ? left : want;
    if (*got) memcpy(buf, s->mem + s->taken, *got);
  } else {
    ssize_t k;
    do {
      k = read(s->fd, buf, want);
    } while (k < 0 && errno == EINTR);
    if (k < 0)
      return ds_error_set(err, DS_ERR_IO, "%s: read failed after %llu bytes: %s", s->name,
                          (unsigned long long)s->taken, strerror(errno));
    *got = (size_t)k;
  }
  s->taken += *got;
  return DS_OK;
}

static double fraction_taken(const source *s) {
  return s->size ? (double)s->taken / (double)s->size : 0.0;
}

/* Makes sure t->data has room for need bytes plus the slack. */
static ds_status grow(ds_text *t, size_t *cap, size_t need, const char *name, ds_error *err) {
  if (need + TEXT_SLACK <= *cap) return DS_OK;
  size_t c = *cap ? *cap : FIRST_CAP;
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

static ds_status too_much(const char *name, const ds_text *t, size_t max_len, ds_error *err) {
  return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s:%llu: %s more than the %zu bytes allowed",
                      name, (unsigned long long)ds_text_line_of(t->data, t->len, NULL),
                      t->gzipped ? "the gzip data inflates to" : "the text holds", max_len);
}

/* Plain text: the bytes already taken (head), then chunk after chunk, each
 * checked. A file of known size is read into one buffer of that size. */
static ds_status read_text(source *s, const unsigned char *head, size_t head_len, size_t max_len,
                           ds_text_check *chk, ds_text *t, size_t *cap, ds_error *err) {
  if (s->size) { /* one huge-page friendly buffer; one byte more to see the end */
    *cap = (size_t)s->size + TEXT_SLACK + 1;
    t->data = ds_alloc_big(*cap);
    if (t->data == NULL) {
      *cap = 0;
      return ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for %zu bytes", s->name,
                          (size_t)s->size + TEXT_SLACK + 1);
    }
  }
  ds_status st = grow(t, cap, head_len, s->name, err);
  if (st != DS_OK) return st;
  for (size_t i = 0; i < head_len; i++) t->data[i] = (char)head[i]; /* two bytes at most */
  t->len = head_len;
  for (size_t got = head_len; got > 0;) {
    if (t->len > max_len) return too_much(s->name, t, max_len, err);
    if ((st = ds_text_check_more(chk, t, err)) != DS_OK) return st;
    if (t->len + TEXT_SLACK + 1 > *cap) { /* a stream, or a file that grew */
      if ((st = grow(t, cap, t->len + 1, s->name, err)) != DS_OK) return st;
    }
    if ((st = take(s, t->data + t->len, *cap - TEXT_SLACK - t->len, &got, err)) != DS_OK)
      return st;
    t->len += got;
    ds_progress_update(s->prog, "read", fraction_taken(s));
  }
  return DS_OK;
}

/* What follows a gzip member's end: nothing, zero padding (nothing but zeros
 * to the end), or another member. Anything else is garbage. */
static ds_status after_member(source *s, z_stream *z, unsigned char *in, uint64_t member_end,
                              int *padding, int *next, const ds_text *t, ds_error *err) {
  size_t got = 0;
  ds_status st = DS_OK;
  *next = 0;
  if (!*padding && z->avail_in == 1 && z->next_in[0] == GZIP_MAGIC0) { /* the magic's 2nd byte */
    in[0] = GZIP_MAGIC0;
    st = take(s, in + 1, GZ_IN_CHUNK - 1, &got, err);
    z->next_in = in;
    z->avail_in = (uInt)(1 + got);
  }
  if (st != DS_OK || z->avail_in == 0) return st;
  if (!*padding && is_gzip(z->next_in, z->avail_in)) {
    *next = 1;
    return DS_OK;
  }
  size_t zeros = 0;
  while (zeros < z->avail_in && z->next_in[zeros] == 0) zeros++;
  *padding = *padding || zeros > 0;
  if (*padding && zeros == z->avail_in) { /* zeros so far: used up */
    z->next_in += zeros;
    z->avail_in = 0;
    return DS_OK;
  }
  const unsigned long long line = ds_text_line_of(t->data, t->len, NULL);
  if (s->size) /* everything from the member's end on is garbage */
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: %llu bytes of garbage after the gzip data "
                        "(at compressed byte %llu)", s->name, line,
                        (unsigned long long)(s->size - member_end),
                        (unsigned long long)member_end);
  return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: garbage after the gzip data (at compressed "
                      "byte %llu)", s->name, line, (unsigned long long)member_end);
}

/* What zlib's answer means for a stream that is not at a member's end. */
static ds_status inflate_status(const source *s, const z_stream *z, int rc, int at_end,
                                const ds_text *t, ds_error *err) {
  if (rc == Z_OK || (rc == Z_BUF_ERROR && z->avail_in == 0 && !at_end)) return DS_OK;
  /* Z_BUF_ERROR with input at hand, or none to come: no progress is possible */
  const unsigned long long line = ds_text_line_of(t->data, t->len, NULL); /* O(text): errors only */
  const unsigned long long at = (unsigned long long)(s->taken - z->avail_in);
  switch (rc) {
  case Z_BUF_ERROR:
    if (z->avail_in == 0)
      return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: truncated gzip file: the data ends after "
                          "%zu bytes of text without the end of the stream", s->name, line,
                          t->len);
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: gzip data stalls at compressed byte %llu",
                        s->name, line, at);
  case Z_DATA_ERROR:
  case Z_NEED_DICT:
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: corrupt gzip data at compressed byte %llu "
                        "(after %zu bytes of text): %s", s->name, line, at, t->len,
                        z->msg ? z->msg : "invalid data");
  case Z_MEM_ERROR: return ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory inflating", s->name);
  default:
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: gzip error %d at compressed byte %llu",
                        s->name, line, rc, at);
  }
}

/* gzip: compressed bytes a chunk at a time (head first), inflated a step at
 * a time, each step's text checked; one member after another. */
static ds_status inflate_text(source *s, const unsigned char *head, size_t head_len,
                              size_t max_len, ds_text_check *chk, ds_text *t, size_t *cap,
                              ds_error *err) {
  z_stream z;
  memset(&z, 0, sizeof z);
  unsigned char *in = malloc(GZ_IN_CHUNK);
  if (in == NULL || inflateInit2(&z, GZIP_WINDOW_BITS) != Z_OK) {
    free(in);
    return ds_error_set(err, DS_ERR_NOMEM, "%s: cannot start zlib", s->name);
  }
  memcpy(in, head, head_len);
  z.next_in = in;
  z.avail_in = (uInt)head_len;
  int between = 0, padding = 0, at_end = 0, next = 0;
  uint64_t member_end = 0;
  ds_status st = DS_OK;
  while (st == DS_OK) {
    // 1. compressed bytes, when those in hand are used up
    if (z.avail_in == 0 && !at_end) {
      size_t got = 0;
      if ((st = take(s, in, GZ_IN_CHUNK, &got, err)) != DS_OK) break;
      z.next_in = in;
      z.avail_in = (uInt)got;
      at_end = got == 0;
      ds_progress_update(s->prog, "inflate", fraction_taken(s));
    }
    // 2. after a member: the end, padding, or the next member
    if (between) {
      if (z.avail_in == 0 && at_end) break;
      st = after_member(s, &z, in, member_end, &padding, &next, t, err);
      if (st == DS_OK && next) {
        inflateReset(&z);
        between = 0;
      }
      continue;
    }
    // 3. one step of text, checked
    if ((st = grow(t, cap, t->len + INFLATE_STEP, s->name, err)) != DS_OK) break;
    z.next_out = (Bytef *)t->data + t->len;
    z.avail_out = (uInt)INFLATE_STEP;
    const int rc = inflate(&z, Z_NO_FLUSH);
    const size_t made = INFLATE_STEP - z.avail_out;
    t->len += made;
    if (t->len > max_len) st = too_much(s->name, t, max_len, err);
    else if (made > 0) st = ds_text_check_more(chk, t, err);
    if (st != DS_OK) break;
    if (rc == Z_STREAM_END) {
      between = 1;
      padding = 0;
      member_end = s->taken - z.avail_in;
    } else {
      st = inflate_status(s, &z, rc, at_end, t, err);
    }
  }
  inflateEnd(&z);
  free(in);
  return st;
}

/* The text of a source: plain or gzip by its first two bytes, checked chunk
 * by chunk (every_line: a stream, whose size nothing else bounds). */
static ds_status read_source(source *s, size_t max_len, const ds_read_limits *lim, int every_line,
                             ds_text *t, ds_error *err) {
  unsigned char head[GZIP_MAGIC_LEN];
  size_t head_len = 0, got = 0, cap = 0;
  ds_status st = DS_OK;
  memset(t, 0, sizeof *t);
  do { /* a pipe may give one byte at a time */
    st = take(s, head + head_len, sizeof head - head_len, &got, err);
    head_len += got;
  } while (st == DS_OK && got > 0 && head_len < sizeof head);
  if (st != DS_OK) return st;
  t->gzipped = is_gzip(head, head_len);
  ds_text_check chk;
  ds_text_check_begin(&chk, s->name, lim, every_line || t->gzipped, t->gzipped, s->size);
  if (t->gzipped) st = inflate_text(s, head, head_len, max_len, &chk, t, &cap, err);
  else st = read_text(s, head, head_len, max_len, &chk, t, &cap, err);
  if (st == DS_OK) st = finish(t, &cap, s->name, err);
  if (st == DS_OK) st = ds_text_check_more(&chk, t, err); /* the last line, now complete */
  t->nul_free = !chk.is_cache;
  if (st != DS_OK) ds_text_free(t);
  return st;
}

ds_status ds_text_from_memory(const char *name, const void *bytes, size_t len, size_t max_len,
                              const ds_read_limits *lim, ds_text *t, ds_error *err) {
  source s = {name, -1, bytes, len, 0, len, NULL};
  return read_source(&s, max_len, lim, 0, t, err);
}

ds_status ds_text_read_file(const char *path, ds_text *t, const ds_read_limits *lim,
                            ds_progress *prog, ds_error *err) {
  memset(t, 0, sizeof *t);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat sb;
  ds_status st = DS_OK;
  if (fstat(fd, &sb) != 0)
    st = ds_error_set(err, DS_ERR_IO, "%s: cannot stat: %s", path, strerror(errno));
  else if (S_ISDIR(sb.st_mode))
    st = ds_error_set(err, DS_ERR_IO, "%s: is a directory, not a graph file", path);
  if (st != DS_OK) {
    close(fd);
    return st;
  }
  const int regular = S_ISREG(sb.st_mode);
  source s = {path, fd, NULL, 0, 0, regular && sb.st_size > 0 ? (uint64_t)sb.st_size : 0, prog};
  st = read_source(&s, SIZE_MAX / 2, lim, !regular, t, err);
  close(fd);
  if (st == DS_OK && t->len == 0) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s:1: the file is empty%s", path,
                      t->gzipped ? " (its gzip data holds no text)" : "");
    ds_text_free(t);
  }
  return st;
}

void ds_text_free(ds_text *t) {
  free(t->data);
  t->data = NULL;
  t->len = 0;
}
