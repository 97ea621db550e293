/* The harness of the distributed SSSP tests (test_dist_sssp.c,
 * test_dist_validate.c): a search on simulated ranks (threads), each rank
 * building its part of the graph, searching, optionally spoiling its result
 * and validating it; the parts gathered into whole arrays for the checks. */
#ifndef DS_DIST_SSSP_RUN_H
#define DS_DIST_SSSP_RUN_H

#include <math.h>

#include "dist/dsssp.h"
#include "dist_test_util.h"

typedef enum {
  C_NONE = 0,
  C_DIST_UP,      /* a reached vertex's distance raised */
  C_DIST_DOWN,    /* lowered */
  C_PRED_NONE,    /* a reached vertex without predecessor */
  C_PRED_WRONG,   /* a predecessor with no arc to the vertex */
  C_CYCLE,        /* two predecessors that point at each other */
  C_UNREACHED     /* a reachable vertex reported unreached */
} corruption;

/* What run_rank spoils in a rank's result before it validates it. */
typedef struct {
  corruption kind;
  uint32_t victim, victim2; /* global ids the corruption touches */
  uint32_t wrong_pred;
} corruption_spec;

typedef struct {
  /* in */
  const test_edges *edges;
  int symmetric;
  uint32_t source;
  ds_dsssp_params params;
  corruption_spec bad_result; /* spoiled before the validation */
  /* out: the ranks' parts gathered into whole arrays, and what each rank saw */
  void *dist;
  uint32_t *pred;
  ds_dsssp_result res[TEST_MAX_RANKS];
  ds_comm_stats before[TEST_MAX_RANKS], after[TEST_MAX_RANKS];
  ds_status validated[TEST_MAX_RANKS];
  uint32_t bad[TEST_MAX_RANKS];
  char vmsg[TEST_MAX_RANKS][DS_ERROR_MSG_LEN];
} run_arg;

static size_t width_bytes(ds_weight_type wt, ds_dist_width w) {
  return wt == DS_WEIGHT_F32 ? sizeof(float) : w == DS_DIST_WIDE ? sizeof(uint64_t) : sizeof(uint32_t);
}

/* The corruption, on the rank that owns the vertex. */
static void corrupt_local(const run_arg *a, const ds_dgraph *g, void *dist, uint32_t *pred) {
  const int fl = g->weight_type == DS_WEIGHT_F32, wide = a->params.dist_width == DS_DIST_WIDE;
  const corruption_spec *b = &a->bad_result;
  const uint32_t v = b->victim;
  if (b->kind == C_CYCLE) {
    if (ds_dgraph_owns(g, v)) pred[v - g->first] = b->victim2;
    if (ds_dgraph_owns(g, b->victim2)) pred[b->victim2 - g->first] = v;
    return;
  }
  if (!ds_dgraph_owns(g, v)) return;
  const uint32_t i = v - g->first;
  switch (b->kind) {
  case C_DIST_UP:
  case C_DIST_DOWN: {
    const int up = b->kind == C_DIST_UP;
    if (fl) ((float *)dist)[i] = up ? ((float *)dist)[i] * 1.01f + 1.0f : ((float *)dist)[i] * 0.99f - 0.5f;
    else if (wide) ((uint64_t *)dist)[i] += up ? 1 : (uint64_t)-1;
    else ((uint32_t *)dist)[i] += up ? 1u : (uint32_t)-1;
    break;
  }
  case C_PRED_NONE: pred[i] = DS_NO_PRED; break;
  case C_PRED_WRONG: pred[i] = b->wrong_pred; break;
  case C_UNREACHED:
    if (fl) ((float *)dist)[i] = INFINITY;
    else if (wide) ((uint64_t *)dist)[i] = DS_INF_U64;
    else ((uint32_t *)dist)[i] = DS_INF_U32;
    pred[i] = DS_NO_PRED;
    break;
  default: break;
  }
}

