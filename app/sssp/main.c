/* `sssp`: single-source shortest paths on a graph file, GPU and CPU
 * algorithms compared in one run. Options come from defaults, then --config,
 * then the command line (cli.c, config.c); run.c does the work. The exit code
 * says what went wrong (cli.h, --help).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "outputs.h"
#include "run.h"

#ifndef DS_VERSION
#define DS_VERSION "unknown"
#endif
#ifndef DS_COMMIT
#define DS_COMMIT "unknown"
#endif

/* The table and --help go to stdout: a failed write there (a full disk, a
 * closed pipe) is an output error, not a success. */
static int finish_stdout(ds_exit_code rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "sssp: cannot write to standard output: %s\n", strerror(errno));
    if (rc == DS_EXIT_OK) rc = DS_EXIT_INPUT;
  }
  return (int)rc;
}

int main(int argc, char **argv) {
  ds_cli cli;
  char msg[DS_CLI_MSG_LEN] = "";
  const char *config = NULL;
  ds_exit_code rc;

  // 1. --help, --version and --config first
  ds_cli_defaults(&cli);
  ds_exit_code prescan = ds_cli_prescan(argc, argv, &config, &cli, msg, sizeof msg);
  if (cli.help) {
    ds_cli_usage(stdout);
    return finish_stdout(DS_EXIT_OK);
  }
  if (cli.version) {
    printf("sssp (deltasplit) %s, commit %s\n", DS_VERSION, DS_COMMIT);
    return finish_stdout(DS_EXIT_OK);
  }
  if ((rc = prescan) != DS_EXIT_OK) goto fail;
  // 2. the configuration file, then the command line over it
  if (config != NULL && (rc = ds_config_load(config, &cli, msg, sizeof msg)) != DS_EXIT_OK)
    goto fail;
  if ((rc = ds_cli_parse(argc, argv, &cli, msg, sizeof msg)) != DS_EXIT_OK) goto fail;
  if ((rc = ds_cli_check(&cli, msg, sizeof msg)) != DS_EXIT_OK) goto fail;
  if ((rc = ds_outputs_check(&cli, config, msg, sizeof msg)) != DS_EXIT_OK) goto fail;
  // 3. run
  rc = ds_run(&cli);
  ds_cli_free(&cli);
  return finish_stdout(rc);

fail:
  fprintf(stderr, "sssp: %s\n", msg);
  if (rc == DS_EXIT_USAGE) fprintf(stderr, "(sssp --help lists the options)\n");
  ds_cli_free(&cli);
  return (int)rc;
}
