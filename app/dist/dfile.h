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
 * not gzip (ds_text_layout_read says so).
 */
#ifndef DS_DIST_DFILE_H
#define DS_DIST_DFILE_H

#include <stdint.h>

#include "dist/comm.h"
#include "dist/dgraph.h"
#include "ds/graph.h"
#include "ds/text_range.h"

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
 * DS_ERR_UNSUPPORTED for gzip and cache files, DS_ERR_NOMEM, the
 * communicator's. */
ds_status ds_dfile_build(ds_comm *comm, const char *path, const ds_load_options *opt,
                         ds_dgraph *g, ds_dfile_info *info, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DFILE_H */
