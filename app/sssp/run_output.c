/* sssp --output (run.h): one line a vertex, "vertex distance [predecessor]"
 * in the file's numbering, for every vertex or those chosen (the vertices on
 * the targets' paths), beneath both drivers (run.c, run_dist.c) and the
 * targets' report (run_targets.c).
 */
#include <stdio.h>

#include "ds/out_file.h"
#include "run.h"

void ds_run_print_distance(FILE *f, const ds_graph *g, const void *dist, ds_dist_width w,
                           uint32_t v) {
  if (!ds_dist_is_finite(g, dist, w, v)) fputs("inf", f);
  else if (g->weight_type == DS_WEIGHT_F32) fprintf(f, "%.9g", (double)((const float *)dist)[v]);
  else if (w == DS_DIST_WIDE) fprintf(f, "%llu", (unsigned long long)((const uint64_t *)dist)[v]);
  else fprintf(f, "%u", ((const uint32_t *)dist)[v]);
}

/* --output: one line per vertex in the file's numbering (run.h). */
ds_exit_code ds_run_write_output(const char *path, const ds_graph *g, const void *dist,
                                 ds_dist_width w, const uint32_t *pred) {
  return ds_run_write_output_of(path, g, dist, w, pred, NULL);
}

ds_exit_code ds_run_write_output_of(const char *path, const ds_graph *g, const void *dist,
                                    ds_dist_width w, const uint32_t *pred,
                                    const unsigned char *only) {
  ds_out_file out;
  ds_error err = {{0}};
  if (ds_out_open(path, &out, &err) != DS_OK) {
    fprintf(stderr, "sssp: the output file: %s\n", err.msg);
    return DS_EXIT_INPUT;
  }
  FILE *f = out.stream;
  const uint32_t base = (uint32_t)g->index_base;
  for (uint32_t v = 0; v < g->n; v++) {
    if (only != NULL && !only[v]) continue;
    fprintf(f, "%u ", v + base);
    ds_run_print_distance(f, g, dist, w, v);
    if (pred != NULL) {
      if (pred[v] == DS_NO_PRED) fputs(" -", f);
      else fprintf(f, " %u", pred[v] + base);
    }
    fputc('\n', f);
  }
  if (ds_out_close(&out, &err) != DS_OK) {
    fprintf(stderr, "sssp: the output file: %s\n", err.msg);
    return DS_EXIT_INPUT;
  }
  return DS_EXIT_OK;
}
