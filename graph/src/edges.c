/* The growing edge list (ds_edges) that the readers fill. */
#include "graph_internal.h"

#include <stdlib.h>

ds_status ds_edges_reserve(ds_edges *e, uint64_t cap, ds_error *err) {
  /* the arrays exist after the first call even for no edges, so that a
     weighted list of 0 edges still has weights (else the CSR build takes it
     for a pattern graph and describes its weights as generated) */
  if (cap <= e->cap && e->src != NULL) return DS_OK;
  if (cap < 1024) cap = 1024;
  uint32_t *s = realloc(e->src, cap * sizeof *s);
  if (s) e->src = s;
  uint32_t *d = s ? realloc(e->dst, cap * sizeof *d) : NULL;
  if (d) e->dst = d;
  uint32_t *w = NULL;
  if (d && e->weighted) {
    w = realloc(e->w, cap * sizeof *w);
    if (w) e->w = w;
  }
  if (s == NULL || d == NULL || (e->weighted && w == NULL))
    return ds_error_set(err, DS_ERR_NOMEM, "out of memory for %llu edges",
                        (unsigned long long)cap);
  e->cap = cap;
  return DS_OK;
}

void ds_edges_free(ds_edges *e) {
  free(e->src);
  free(e->dst);
  free(e->w);
  e->src = e->dst = e->w = NULL;
  e->count = e->cap = 0;
}
