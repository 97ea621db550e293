/* A shortest path read from a search's predecessors (ds_sssp_path in
 * sssp.h): the walk from the target back to the source, written source first.
 * A walk longer than n vertices cannot be a path, so it ends there, and a
 * broken tree (a cycle, a chain that ends at another root) is an error, not a
 * loop.
 */
#include "sssp.h"

ds_status ds_sssp_path(const ds_graph *g, uint32_t source, const uint32_t *pred, uint32_t target,
                       uint32_t *path, uint32_t cap, uint32_t *len, ds_error *err) {
  // 1. check arguments
  if (g == NULL || pred == NULL || len == NULL)
    return ds_error_set(err, DS_ERR_ARG, "path: graph, predecessors or length is NULL");
  if (source >= g->n || target >= g->n)
    return ds_error_set(err, DS_ERR_ARG,
                        "path: source %u or target %u is out of range: the graph has %u vertices",
                        source, target, g->n);
  const uint32_t base = (uint32_t)g->index_base;
  // 2. the length: steps back from the target until the source, at most n - 1 of them
  *len = 0;
  if (target != source && pred[target] == DS_NO_PRED) return DS_OK; /* unreached */
  uint32_t count = 1;
  for (uint32_t v = target; v != source; count++) {
    const uint32_t u = pred[v];
    if (u == DS_NO_PRED || u >= g->n || count == g->n)
      return ds_error_set(err, DS_ERR_VALIDATION,
                          "path: the predecessors of vertex %u do not lead back to source %u",
                          target + base, source + base);
    v = u;
  }
  // 3. the vertices, written from the end
  if (path != NULL) {
    if (cap < count)
      return ds_error_set(err, DS_ERR_ARG, "path: room for %u vertices, the path has %u", cap,
                          count);
    uint32_t v = target;
    for (uint32_t i = count; i-- > 0; v = pred[v]) path[i] = v;
  }
  *len = count;
  return DS_OK;
}
