/* The sources of an `sssp` run (run_sources.c): --source N in the file's
 * numbering, the first vertex with an out-arc by default, or --sources K
 * random distinct vertices with out-arcs (seeded by --seed). */
#ifndef DS_RUN_SOURCES_H
#define DS_RUN_SOURCES_H

#include <stdint.h>

#include "cli.h"
#include "ds/graph.h"
#include "gpu_sssp.h"
#include "run_targets.h"
#include "sssp_report.h"

/* Fills sources[0..count) (0-based); a --source out of range is a usage
 * error naming the file (path); count is at most ds_run_source_candidates
 * for random sources. */
ds_exit_code ds_run_pick_sources(const ds_cli *cli, const ds_graph *g, const char *path, uint32_t *sources,
                                 uint32_t count);

/* Vertices with an out-arc: the most distinct sources a graph offers. */
uint32_t ds_run_source_candidates(const ds_graph *g);

/* --batch auto|on|off: whether the GPU algorithms' sources run batched, one
 * thread block a search in one launch (gpu_sssp.h: ds_gpu_sssp_batch). auto:
 * where ds_gpu_batch_pays says so; on: wherever GPU algorithms run over more
 * than one source; off: one after another. Batched searches give distances
 * only, so predecessors and targets keep the searches one by one. */
typedef enum { DS_BATCH_AUTO = 0, DS_BATCH_ON = 1, DS_BATCH_OFF = 2 } ds_batch_mode;

/* Takes --batch MODE and --batch=MODE out of argv (the shared command line
 * does not know it; the values of value_options, NULL-terminated, are
 * skipped), the last one giving *mode. A mode other than auto, on or off, or
 * --batch without one, is a usage error with the reason in msg. */
ds_exit_code ds_run_take_batch(int *argc, char **argv, const char *const *value_options,
                               ds_batch_mode *mode, char *msg, size_t msg_len);

/* Whether n_sources searches of GPU algorithms on g run batched under mode;
 * *rule: "auto" or "on". */
int ds_run_batch_chosen(ds_batch_mode mode, const ds_graph *g, uint32_t n_sources, int want_pred,
                        const char **rule);

/* The batched engine over sources[0..count): one warm-up, then cli->trials
 * timed batches into b->times_ms (allocated here), the last one checked where
 * cli->validate (every source against the validator and Dijkstra) and, where
 * tm is not NULL, giving each source's row of the targets' distances. Returns
 * DS_EXIT_VALIDATION where a check failed, another code where a search did,
 * the reason on stderr. */
ds_exit_code ds_run_batch(const ds_cli *cli, const ds_graph *g, ds_gpu_ctx *ctx, const uint32_t *sources,
                          uint32_t count, const ds_sssp_params *params, ds_target_matrix *tm,
                          ds_batch_stats *b);

#endif /* DS_RUN_SOURCES_H */
