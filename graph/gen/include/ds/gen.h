/* deltasplit graph generators: Kronecker / R-MAT, 2-D grid, random geometric,
 * uniform random. C11, library ds_gen (links ds_graph).
 *
 * Every generator is deterministic for a seed: each edge (or point) draws its
 * random numbers from its own stream, derived from the seed and its index, so
 * the output does not depend on the number of OpenMP threads.
 *
 * Two levels:
 *   - ds_gen_edges(): the raw edge list as drawn, before the CSR rules
 *     (Kronecker self-loops and duplicate edges may be present);
 *   - ds_gen_graph() and the ds_gen_<kind>() shortcuts: the edge list turned
 *     into a ds_graph by ds_csr_build (self-loops dropped, duplicates keep the
 *     smallest weight, undirected graphs stored with both directions).
 *
 * Example (a Kronecker graph for a test):
 *
 *     ds_graph g; ds_error err;
 *     if (ds_gen_kron(14, 16, 0.57, 0.19, 0.19, 1, 255, 42, &g, &err) != DS_OK)
 *       fprintf(stderr, "%s\n", err.msg);
 *     ...
 *     ds_graph_free(&g);
 *
 * Nothing here prints or exits; errors come back as a ds_status with a message.
 */
#ifndef DS_GEN_H
#define DS_GEN_H

#include <stdint.h>

#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DS_GEN_KRON = 0,    /* Graph500 Kronecker: 2^scale vertices, edge_factor * 2^scale edges */
  DS_GEN_RMAT = 1,    /* R-MAT with any n (not only powers of two) and m edges */
  DS_GEN_GRID = 2,    /* rows x cols 4-neighbour grid */
  DS_GEN_GEO = 3,     /* random geometric graph in the unit square */
  DS_GEN_UNIFORM = 4  /* uniform random: m edges, endpoints uniform over n */
} ds_gen_kind;

/* How the geometric graph gets its weights. */
typedef enum {
  DS_GEN_GEO_WEIGHT_DISTANCE = 0, /* weight_min + round(d / radius * (weight_max - weight_min)) */
  DS_GEN_GEO_WEIGHT_RANDOM = 1    /* uniform integer in [weight_min, weight_max] */
} ds_gen_geo_weight;

/* Called now and then from the generating thread with the fraction done
 * (0..1). Optional; the library itself never prints. */
typedef void (*ds_gen_progress_fn)(void *ctx, double fraction);

typedef struct {
  ds_gen_kind kind;
  uint64_t seed;
  uint32_t weight_min, weight_max; /* integer weights in [min, max] */
  ds_weight_dist weight_dist;      /* how they are drawn (ds/rng.h; default uniform), the
                                      geometric graph's distance weights excepted */
  int symmetric;  /* 1: undirected (both directions stored); 0: directed arcs */

  /* DS_GEN_KRON */
  uint32_t scale;       /* 1..31 */
  uint32_t edge_factor; /* edges = edge_factor << scale */
  /* DS_GEN_KRON and DS_GEN_RMAT: quadrant probabilities, d = 1 - a - b - c */
  double a, b, c;
  double noise;   /* 0: none; else each level's a,b,c,d are scaled by (1 + noise*u),
                     u uniform in [-1,1] drawn once per level, then renormalised. < 1 */
  int permute;    /* relabel vertices by a seeded random permutation */

  /* DS_GEN_RMAT, DS_GEN_UNIFORM: vertices and edges drawn; DS_GEN_GEO: n points */
  uint32_t n;
  uint64_t m;

  /* DS_GEN_GRID */
  uint32_t rows, cols;

  /* DS_GEN_GEO: radius in the unit square; if radius <= 0, it is derived from
     degree as sqrt(degree / (pi * n)) (expected degree of an interior point). */
  double radius;
  double degree;
  ds_gen_geo_weight geo_weight;

  ds_gen_progress_fn progress;
  void *progress_ctx;
} ds_gen_spec;

/* Defaults for a kind: seed 1, weights 1..255, Graph500 a=0.57 b=0.19 c=0.19,
 * scale 16, edge factor 16, permute on, noise 0; RMAT n=2^16, m=16n, directed;
 * KRON, GRID, GEO, UNIFORM undirected; grid 256x256; geo n=2^16 degree 8,
 * distance weights; uniform n=2^16 m=8n. */
void ds_gen_spec_default(ds_gen_spec *spec, ds_gen_kind kind);

