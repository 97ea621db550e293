/* The stages of a graph load, one at a time, for a caller that times them
 * (bench/parse/parse_bench); ds_graph_load runs them all, and is what every
 * other caller wants.
 *
 *   ds_stage_read       the whole file into memory (gzip inflated)
 *   ds_stage_parse_mtx  that text, as Matrix Market, into an edge list (no
 *                       CSR build, no cache)
 *
 * Each returns a status and fills err; the objects they return are freed with
 * the matching _free (NULL is allowed there).
 */
#ifndef DS_GRAPH_STAGES_H
#define DS_GRAPH_STAGES_H

#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ds_stage_text ds_stage_text;
typedef struct ds_stage_edges ds_stage_edges;

/* What the parse found. */
typedef struct {
  uint32_t n;                 /* vertices declared */
  uint64_t entries;           /* entry lines read */
  int weighted;               /* 0: pattern file */
  ds_weight_type weight_type; /* of a weighted file */
} ds_stage_summary;

/* Reads path into *text (size in bytes of text: *bytes, may be NULL). */
ds_status ds_stage_read(const char *path, ds_stage_text **text, size_t *bytes, ds_error *err);
void ds_stage_text_free(ds_stage_text *text);

/* Parses text (read from path, which names it in errors) as Matrix Market. */
ds_status ds_stage_parse_mtx(const char *path, const ds_stage_text *text, ds_stage_edges **edges,
                             ds_stage_summary *summary, ds_error *err);
void ds_stage_edges_free(ds_stage_edges *edges);

#ifdef __cplusplus
}
#endif

#endif /* DS_GRAPH_STAGES_H */
