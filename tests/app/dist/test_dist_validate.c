/* The distributed Graph500 validator (app/dist/dsssp_validate.c,
 * dsssp_tree.c) rejects corrupted results of the CPU twin's search on every
 * rank, naming the vertex: a wrong distance (up, down, or a reachable vertex
 * left unreached), a missing or wrong predecessor, and a cycle of zero-weight
 * predecessors across ranks, which keeps every predecessor arc tight. (That it
 * passes every correct result is test_dist_sssp's part.)
 */
#include "ds_test.h"

#include "dist_sssp_run.h"

static void check_rejects(const char *name, const test_edges *e, int symmetric, uint32_t source,
                          int ranks, corruption c, uint32_t victim, uint32_t victim2,
                          uint32_t wrong_pred, const char *pattern, int any_bad) {
  ds_dsssp_params p;
  ds_dsssp_params_default(&p);
  p.want_pred = 1;
  p.delta = 50;
  ds_status st;
  ds_error err;
  run_arg *a = run(e, symmetric, ranks, source, &p, (corruption_spec){c, victim, victim2, wrong_pred}, &st, &err);
  if (CHECK(st == DS_OK, "%s R=%d: %s", name, ranks, err.msg))
    for (int r = 0; r < ranks; r++) {
      CHECK(a->validated[r] == DS_ERR_VALIDATION, "%s R=%d rank %d: validator gave %d (%s)", name,
            ranks, r, a->validated[r], a->vmsg[r]);
      CHECK(strstr(a->vmsg[r], pattern) != NULL, "%s R=%d rank %d: '%s' lacks '%s'", name, ranks,
            r, a->vmsg[r], pattern);
      CHECK(a->bad[r] == victim || (c == C_CYCLE && a->bad[r] == victim2) ||
                (any_bad && a->bad[r] < e->n),
            "%s R=%d rank %d: bad vertex %u, want %u", name, ranks, r, a->bad[r], victim);
    }
  run_free(a);
}

/* The head of the first arc that leaves u. */
static uint32_t neighbour(const test_edges *e, uint32_t u) {
  for (uint64_t i = 0; i < e->count; i++)
    if (e->src[i] == u && e->dst[i] != u) return e->dst[i];
  return u;
}

static void test_rejections(const test_edges *ints, const test_edges *floats) {
  // a zero-weight cycle 1 <-> 2 behind the source 0: pointing 1 and 2 at each other keeps
  // every predecessor arc tight, so only the tree check (rule 4) can see it
  static const uint32_t arcs[][3] = {{0, 1, 1}, {1, 2, 0}, {2, 1, 0}, {2, 3, 5}, {0, 4, 3},
                                     {4, 5, 2}, {5, 6, 2}, {6, 7, 2}};
  test_edges zero = edges_of(8, arcs, sizeof arcs / sizeof *arcs);
  for (int ranks = 2; ranks <= 7; ranks += 5) {
    check_rejects("cycle", &zero, 0, 0, ranks, C_CYCLE, 1, 2, 0, "do not lead to the source", 0);
    check_rejects("missing predecessor", &zero, 0, 0, ranks, C_PRED_NONE, 3, 0, 0,
                  "reached vertex 3 has no predecessor", 0);
    check_rejects("wrong predecessor", &zero, 0, 0, ranks, C_PRED_WRONG, 7, 0, 4,
                  "vertex 7 has predecessor 4 but there is no arc 4 -> 7", 0);
    check_rejects("distance up", &zero, 0, 0, ranks, C_DIST_UP, 6, 0, 0,
                  "vertex 6 has distance 8 but the arc from 5 gives 7", 0);
    check_rejects("distance down", &zero, 0, 0, ranks, C_DIST_DOWN, 7, 0, 0,
                  "vertex 7 has distance 8 but its predecessor 6 gives 9", 0);
    check_rejects("unreached", &zero, 0, 0, ranks, C_UNREACHED, 5, 0, 0,
                  "vertex 5 has distance inf but the arc from 4 gives 5", 0);
  }
  // on random graphs, a neighbour of the source (so reached); the first violation found may
  // name it or a vertex whose arcs it spoils
  check_rejects("int distance up", ints, 1, 0, 3, C_DIST_UP, neighbour(ints, 0), 0, 0, "vertex", 1);
  check_rejects("float distance down", floats, 0, 0, 4, C_DIST_DOWN, neighbour(floats, 0), 0, 0,
                "vertex", 1);
  check_rejects("float unreached", floats, 1, 0, 7, C_UNREACHED, neighbour(floats, 0), 0, 0,
                "distance inf", 1);
  test_edges_free(&zero);
}

int main(void) {
  const test_shape shape = {1500, 9000, 0.02, 0.1, 0.02, 30};
  test_edges ints = test_edges_random(&shape, DS_WEIGHT_U32, 0, 11);
  test_edges floats = test_edges_random(&shape, DS_WEIGHT_F32, 0, 12);
  test_rejections(&ints, &floats);
  test_edges_free(&ints);
  test_edges_free(&floats);
  return ds_test_finish("dist validate");
}
