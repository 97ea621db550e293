/* sssp --target (run_targets.h): the targets mapped from the file's numbering,
 * and each target's answer read from the search's predecessors: printed,
 * written to --output and to the JSON report. Paths are read with
 * ds_sssp_path, so a broken predecessor tree is an error here rather than a
 * walk without end.
 */
#include "run_targets.h"

#include <stdlib.h>
#include <string.h>

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

int ds_run_json_targets(cJSON *root, const ds_target_answer *a) {
  cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
  cJSON *run = cJSON_GetArrayItem(runs, cJSON_GetArraySize(runs) - 1);
  if (run == NULL) return 0;
  const uint32_t base = (uint32_t)a->g->index_base;
  const int is_float = a->g->weight_type == DS_WEIGHT_F32;
  cJSON *jt = cJSON_AddObjectToObject(run, "targets");
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
