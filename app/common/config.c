/* JSON run configurations of the programs (read with cJSON).
 *
 * A configuration is one JSON object whose keys mirror the long options; a
 * program takes the keys of its options (ds_program.config_keys). sssp's:
 *   graph (string or list of strings), source (integer or "random"), sources,
 *   algo (string "a,b" or list), buckets and delta (number or "auto"), trials,
 *   validate, undirected, predecessors, no_cache (booleans), weights
 *   ("MIN:MAX"), weight_dist ("uniform", "log" or "bimodal"), seed, device,
 *   threads (integers), json, output, cache_dir (strings). Relative paths
 *   (graph, json, output, cache_dir) are relative to the configuration
 *   file's folder.
 * The command line is applied afterwards and overrides it. Unknown keys and
 * values of the wrong type are errors that name the file and the key; a JSON
 * syntax error names the line.
 */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define CONFIG_MAX_BYTES (16u << 20) /* a configuration is small: refuse huge files */
#define NUMBER_TEXT_LEN 48
#define MAX_DIGITS_ROUND_TRIP 17 /* a double's shortest exact decimal form */

static ds_exit_code key_error(char *msg, size_t len, const char *path, const char *key,
                              const char *what) {
  snprintf(msg, len, "%s: key \"%s\": %s", path, key, what);
  return DS_EXIT_USAGE;
}

static const char *type_name(const cJSON *item) {
  if (cJSON_IsString(item)) return "a string";
  if (cJSON_IsNumber(item)) return "a number";
  if (cJSON_IsBool(item)) return "a boolean";
  if (cJSON_IsArray(item)) return "a list";
  if (cJSON_IsObject(item)) return "an object";
  return "null";
}

static ds_exit_code wrong_type(char *msg, size_t len, const char *path, const cJSON *item,
                               const char *expected) {
  char what[128];
  snprintf(what, sizeof what, "expected %s, got %s", expected, type_name(item));
  return key_error(msg, len, path, item->string, what);
}

/* A number as the user would write it: every digit of an integer (never
 * "4.29497e+09", which looks like 4294967295), else the shortest decimal
 * form that reads back as the same double. */
static void number_text(double d, char *out, size_t len) {
  if (d == floor(d) && fabs(d) < 1e21) {
    snprintf(out, len, "%.0f", d);
    return;
  }
  for (int digits = 1; digits <= MAX_DIGITS_ROUND_TRIP; digits++) {
    snprintf(out, len, "%.*g", digits, d);
    if (strtod(out, NULL) == d) return;
  }
}

/* An integral JSON number in [lo, hi]. */
static ds_exit_code get_uint(const cJSON *item, double lo, double hi, uint64_t *out,
                             const char *path, char *msg, size_t len) {
  if (!cJSON_IsNumber(item)) return wrong_type(msg, len, path, item, "an integer");
  double d = item->valuedouble;
  if (d != floor(d) || d < lo || d > hi) {
    char what[160], text[NUMBER_TEXT_LEN];
    number_text(d, text, sizeof text);
    snprintf(what, sizeof what, "%s is not an integer in [%.0f, %.0f]", text, lo, hi);
    return key_error(msg, len, path, item->string, what);
  }
  *out = (uint64_t)d;
  return DS_EXIT_OK;
}

static ds_exit_code get_bool(const cJSON *item, int *out, const char *path, char *msg,
                             size_t len) {
  if (!cJSON_IsBool(item)) return wrong_type(msg, len, path, item, "true or false");
  *out = cJSON_IsTrue(item);
  return DS_EXIT_OK;
}

/* A path named in the configuration, relative to the configuration file's
 * folder unless absolute, so that a configuration means the same files from
 * any working directory. A configuration read from a pipe (`--config
 * <(...)`, /dev/stdin) has no folder of its own: its paths are relative to
 * the working directory. *joined is malloc'ed. */
static ds_exit_code config_relative(const char *config_path, const char *value, char **joined,
                                    char *msg, size_t len) {
  const char *slash = strrchr(config_path, '/');
  struct stat sb;
  int has_folder = slash != NULL && stat(config_path, &sb) == 0 && S_ISREG(sb.st_mode);
  size_t dir_len = value[0] == '/' || !has_folder ? 0 : (size_t)(slash - config_path) + 1;
  *joined = (char *)malloc(dir_len + strlen(value) + 1);
  if (*joined == NULL) {
    snprintf(msg, len, "out of memory");
    return DS_EXIT_INTERNAL;
  }
  memcpy(*joined, config_path, dir_len);
  strcpy(*joined + dir_len, value);
  return DS_EXIT_OK;
}

static ds_exit_code add_graph(ds_cli *c, const char *config_path, const char *graph,
                              char *msg, size_t len) {
  char *joined = NULL;
  if (graph[0] == '\0') return key_error(msg, len, config_path, "graph", "empty file name");
  ds_exit_code rc = config_relative(config_path, graph, &joined, msg, len);
  if (rc == DS_EXIT_OK) rc = ds_cli_add_graph(c, joined, "graph", msg, len);
  free(joined);
  return rc;
}

