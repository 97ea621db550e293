/* The DS_GPU_* overrides and the trace file (gpu_options.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_options.h"
#include "lab.h"

#define TRACE_ENV "DS_GPU_TRACE"
#define TRACE_ROUNDS (1u << 16) /* records kept per search: the first rounds of a long one */
#define TRACE_HUGE_ARCS_MASK ((1ull << DS_GPU_TRACE_HUGE_SHIFT) - 1)

/* The variables, each with its field: an int or a uint32_t. */
typedef struct {
  const char *name;
  size_t offset;
  int is_int;
} env_field;

static const env_field ENV_FIELDS[] = {
    {"DS_GPU_BLOCKS_PER_SM", offsetof(ds_gpu_options, blocks_per_sm), 1},
    {"DS_GPU_SOLO_MAX", offsetof(ds_gpu_options, solo_max), 0},
    {"DS_GPU_TEAM_BLOCKS", offsetof(ds_gpu_options, team_blocks), 0},
    {"DS_GPU_TEAM_MAX", offsetof(ds_gpu_options, team_max), 0},
    {"DS_GPU_SOLO_LOCAL", offsetof(ds_gpu_options, solo_local), 1},
    {"DS_GPU_RANK_BLOCKS", offsetof(ds_gpu_options, rank_blocks), 1},
    {"DS_GPU_DYNAMIC_TILES", offsetof(ds_gpu_options, dynamic_tiles), 1},
    {"DS_GPU_MIN_TILE", offsetof(ds_gpu_options, min_tile), 0},
    {"DS_GPU_HUGE_DEGREE", offsetof(ds_gpu_options, huge_degree), 0},
    {"DS_GPU_LOCAL_SOLO", offsetof(ds_gpu_options, local_solo), 0},
    {"DS_GPU_LOCAL_TEAM", offsetof(ds_gpu_options, local_team), 0},
    {"DS_GPU_LOCAL_GRID", offsetof(ds_gpu_options, local_grid), 0},
    {"DS_GPU_LOCAL_ORDER", offsetof(ds_gpu_options, local_order), 0},
    {"DS_GPU_HUB_ORDER", offsetof(ds_gpu_options, hub_order), 0},
    {"DS_GPU_HUB_DEGREE", offsetof(ds_gpu_options, hub_degree), 0},
    {"DS_GPU_DENSE_DIV", offsetof(ds_gpu_options, dense_div), 0},
    {"DS_GPU_SPILL_LIMIT", offsetof(ds_gpu_options, spill_limit), 0},
    {"DS_GPU_SELF_CHECK", offsetof(ds_gpu_options, self_check), 1},
    {"DS_GPU_STALL_MS", offsetof(ds_gpu_options, stall_ms), 0},
    {"DS_GPU_FORCE_STALL", offsetof(ds_gpu_options, force_stall), 1},
};

ds_status ds_gpu_options_from_env(ds_gpu_options *opt, ds_error *err) {
  for (size_t i = 0; i < sizeof ENV_FIELDS / sizeof ENV_FIELDS[0]; i++) {
    const env_field *f = &ENV_FIELDS[i];
    const char *s = ds_lab_getenv(f->name);
    if (s == NULL) continue;
    const unsigned long long max = f->is_int ? (unsigned long long)INT32_MAX : UINT32_MAX;
    char *end = NULL;
    errno = 0;
    const unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
    if (end == NULL || *end != '\0' || errno != 0 || v > max)
      return ds_error_set(err, DS_ERR_ARG, "%s='%s': expected a whole number in 0..%llu", f->name, s, max);
    char *field = (char *)opt + f->offset;
    if (f->is_int) *(int *)field = (int)v;
    else *(uint32_t *)field = (uint32_t)v;
  }
  return DS_OK;
}

/* The program's one traced context: the records and the file they go to. */
static unsigned long long trace_records[4 * (size_t)TRACE_ROUNDS];
static ds_gpu_trace trace = {trace_records, TRACE_ROUNDS, 0, 0};
static const char *trace_path = NULL;

ds_status ds_gpu_open_env(int device, const ds_graph *g, ds_gpu_ctx **ctx, ds_error *err) {
  ds_gpu_options opt;
  ds_gpu_options_default(&opt);
  ds_status st = ds_gpu_options_from_env(&opt, err);
  if (st != DS_OK) return st;
  trace_path = ds_lab_getenv(TRACE_ENV);
  if (trace_path != NULL && trace_path[0] == '\0') trace_path = NULL;
  opt.trace = trace_path != NULL ? &trace : NULL;
  return ds_gpu_open(device, g, &opt, ctx, err);
}

/* Appends the last search's records: a header, then per round its frontier,
 * blocks, huge-list vertices and arcs, and microseconds. */
static ds_status trace_append(ds_algo algo, uint32_t source, double ms, ds_error *err) {
  FILE *f = fopen(trace_path, "a");
  if (f == NULL) return ds_error_set(err, DS_ERR_IO, "%s: cannot open the trace file: %s", trace_path, strerror(errno));
  const unsigned long long *h = trace.records;
  fprintf(f, "# %s source %u rounds %u ms %.3f\n# round frontier blocks(0=grid) huge_vertices huge_arcs us\n",
          ds_algo_name(algo), source, trace.rounds, ms);
  for (uint32_t r = 0; r + 1 < trace.count; ++r)
    fprintf(f, "%u %llu %llu %llu %llu %.2f\n", r, h[4 * r + 1], h[4 * r + 2],
            h[4 * r + 3] >> DS_GPU_TRACE_HUGE_SHIFT, h[4 * r + 3] & TRACE_HUGE_ARCS_MASK,
            (double)(h[4 * (r + 1)] - h[4 * r]) / 1e3);
  if (fclose(f) != 0) return ds_error_set(err, DS_ERR_IO, "%s: cannot write the trace file", trace_path);
  return DS_OK;
}

ds_status ds_gpu_sssp_env(ds_gpu_ctx *ctx, ds_algo algo, uint32_t source, const ds_sssp_params *params,
                          ds_sssp_result *res, ds_error *err) {
  trace.count = 0;
  ds_status st = ds_gpu_sssp(ctx, algo, source, params, res, err);
  if (st != DS_OK || trace_path == NULL || trace.count == 0) return st;
  return trace_append(algo, source, res->time_ms, err);
}
