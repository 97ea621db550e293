/* Random geometric graph: n points uniform in the unit square, an edge between
 * every pair at Euclidean distance <= radius (Penrose, "Random Geometric
 * Graphs", 2003). Road-like in its locality and large diameter, but with
 * degrees that vary (Poisson around pi r^2 n in the interior).
 *
 * O(n + m) with a grid of g x g cells of side 1/g >= radius: the neighbours of
 * a point lie in its own cell and the 8 around it, and each pair of cells is
 * visited once through a half stencil (same cell with a higher id, then the
 * cells right-below, right, right-above and above).
 *
 * Invariants:
 *   - point i takes its coordinates from ds_rng_stream(seed, DS_TAG_POINT, i);
 *   - vertex ids number the points by cell (row-major over cells, then by
 *     point index), which gives the ids spatial locality like a road network;
 *   - edges are listed by cell and then by lower endpoint; two passes (count
 *     per cell, prefix sum, fill) make the list independent of the threads;
 *   - weights: DISTANCE maps d in [0, radius] linearly onto
 *     [weight_min, weight_max] (rounded); RANDOM draws edge i's weight from
 *     ds_rng_stream(seed, DS_TAG_WEIGHT, i).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_kinds.h"

/* Points per cell to aim at when the radius is tiny (more cells only cost memory). */
#define GEO_MIN_POINTS_PER_CELL 1.0
#define GEO_STENCIL 4
static const int stencil_dx[GEO_STENCIL] = {1, 1, 1, 0};
static const int stencil_dy[GEO_STENCIL] = {-1, 0, 1, 1};

typedef struct {
  uint32_t g;           /* cells per side */
  double r2;            /* radius squared */
  double r;
  const double *x, *y;  /* coordinates by vertex id */
  const uint64_t *cell_start; /* g*g + 1: vertex ids of cell c are [cell_start[c], cell_start[c+1]) */
} geo_grid;

/* Visit the pairs of cell c; emit(k, k2, d) if out != NULL, and return their number. */
static uint64_t cell_pairs(const geo_grid *G, uint64_t c, const ds_gen_spec *s, uint64_t first,
                           ds_gen_edge_list *out) {
  const uint32_t g = G->g;
  const int64_t cx = (int64_t)(c % g), cy = (int64_t)(c / g);
  uint64_t count = 0;
  for (uint64_t k = G->cell_start[c]; k < G->cell_start[c + 1]; k++) {
    const double xk = G->x[k], yk = G->y[k];
    for (int t = -1; t < GEO_STENCIL; t++) {
      uint64_t lo, hi;
      if (t < 0) { /* the same cell, higher ids */
        lo = k + 1;
        hi = G->cell_start[c + 1];
      } else {
        int64_t nx = cx + stencil_dx[t], ny = cy + stencil_dy[t];
        if (nx < 0 || ny < 0 || nx >= (int64_t)g || ny >= (int64_t)g) continue;
        uint64_t nc = (uint64_t)ny * g + (uint64_t)nx;
        lo = G->cell_start[nc];
        hi = G->cell_start[nc + 1];
      }
      for (uint64_t k2 = lo; k2 < hi; k2++) {
        const double dx = G->x[k2] - xk, dy = G->y[k2] - yk;
        const double d2 = dx * dx + dy * dy;
        if (d2 > G->r2) continue;
        if (out) {
          const uint64_t e = first + count;
          uint32_t w;
          if (s->geo_weight == DS_GEN_GEO_WEIGHT_DISTANCE) {
            double frac = sqrt(d2) / G->r;
            if (frac > 1) frac = 1;
            w = s->weight_min + (uint32_t)llround(frac * ((double)s->weight_max - s->weight_min));
          } else {
            ds_rng rng = ds_rng_stream(s->seed, DS_TAG_WEIGHT, e);
            w = ds_weight_shape(s->weight_dist, ds_rng_next(&rng), s->weight_min, s->weight_max);
          }
          out->src[e] = (uint32_t)(k < k2 ? k : k2);
          out->dst[e] = (uint32_t)(k < k2 ? k2 : k);
          out->w[e] = w;
        }
        count++;
      }
    }
  }
  return count;
}