/* 1 when key is one of the ", "-separated keys. */
static int known_key(const char *keys, const char *key) {
  const size_t len = strlen(key);
  for (const char *p = keys; *p;) {
    size_t n = strcspn(p, ",");
    if (n == len && strncmp(p, key, len) == 0) return 1;
    p += n;
    p += strspn(p, ", ");
  }
  return 0;
}

/* Applies one key of the configuration. */
static ds_exit_code apply_key(ds_cli *c, const cJSON *item, const char *path, char *msg,
                              size_t len) {
  const char *key = item->string;
  uint64_t x = 0;
  ds_exit_code rc = DS_EXIT_OK;
  char what[DS_CLI_MSG_LEN]; /* the path and the key, ahead of a setter's message */
  snprintf(what, sizeof what, "%s: key \"%s\"", path, key);
  if (!known_key(c->prog->config_keys, key)) {
    char text[512];
    snprintf(text, sizeof text, "unknown key (known: %s)", c->prog->config_keys);
    return key_error(msg, len, path, key, text);
  }

  if (strcmp(key, "graph") == 0) {
    ds_cli_clear_graphs(c);
    if (cJSON_IsString(item)) return add_graph(c, path, item->valuestring, msg, len);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) == 0)
      return wrong_type(msg, len, path, item, "a file name or a non-empty list of them");
    const cJSON *g;
    cJSON_ArrayForEach(g, item) {
      if (!cJSON_IsString(g))
        return key_error(msg, len, path, key, "every list element must be a file name");
      if ((rc = add_graph(c, path, g->valuestring, msg, len)) != DS_EXIT_OK) return rc;
    }
  } else if (strcmp(key, "source") == 0) {
    if (cJSON_IsString(item)) {
      if (strcmp(item->valuestring, "random") != 0)
        return key_error(msg, len, path, key, "expected a vertex number or \"random\"");
      c->source_mode = DS_SOURCE_RANDOM;
    } else {
      if ((rc = get_uint(item, 0, UINT32_MAX, &x, path, msg, len)) != DS_EXIT_OK) return rc;
      c->source_mode = DS_SOURCE_VERTEX;
      c->source = x;
    }
  } else if (strcmp(key, "sources") == 0) {
    rc = get_uint(item, 1, UINT32_MAX, &x, path, msg, len);
    c->sources = (uint32_t)x;
  } else if (strcmp(key, "algo") == 0) {
    if (cJSON_IsString(item)) return ds_cli_set_algos(c, item->valuestring, 0, what, msg, len);
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) == 0)
      return wrong_type(msg, len, path, item, "an algorithm name or a non-empty list of them");
    int append = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, item) {
      if (!cJSON_IsString(a))
        return key_error(msg, len, path, key, "every list element must be an algorithm name");
      if ((rc = ds_cli_set_algos(c, a->valuestring, append, what, msg, len)) != DS_EXIT_OK)
        return rc;
      append = 1;
    }
  } else if (strcmp(key, "buckets") == 0) {
    if (cJSON_IsString(item)) {
      if (strcmp(item->valuestring, "auto") != 0)
        return key_error(msg, len, path, key, "expected a bucket count or \"auto\"");
      c->buckets_auto = 1;
    } else {
      rc = get_uint(item, DS_CLI_MIN_BUCKETS, DS_CLI_MAX_BUCKETS, &x, path, msg, len);
      c->buckets = (uint32_t)x;
      c->buckets_auto = 0;
    }
  } else if (strcmp(key, "delta") == 0) {
    if (cJSON_IsString(item)) {
      if (strcmp(item->valuestring, "auto") != 0)
        return key_error(msg, len, path, key, "expected a positive number or \"auto\"");
      c->delta_auto = 1;
    } else if (cJSON_IsNumber(item) && isfinite(item->valuedouble) && item->valuedouble > 0) {
      c->delta_auto = 0;
      c->delta = item->valuedouble;
    } else if (cJSON_IsNumber(item)) {
      char problem[128], text[NUMBER_TEXT_LEN];
      number_text(item->valuedouble, text, sizeof text);
      snprintf(problem, sizeof problem, "expected a positive number or \"auto\", got %s", text);
      return key_error(msg, len, path, key, problem);
    } else {
      return wrong_type(msg, len, path, item, "a positive number or \"auto\"");
    }
  } else if (strcmp(key, "trials") == 0) {
    rc = get_uint(item, 1, DS_CLI_MAX_TRIALS, &x, path, msg, len);
    c->trials = (uint32_t)x;
  } else if (strcmp(key, "intersect") == 0) {
    if (!cJSON_IsString(item))
      return wrong_type(msg, len, path, item, "a method name (auto, bitmap, hash, search)");
    rc = ds_cli_set_intersect(c, item->valuestring, what, msg, len);
  } else if (strcmp(key, "validate") == 0) {
    rc = get_bool(item, &c->validate, path, msg, len);
  } else if (strcmp(key, "undirected") == 0) {
    rc = get_bool(item, &c->undirected, path, msg, len);
  } else if (strcmp(key, "predecessors") == 0) {
    rc = get_bool(item, &c->predecessors, path, msg, len);
  } else if (strcmp(key, "no_cache") == 0) {
    rc = get_bool(item, &c->no_cache, path, msg, len);
  } else if (strcmp(key, "weights") == 0) {
    if (!cJSON_IsString(item)) return wrong_type(msg, len, path, item, "a string \"MIN:MAX\"");
    rc = ds_cli_set_weights(c, item->valuestring, what, msg, len);
  } else if (strcmp(key, "weight_dist") == 0) {
    if (!cJSON_IsString(item))
      return wrong_type(msg, len, path, item, "a string \"uniform\", \"log\" or \"bimodal\"");
    rc = ds_cli_set_weight_dist(c, item->valuestring, what, msg, len);
  } else if (strcmp(key, "seed") == 0) {
    /* JSON reads every integer up to 2^53 - 1 exactly (2^53 + 1 reads as 2^53) */
    rc = get_uint(item, 0, (double)DS_CLI_MAX_SEED, &c->seed, path, msg, len);
  } else if (strcmp(key, "device") == 0) {
    rc = get_uint(item, 0, DS_CLI_MAX_DEVICE, &x, path, msg, len);
    c->device = (int)x;
    c->device_given = 1;
  } else if (strcmp(key, "threads") == 0) {
    rc = get_uint(item, 1, DS_CLI_MAX_THREADS, &x, path, msg, len); /* as --threads: at least 1 */
    c->threads = (int)x;
  } else if (strcmp(key, "json") == 0 || strcmp(key, "output") == 0 ||
             strcmp(key, "cache_dir") == 0) {
    if (!cJSON_IsString(item)) return wrong_type(msg, len, path, item, "a file name");
    if (item->valuestring[0] == '\0') return key_error(msg, len, path, key, "empty file name");
    char **dst = key[0] == 'j' ? &c->json_path : key[0] == 'o' ? &c->output_path : &c->cache_dir;
    free(*dst);
    rc = config_relative(path, item->valuestring, dst, msg, len);
  }
  return rc;
}

