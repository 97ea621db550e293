/* Small shared pieces of the graph layer: the error helper, enum names, the
 * weight distributions' names and checks, the default load options, freeing a
 * graph, and file names. */
#include "graph_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_WEIGHT_MIN 1u
#define DEFAULT_WEIGHT_MAX 1000u
#define DEFAULT_SEED 1u

ds_status ds_error_set(ds_error *err, ds_status status, const char *fmt, ...) {
  if (err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return status;
}

const char *ds_status_name(ds_status s) {
  switch (s) {
  case DS_OK: return "ok";
  case DS_ERR_IO: return "input/output error";
  case DS_ERR_FORMAT: return "format error";
  case DS_ERR_UNSUPPORTED: return "unsupported input";
  case DS_ERR_ARG: return "bad argument";
  case DS_ERR_NOMEM: return "out of memory";
  case DS_ERR_STALE: return "stale cache";
  case DS_ERR_DEVICE: return "device error";
  case DS_ERR_VALIDATION: return "validation failed";
  case DS_ERR_RANGE: return "distance out of range";
  }
  return "unknown status";
}

const char *ds_format_name(ds_format f) {
  switch (f) {
  case DS_FORMAT_AUTO: return "auto";
  case DS_FORMAT_MTX: return "mtx";
  case DS_FORMAT_DIMACS: return "dimacs";
  case DS_FORMAT_EL: return "el";
  case DS_FORMAT_WEL: return "wel";
  case DS_FORMAT_CACHE: return "cache";
  }
  return "unknown";
}

static const char *const WEIGHT_DIST_NAMES[DS_WEIGHT_DISTS] = {"uniform", "log", "bimodal"};

const char *ds_weight_dist_name(ds_weight_dist d) {
  return (unsigned)d < DS_WEIGHT_DISTS ? WEIGHT_DIST_NAMES[d] : "unknown";
}

ds_status ds_weight_dist_parse(const char *text, ds_weight_dist *d, ds_error *err) {
  if (text == NULL || d == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_weight_dist_parse: text and d must not be NULL");
  for (int k = 0; k < DS_WEIGHT_DISTS; k++)
    if (strcmp(text, WEIGHT_DIST_NAMES[k]) == 0) {
      *d = (ds_weight_dist)k;
      return DS_OK;
    }
  return ds_error_set(err, DS_ERR_ARG, "'%s' is not a weight distribution (uniform, log or "
                      "bimodal)", text);
}

ds_status ds_weight_dist_check(ds_weight_dist d, uint32_t lo, uint32_t hi, ds_error *err) {
  if (lo > hi)
    return ds_error_set(err, DS_ERR_ARG, "weight range %u:%u is empty (min > max)", lo, hi);
  if ((unsigned)d >= DS_WEIGHT_DISTS)
    return ds_error_set(err, DS_ERR_ARG, "unknown weight distribution %d", (int)d);
  if (d == DS_WEIGHTS_LOG && lo == 0) /* octave floor(log2 0) does not exist */
    return ds_error_set(err, DS_ERR_ARG, "log-uniform weights need a minimum of at least 1 (the "
                        "range is 0:%u)", hi);
  return DS_OK;
}

void ds_load_options_default(ds_load_options *opt) {
  if (opt == NULL) return;
  memset(opt, 0, sizeof *opt);
  opt->format = DS_FORMAT_AUTO;
  opt->undirected = 0;
  opt->weight_min = DEFAULT_WEIGHT_MIN;
  opt->weight_max = DEFAULT_WEIGHT_MAX;
  opt->weight_dist = DS_WEIGHTS_UNIFORM;
  opt->seed = DEFAULT_SEED;
  opt->use_cache = 1;
  opt->cache_dir = NULL;
  opt->progress = 1;
}

void ds_graph_free(ds_graph *g) {
  if (g == NULL) return;
  free(g->row_offsets);
  free(g->col);
  free(g->weights);
  g->row_offsets = NULL;
  g->col = NULL;
  g->weights = NULL;
  g->n = 0;
  g->m = 0;
}

static const char *base_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

void ds_graph_name_of(const char *path, char *out, size_t out_len) {
  if (out_len == 0) return;
  snprintf(out, out_len, "%s", base_of(path));
  size_t len = strlen(out);
  if (len > 3 && strcmp(out + len - 3, ".gz") == 0) out[len -= 3] = '\0';
  char *dot = strrchr(out, '.');
  if (dot != NULL && dot != out) *dot = '\0';
}

void ds_extension_of(const char *path, char *out, size_t out_len) {
  if (out_len == 0) return;
  char base[256];
  snprintf(base, sizeof base, "%s", base_of(path));
  size_t len = strlen(base);
  if (len > 3 && strcmp(base + len - 3, ".gz") == 0) base[len - 3] = '\0';
  const char *dot = strrchr(base, '.');
  snprintf(out, out_len, "%s", dot && dot != base ? dot + 1 : "");
  for (char *c = out; *c; c++) *c = (char)tolower((unsigned char)*c);
}