/* Checks a spec as ds_gen_edges does before it draws anything: the weight
 * range against the distribution, the kind's sizes and probabilities, and the
 * options that do not go together (a weight distribution with the geometric
 * graph's distance weights). Errors: DS_ERR_ARG, the message naming the
 * parameter ("grid: 100000 x 100000 = 10000000000 vertices do not fit 32-bit
 * vertex ids"). */
ds_status ds_gen_spec_check(const ds_gen_spec *spec, ds_error *err);

/* Raw generated edges, owned (free with ds_gen_edges_free). Ids 0-based < n. */
typedef struct {
  uint32_t n;
  uint64_t count;
  uint32_t *src;
  uint32_t *dst;
  uint32_t *w;
  int symmetric; /* to be stored with both directions */
} ds_gen_edge_list;

/* Generate the raw edge list of a spec.
 *
 * [in]  spec  the generator and its parameters (ds_gen_spec_default first)
 * [out] out   on success owns src/dst/w arrays of out->count edges (free with
 *             ds_gen_edges_free); on failure holds no memory. Its previous
 *             contents are overwritten, not freed.
 * Edge counts: KRON edge_factor << scale; RMAT and UNIFORM m (self-loops and
 * ids >= n are redrawn from the edge's own stream, so none appear); GRID
 * rows*(cols-1) + (rows-1)*cols; GEO every pair at distance <= radius, once.
 * KRON keeps self-loops and duplicate edges, as Graph500 does. Vertex ids:
 * GRID r*cols + c; GEO numbered by cell of a grid of cells (spatial locality);
 * KRON/RMAT scrambled by a seeded bijection when spec->permute.
 * Errors: DS_ERR_ARG (the message names the parameter: "kron: scale 0 is not
 * in [1, 31]"), DS_ERR_NOMEM. Runs on the OpenMP threads; the output does
 * not depend on their number. */
ds_status ds_gen_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
void ds_gen_edges_free(ds_gen_edge_list *e);

/* A view of the raw edges as the ds_edge_list that ds_csr_build takes
 * (weights DS_WEIGHT_U32); it borrows e's arrays. */
ds_edge_list ds_gen_edges_view(const ds_gen_edge_list *e);

/* Generate a graph: ds_gen_edges, then ds_csr_build (self-loops dropped,
 * duplicates keep the smallest weight, rows sorted, both directions stored
 * when spec->symmetric), then the description: g->name ("kron_s20_ef16",
 * "grid_1000x1000", ...), index_base 0, weights_generated 1 and
 * weight_min/max/seed from the spec.
 * [out] g  owns its arrays on success (ds_graph_free); zeroed on failure.
 * Errors: those of ds_gen_edges and ds_csr_build. */
ds_status ds_gen_graph(const ds_gen_spec *spec, ds_graph *g, ds_error *err);

/* Geometric specs only: the coordinates of the generated vertices, by vertex
 * id (x[i], y[i] in [0, 1)), for checks. [out] x, y: caller-owned arrays of
 * spec->n doubles. Errors: DS_ERR_ARG for another kind or a bad spec. */
ds_status ds_gen_geo_points(const ds_gen_spec *spec, double *x, double *y, ds_error *err);

/* Shortcuts over ds_gen_graph for tests and programs: the named parameters,
 * the rest at ds_gen_spec_default's values. Weights uniform integers in
 * [weight_min, weight_max]. */
ds_status ds_gen_kron(uint32_t scale, uint32_t edge_factor, double a, double b, double c,
                      uint32_t weight_min, uint32_t weight_max, uint64_t seed, ds_graph *g,
                      ds_error *err); /* undirected, permuted */
ds_status ds_gen_rmat(uint32_t n, uint64_t m, double a, double b, double c,
                      uint32_t weight_min, uint32_t weight_max, uint64_t seed, ds_graph *g,
                      ds_error *err); /* directed, permuted, any n >= 2 */
ds_status ds_gen_grid(uint32_t rows, uint32_t cols, uint32_t weight_min, uint32_t weight_max,
                      uint64_t seed, ds_graph *g, ds_error *err); /* undirected */
ds_status ds_gen_geo(uint32_t n, double radius, uint32_t weight_min, uint32_t weight_max,
                     uint64_t seed, ds_graph *g, ds_error *err); /* undirected, distance weights */
ds_status ds_gen_uniform(uint32_t n, uint64_t m, uint32_t weight_min, uint32_t weight_max,
                         uint64_t seed, ds_graph *g, ds_error *err); /* undirected */

/* "kron", "rmat", "grid", "geo", "uniform". */
const char *ds_gen_kind_name(ds_gen_kind kind);

#ifdef __cplusplus
}
#endif
#endif /* DS_GEN_H */
