/* Dijkstra (ds_sssp_dijkstra) against an independent brute-force
 * Bellman-Ford on hundreds of small random graphs: integer weights with many
 * zeros and ties, wide integer weights, weights near 2^31 whose paths need
 * 64-bit distances (chosen by ds_sssp_dist_width), float weights;
 * sparse graphs with unreachable vertices, dense ones, a single vertex, no
 * arcs. Also checks the predecessors with the validator, the reached counts,
 * and that poisoned outputs are overwritten.
 */
#include "app_test_util.h"

#define SEEDS_PER_CASE 12

typedef struct {
  uint32_t n;
  uint64_t m;
} shape;

static const shape SHAPES[] = {{1, 0}, {1, 3}, {2, 1}, {5, 3}, {5, 20}, {17, 10},
                               {17, 60}, {40, 30}, {40, 200}, {100, 150}, {100, 800}};

static void check_one(uint32_t n, uint64_t m, weight_kind kind, int sym, uint64_t seed) {
  ds_graph g;
  memset(&g, 0, sizeof g);
  void *dist = NULL;
  uint32_t *pred = NULL;
  double *want = NULL;
  if (!test_random_graph(n, m, kind, sym, seed, &g)) return;
  uint64_t s = seed;
  uint32_t source = (uint32_t)(test_rand(&s) % n);
  const ds_dist_width width = ds_sssp_dist_width(&g);
  const size_t bytes = ds_dist_size(&g, width);
  dist = malloc(n * bytes);
  pred = (uint32_t *)malloc(n * sizeof(uint32_t));
  want = test_bellman_ford(&g, source);
  if (!CHECK(dist != NULL && pred != NULL && want != NULL, "no memory for %u vertices", n))
    goto done;
  memset(dist, POISON_BYTE, n * bytes);
  memset(pred, POISON_BYTE, n * sizeof(uint32_t));

  ds_sssp_params p;
  ds_sssp_params_default(&p);
  p.want_pred = 1;
  p.dist_width = width;
  ds_sssp_result r;
  memset(&r, 0, sizeof r);
  r.dist = dist;
  r.pred = pred;
  ds_error err;
  if (!CHECK(ds_sssp_dijkstra(&g, source, &p, &r, &err) == DS_OK, "dijkstra failed: %s", err.msg))
    goto done;
  uint32_t reached = 0;
  for (uint32_t v = 0; v < n; v++) {
    double got = test_dist_w(&g, dist, width, v);
    if (!CHECK(test_same(&g, want[v], got),
               "n=%u m=%llu kind=%d sym=%d seed=%llu source=%u: vertex %u distance %.9g, "
               "Bellman-Ford %.9g", n, (unsigned long long)m, kind, sym,
               (unsigned long long)seed, source, v, got, want[v]))
      goto done;
    reached += !isinf(want[v]);
  }
  if (!CHECK(r.reached == reached, "reached %u, expected %u", r.reached, reached)) goto done;
  CHECK(ds_sssp_validate(&g, source, dist, width, pred, NULL, &err) == DS_OK,
        "validator rejects Dijkstra's result (kind %d seed %llu): %s", kind,
        (unsigned long long)seed, err.msg);
done:
  free(dist);
  free(pred);
  free(want);
  ds_graph_free(&g);
}

int main(void) {
  int cases = 0;
  for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
    for (int kind = 0; kind < W_KINDS; kind++)
      for (int sym = 0; sym <= 1; sym++)
        for (uint64_t seed = 1; seed <= SEEDS_PER_CASE; seed++) {
          cases++;
          check_one(SHAPES[i].n, SHAPES[i].m, (weight_kind)kind, sym,
                    seed * 1000 + i * 10 + (uint64_t)kind);
        }
  // a bad source is an argument error, not a crash
  ds_graph g;
  if (test_random_graph(3, 2, W_WIDE, 0, 7, &g)) {
    uint32_t d[3];
    ds_sssp_result r;
    memset(&r, 0, sizeof r);
    r.dist = d;
    ds_error err;
    CHECK(ds_sssp_dijkstra(&g, 3, NULL, &r, &err) == DS_ERR_ARG,
          "source 3 of 3 vertices was accepted");
    ds_graph_free(&g);
  }
  return ds_test_finish("dijkstra vs bellman-ford: %d cases", cases);
}
