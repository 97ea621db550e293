/* Helpers of the generators' tests, over the graph layer's (graph_test_util.h):
 * the OpenMP thread count of a run, the binomial coefficients of the closed
 * forms that the R-MAT and Kronecker statistics are checked against, and the
 * generation of an edge list that the rest of a test cannot do without (a test
 * that uses it defines GEN_TEST_NAME, its name in the final summary, first). */
#ifndef DS_GEN_TEST_UTIL_H
#define DS_GEN_TEST_UTIL_H

#include "graph_test_util.h" /* first: ds_test.h sets the feature macros */

#include <math.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ds/gen.h"

static inline void set_threads(int t) {
#ifdef _OPENMP
  omp_set_num_threads(t);
#else
  (void)t;
#endif
}

static inline double binom(int n, int k) {
  double r = 1;
  for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
  return r;
}

#ifdef GEN_TEST_NAME
static inline void gen_or_die(const ds_gen_spec *s, ds_gen_edge_list *e) {
  ds_error err;
  /* poison: a generator that leaves entries unwritten is caught by the checks */
  memset(e, POISON_BYTE, sizeof *e);
  /* the checks after this one would read a list that is not there */
  if (!CHECK(ds_gen_edges(s, e, &err) == DS_OK, "ds_gen_edges(%s): %s", ds_gen_kind_name(s->kind),
             err.msg))
    exit(ds_test_finish(GEN_TEST_NAME));
}
#endif

#endif /* DS_GEN_TEST_UTIL_H */
