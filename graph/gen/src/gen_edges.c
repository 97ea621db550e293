/* ds_gen's shared pieces below the generators: the edge list's memory and
 * the geometric radius (gen_edges.h says why they are apart from the front
 * end).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_edges.h"

#define DS_PI 3.14159265358979323846

double ds_gen_geo_radius(const ds_gen_spec *spec) {
  if (spec->radius > 0) return spec->radius;
  return sqrt(spec->degree / (DS_PI * (double)spec->n));
}

ds_status ds_gen_alloc_edges(ds_gen_edge_list *out, uint32_t n, uint64_t count, int symmetric,
                             ds_error *err) {
  memset(out, 0, sizeof *out);
  out->n = n;
  out->count = count;
  out->symmetric = symmetric;
  if (count > SIZE_MAX / sizeof(uint32_t))
    return ds_error_set(err, DS_ERR_NOMEM, "%llu edges do not fit this machine's address space",
                        (unsigned long long)count);
  size_t bytes = (size_t)(count ? count : 1) * sizeof(uint32_t);
  out->src = malloc(bytes);
  out->dst = malloc(bytes);
  out->w = malloc(bytes);
  if (!out->src || !out->dst || !out->w) {
    ds_gen_edges_free(out);
    return ds_error_set(err, DS_ERR_NOMEM, "out of memory for %llu generated edges (%.1f GiB)",
                        (unsigned long long)count, 3.0 * (double)bytes / (1 << 30));
  }
  return DS_OK;
}

void ds_gen_edges_free(ds_gen_edge_list *e) {
  if (!e) return;
  free(e->src);
  free(e->dst);
  free(e->w);
  e->src = e->dst = e->w = NULL;
  e->count = 0;
}

ds_edge_list ds_gen_edges_view(const ds_gen_edge_list *e) {
  ds_edge_list v;
  v.n = e->n;
  v.count = e->count;
  v.src = e->src;
  v.dst = e->dst;
  v.weight_type = DS_WEIGHT_U32;
  v.weights = e->w;
  return v;
}
