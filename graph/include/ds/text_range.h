/* A text graph file read in byte ranges, one a rank: the pieces a
 * distributed load (app/dist/dfile.c) runs on every rank, none of which needs
 * the whole file in one memory. Matrix Market, DIMACS .gr and edge lists
 * (.el, .wel), not gzip (a compressed stream cannot be entered in the
 * middle); and the binary cache in ranges of arcs (at the end).
 *
 *   1. ds_text_layout_read: every rank reads the header (Matrix Market's
 *      banner and size line, DIMACS's 'p' line, an edge list's first edge
 *      line for its field count) and where the lines after it, the body,
 *      start;
 *   2. ds_text_part_read: the rank's part of the body. The body is cut at
 *      nominal offsets; a part starts after the first newline at or after
 *      its nominal start (the first part at the body's start) and ends where
 *      the next part starts (the last at the end of the file), so the parts
 *      tile the body in whole lines whatever the cuts. part->lines counts its
 *      newlines: an exclusive scan of them over the ranks gives each part's
 *      first line number;
 *   3. ds_text_part_parse: the part's entries, with the one-process reader's
 *      checks and messages ("FILE:LINE: problem", the line numbers counted
 *      from first_line).
 * What needs the whole file stays with the caller: the entry count against
 * the header's (re-parse the part that holds the entry past the declared
 * count with max_entries set, and it reports that entry's line), an edge
 * list's vertex count (the largest id + 1) and weight type (float where any
 * part holds a real weight: ds_text_part_edges_to_float on the others).
 */
#ifndef DS_TEXT_RANGE_H
#define DS_TEXT_RANGE_H

#include <stdint.h>

#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  ds_format format;        /* MTX, DIMACS, EL or WEL */
  uint64_t file_bytes;
  uint64_t body_offset;    /* where the lines after the header start */
  uint64_t body_line;      /* the line number there */
  uint64_t header_line;    /* the size line or the 'p' line; 0 for an edge list */
  uint64_t declared;       /* entries the header declares; UINT64_MAX for an edge list */
  uint32_t n;              /* vertices the header declares; 0 for an edge list */
  int symmetric;           /* a symmetric Matrix Market file */
  int weighted;            /* 0: a pattern file (weights drawn by the build) */
  ds_weight_type weight_type; /* real Matrix Market: F32; else U32 at the start */
  int fields;              /* edge lists: 2 or 3 */
  int index_base;          /* 1 for Matrix Market and DIMACS, 0 for edge lists */
} ds_text_layout;

/* Reads the header of path (forced: a format, or DS_FORMAT_AUTO for the
 * content and then the name, as ds_graph_load does).
 * Errors: DS_ERR_IO (cannot open or read), DS_ERR_UNSUPPORTED (gzip, a binary
 * cache, a format without ranges), and the header errors of the one-process
 * reader, "FILE:LINE: problem" (DS_ERR_FORMAT). */
ds_status ds_text_layout_read(const char *path, ds_format forced, ds_text_layout *lay,
                              ds_error *err);

/* A part of the body in memory, whole lines, ending with '\n' and padded as
 * the readers need. */
typedef struct {
  char *data;
  size_t len;        /* bytes, the final '\n' included (added where the file lacks it) */
  uint64_t offset;   /* the file offset of data[0] */
  uint64_t lines;    /* newlines in data[0, len) */
} ds_text_part;

/* Part [begin, end) of the body: begin and end are nominal offsets within
 * [lay->body_offset, lay->file_bytes]; the part starts after the first newline
 * at or after begin (at the body's start where begin is the body's start and
 * first is set) and ends where the part of nominal start end starts (at the
 * end of the file where last is set). A rank reads its bytes and those up to
 * the next newline past each end, nothing else.
 * Errors: DS_ERR_ARG (a range outside the body), DS_ERR_IO, DS_ERR_NOMEM. */
ds_status ds_text_part_read(const char *path, const ds_text_layout *lay, uint64_t begin,
                            uint64_t end, int first, int last, ds_text_part *part,
                            ds_error *err);
void ds_text_part_free(ds_text_part *part);

/* The entries of a part, 0-based ids. */
typedef struct {
  uint32_t *src, *dst;
  uint32_t *w;           /* weight bits by weight_type; NULL for a pattern file */
  uint64_t count;
  ds_weight_type weight_type;
  uint64_t max_id;       /* the largest id seen (0-based), 0 without entries */
  uint64_t end_line;     /* the line after the part's last: first_line + part->lines */
} ds_text_part_edges;

/* Parses part, whose first line is first_line, as the one-process reader
 * parses those lines: bad numbers, ids out of range, a wrong field count,
 * negative or non-finite weights, unknown DIMACS lines, a second 'p' line, NUL
 * bytes, comment lines beyond the readers' bound. max_entries: more entries
 * than this in the part is the reader's "more entries than the size line
 * gives" at the entry past it (UINT64_MAX: no bound).
 * [out] out  owns its arrays on success (ds_text_part_edges_free); on failure
 *             holds none, and out->count is the entries parsed before the error
 *             (the caller's entry count check finds which error comes first).
 * Errors: DS_ERR_FORMAT / DS_ERR_UNSUPPORTED "FILE:LINE: problem", DS_ERR_NOMEM. */
ds_status ds_text_part_parse(const char *path, const ds_text_layout *lay,
                             const ds_text_part *part, uint64_t first_line,
                             uint64_t max_entries, ds_text_part_edges *out, ds_error *err);

/* An edge list's integer weights as floats (a part of a file whose other
 * parts hold real weights). */
void ds_text_part_edges_to_float(ds_text_part_edges *e);
void ds_text_part_edges_free(ds_text_part_edges *e);

/* ---- the binary cache in ranges of arcs ---------------------------------------
 * A cache (cache.c) is fixed-size records: row offsets, heads, weights. A rank
 * reads its range of arcs exactly, and the offsets of the rows those arcs
 * belong to, found by a binary search over the offsets in the file; nothing
 * else. The payload's checksum covers the whole payload in one chain, so a
 * rank cannot check it on its part: the ranks check the structure (offsets
 * increasing within the file's bounds, heads below n); a load in one process
 * (ds_graph_load) checks the checksum. */
typedef struct {
  uint32_t n;
  uint64_t m;
  ds_weight_type weight_type;
  int symmetric;            /* stored with both directions */
  int index_base;
  ds_format format;         /* of the input the cache was made from */
  uint64_t input_entries;
  char name[256];
  uint64_t file_bytes;
  uint64_t offsets_at, col_at, weights_at; /* file offsets of the three arrays */
} ds_cache_layout;

/* Whether path is a regular file that starts with the cache's magic bytes. */
int ds_file_is_cache(const char *path);

/* The header of a cache file, checked as ds_graph_load checks it (magic,
 * version, header checksum, values, the file's length for n and m), without
 * its payload. Errors: DS_ERR_IO, DS_ERR_FORMAT, DS_ERR_STALE (another version). */
ds_status ds_cache_layout_read(const char *path, ds_cache_layout *lay, ds_error *err);

/* Arcs [begin, end) of a cache as edges (tail, head, weight bits), into out
 * (its list arrays owned, as ds_text_part_parse gives them; max_id and
 * end_line unused). Errors: DS_ERR_ARG (a range beyond m), DS_ERR_IO,
 * DS_ERR_FORMAT "FILE: the cache does not hold a valid graph: ...",
 * DS_ERR_NOMEM. */
ds_status ds_cache_part_read(const char *path, const ds_cache_layout *lay, uint64_t begin,
                             uint64_t end, ds_text_part_edges *out, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_TEXT_RANGE_H */
