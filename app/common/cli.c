/* Command-line parsing of the programs into a ds_cli struct (each program
 * takes the options its ds_program names), the value setters that the
 * configuration file shares, and sssp's --help text.
 *
 * Options take their value as the next argument or after '=' (--trials=5).
 * The first --graph or --algo on the command line replaces the list from a
 * configuration file; later ones add to it.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ds/graph.h" /* ds_weight_dist_parse */

#define DECIMAL_CHARS "0123456789.eE+-"

ds_exit_code ds_cli_fail(ds_exit_code code, char *msg, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return code;
}

#define usage_error(msg, len, ...) ds_cli_fail(DS_EXIT_USAGE, msg, len, __VA_ARGS__)

int ds_program_has_option(const ds_program *p, const char *name) {
  for (const char *const *o = p->value_options; *o; o++)
    if (strcmp(*o, name) == 0) return 1;
  for (const char *const *o = p->flag_options; *o; o++)
    if (strcmp(*o, name) == 0) return 1;
  return 0;
}

void ds_cli_defaults(ds_cli *c, const ds_program *prog) {
  memset(c, 0, sizeof(*c));
  c->prog = prog;
  c->source_mode = DS_SOURCE_DEFAULT;
  c->sources = 1;
  c->buckets = DS_CLI_DEFAULT_BUCKETS;
  c->buckets_auto = 1;
  c->delta_auto = 1;
  c->trials = DS_CLI_DEFAULT_TRIALS;
  c->weight_min = DS_CLI_DEFAULT_WEIGHT_MIN;
  c->weight_max = DS_CLI_DEFAULT_WEIGHT_MAX;
  c->weight_dist = DS_WEIGHTS_UNIFORM;
  c->seed = DS_CLI_DEFAULT_SEED;
  c->kron_edge_factor = DS_CLI_DEFAULT_EDGE_FACTOR;
}

void ds_cli_clear_graphs(ds_cli *c) {
  for (int i = 0; i < c->n_graphs; i++) free(c->graphs[i]);
  c->n_graphs = 0;
}

void ds_cli_free(ds_cli *c) {
  ds_cli_clear_graphs(c);
  free(c->json_path);
  free(c->output_path);
  free(c->cache_dir);
  free(c->targets);
  c->json_path = c->output_path = c->cache_dir = NULL;
  c->targets = NULL;
  c->n_targets = 0;
}

ds_exit_code ds_cli_set_string(char **dst, const char *value, char *msg, size_t msg_len) {
  size_t len = strlen(value);
  char *copy = (char *)malloc(len + 1);
  if (copy == NULL) {
    snprintf(msg, msg_len, "out of memory");
    return DS_EXIT_INTERNAL;
  }
  memcpy(copy, value, len + 1);
  free(*dst);
  *dst = copy;
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_parse_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out,
                              const char *what, char *msg, size_t msg_len) {
  uint64_t v = 0;
  const char *p = text;
  if (*p == '\0') return usage_error(msg, msg_len, "%s: empty value, expected a number", what);
  for (; *p; p++) {
    if (*p < '0' || *p > '9')
      return usage_error(msg, msg_len, "%s: '%s' is not a non-negative integer", what, text);
    uint64_t digit = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - digit) / 10)
      return usage_error(msg, msg_len, "%s: '%s' is too large", what, text);
    v = v * 10 + digit;
  }
  if (v < lo || v > hi)
    return usage_error(msg, msg_len, "%s: %s is out of range [%llu, %llu]", what, text,
                       (unsigned long long)lo, (unsigned long long)hi);
  *out = v;
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_add_graph(ds_cli *c, const char *path, const char *what, char *msg,
                              size_t msg_len) {
  if (path[0] == '\0') return usage_error(msg, msg_len, "%s: empty file name", what);
  if (c->n_graphs == DS_CLI_MAX_GRAPHS)
    return usage_error(msg, msg_len, "%s: more than %d graphs", what, DS_CLI_MAX_GRAPHS);
  c->graphs[c->n_graphs] = NULL;
  ds_exit_code rc = ds_cli_set_string(&c->graphs[c->n_graphs], path, msg, msg_len);
  if (rc == DS_EXIT_OK) c->n_graphs++;
  return rc;
}

