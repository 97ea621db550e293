/* The text as it arrives, chunk by chunk (file_read.c feeds every chunk it
 * reads or inflates), so that an input that cannot be a graph stops at its
 * first chunk and no stream is read whole before it is judged:
 *
 *   1. NUL bytes: never in a text file (/dev/zero, a binary file).
 *   2. Line lengths: at most DS_TEXT_LINE_BYTES, so that a stream without
 *      newlines stops too (an entry line is a few numbers).
 *   3. The first content line (not blank, not a comment), once complete, and
 *      a first line "%%..." as the Matrix Market banner: the format is named
 *      as the load will name it, and its reader parses the header or the
 *      first edge line (header_only), so "y" or "hello" stops at once. The
 *      sizes a header declares give the load's memory estimate before the
 *      text is all there, and the gzip bound.
 *   4. Comment and blank lines: at most DS_TEXT_COMMENT_BYTES plus
 *      DS_TEXT_COMMENT_PER_DATA bytes per byte of the data lines before them.
 *      A line is a comment in any format where its first character that is
 *      not blank is '%', '#' or 'c' (a data line starts with a digit, 'p' or
 *      'a'), or where there is none.
 *   5. gzip: the text may not outgrow DS_GZ_COMMENT_BYTES plus
 *      DS_GZ_BYTES_PER_ENTRY per entry: those its header declares, or an edge
 *      list's data lines so far.
 * Lines are classified one at a time up to the first content line, and to
 * the end in a stream (gzip, a pipe), where nothing else bounds the text. A
 * regular file's text is no larger than the file, and the readers count the
 * comment lines they pass against the same bound (read_common.h), so after
 * its first content line only the lengths of its lines are checked, a window
 * of DS_TEXT_LINE_BYTES at a time, which costs a few bytes a window where
 * lines are short: the parse of a large file pays nothing per line here.
 * A text that starts with the cache magic is binary: none of this applies.
 */
#include "text_check.h"

#include "read_common.h"

#include <string.h>

#define BANNER_START "%%"
#define TOKEN_SHOWN 40 /* characters quoted before a NUL byte */
#define MIB ((double)(1 << 20))

void ds_text_check_begin(ds_text_check *c, const char *name, const ds_read_limits *lim,
                         int every_line, int gzipped, uint64_t input_bytes) {
  static const ds_read_limits defaults = {UINT32_MAX, 0, 0, DS_FORMAT_AUTO};
  memset(c, 0, sizeof *c);
  c->name = name;
  c->lim = lim != NULL ? *lim : defaults;
  c->every_line = every_line;
  c->gzipped = gzipped;
  c->input_bytes = input_bytes;
  c->declared = DS_DECLARED_NONE;
  c->line = 1;
}

uint64_t ds_text_line_of(const char *data, size_t pos, size_t *line_start) {
  uint64_t line = 1;
  size_t start = 0;
  for (const char *p = data, *end = data + pos;
       p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
    line++;
    start = (size_t)(p - data) + 1;
  }
  if (line_start != NULL) *line_start = start;
  return line;
}

ds_status ds_text_nul_check(const char *name, const char *data, size_t from, size_t len,
                            ds_error *err) {
  const char *nul = memchr(data + from, '\0', len - from);
  if (nul == NULL) return DS_OK;
  size_t at;
  const uint64_t line = ds_text_line_of(data, (size_t)(nul - data), &at);
  const char *start = data + at;
  const char *tok = nul; /* the token the NUL byte follows, as the reader would quote it */
  while (tok > start && tok[-1] != ' ' && tok[-1] != '\t' && nul - tok < TOKEN_SHOWN) tok--;
  char shown[TOKEN_SHOWN + 1];
  size_t k = 0;
  for (; tok + k < nul; k++)
    shown[k] = tok[k] >= 0x20 && tok[k] < 0x7f ? tok[k] : '?';
  shown[k] = '\0';
  if (k == 0)
    return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: a NUL byte at column %zu: a graph file is "
                        "text, and text has no NUL bytes", name, (unsigned long long)line,
                        (size_t)(nul - start) + 1);
  return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: a NUL byte after '%s' (column %zu): a graph "
                      "file is text, and text has no NUL bytes", name, (unsigned long long)line,
                      shown, (size_t)(nul - start) + 1);
}

