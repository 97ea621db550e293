/* deltasplit SSSP: algorithm names, default parameters and the automatic
 * delta (library ds_cpu), beneath every engine: the CPU algorithms and their
 * dispatch (sssp_cpu.c) call in here, nothing here calls them.
 *
 * The automatic delta is a fixed multiple of the mean arc weight,
 *     delta = DS_DELTA_AUTO_SCALE * mean_weight,
 * or DS_DELTA_AUTO_SCALE_SPARSE * mean_weight on graphs of fewer than
 * DS_DELTA_AUTO_SPARSE_DEGREE arcs per vertex, or DS_DELTA_AUTO_SCALE_HEAVY *
 * the median weight on graphs of fewer than DS_DELTA_AUTO_MEDIAN_DEGREE arcs
 * per vertex whose mean is DS_DELTA_AUTO_HEAVY_TAIL times the median or more
 * (a heavy tail), chosen from delta sweeps on the H100 (see sssp.h and
 * docs/performance.md, "SSSP on the GPU").
 * Integer weights round it up (at least 1);
 * float weights keep it at least DS_DELTA_AUTO_MIN_FLOAT. A graph without
 * arcs or with only zero weights gets 1 (every delta is then correct).
 * The CPU backend has its own rule (ds_delta_auto_cpu, measured on CPU cores):
 * a CPU round costs a barrier, not a kernel launch, so work matters more.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sssp.h"

#define DEFAULT_DELTA 1.0
#define DEFAULT_BUCKETS 10u
#define HASH_MULT 2654435761u /* Knuth's multiplicative hash: spreads near vertex ids */

static const char *const ALGO_NAMES[DS_ALGO_COUNT] = {
    "dijkstra", "cpu-delta", "near-far", "multisplit", "sort", "bellman-ford"};

const char *ds_algo_name(ds_algo a) {
  if ((int)a < 0 || a >= DS_ALGO_COUNT) return "unknown";
  return ALGO_NAMES[a];
}

int ds_algo_is_gpu(ds_algo a) {
  return a == DS_ALGO_NEAR_FAR || a == DS_ALGO_MULTISPLIT || a == DS_ALGO_SORT ||
         a == DS_ALGO_BELLMAN_FORD;
}

int ds_algo_uses_delta(ds_algo a) {
  return a == DS_ALGO_CPU_DELTA || a == DS_ALGO_NEAR_FAR || a == DS_ALGO_MULTISPLIT ||
         a == DS_ALGO_SORT;
}

ds_algo ds_algo_parse(const char *name) {
  for (int a = 0; a < DS_ALGO_COUNT; a++)
    if (name != NULL && strcmp(name, ALGO_NAMES[a]) == 0) return (ds_algo)a;
  return DS_ALGO_COUNT;
}

void ds_sssp_params_default(ds_sssp_params *p) {
  memset(p, 0, sizeof(*p));
  p->delta = DEFAULT_DELTA;
  p->buckets = DEFAULT_BUCKETS;
}

