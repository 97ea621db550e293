/* The options of the programs (sssp, kcore, tc): one struct filled from
 * defaults, then a JSON configuration file (config.c), then the command line
 * (cli.c), each later one overriding the earlier. One option table serves all
 * programs: each program names the options and configuration keys it takes
 * (ds_program), and an option means the same in every program that takes it.
 * Also the programs' exit codes.
 */
#ifndef DS_CLI_H
#define DS_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ds/rng.h"
#include "ds/status.h"

/* Exit codes of the programs (documented in --help and README). */
typedef enum {
  DS_EXIT_OK = 0,
  DS_EXIT_USAGE = 1,      /* bad option, value or configuration file */
  DS_EXIT_INPUT = 2,      /* graph file missing, unreadable or malformed; output not writable */
  DS_EXIT_VALIDATION = 3, /* --validate found a wrong result */
  DS_EXIT_DEVICE = 4,     /* CUDA error, or the graph does not fit on the device */
  DS_EXIT_INTERNAL = 5,   /* out of memory or another failure */
  DS_EXIT_RANGE = 6       /* a distance does not fit what the algorithm computes in */
} ds_exit_code;

typedef enum { DS_SOURCE_DEFAULT = 0, DS_SOURCE_VERTEX = 1, DS_SOURCE_RANDOM = 2 } ds_source_mode;

/* --intersect (tc): how long rows are intersected on the GPU; auto: the
 * backend's defaults. The names are ds_cli_intersect_name's. */
typedef enum {
  DS_INTERSECT_AUTO = 0,
  DS_INTERSECT_BITMAP = 1,
  DS_INTERSECT_HASH = 2,
  DS_INTERSECT_SEARCH = 3,
  DS_INTERSECT_MODES = 4
} ds_intersect_mode;

/* "auto", "bitmap", "hash", "search". */
const char *ds_cli_intersect_name(ds_intersect_mode m);

#define DS_CLI_MAX_GRAPHS 64
/* --buckets' range: the SSSP library's (app/sssp/cpu/sssp.h: DS_SSSP_MIN_BUCKETS..MAX, checked
   where the two meet, in app/sssp/run.c) */
#define DS_CLI_MIN_BUCKETS 2u
#define DS_CLI_MAX_BUCKETS 256u
#define DS_CLI_DEFAULT_BUCKETS 10u
#define DS_CLI_DEFAULT_TRIALS 3u
#define DS_CLI_DEFAULT_WEIGHT_MIN 1u
#define DS_CLI_DEFAULT_WEIGHT_MAX 1000u
#define DS_CLI_DEFAULT_SEED 1u
#define DS_CLI_MAX_TRIALS 1000000u
#define DS_CLI_MAX_THREADS 4096
#define DS_CLI_MAX_DEVICE 1024
#define DS_CLI_MAX_KRON_SCALE 31       /* --kron: 2^scale vertices fit 32-bit ids */
#define DS_CLI_DEFAULT_EDGE_FACTOR 16u /* --edgefactor: Graph500's */
#define DS_CLI_MAX_EDGE_FACTOR (1u << 20)
#define DS_CLI_MAX_GPUS 64 /* --gpus: one process's threads, a GPU each (the largest machines have 16) */
/* 2^53 - 1: the largest seed that a JSON report (and a configuration) holds
 * exactly, so that every recorded run can be repeated */
#define DS_CLI_MAX_SEED 9007199254740991ull
#define DS_CLI_MSG_LEN 1024
#define DS_CLI_MAX_ALGOS 16
#define DS_CLI_MAX_TARGETS 4096 /* --target: each printed with its path, so a screenful or a file */

struct ds_cli;

/* What one program takes: its options, configuration keys and algorithms. */
typedef struct ds_program {
  const char *name;                 /* "sssp": messages, --version, the report */
  const char *const *value_options; /* NULL-terminated: options that take a value */
  const char *const *flag_options;  /* NULL-terminated: options without a value */
  const char *config_keys;          /* the configuration keys, ", "-separated */
  int n_algos;                      /* --algo names: algo_name(0..n_algos-1) */
  const char *(*algo_name)(int algo);
  void (*usage)(FILE *f);           /* --help */
} ds_program;

/* 1 when program p takes option name ("--sources"). */
int ds_program_has_option(const ds_program *p, const char *name);

