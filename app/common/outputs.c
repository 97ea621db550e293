/* The files an `sssp` run writes, checked before any graph is loaded, so that
 * a bad output path costs no computing and no run overwrites its own inputs.
 *
 * Outputs: --output, --json, and each graph's binary cache (as ds_cache_path
 * names it) unless --no-cache. Inputs: the graphs and the configuration file.
 *   1. no output may be an input (the same device and inode when the file
 *      exists, else the same resolved path): a configuration whose report
 *      path names itself would overwrite it;
 *   2. --output and --json may not be one file, nor a graph's cache;
 *   3. --cache-dir, where it exists, must be a folder (a missing one is made);
 *   4. --output and --json must be creatable: the folder exists and is
 *      writable, an existing file is writable, the path is no directory.
 *      Nothing is created or truncated here. (A cache that cannot be written
 *      is skipped by the graph layer, so it is not checked, but the cache
 *      folder must exist.)
 */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ds/out_file.h"
#include "outputs.h"

#define CACHE_PATH_LEN 4096

typedef struct {
  const char *what; /* "--output", "--json", "the cache of GRAPH" */
  const char *path;
} named_file;

#define input_error(msg, len, ...) ds_cli_fail(DS_EXIT_INPUT, msg, len, __VA_ARGS__)

ds_exit_code ds_outputs_check(const ds_cli *c, const char *config, char *msg, size_t msg_len) {
  named_file user[2];
  int n_user = 0;
  if (c->output_path != NULL) user[n_user++] = (named_file){"--output", c->output_path};
  if (c->json_path != NULL) user[n_user++] = (named_file){"--json", c->json_path};

  // 1. the user's outputs against the inputs and each other
  for (int i = 0; i < n_user; i++) {
    if (config != NULL && ds_out_same_file(user[i].path, config))
      return input_error(msg, msg_len, "%s %s is the configuration file %s", user[i].what,
                         user[i].path, config);
    for (int k = 0; k < c->n_graphs; k++)
      if (ds_out_same_file(user[i].path, c->graphs[k]))
        return input_error(msg, msg_len, "%s %s is the input graph %s", user[i].what,
                           user[i].path, c->graphs[k]);
    for (int j = i + 1; j < n_user; j++)
      if (ds_out_same_file(user[i].path, user[j].path))
        return input_error(msg, msg_len, "%s %s and %s %s name the same file", user[i].what,
                           user[i].path, user[j].what, user[j].path);
  }

  // 2. each graph's cache against the inputs and the user's outputs
  if (!c->no_cache) {
    ds_load_options opt;
    ds_load_options_default(&opt);
    opt.cache_dir = c->cache_dir;
    for (int k = 0; k < c->n_graphs; k++) {
      char cache[CACHE_PATH_LEN];
      if (ds_cache_path(c->graphs[k], &opt, cache, sizeof cache, NULL) != DS_OK) continue;
      if (config != NULL && ds_out_same_file(cache, config))
        return input_error(msg, msg_len, "the cache %s of %s is the configuration file %s",
                           cache, c->graphs[k], config);
      for (int j = 0; j < c->n_graphs; j++)
        if (ds_out_same_file(cache, c->graphs[j]))
          return input_error(msg, msg_len, "the cache %s of %s is the input graph %s", cache,
                             c->graphs[k], c->graphs[j]);
      for (int i = 0; i < n_user; i++)
        if (ds_out_same_file(user[i].path, cache))
          return input_error(msg, msg_len, "%s %s is the cache of the input graph %s",
                             user[i].what, user[i].path, c->graphs[k]);
    }
  }

  // 3. the cache folder, where it exists, is a folder (the graph layer makes a
  //    missing one); anything else would silently turn the cache off
  struct stat sb;
  if (!c->no_cache && c->cache_dir != NULL && stat(c->cache_dir, &sb) == 0 &&
      !S_ISDIR(sb.st_mode))
    return input_error(msg, msg_len, "--cache-dir %s is not a folder (name a folder, or use --no-cache)",
                       c->cache_dir);

  // 4. the user's outputs can be written
  for (int i = 0; i < n_user; i++) {
    ds_error err = {{0}};
    if (ds_out_check(user[i].path, &err) != DS_OK)
      return input_error(msg, msg_len, "%s: %s", user[i].what, err.msg);
  }
  return DS_EXIT_OK;
}
