/* A graph file loaded by the ranks, each parsing its byte range of it
 * (ds/text_range.h), then built where it lives (dgraph.h): no rank reads or
 * holds the whole file or the whole graph.
 *
 *   1. every rank reads the header (Matrix Market's banner and size line,
 *      DIMACS's 'p' line, an edge list's first edge line) and the ranks agree;
 *   2. the body is cut in R equal byte ranges; each rank reads its range,
 *      moved to whole lines (after the first newline at or after its start);
 *   3. one all-reduce of the ranks' newline counts gives each range its first
 *      line number (an exclusive scan), so that errors name the right line;
 *   4. each rank parses its lines with the one-process reader's checks;
 *   5. what needs the whole file, by one all-reduce of the ranks' entry counts,
 *      largest ids and weight kinds: the entry count against the header's,
 *      the vertex count of an edge list, its weight type;
 *   6. ds_dgraph_build: the edges to their owners, each rank's CSR.
 * The first error in file order wins, as in the one-process load: every rank
 * returns the error of the least rank that found one, or the header's count
 * error where its entry comes first, with the message the one-process reader
 * gives ("FILE:LINE: problem"), after "rank F: ".
 * A binary cache (the magic bytes, or a forced DS_FORMAT_CACHE) is read in
 * exact ranges of arcs instead: every rank its share of the m arcs, the
 * heads and weights as records, the tails from the row offsets of its rows
 * (ds_cache_part_read); its structure is checked, not its payload's
 * checksum, which only a reader of the whole payload can check.
 * Limits: regular files (Matrix Market, DIMACS .gr, .el, .wel, the cache),
 * not gzip (ds_text_layout_read says so); ds_dfile_ranged tells a program
 * beforehand, so that it can load such a file whole instead.
 *
 * After the build, ds_dgraph_stats_of gives what a one-process run computes
 * from the whole graph (arcs, vertices with arcs, mean, median and largest
 * weight, the bound on path lengths) from the parts, with a few collectives,
 * and ds_dgraph_delta_auto, ds_dgraph_buckets_auto and ds_dgraph_dist_width
 * turn it into the values of ds_delta_auto, ds_buckets_auto and
 * ds_sssp_dist_width on the whole graph: a run of ranks that hold parts
 * searches with the delta, buckets and distance width of the run in one
 * process.
 */
#ifndef DS_DIST_DFILE_H
#define DS_DIST_DFILE_H

#include <stdint.h>

#include "dist/comm.h"
#include "dist/dgraph.h"
#include "ds/graph.h"
#include "ds/text_range.h"
#include "sssp.h" /* ds_dist_width */

#ifdef __cplusplus
extern "C" {
#endif

/* What a distributed load did on this rank. */
typedef struct {
  ds_text_layout layout; /* the file's header, as every rank read it (a cache: format
                            DS_FORMAT_CACHE, n, the heads' array as the body) */
  uint64_t part_offset, part_bytes, part_lines; /* this rank's part of the body (a cache:
                                                   its range of head records) */
  uint64_t entries;      /* entries this rank parsed (a cache: arcs it read) */
  double header_ms, read_ms, parse_ms;
  char name[256];        /* the graph's name, as the one-process load gives it (the file's
                            name without folders and extensions; a cache: the one it holds) */
  ds_dgraph_build_info build; /* its arcs_to and arcs_from pointers are the caller's, or NULL */
} ds_dfile_info;

/* Loads path on every rank of comm (collective), each rank its part.
 * [in] opt   the load options of the one-process load (NULL: the defaults):
 *            format (forced or from the content and name), undirected, and
 *            the weights of pattern files (range, distribution, seed); the
 *            cache is not used.
 * [out] g    this rank's part of the graph, as ds_dgraph_build gives it
 *            (ds_dgraph_free); zeroed on failure.
 * [out] info may be NULL.
 * Errors, the same on every rank: those of the one-process load for the same
 * file (DS_ERR_IO, DS_ERR_FORMAT "FILE:LINE: problem", DS_ERR_UNSUPPORTED),
 * DS_ERR_UNSUPPORTED for gzip and what is not a regular file (a pipe, a
 * device), DS_ERR_NOMEM, the communicator's. */
ds_status ds_dfile_build(ds_comm *comm, const char *path, const ds_load_options *opt,
                         ds_dgraph *g, ds_dfile_info *info, ds_error *err);

/* Whether ds_dfile_build can read path in byte ranges, asked by each process
 * alone before the ranks load (local, no communicator): 1 for a regular file
 * that is not gzip-compressed (text of any format, or a binary cache), and
 * for a path that cannot be examined (the ranks' load then fails with the
 * one-process load's message); 0 for gzip and for what is not a regular file
 * (a pipe, a device), with why saying so ("FILE: gzip-compressed: ..."), which
 * a program loads whole instead. why may be NULL. */
int ds_dfile_ranged(const char *path, char *why, size_t why_len);

/* What a one-process run computes from the whole graph, from the parts. */
typedef struct {
  uint32_t n;            /* vertices of the whole graph */
  uint64_t m;            /* arcs of the whole graph */
  uint32_t with_arcs;    /* vertices with out-arcs (the candidate sources) */
  ds_weight_type weight_type;
  double weight_sum;     /* over every arc (the parts' sums added: float weights may differ from
                            one sum in arc order in the last bits) */
  double weight_max;
  double median;         /* ds_median_weight's: of the same evenly strided sample of arcs in the
                            whole CSR's order */
  uint64_t path_bound;   /* integer weights: the sum over vertices of their heaviest out-arc
                            (ds_sssp_dist_width's bound), at most DS_DIST_MAX_U32 + 1 */
} ds_dgraph_stats;

/* The stats of the graph whose parts the ranks of comm hold (collective: two
 * all-reduces of R values, and one of DS_MEDIAN_SAMPLE where the graph has
 * that many arcs). Every rank gets the same values.
 * Errors, on every rank: DS_ERR_NOMEM, the communicator's. */
ds_status ds_dgraph_stats_of(ds_comm *comm, const ds_dgraph *part, ds_dgraph_stats *s,
                             ds_error *err);
/* ds_delta_auto of the whole graph (the same rule and branches); float weights'
 * mean from the parts' sums. */
double ds_dgraph_delta_auto(const ds_dgraph_stats *s);
/* ds_buckets_auto of the whole graph for delta. */
uint32_t ds_dgraph_buckets_auto(const ds_dgraph_stats *s, double delta);
/* ds_sssp_dist_width of the whole graph. */
ds_dist_width ds_dgraph_dist_width(const ds_dgraph_stats *s);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DFILE_H */
