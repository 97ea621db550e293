/* sssp --target (run_targets.h): the targets mapped from the file's numbering,
 * and each target's answer read from the search's predecessors: printed,
 * written to --output and to the JSON report. Paths are read with
 * ds_sssp_path, so a broken predecessor tree is an error here rather than a
 * walk without end. With several sources, a matrix of the distances from each
 * source to each target instead (no paths).
 */
#include "run_targets.h"

#include <stdlib.h>
#include <string.h>

#include "ds/out_file.h"
#include "run.h"

ds_exit_code ds_run_pick_targets(const ds_cli *cli, const ds_graph *g, const char *path,
                                 uint32_t *targets) {
  const uint32_t base = (uint32_t)g->index_base;
  for (uint32_t i = 0; i < cli->n_targets; i++) {
    const uint64_t t = cli->targets[i];
    if (t < base || t - base >= g->n) {
      fprintf(stderr, "sssp: target %llu is out of range: %s has vertices %u..%llu\n",
              (unsigned long long)t, path, base, (unsigned long long)g->n - 1 + base);
      return DS_EXIT_USAGE;
    }
    targets[i] = (uint32_t)(t - base);
  }
  return DS_EXIT_OK;
}

/* The path to target i into *path (allocated, *len vertices; NULL and 0 where
 * unreachable). */
static ds_exit_code path_of(const ds_target_answer *a, uint32_t i, uint32_t **path,
                            uint32_t *len) {
  ds_error err = {{0}};
  *path = NULL;
  ds_status st = ds_sssp_path(a->g, a->source, a->pred, a->targets[i], NULL, 0, len, &err);
  if (st == DS_OK && *len > 0) {
    if ((*path = (uint32_t *)malloc(*len * sizeof(uint32_t))) == NULL) {
      fprintf(stderr, "sssp: out of memory for the path to target %u\n",
              a->targets[i] + (uint32_t)a->g->index_base);
      return DS_EXIT_INTERNAL;
    }
    st = ds_sssp_path(a->g, a->source, a->pred, a->targets[i], *path, *len, len, &err);
  }
  if (st == DS_OK) return DS_EXIT_OK;
  free(*path);
  *path = NULL;
  fprintf(stderr, "sssp: %s: %s\n", ds_algo_name(a->algo), err.msg);
  return DS_EXIT_VALIDATION;
}

ds_exit_code ds_run_print_targets(FILE *f, const ds_target_answer *a) {
  const uint32_t base = (uint32_t)a->g->index_base;
  fprintf(f, "targets from %u (%s, %s):\n", a->source + base, ds_algo_name(a->algo),
          a->stopped_early ? "the search stopped once they were settled"
                           : "the search ran to the end");
  for (uint32_t i = 0; i < a->n_targets; i++) {
    uint32_t *path = NULL, len = 0;
    ds_exit_code rc = path_of(a, i, &path, &len);
    if (rc != DS_EXIT_OK) return rc;
    fprintf(f, "  target %u: ", a->targets[i] + base);
    if (len == 0) {
      fprintf(f, "unreachable from %u\n", a->source + base);
      continue;
    }
    fputs("distance ", f);
    ds_run_print_distance(f, a->g, a->dist, a->width, a->targets[i]);
    fprintf(f, ", path of %u vert%s:", len, len == 1 ? "ex" : "ices");
    for (uint32_t k = 0; k < len; k++) fprintf(f, " %u", path[k] + base);
    fputc('\n', f);
    free(path);
  }
  return DS_EXIT_OK;
}

ds_exit_code ds_run_write_target_output(const char *path, const ds_target_answer *a) {
  unsigned char *on_path = (unsigned char *)calloc(a->g->n ? a->g->n : 1, 1);
  if (on_path == NULL) {
    fprintf(stderr, "sssp: out of memory for the output's paths\n");
    return DS_EXIT_INTERNAL;
  }
  ds_exit_code rc = DS_EXIT_OK;
  for (uint32_t i = 0; i < a->n_targets && rc == DS_EXIT_OK; i++) {
    uint32_t *p = NULL, len = 0;
    if ((rc = path_of(a, i, &p, &len)) != DS_EXIT_OK) break;
    for (uint32_t k = 0; k < len; k++) on_path[p[k]] = 1;
    free(p);
  }
  if (rc == DS_EXIT_OK)
    rc = ds_run_write_output_of(path, a->g, a->dist, a->width, a->pred, on_path);
  free(on_path);
  return rc;
}

/* root["runs"]'s last run's new "targets" object, or NULL. */
static cJSON *targets_object(cJSON *root) {
  cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
  cJSON *run = cJSON_GetArrayItem(runs, cJSON_GetArraySize(runs) - 1);
  return run != NULL ? cJSON_AddObjectToObject(run, "targets") : NULL;
}

