/* The sources of an `sssp` run (run_sources.c): --source N in the file's
 * numbering, the first vertex with an out-arc by default, or --sources K
 * random distinct vertices with out-arcs (seeded by --seed). */
#ifndef DS_RUN_SOURCES_H
#define DS_RUN_SOURCES_H

#include <stdint.h>

#include "cli.h"
#include "ds/graph.h"

/* Fills sources[0..count) (0-based); a --source out of range is a usage
 * error naming the file (path); count is at most ds_run_source_candidates
 * for random sources. */
ds_exit_code ds_run_pick_sources(const ds_cli *cli, const ds_graph *g, const char *path, uint32_t *sources,
                                 uint32_t count);

/* Vertices with an out-arc: the most distinct sources a graph offers. */
uint32_t ds_run_source_candidates(const ds_graph *g);

#endif /* DS_RUN_SOURCES_H */