ds_exit_code ds_cli_set_algos(ds_cli *c, const char *list, int append, const char *what,
                              char *msg, size_t msg_len) {
  // 1. start over unless appending
  if (!append) {
    c->n_algos = 0;
    c->algo_all = 0;
  }
  // 2. split the comma-separated list and look each name up
  const char *p = list;
  if (*p == '\0') return usage_error(msg, msg_len, "%s: empty algorithm list", what);
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char name[64];
    if (len == 0 || len >= sizeof name)
      return usage_error(msg, msg_len, "%s: bad algorithm list '%s'", what, list);
    memcpy(name, p, len);
    name[len] = '\0';
    if (strcmp(name, "all") == 0) {
      c->algo_all = 1;
    } else {
      const ds_program *prog = c->prog;
      int a = 0;
      while (a < prog->n_algos && strcmp(prog->algo_name(a), name) != 0) a++;
      if (a == prog->n_algos) {
        char known[256] = "";
        for (int i = 0; i < prog->n_algos; i++) {
          strcat(known, prog->algo_name(i));
          strcat(known, ", ");
        }
        return usage_error(msg, msg_len, "%s: unknown algorithm '%s' (known: %sall)", what, name,
                           known);
      }
      int seen = 0;
      for (int i = 0; i < c->n_algos; i++) seen |= c->algos[i] == a;
      if (!seen) c->algos[c->n_algos++] = a;
    }
    p += len;
    if (*p == ',' && *++p == '\0') /* "a," names an empty algorithm, as "," does */
      return usage_error(msg, msg_len, "%s: bad algorithm list '%s'", what, list);
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_set_source(ds_cli *c, const char *text, const char *what, char *msg,
                               size_t msg_len) {
  if (strcmp(text, "random") == 0) {
    c->source_mode = DS_SOURCE_RANDOM;
    return DS_EXIT_OK;
  }
  uint64_t v;
  if (text[0] == '\0' || strspn(text, "0123456789") != strlen(text))
    return usage_error(msg, msg_len, "%s: '%s' is not a vertex number or 'random'", what, text);
  ds_exit_code rc = ds_cli_parse_u64(text, 0, UINT32_MAX, &v, what, msg, msg_len);
  if (rc != DS_EXIT_OK) return rc; /* a vertex number out of range */
  c->source_mode = DS_SOURCE_VERTEX;
  c->source = v;
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_add_targets(ds_cli *c, const char *text, const char *what, char *msg,
                                size_t msg_len) {
  const char *p = text;
  for (;;) {
    const size_t len = strcspn(p, ",");
    char one[32];
    if (len == 0 || len >= sizeof one || strspn(p, "0123456789") != len)
      return usage_error(msg, msg_len, "%s: '%s' is not a list of vertex numbers (T or T1,T2,...)",
                         what, text);
    memcpy(one, p, len);
    one[len] = '\0';
    uint64_t v;
    ds_exit_code rc = ds_cli_parse_u64(one, 0, UINT32_MAX, &v, what, msg, msg_len);
    if (rc != DS_EXIT_OK) return rc;
    if (c->n_targets == DS_CLI_MAX_TARGETS)
      return usage_error(msg, msg_len, "%s: more than %u targets", what, DS_CLI_MAX_TARGETS);
    if (c->targets == NULL &&
        (c->targets = (uint64_t *)malloc(DS_CLI_MAX_TARGETS * sizeof(uint64_t))) == NULL)
      return ds_cli_fail(DS_EXIT_INTERNAL, msg, msg_len, "out of memory for the targets");
    c->targets[c->n_targets++] = v;
    if (p[len] == '\0') return DS_EXIT_OK;
    p += len + 1;
  }
}

ds_exit_code ds_cli_set_delta(ds_cli *c, const char *text, const char *what, char *msg,
                              size_t msg_len) {
  if (strcmp(text, "auto") == 0) {
    c->delta_auto = 1;
    return DS_EXIT_OK;
  }
  char *end = NULL;
  errno = 0;
  double d = strtod(text, &end);
  /* decimal only: strtod also takes hexadecimal ("0x10") and "infinity" */
  int decimal = strspn(text, DECIMAL_CHARS) == strlen(text);
  if (!decimal || end == text || *end != '\0' || errno != 0 || !isfinite(d) || !(d > 0.0))
    return usage_error(msg, msg_len, "%s: '%s' is not a positive number or 'auto'", what, text);
  c->delta_auto = 0;
  c->delta = d;
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_set_weights(ds_cli *c, const char *text, const char *what, char *msg,
                                size_t msg_len) {
  const char *colon = strchr(text, ':');
  char lo_text[32];
  if (colon == NULL || (size_t)(colon - text) >= sizeof lo_text)
    return usage_error(msg, msg_len, "%s: '%s' is not MIN:MAX", what, text);
  memcpy(lo_text, text, (size_t)(colon - text));
  lo_text[colon - text] = '\0';
  uint64_t lo, hi;
  if (ds_cli_parse_u64(lo_text, 0, UINT32_MAX - 1, &lo, what, msg, msg_len) != DS_EXIT_OK ||
      ds_cli_parse_u64(colon + 1, 0, UINT32_MAX - 1, &hi, what, msg, msg_len) != DS_EXIT_OK)
    return usage_error(msg, msg_len, "%s: '%s' is not MIN:MAX with integers in [0, %u]", what,
                       text, UINT32_MAX - 1);
  if (lo > hi)
    return usage_error(msg, msg_len, "%s: minimum %llu is above maximum %llu", what,
                       (unsigned long long)lo, (unsigned long long)hi);
  c->weight_min = (uint32_t)lo;
  c->weight_max = (uint32_t)hi;
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_set_weight_dist(ds_cli *c, const char *text, const char *what, char *msg,
                                    size_t msg_len) {
  ds_error err;
  if (ds_weight_dist_parse(text, &c->weight_dist, &err) != DS_OK)
    return usage_error(msg, msg_len, "%s: %s", what, err.msg);
  return DS_EXIT_OK;
}

static const char *const INTERSECT_NAMES[DS_INTERSECT_MODES] = {"auto", "bitmap", "hash",
                                                                 "search"};

const char *ds_cli_intersect_name(ds_intersect_mode m) {
  return (unsigned)m < DS_INTERSECT_MODES ? INTERSECT_NAMES[m] : "?";
}

ds_exit_code ds_cli_set_intersect(ds_cli *c, const char *text, const char *what, char *msg,
                                  size_t msg_len) {
  for (int m = 0; m < DS_INTERSECT_MODES; m++)
    if (strcmp(text, INTERSECT_NAMES[m]) == 0) {
      c->intersect = (ds_intersect_mode)m;
      return DS_EXIT_OK;
    }
  return usage_error(msg, msg_len, "%s: unknown method '%s' (known: auto, bitmap, hash, search)",
                     what, text);
}

/* A file or folder name option: an empty one is a mistake, not "none". */
static ds_exit_code set_path(char **dst, const char *value, const char *what, char *msg,
                             size_t msg_len) {
  if (value[0] == '\0') return usage_error(msg, msg_len, "%s: empty file name", what);
  return ds_cli_set_string(dst, value, msg, msg_len);
}

static int in_list(const char *const *list, const char *name) {
  for (; *list; list++)
    if (strcmp(*list, name) == 0) return 1;
  return 0;
}

/* Splits argv[*i] into option name and value (from '=' or the next argument). */
static ds_exit_code next_option(const ds_program *prog, int argc, char **argv, int *i, char *name,
                                size_t name_len, const char **value, char *msg, size_t msg_len) {
  const char *arg = argv[*i];
  const char *eq = strchr(arg, '=');
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
  if (len >= name_len) return usage_error(msg, msg_len, "unknown option '%s'", arg);
  memcpy(name, arg, len);
  name[len] = '\0';
  *value = NULL;
  if (in_list(prog->value_options, name)) {
    if (eq) {
      *value = eq + 1;
    } else {
      if (*i + 1 >= argc) return usage_error(msg, msg_len, "option %s needs a value", name);
      *value = argv[++*i];
    }
  } else if (in_list(prog->flag_options, name)) {
    if (eq) return usage_error(msg, msg_len, "option %s takes no value", name);
  } else {
    return usage_error(msg, msg_len, "unknown option '%s'", arg);
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_prescan(int argc, char **argv, const char **config, ds_cli *c, char *msg,
                            size_t msg_len) {
  *config = NULL;
  c->argc = argc;
  c->argv = argv;
  ds_exit_code rc = DS_EXIT_OK; /* the first problem; the scan goes on to see --help */
  char ignored[DS_CLI_MSG_LEN];
  for (int i = 1; i < argc; i++) {
    char name[32];
    const char *value = NULL;
    if (next_option(c->prog, argc, argv, &i, name, sizeof name, &value, ignored, sizeof ignored) !=
        DS_EXIT_OK)
      continue; /* reported by ds_cli_parse */
    if (strcmp(name, "--config") == 0 && rc == DS_EXIT_OK) {
      if (*config != NULL) /* one configuration: a second would silently replace the first */
        rc = usage_error(msg, msg_len, "--config is given twice ('%s' and '%s')", *config, value);
      else if (value[0] == '\0')
        rc = usage_error(msg, msg_len, "--config: empty file name");
      else
        *config = value;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) c->help = 1;
    if (strcmp(name, "--version") == 0) c->version = 1;
  }
  return rc;
}

ds_exit_code ds_cli_parse(int argc, char **argv, ds_cli *c, char *msg, size_t msg_len) {
  int graphs_from_cli = 0, algos_from_cli = 0;
  for (int i = 1; i < argc; i++) {
    char name[32];
    const char *v = NULL;
    uint64_t x = 0;
    ds_exit_code rc = next_option(c->prog, argc, argv, &i, name, sizeof name, &v, msg, msg_len);
    if (rc != DS_EXIT_OK) return rc;
    if (strcmp(name, "--graph") == 0) {
      if (!graphs_from_cli) ds_cli_clear_graphs(c);
      graphs_from_cli = 1;
      rc = ds_cli_add_graph(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--source") == 0) {
      rc = ds_cli_set_source(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--target") == 0) {
      rc = ds_cli_add_targets(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--sources") == 0) {
      rc = ds_cli_parse_u64(v, 1, UINT32_MAX, &x, name, msg, msg_len);
      c->sources = (uint32_t)x;
    } else if (strcmp(name, "--buckets") == 0) {
      c->buckets_auto = strcmp(v, "auto") == 0;
      if (!c->buckets_auto && (v[0] < '0' || v[0] > '9'))
        rc = usage_error(msg, msg_len, "%s: '%s' is not a bucket count or 'auto'", name, v);
      else if (!c->buckets_auto) {
        rc = ds_cli_parse_u64(v, DS_CLI_MIN_BUCKETS, DS_CLI_MAX_BUCKETS, &x, name, msg, msg_len);
        c->buckets = (uint32_t)x;
      }
    } else if (strcmp(name, "--delta") == 0) {
      rc = ds_cli_set_delta(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--algo") == 0) {
      rc = ds_cli_set_algos(c, v, algos_from_cli, name, msg, msg_len);
      algos_from_cli = 1;
    } else if (strcmp(name, "--trials") == 0) {
      rc = ds_cli_parse_u64(v, 1, DS_CLI_MAX_TRIALS, &x, name, msg, msg_len);
      c->trials = (uint32_t)x;
    } else if (strcmp(name, "--json") == 0) {
      rc = set_path(&c->json_path, v, name, msg, msg_len);
    } else if (strcmp(name, "--config") == 0) {
      /* read before the command line by ds_config_load */
    } else if (strcmp(name, "--weights") == 0) {
      rc = ds_cli_set_weights(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--weight-dist") == 0) {
      rc = ds_cli_set_weight_dist(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--seed") == 0) {
      rc = ds_cli_parse_u64(v, 0, DS_CLI_MAX_SEED, &c->seed, name, msg, msg_len);
    } else if (strcmp(name, "--kron") == 0) { /* a generated graph, "kron:S" among the graphs */
      rc = ds_cli_parse_u64(v, 1, DS_CLI_MAX_KRON_SCALE, &x, name, msg, msg_len);
      char spec[32];
      snprintf(spec, sizeof spec, "kron:%u", (unsigned)x);
      if (rc == DS_EXIT_OK) rc = ds_cli_add_graph(c, spec, name, msg, msg_len);
    } else if (strcmp(name, "--edgefactor") == 0) {
      rc = ds_cli_parse_u64(v, 1, DS_CLI_MAX_EDGE_FACTOR, &x, name, msg, msg_len);
      c->kron_edge_factor = (uint32_t)x;
    } else if (strcmp(name, "--output") == 0) {
      rc = set_path(&c->output_path, v, name, msg, msg_len);
    } else if (strcmp(name, "--device") == 0) {
      rc = ds_cli_parse_u64(v, 0, DS_CLI_MAX_DEVICE, &x, name, msg, msg_len);
      c->device = (int)x;
      c->device_given = 1;
    } else if (strcmp(name, "--gpus") == 0) {
      rc = ds_cli_parse_u64(v, 1, DS_CLI_MAX_GPUS, &x, name, msg, msg_len);
      c->gpus = (int)x;
    } else if (strcmp(name, "--mpi") == 0) {
      c->mpi = 1;
    } else if (strcmp(name, "--cache-dir") == 0) {
      rc = set_path(&c->cache_dir, v, name, msg, msg_len);
    } else if (strcmp(name, "--threads") == 0) {
      rc = ds_cli_parse_u64(v, 1, DS_CLI_MAX_THREADS, &x, name, msg, msg_len);
      c->threads = (int)x;
    } else if (strcmp(name, "--intersect") == 0) {
      rc = ds_cli_set_intersect(c, v, name, msg, msg_len);
    } else if (strcmp(name, "--validate") == 0) {
      c->validate = 1;
    } else if (strcmp(name, "--undirected") == 0) {
      c->undirected = 1;
    } else if (strcmp(name, "--predecessors") == 0) {
      c->predecessors = 1;
    } else if (strcmp(name, "--quiet") == 0) {
      c->quiet = 1;
    } else if (strcmp(name, "--no-cache") == 0) {
      c->no_cache = 1;
    } else if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
      c->help = 1;
    } else if (strcmp(name, "--version") == 0) {
      c->version = 1;
    }
    if (rc != DS_EXIT_OK) return rc;
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_cli_check(const ds_cli *c, char *msg, size_t msg_len) {
  if (c->n_graphs == 0)
    return usage_error(msg, msg_len, "no graph given: use --graph FILE (or a config's \"graph\")");
  if (c->source_mode == DS_SOURCE_VERTEX && c->sources > 1)
    return usage_error(msg, msg_len,
                       "--source %llu and --sources %u conflict: several sources are random",
                       (unsigned long long)c->source, c->sources);
  if (c->n_targets > 0 && (c->gpus > 0 || c->mpi))
    return usage_error(msg, msg_len, "--target runs on one GPU or none, not with --gpus or --mpi");
  ds_error err;
  if (ds_weight_dist_check(c->weight_dist, c->weight_min, c->weight_max, &err) != DS_OK)
    return usage_error(msg, msg_len, "--weights %u:%u with --weight-dist %s: %s", c->weight_min,
                       c->weight_max, ds_weight_dist_name(c->weight_dist), err.msg);
  const int has_sources = ds_program_has_option(c->prog, "--sources");
  /* several sources write the matrix of their distances to the targets (sssp --target) */
  if (c->output_path != NULL && (c->n_graphs > 1 || (c->sources > 1 && c->n_targets == 0)))
    return usage_error(msg, msg_len, has_sources ? "--output needs a single graph and a single source "
                                                   "(or --target: the sources' distances to the targets)"
                                                 : "--output needs a single graph");
  return DS_EXIT_OK;
}

void ds_cli_usage_tail(FILE *f, const char *device_error) {
  fprintf(f,
"  --json OUT          machine-readable report\n"
"  --config FILE       JSON run configuration; the command line overrides it\n"
"  --quiet             no table and no notes, only errors\n"
"  --help, --version\n"
"\n"
"exit codes\n"
"  0  success\n"
"  1  usage error: bad option, value or configuration file\n"
"  2  input error: graph file missing, unreadable or malformed; output file\n"
"     not writable, or naming an input, the config or the other output;\n"
"     --cache-dir not a folder; standard output not writable\n"
"  3  validation failure (--validate)\n"
"  4  device error: %s\n"
"  5  out of memory or other internal error (also a run whose estimated host\n"
"     memory exceeds what is available, or threads that cannot start)\n",
          device_error);
}