/* Line number of a position in text, for syntax errors. */
static int line_of(const char *text, const char *pos) {
  int line = 1;
  for (const char *p = text; p < pos && *p; p++) line += *p == '\n';
  return line;
}

ds_exit_code ds_config_load(const char *path, ds_cli *c, char *msg, size_t msg_len) {
  ds_exit_code rc = DS_EXIT_OK;
  FILE *f = NULL;
  char *text = NULL;
  cJSON *root = NULL;

  // 1. read the whole file
  f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(msg, msg_len, "%s: cannot open the configuration file: %s", path, strerror(errno));
    rc = DS_EXIT_USAGE;
    goto cleanup;
  }
  text = (char *)malloc(CONFIG_MAX_BYTES + 1);
  if (text == NULL) {
    snprintf(msg, msg_len, "out of memory");
    rc = DS_EXIT_INTERNAL;
    goto cleanup;
  }
  size_t size = fread(text, 1, CONFIG_MAX_BYTES + 1, f);
  if (ferror(f) || size > CONFIG_MAX_BYTES) {
    snprintf(msg, msg_len, "%s: %s", path,
             ferror(f) ? "cannot read the configuration file (a directory?)"
                       : "configuration file larger than 16 MiB");
    rc = DS_EXIT_USAGE;
    goto cleanup;
  }
  text[size] = '\0';
  if (size == 0) {
    snprintf(msg, msg_len, "%s: the configuration file is empty", path);
    rc = DS_EXIT_USAGE;
    goto cleanup;
  }

  // 2. parse the JSON
  const char *end = NULL;
  root = cJSON_ParseWithOpts(text, &end, 1);
  if (root == NULL) {
    const char *at = end != NULL ? end : cJSON_GetErrorPtr();
    snprintf(msg, msg_len, "%s:%d: invalid JSON", path, at ? line_of(text, at) : 1);
    rc = DS_EXIT_USAGE;
    goto cleanup;
  }
  if (!cJSON_IsObject(root)) {
    snprintf(msg, msg_len, "%s: the configuration must be a JSON object", path);
    rc = DS_EXIT_USAGE;
    goto cleanup;
  }

  // 3. apply each key in order; a key given twice is a mistake that JSON
  // readers settle differently, so it is refused rather than guessed
  const cJSON *item;
  cJSON_ArrayForEach(item, root) {
    for (const cJSON *earlier = root->child; earlier != item; earlier = earlier->next)
      if (strcmp(earlier->string, item->string) == 0) {
        rc = key_error(msg, msg_len, path, item->string, "given twice");
        goto cleanup;
      }
    if ((rc = apply_key(c, item, path, msg, msg_len)) != DS_EXIT_OK) goto cleanup;
  }

cleanup:
  cJSON_Delete(root);
  free(text);
  if (f != NULL) fclose(f);
  return rc;
}