ds_status ds_gen_geo_edges(const ds_gen_spec *s, ds_gen_edge_list *out, double *px, double *py,
                           ds_error *err) {
  ds_status st = DS_OK;
  const uint32_t n = s->n;
  double *raw = NULL, *x = px, *y = py;
  uint32_t *cell_of = NULL;
  uint64_t *cell_start = NULL, *pair_start = NULL;

  // 1. the cell grid: side 1/g >= radius, and no more cells than points
  geo_grid G;
  G.r = ds_gen_geo_radius(s);
  G.r2 = G.r * G.r;
  double by_radius = floor(1.0 / G.r);
  double by_points = floor(sqrt((double)n / GEO_MIN_POINTS_PER_CELL));
  double gd = by_radius < by_points ? by_radius : by_points;
  G.g = gd < 1 ? 1 : (uint32_t)gd;
  const uint64_t cells = (uint64_t)G.g * G.g;

  // 2. the points, and the cell of each
  raw = malloc(2 * (size_t)n * sizeof *raw);
  cell_of = malloc((size_t)n * sizeof *cell_of);
  cell_start = calloc(cells + 1, sizeof *cell_start);
  if (!px) x = malloc((size_t)n * sizeof *x);
  if (!py) y = malloc((size_t)n * sizeof *y);
  if (!raw || !cell_of || !cell_start || !x || !y) {
    st = ds_error_set(err, DS_ERR_NOMEM, "geo: out of memory for %u points", n);
    goto cleanup;
  }
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < (int64_t)n; i++) {
    ds_rng r = ds_rng_stream(s->seed, DS_TAG_POINT, (uint64_t)i);
    double xi = ds_rng_unit(&r), yi = ds_rng_unit(&r);
    uint32_t cx = (uint32_t)(xi * G.g), cy = (uint32_t)(yi * G.g);
    if (cx >= G.g) cx = G.g - 1;
    if (cy >= G.g) cy = G.g - 1;
    raw[2 * i] = xi;
    raw[2 * i + 1] = yi;
    cell_of[i] = cy * G.g + cx;
  }

  // 3. number the points by cell (counting sort, stable in the point index)
  for (uint32_t i = 0; i < n; i++) cell_start[cell_of[i] + 1]++;
  for (uint64_t c = 0; c < cells; c++) cell_start[c + 1] += cell_start[c];
  {
    uint64_t *next = malloc((cells ? cells : 1) * sizeof *next);
    if (!next) {
      st = ds_error_set(err, DS_ERR_NOMEM, "geo: out of memory for %llu cells",
                        (unsigned long long)cells);
      goto cleanup;
    }
    memcpy(next, cell_start, cells * sizeof *next);
    for (uint32_t i = 0; i < n; i++) {
      uint64_t k = next[cell_of[i]]++;
      x[k] = raw[2 * (size_t)i];
      y[k] = raw[2 * (size_t)i + 1];
    }
    free(next);
  }
  G.x = x;
  G.y = y;
  G.cell_start = cell_start;
  if (!out) goto cleanup; /* only the points were asked for */
  ds_gen_report(s, 0.2);

  // 4. count the pairs of each cell, then their offsets
  pair_start = malloc((cells + 1) * sizeof *pair_start);
  if (!pair_start) {
    st = ds_error_set(err, DS_ERR_NOMEM, "geo: out of memory for %llu cells",
                      (unsigned long long)cells);
    goto cleanup;
  }
  pair_start[0] = 0;
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t c = 0; c < (int64_t)cells; c++)
    pair_start[c + 1] = cell_pairs(&G, (uint64_t)c, s, 0, NULL);
  for (uint64_t c = 0; c < cells; c++) pair_start[c + 1] += pair_start[c];
  ds_gen_report(s, 0.5);

  // 5. fill
  st = ds_gen_alloc_edges(out, n, pair_start[cells], s->symmetric, err);
  if (st != DS_OK) goto cleanup;
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t c = 0; c < (int64_t)cells; c++)
    cell_pairs(&G, (uint64_t)c, s, pair_start[c], out);

cleanup:
  free(raw);
  free(cell_of);
  free(cell_start);
  free(pair_start);
  if (x != px) free(x);
  if (y != py) free(y);
  return st;
}