static ds_status run_rank(ds_comm *c, void *argp, ds_error *err) {
  run_arg *a = argp;
  const int r = ds_comm_rank(c);
  ds_edge_list s = test_slice(a->edges, r, ds_comm_size(c), 0);
  ds_dgraph g;
  ds_status st = ds_dgraph_build(c, &s, a->symmetric, NULL, &g, NULL, err);
  if (st != DS_OK) return st;
  const size_t wb = width_bytes(g.weight_type, a->params.dist_width);
  void *dist = malloc((g.n_local ? g.n_local : 1) * wb);
  uint32_t *pred = malloc((g.n_local ? g.n_local : 1) * sizeof *pred);
  if (dist == NULL || pred == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "test: out of memory");
    ds_comm_abort(c, err->msg);
    goto done;
  }
  ds_dsssp_result *res = &a->res[r];
  res->dist = dist;
  res->pred = a->params.want_pred ? pred : NULL;
  ds_comm_stats_get(c, &a->before[r]);
  st = ds_dsssp_cpu(c, &g, a->source, &a->params, res, err);
  ds_comm_stats_get(c, &a->after[r]);
  if (st != DS_OK) goto done;
  memcpy((char *)a->dist + (size_t)g.first * wb, dist, (size_t)g.n_local * wb);
  if (a->params.want_pred) memcpy(a->pred + g.first, pred, (size_t)g.n_local * sizeof *pred);
  corrupt_local(a, &g, dist, pred);
  ds_error verr;
  verr.msg[0] = '\0';
  a->bad[r] = UINT32_MAX;
  a->validated[r] = ds_dsssp_validate(c, &g, a->source, dist, a->params.dist_width,
                                      a->params.want_pred ? pred : NULL, &a->bad[r], &verr);
  snprintf(a->vmsg[r], DS_ERROR_MSG_LEN, "%s", verr.msg);
done:
  free(dist);
  free(pred);
  ds_dgraph_free(&g);
  return st;
}

/* Runs the search on `ranks` ranks; the whole graph and Dijkstra's answer
 * come from the caller. Returns the arg for the caller's own checks (free it). */
static run_arg *run(const test_edges *e, int symmetric, int ranks, uint32_t source,
                    const ds_dsssp_params *p, corruption_spec bad_result, ds_status *st, ds_error *err) {
  run_arg *a = calloc(1, sizeof *a);
  if (a == NULL) exit(2);
  a->edges = e;
  a->symmetric = symmetric;
  a->source = source;
  a->params = *p;
  a->bad_result = bad_result;
  a->dist = calloc(e->n ? e->n : 1, sizeof(uint64_t));
  a->pred = calloc(e->n ? e->n : 1, sizeof(uint32_t));
  if (a->dist == NULL || a->pred == NULL) exit(2);
  ds_status rs[TEST_MAX_RANKS];
  *st = ds_comm_inproc_run(ranks, NULL, run_rank, a, rs, NULL, err);
  return a;
}

static void run_free(run_arg *a) {
  free(a->dist);
  free(a->pred);
  free(a);
}

/* A graph of n vertices from its arcs (u, v, w). */
static test_edges edges_of(uint32_t n, const uint32_t (*uvw)[3], size_t count) {
  test_edges e;
  memset(&e, 0, sizeof e);
  e.n = n;
  e.count = count;
  e.type = DS_WEIGHT_U32;
  e.src = malloc((count ? count : 1) * sizeof *e.src);
  e.dst = malloc((count ? count : 1) * sizeof *e.dst);
  e.weights = malloc((count ? count : 1) * 4);
  if (e.src == NULL || e.dst == NULL || e.weights == NULL) exit(2);
  for (size_t i = 0; i < count; i++) {
    e.src[i] = uvw[i][0];
    e.dst[i] = uvw[i][1];
    ((uint32_t *)e.weights)[i] = uvw[i][2];
  }
  return e;
}

#endif /* DS_DIST_SSSP_RUN_H */
