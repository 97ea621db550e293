/* Helpers of the generators' tests, over the graph layer's (graph_test_util.h):
 * the OpenMP thread count of a run, and the binomial coefficients of the
 * closed forms that the R-MAT and Kronecker statistics are checked against. */
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

#endif /* DS_GEN_TEST_UTIL_H */