typedef struct ds_cli {
  const ds_program *prog;
  char *graphs[DS_CLI_MAX_GRAPHS]; /* owned */
  int n_graphs;
  ds_source_mode source_mode;
  uint64_t source;      /* DS_SOURCE_VERTEX: in the file's numbering */
  uint32_t sources;     /* how many sources (random ones when > 1) */
  uint64_t *targets;    /* --target: in the file's numbering, in the order given (owned) */
  uint32_t n_targets;
  uint32_t buckets;
  int buckets_auto;     /* 1: ds_buckets_auto */
  int delta_auto;       /* 1: each backend's rule, ds_delta_auto or ds_delta_auto_cpu */
  double delta;
  int algos[DS_CLI_MAX_ALGOS]; /* prog's algorithm numbers, in the order given, no repeats */
  int n_algos;          /* 0: the default list */
  int algo_all;
  int validate;
  uint32_t trials;
  char *json_path, *output_path, *cache_dir; /* owned, or NULL */
  int undirected;
  uint32_t weight_min, weight_max;
  ds_weight_dist weight_dist; /* of the weights of pattern graphs (ds/rng.h) */
  uint64_t seed;
  uint32_t kron_edge_factor; /* --edgefactor of the --kron graphs ("kron:S" graph paths) */
  int predecessors;
  int device;
  int device_given;     /* --device or "device" was set: it must exist */
  int gpus;             /* --gpus N: N ranks in this process, a GPU each; 0: one GPU, no ranks */
  int mpi;              /* --mpi: this process is one rank of an mpirun job, a GPU a process */
  int quiet;
  int threads;          /* 0: OpenMP's default */
  int no_cache;
  ds_intersect_mode intersect;
  int help, version;
  int argc;             /* the command, for reports */
  char **argv;
} ds_cli;

void ds_cli_defaults(ds_cli *c, const ds_program *prog);
void ds_cli_free(ds_cli *c);

/* Finds --config FILE, --help and --version before anything else is parsed.
 * *config is NULL when there is no --config. */
ds_exit_code ds_cli_prescan(int argc, char **argv, const char **config, ds_cli *c, char *msg,
                            size_t msg_len);

/* Applies the command line over c (after the configuration file). */
ds_exit_code ds_cli_parse(int argc, char **argv, ds_cli *c, char *msg, size_t msg_len);

/* Checks combinations once everything is applied. */
ds_exit_code ds_cli_check(const ds_cli *c, char *msg, size_t msg_len);

/* The end of --help that the programs share: --json, --config, --quiet,
 * --help, --version and exit codes 0 to 5; device_error says what exit code 4
 * means to the program. */
void ds_cli_usage_tail(FILE *f, const char *device_error);

/* Setters shared by the command line and the configuration file; `what`
 * names the option or key in the message. */
ds_exit_code ds_cli_add_graph(ds_cli *c, const char *path, const char *what, char *msg,
                              size_t msg_len);
void ds_cli_clear_graphs(ds_cli *c);
ds_exit_code ds_cli_set_algos(ds_cli *c, const char *list, int append, const char *what,
                              char *msg, size_t msg_len);
ds_exit_code ds_cli_set_source(ds_cli *c, const char *text, const char *what, char *msg,
                               size_t msg_len);
/* --target T[,T2,...]: appends the vertices (file numbering; the range is the
 * graph's, checked once it is loaded). */
ds_exit_code ds_cli_add_targets(ds_cli *c, const char *text, const char *what, char *msg,
                                size_t msg_len);
ds_exit_code ds_cli_set_delta(ds_cli *c, const char *text, const char *what, char *msg,
                              size_t msg_len);
ds_exit_code ds_cli_set_weights(ds_cli *c, const char *text, const char *what, char *msg,
                                size_t msg_len);
/* "uniform", "log" or "bimodal"; the range is checked against it by ds_cli_check
 * (log needs a minimum of at least 1), since --weights may come after. */
ds_exit_code ds_cli_set_weight_dist(ds_cli *c, const char *text, const char *what, char *msg,
                                    size_t msg_len);
ds_exit_code ds_cli_set_string(char **dst, const char *value, char *msg, size_t msg_len);
ds_exit_code ds_cli_set_intersect(ds_cli *c, const char *text, const char *what, char *msg,
                                  size_t msg_len);

/* Formats msg and returns code: the messages of the checks. */
ds_exit_code ds_cli_fail(ds_exit_code code, char *msg, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Strict decimal parsing: the whole text, no sign, within [lo, hi]. */
ds_exit_code ds_cli_parse_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t *out,
                              const char *what, char *msg, size_t msg_len);

/* The reading of config files (config.c): only c->prog's keys. */
ds_exit_code ds_config_load(const char *path, ds_cli *c, char *msg, size_t msg_len);

#endif /* DS_CLI_H */
