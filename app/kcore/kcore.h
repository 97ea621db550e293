/* k-core decomposition of an undirected graph: the core number of every
 * vertex, the largest k such that the vertex belongs to a subgraph in which
 * every vertex has at least k neighbours.
 *
 * Library ds_kcore (C11, OpenMP). Nothing here prints or exits; errors come
 * back as a ds_status with a message naming the function and the argument.
 *
 * Example:
 *   uint32_t *core = malloc(g.n * sizeof *core), degeneracy;
 *   ds_error err;
 *   if (ds_kcore_cpu(&g, 0, core, &err) != DS_OK) fprintf(stderr, "%s\n", err.msg);
 *   ds_kcore_summary(core, g.n, &degeneracy, NULL);
 *   uint64_t *sizes = malloc((degeneracy + 1ull) * sizeof *sizes);
 *   ds_kcore_summary(core, g.n, &degeneracy, sizes);
 */
#ifndef DS_KCORE_H
#define DS_KCORE_H

#include <stdint.h>

#include "ds/graph.h" /* ds_graph: CSR, rows sorted, no self loops, no duplicates */
#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Core numbers by the serial O(n + m) peeling of Batagelj and Zaversnik, "An
 * O(m) Algorithm for Cores Decomposition of Networks": the oracle of the
 * parallel backend.
 * [in]  g     an undirected graph (g->symmetric == 1); weights are ignored.
 * [out] core  n entries, caller-allocated (may be NULL when g->n == 0).
 * Scratch: 8 n bytes plus 4 (max degree + 1), allocated and freed here.
 * Errors: DS_ERR_ARG (NULL graph or core, a graph that is not symmetric),
 * DS_ERR_NOMEM. */
ds_status ds_kcore_oracle(const ds_graph *g, uint32_t *core, ds_error *err);

/* Core numbers by parallel peeling in rounds (the bucketed peeling of
 * Dhulipala, Blelloch and Shun, "Julienne: A Framework for Parallel Graph
 * Algorithms using Work-efficient Bucketing"): every round peels all the
 * vertices of degree k at once.
 * [in]  threads  OpenMP threads; <= 0: OpenMP's default.
 * Otherwise as ds_kcore_oracle; the result is the same for any thread count.
 * Scratch: 20 n bytes plus a few per thread. */
ds_status ds_kcore_cpu(const ds_graph *g, int threads, uint32_t *core, ds_error *err);

/* Summary of a core array: *degeneracy, the largest core number (0 when n is
 * 0), and, when sizes != NULL, sizes[k] = the number of vertices whose core
 * number is exactly k, for k = 0..degeneracy (degeneracy + 1 entries,
 * caller-allocated: call once with sizes == NULL to learn the degeneracy). */
void ds_kcore_summary(const uint32_t *core, uint32_t n, uint32_t *degeneracy, uint64_t *sizes);

#ifdef __cplusplus
}
#endif
#endif /* DS_KCORE_H */
