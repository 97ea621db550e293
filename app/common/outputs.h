/* The files an `sssp` run writes, checked before the work (outputs.c). */
#ifndef DS_OUTPUTS_H
#define DS_OUTPUTS_H

#include "cli.h"

/* Refuses (DS_EXIT_INPUT, message naming both files) an output (--output,
 * --json, a graph's cache) that is an input graph or the configuration file
 * `config` (NULL when there is none), --output and --json naming one file or
 * a cache, and an --output or --json that cannot be created. Creates and
 * truncates nothing. */
ds_exit_code ds_outputs_check(const ds_cli *c, const char *config, char *msg, size_t msg_len);

#endif /* DS_OUTPUTS_H */