ds_status ds_text_comments_check(const char *file, uint64_t line, uint64_t comment,
                                 uint64_t data, ds_error *err) {
  const uint64_t per_data_max = (UINT64_MAX - DS_TEXT_COMMENT_BYTES) / DS_TEXT_COMMENT_PER_DATA;
  if (data >= per_data_max || comment <= DS_TEXT_COMMENT_BYTES + data * DS_TEXT_COMMENT_PER_DATA)
    return DS_OK;
  return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s:%llu: more comment and blank lines than a "
                      "graph file holds: %.1f MiB of them by this line, against %llu bytes of data "
                      "lines (at most %.0f MiB plus %u bytes per byte of data)", file,
                      (unsigned long long)line, (double)comment / MIB, (unsigned long long)data,
                      (double)DS_TEXT_COMMENT_BYTES / MIB, DS_TEXT_COMMENT_PER_DATA);
}

static ds_status too_long(const ds_text_check *c, uint64_t line, ds_error *err) {
  return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s:%llu: a line of more than %llu bytes: no line "
                      "of a graph file comes near that (an entry line holds a few numbers)",
                      c->name, (unsigned long long)line, (unsigned long long)DS_TEXT_LINE_BYTES);
}

/* Blank, or a comment in any of the formats; p: the line's first byte. */
static int comment_line(const char *p) {
  while (lex_is_blank(*p)) p++;
  return *p == '\n' || *p == '%' || *p == '#' || *p == 'c';
}

/* The most text a gzip input may inflate to, by the entries known now. */
static uint64_t gz_bound(const ds_text_check *c) {
  const uint64_t entries = c->declared != DS_DECLARED_NONE ? c->declared : c->data_lines;
  if (entries >= (UINT64_MAX - DS_GZ_COMMENT_BYTES) / DS_GZ_BYTES_PER_ENTRY - 1) return UINT64_MAX;
  return DS_GZ_COMMENT_BYTES + (entries + 1) * DS_GZ_BYTES_PER_ENTRY;
}

/* Reads t->data[0, upto) (complete lines: up to the first content line, or
 * the banner line alone) as the load will: names the format, and runs its
 * reader on the header or the first edge line. A header's sizes set the
 * declared entries and are checked against the memory the load will have. */
static ds_status probe(ds_text_check *c, ds_text *t, size_t upto, ds_error *err) {
  // 1. a text of its own: the buffer holds 2 + DS_TEXT_PAD bytes beyond t->len,
  //    which are the view's sentinel and padding for a while
  ds_text view = *t;
  view.len = upto;
  char saved[1 + DS_TEXT_PAD];
  memcpy(saved, t->data + upto, sizeof saved);
  memset(t->data + upto, 0, sizeof saved);
  // 2. the format and its reader, on the header only
  ds_format fmt = DS_FORMAT_AUTO;
  ds_read_info info;
  memset(&info, 0, sizeof info);
  info.header_only = 1;
  ds_status st = ds_reader_format(c->name, &view, c->lim.format, &fmt, &info.fields, err);
  ds_reader_fn read = st == DS_OK ? ds_reader_of(fmt) : NULL;
  if (read != NULL) {
    ds_edges e;
    memset(&e, 0, sizeof e);
    st = read(c->name, &view, &c->lim, NULL, &e, &info, err);
    ds_edges_free(&e);
  }
  memcpy(t->data + upto, saved, sizeof saved);
  if (st != DS_OK || !info.header_found || (fmt != DS_FORMAT_MTX && fmt != DS_FORMAT_DIMACS))
    return st;
  // 3. the memory of the declared sizes; no text holds more than an entry per
  //    MIN_BYTES_PER_ENTRY bytes, so a count beyond what the input can hold is not believed
  c->declared = info.declared_entries;
  const uint64_t text_max = c->gzipped ? gz_bound(c) : c->input_bytes ? c->input_bytes : t->len;
  const uint64_t can_hold = text_max / MIN_BYTES_PER_ENTRY;
  const ds_load_size need = {info.n, c->declared < can_hold ? c->declared : can_hold,
                             info.symmetric || c->lim.both_directions, 1, t->len};
  return ds_check_load_memory(c->name, info.header_line, &need, c->lim.max_memory, err);
}