/* The mean arc weight, or 0 for a graph without arcs. */
static double mean_weight_of(const ds_graph *g) {
  if (g == NULL || g->n == 0 || g->m == 0) return 0.0;
  double sum = 0.0;
  if (g->weight_type == DS_WEIGHT_U32) {
    const uint32_t *w = (const uint32_t *)g->weights;
    for (uint64_t e = 0; e < g->m; e++) sum += (double)w[e];
  } else {
    const float *w = (const float *)g->weights;
    for (uint64_t e = 0; e < g->m; e++) sum += (double)w[e];
  }
  return sum / (double)g->m;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double ds_median_weight(const ds_graph *g) {
  if (g == NULL || g->n == 0 || g->m == 0) return 0.0;
  const uint64_t k = g->m < DS_MEDIAN_SAMPLE ? g->m : DS_MEDIAN_SAMPLE;
  double *x = (double *)malloc(k * sizeof *x);
  if (x == NULL) return -1.0;
  for (uint64_t i = 0; i < k; i++) {
    const uint64_t e = (uint64_t)((double)i * (double)g->m / (double)k); /* evenly strided */
    x[i] = g->weight_type == DS_WEIGHT_U32 ? (double)((const uint32_t *)g->weights)[e]
                                           : (double)((const float *)g->weights)[e];
  }
  qsort(x, k, sizeof *x, cmp_double);
  const double median = k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
  free(x);
  return median;
}

/* scale * mean weight, at least the float floor, normalised; 1 without weight. */
static double delta_from_scale(const ds_graph *g, double mean_weight, double scale) {
  if (!(mean_weight > 0.0)) return 1.0;
  double delta = scale * mean_weight;
  if (g->weight_type != DS_WEIGHT_U32 && delta < DS_DELTA_AUTO_MIN_FLOAT)
    delta = DS_DELTA_AUTO_MIN_FLOAT;
  return ds_delta_normalize(g->weight_type, delta);
}

double ds_delta_auto_of_mean(const ds_graph *g, double mean_weight) {
  if (!(mean_weight > 0.0)) return 1.0;
  // a multiple of the mean weight, wider on road-like graphs (measured, see sssp.h)
  const int sparse = (double)g->m < DS_DELTA_AUTO_SPARSE_DEGREE * (double)g->n;
  return delta_from_scale(g, mean_weight, sparse ? DS_DELTA_AUTO_SCALE_SPARSE : DS_DELTA_AUTO_SCALE);
}

double ds_delta_auto(const ds_graph *g) {
  const double mean_weight = mean_weight_of(g);
  if (!(mean_weight > 0.0)) return 1.0;
  // grids and geometric graphs are bound by their work: a heavy tail of weights lifts the mean
  // far above the typical weight, and one bucket then relaxes whole regions again and again
  const int sparse = (double)g->m < DS_DELTA_AUTO_SPARSE_DEGREE * (double)g->n;
  if (!sparse && (double)g->m < DS_DELTA_AUTO_MEDIAN_DEGREE * (double)g->n) {
    const double median = ds_median_weight(g);
    if (median > 0.0 && DS_DELTA_AUTO_HEAVY_TAIL * median < mean_weight)
      return delta_from_scale(g, median, DS_DELTA_AUTO_SCALE_HEAVY);
  }
  return ds_delta_auto_of_mean(g, mean_weight);
}

/* Whether the ball of vertices around v grows like a plane's (roads, grids, geometric graphs:
 * by hops squared) rather than a random graph's (exponentially): breadth-first from v until
 * the ball holds DS_PROBE_BALL vertices at some hop h, then on to hop 2h; a plane's ball has
 * then grown about 4 times, an expander's past DS_PROBE_GROWTH times. 1: plane, 0:
 * expander, -1: v's component ended first (no answer). Scans at most the arcs of
 * DS_PROBE_BALL * DS_PROBE_GROWTH vertices. */
static int ball_grows_like_plane(const ds_graph *g, uint32_t v) {
  enum { CAP = DS_PROBE_BALL * DS_PROBE_GROWTH, SLOTS = 4 * CAP };
  static_assert((SLOTS & (SLOTS - 1)) == 0, "the probe's hash set is indexed by a mask");
  uint32_t *ball = (uint32_t *)malloc(CAP * sizeof *ball);
  uint32_t *seen = (uint32_t *)calloc(SLOTS, sizeof *seen); /* vertex + 1, 0: empty */
  int answer = -1;
  if (ball == NULL || seen == NULL) goto done;
  size_t len = 0, level_end = 1;
  uint32_t hop = 0, stop_hop = UINT32_MAX;
  ball[len++] = v;
  seen[(v * HASH_MULT) & (SLOTS - 1)] = v + 1;
  for (size_t i = 0; i < len && answer < 0; i++) {
    if (i == level_end) { /* hop + 1 begins: the ball now holds every vertex within hop */
      hop++;
      level_end = len;
      if (stop_hop == UINT32_MAX && len >= DS_PROBE_BALL) stop_hop = 2 * hop;
      if (hop == stop_hop) answer = 1;
    }
    for (uint64_t e = g->row_offsets[ball[i]]; e < g->row_offsets[ball[i] + 1] && answer < 0; e++) {
      const uint32_t w = g->col[e];
      uint32_t k = (w * HASH_MULT) & (SLOTS - 1);
      while (seen[k] != 0 && seen[k] != w + 1) k = (k + 1) & (SLOTS - 1);
      if (seen[k] != 0) continue;
      if (len == CAP) answer = 0; /* grew past DS_PROBE_GROWTH x before hop 2h */
      else {
        seen[k] = w + 1;
        ball[len++] = w;
      }
    }
  }
done:
  free(ball);
  free(seen);
  return answer;
}

/* Whether most of DS_PROBES evenly strided vertices see a plane around them (see
 * ball_grows_like_plane); a graph where no probe answers (small components) counts as one. */
static int grows_like_plane(const ds_graph *g) {
  int plane = 0, answers = 0;
  for (uint32_t i = 0; i < DS_PROBES; i++) {
    const int r = ball_grows_like_plane(g, (uint32_t)((uint64_t)i * g->n / DS_PROBES));
    if (r >= 0) {
      answers++;
      plane += r;
    }
  }
  return answers == 0 || 2 * plane > answers;
}

double ds_delta_auto_cpu(const ds_graph *g) {
  const double mean_weight = mean_weight_of(g);
  if (!(mean_weight > 0.0)) return 1.0;
  // many arcs per vertex, or few on a graph that expands like a random one: 1 / degree (Meyer
  // and Sanders) of the mean weight
  const double degree = (double)g->m / (double)g->n;
  if (degree >= DS_DELTA_AUTO_CPU_DENSE_DEGREE || !grows_like_plane(g))
    return delta_from_scale(g, mean_weight, DS_DELTA_AUTO_CPU_DENSE_SCALE / degree);
  // few on a plane: rounds dominate, wide buckets, of the typical weight: a heavy tail of
  // weights raises the mean far above it, and one bucket then holds whole regions of the graph
  const double median = ds_median_weight(g);
  const double typical = median >= 0.0 && median < mean_weight ? median : mean_weight;
  return delta_from_scale(g, typical, DS_DELTA_AUTO_CPU_SCALE);
}

double ds_delta_for_algos(const ds_graph *g, double given, const ds_algo *algos, int n,
                          double *delta) {
  int gpu_runs = 0, cpu_delta_runs = 0;
  for (int i = 0; i < n; i++) {
    gpu_runs |= ds_algo_is_gpu(algos[i]);
    cpu_delta_runs |= algos[i] == DS_ALGO_CPU_DELTA;
  }
  double gpu = 0.0, cpu = 0.0;
  if (given > 0.0) {
    gpu = cpu = ds_delta_normalize(g->weight_type, given);
  } else {
    if (gpu_runs) gpu = ds_delta_auto(g);
    if (!gpu_runs || cpu_delta_runs) cpu = ds_delta_auto_cpu(g);
  }
  for (int i = 0; i < n; i++)
    delta[i] = !ds_algo_uses_delta(algos[i]) ? 0.0 : ds_algo_is_gpu(algos[i]) ? gpu : cpu;
  return gpu_runs ? gpu : cpu;
}

uint32_t ds_buckets_auto(const ds_graph *g, double delta) {
  double max_weight = 0.0;
  for (uint64_t e = 0; g != NULL && e < g->m; e++) {
    const double w = g->weight_type == DS_WEIGHT_U32 ? (double)((const uint32_t *)g->weights)[e]
                                                     : (double)((const float *)g->weights)[e];
    if (w > max_weight) max_weight = w;
  }
  uint32_t m = DS_BUCKETS_AUTO_MIN;
  if (delta > 0.0 && max_weight / delta > (double)DS_BUCKETS_AUTO_MIN) {
    const double spans = ceil(max_weight / delta);
    m = 1;
    while (m < DS_BUCKETS_AUTO_MAX && (double)m < spans) m *= 2;
  }
  return m;
}

double ds_delta_normalize(ds_weight_type wt, double delta) {
  if (wt != DS_WEIGHT_U32) return delta;
  if (!(delta > 1.0)) return 1.0; /* also NaN: callers check delta first, this keeps it defined */
  return delta >= (double)UINT32_MAX ? (double)UINT32_MAX : ceil(delta);
}
