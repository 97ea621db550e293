/* The distributed validation's shared state (dsssp_validate.c, and the
 * predecessor tree's check in dsssp_tree.c): private to app/dist. */
#ifndef DS_DIST_DSSSP_CHECK_H
#define DS_DIST_DSSSP_CHECK_H

#include "dist/dsssp.h"

/* A distance (or a distance plus a weight): exact integer i or double f. */
typedef ds_dist_value dval;

typedef struct {
  ds_comm *comm;
  const ds_dgraph *g;
  const void *dist;
  ds_dist_width width;
  int is_float;
  double tol;
  /* the first violation this rank found */
  ds_status verdict;
  uint64_t bad;
  ds_error msg;
  /* distances of the other ranks' heads: sorted ids, their values encoded */
  uint32_t *ghost;
  uint64_t *ghost_val;
  size_t ghosts;
} checker;

/* Reports the first violation only. */
#define VIOLATION(c, vertex, ...)                                                         \
  do {                                                                                    \
    if ((c)->verdict == DS_OK) {                                                          \
      (c)->verdict = ds_error_set(&(c)->msg, DS_ERR_VALIDATION, __VA_ARGS__);            \
      (c)->bad = (vertex);                                                                \
    }                                                                                     \
  } while (0)

static inline dval local_dist(const checker *c, uint32_t v) {
  return ds_dist_read(c->dist, c->is_float, c->width, v);
}

static inline ds_status nomem(const checker *c, const char *what, ds_error *err) {
  return ds_error_set(err, DS_ERR_NOMEM, "validation on rank %d: out of memory for %s",
                      c->g->rank, what);
}

/* Rule 4 (dsssp_tree.c): every reached vertex's predecessors lead to the
 * source, by pointer jumping over the ranks. A collective call. */
ds_status dsssp_check_tree(checker *c, uint32_t source, const uint32_t *pred, ds_error *err);

#endif /* DS_DIST_DSSSP_CHECK_H */
