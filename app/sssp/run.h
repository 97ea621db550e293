/* The `sssp` driver (run.c): runs the algorithms of a parsed command line on
 * each of its graphs and reports; returns the program's exit code. */
#ifndef DS_RUN_H
#define DS_RUN_H

#include "cli.h"

ds_exit_code ds_run(const ds_cli *cli);

#endif /* DS_RUN_H */