int ds_run_json_targets(cJSON *root, const ds_target_answer *a) {
  const uint32_t base = (uint32_t)a->g->index_base;
  const int is_float = a->g->weight_type == DS_WEIGHT_F32;
  cJSON *jt = targets_object(root);
  if (jt == NULL) return 0;
  cJSON_AddStringToObject(jt, "algorithm", ds_algo_name(a->algo));
  cJSON_AddNumberToObject(jt, "source", a->source + base);
  cJSON_AddBoolToObject(jt, "stopped_early", a->stopped_early);
  cJSON *list = cJSON_AddArrayToObject(jt, "paths");
  if (list == NULL) return 0;
  for (uint32_t i = 0; i < a->n_targets; i++) {
    uint32_t *path = NULL, len = 0;
    if (path_of(a, i, &path, &len) != DS_EXIT_OK) return 0;
    cJSON *o = cJSON_CreateObject();
    cJSON *jp = cJSON_CreateArray();
    if (o == NULL || jp == NULL) {
      cJSON_Delete(o);
      cJSON_Delete(jp);
      free(path);
      return 0;
    }
    cJSON_AddItemToArray(list, o);
    cJSON_AddNumberToObject(o, "target", a->targets[i] + base);
    const ds_dist_value d = ds_dist_read(a->dist, is_float, a->width, a->targets[i]);
    if (len == 0) cJSON_AddNullToObject(o, "distance");
    else cJSON_AddNumberToObject(o, "distance", is_float ? d.f : (double)d.i);
    for (uint32_t k = 0; k < len; k++) cJSON_AddItemToArray(jp, cJSON_CreateNumber(path[k] + base));
    cJSON_AddItemToObject(o, "path", jp);
    free(path);
  }
  return 1;
}

/* ---- several sources: the matrix ----------------------------------------------------- */

static size_t cell_size(const ds_target_matrix *m) { return ds_dist_size(m->g, m->width); }

int ds_run_matrix_alloc(ds_target_matrix *m) {
  const size_t cells = (size_t)m->n_sources * m->n_targets;
  m->cells = (unsigned char *)malloc((cells ? cells : 1) * cell_size(m));
  return m->cells != NULL;
}

void ds_run_matrix_free(ds_target_matrix *m) {
  free(m->cells);
  m->cells = NULL;
}

void ds_run_matrix_row(ds_target_matrix *m, uint32_t s, const void *dist) {
  const size_t size = cell_size(m);
  unsigned char *row = m->cells + (size_t)s * m->n_targets * size;
  for (uint32_t j = 0; j < m->n_targets; j++)
    memcpy(row + j * size, (const unsigned char *)dist + (size_t)m->targets[j] * size, size);
}

void ds_run_print_matrix(FILE *f, const ds_target_matrix *m, int titled) {
  const uint32_t base = (uint32_t)m->g->index_base;
  if (titled)
    fprintf(f, "distances from %u sources to %u targets (%s; a row a source):\n", m->n_sources,
            m->n_targets, ds_algo_name(m->algo));
  fputs("source", f);
  for (uint32_t j = 0; j < m->n_targets; j++) fprintf(f, " %u", m->targets[j] + base);
  fputc('\n', f);
  const size_t row_bytes = (size_t)m->n_targets * cell_size(m);
  for (uint32_t s = 0; s < m->n_sources; s++) {
    fprintf(f, "%u", m->sources[s] + base);
    for (uint32_t j = 0; j < m->n_targets; j++) {
      fputc(' ', f);
      ds_run_print_distance(f, m->g, m->cells + s * row_bytes, m->width, j);
    }
    fputc('\n', f);
  }
}

ds_exit_code ds_run_write_matrix(const char *path, const ds_target_matrix *m) {
  ds_out_file out;
  ds_error err = {{0}};
  if (ds_out_open(path, &out, &err) != DS_OK) {
    fprintf(stderr, "sssp: the output file: %s\n", err.msg);
    return DS_EXIT_INPUT;
  }
  ds_run_print_matrix(out.stream, m, 0);
  if (ds_out_close(&out, &err) != DS_OK) {
    fprintf(stderr, "sssp: the output file: %s\n", err.msg);
    return DS_EXIT_INPUT;
  }
  return DS_EXIT_OK;
}

int ds_run_json_matrix(cJSON *root, const ds_target_matrix *m) {
  const uint32_t base = (uint32_t)m->g->index_base;
  const int is_float = m->g->weight_type == DS_WEIGHT_F32;
  cJSON *jt = targets_object(root);
  cJSON *srcs = jt ? cJSON_AddArrayToObject(jt, "sources") : NULL;
  cJSON *tgts = jt ? cJSON_AddArrayToObject(jt, "targets") : NULL;
  cJSON *rows = jt ? cJSON_AddArrayToObject(jt, "distances") : NULL;
  if (rows == NULL || srcs == NULL || tgts == NULL) return 0;
  cJSON_AddStringToObject(jt, "algorithm", ds_algo_name(m->algo));
  for (uint32_t j = 0; j < m->n_targets; j++)
    cJSON_AddItemToArray(tgts, cJSON_CreateNumber(m->targets[j] + base));
  const size_t row_bytes = (size_t)m->n_targets * cell_size(m);
  for (uint32_t s = 0; s < m->n_sources; s++) {
    cJSON_AddItemToArray(srcs, cJSON_CreateNumber(m->sources[s] + base));
    cJSON *row = cJSON_CreateArray();
    if (row == NULL) return 0;
    cJSON_AddItemToArray(rows, row);
    const void *cells = m->cells + s * row_bytes;
    for (uint32_t j = 0; j < m->n_targets; j++) {
      const ds_dist_value d = ds_dist_read(cells, is_float, m->width, j);
      cJSON_AddItemToArray(row, !ds_dist_is_finite(m->g, cells, m->width, j)
                                    ? cJSON_CreateNull()
                                    : cJSON_CreateNumber(is_float ? d.f : (double)d.i));
    }
  }
  return 1;
}