/* Step 3 of the file's comment: passes the complete lines from
 * c->line_start one at a time, and checks the length of the one not
 * complete yet. */
static ds_status classify_lines(ds_text_check *c, ds_text *t, ds_error *err) {
  const char *d = t->data;
  while (!c->probed || c->every_line) {
    const char *s = d + c->line_start;
    const char *nl = memchr(s, '\n', t->len - c->line_start);
    if (nl == NULL) { /* the line is not complete: its length so far */
      if (t->len - c->line_start >= DS_TEXT_LINE_BYTES) return too_long(c, c->line, err);
      return DS_OK;
    }
    const size_t bytes = (size_t)(nl - s) + 1;
    if (bytes > DS_TEXT_LINE_BYTES) return too_long(c, c->line, err);
    const char *content = c->line == 1 ? ds_text_start(t) : s; /* after a byte order mark */
    const int comment = comment_line(content);
    ds_status st = DS_OK;
    if (c->line == 1 && !c->banner_probed && strncmp(content, BANNER_START, 2) == 0) {
      c->banner_probed = 1;
      st = probe(c, t, c->line_start + bytes, err);
    }
    c->line_start += bytes;
    c->line++;
    if (st == DS_OK && comment) {
      c->comment_bytes += bytes;
      if (c->comment_bytes > DS_TEXT_COMMENT_BYTES)
        st = ds_text_comments_check(c->name, c->line - 1, c->comment_bytes, c->data_bytes, err);
    } else if (st == DS_OK) {
      c->data_bytes += bytes;
      c->data_lines++;
      if (!c->probed) {
        c->probed = 1;
        st = probe(c, t, c->line_start, err);
      }
    }
    if (st != DS_OK) return st;
  }
  return DS_OK;
}

/* Step 4: the lines of a regular file after its first content line, by
 * their lengths only. From a line's start, the last newline within
 * DS_TEXT_LINE_BYTES bytes is the next place to look from; none is a line
 * too long. A backward scan finds it a few bytes from the window's end. */
static ds_status check_lengths(ds_text_check *c, const ds_text *t, ds_error *err) {
  const char *d = t->data;
  size_t at = c->line_start;
  while (t->len - at >= DS_TEXT_LINE_BYTES) {
    const char *w = d + at, *q = w + DS_TEXT_LINE_BYTES;
    while (q > w && q[-1] != '\n') q--;
    if (q == w) return too_long(c, ds_text_line_of(d, at, NULL), err);
    at = (size_t)(q - d);
  }
  c->line_start = at;
  return DS_OK;
}

ds_status ds_text_check_more(ds_text_check *c, ds_text *t, ds_error *err) {
  // 1. a binary cache (its magic leads it) is not text
  if (c->is_cache) return DS_OK;
  if (c->nul_from < DS_CACHE_MAGIC_LEN && t->len >= DS_CACHE_MAGIC_LEN &&
      memcmp(t->data, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) == 0) {
    c->is_cache = 1;
    return DS_OK;
  }
  // 2. NUL bytes
  ds_status st = ds_text_nul_check(c->name, t->data, c->nul_from, t->len, err);
  c->nul_from = t->len;
  // 3. lines one by one, 4. or their lengths only
  if (st == DS_OK) st = classify_lines(c, t, err);
  if (st == DS_OK && c->probed && !c->every_line) st = check_lengths(c, t, err);
  if (st != DS_OK) return st;
  // 5. gzip: within what the entries can take
  if (!c->gzipped || !c->probed || t->len <= gz_bound(c)) return DS_OK;
  const int declared = c->declared != DS_DECLARED_NONE;
  return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s:%llu: the gzip data inflates to more than "
                      "%llu bytes, more than the %llu entries %s can take (%u bytes each, plus "
                      "%.0f MiB)", c->name, (unsigned long long)ds_text_line_of(t->data, t->len, NULL),
                      (unsigned long long)gz_bound(c),
                      (unsigned long long)(declared ? c->declared : c->data_lines),
                      declared ? "its header declares" : "read so far", DS_GZ_BYTES_PER_ENTRY,
                      (double)DS_GZ_COMMENT_BYTES / MIB);
}
