/* The weight distributions of pattern graphs (ds_weight_dist, ds/rng.h):
 *   1. fixed values: uniform pattern weights are what they were before the
 *      distributions existed (the pair's hash modulo the range: caches, bench
 *      results and tests hold them); log and bimodal are what the heavy-tailed
 *      road graphs of bench/sssp had (ds_weight_shape of the same hash);
 *   2. ds_csr_build with each distribution: both directions of an edge get the
 *      same weight, every weight lies in the range, the graph records the
 *      distribution; log fills every octave about equally, bimodal puts about
 *      1 % in the top half of the range and the rest in its lowest 1/65536;
 *   3. names, parsing and checks, and the build's refusals;
 *   4. the cache: a cache built with one distribution is stale for another,
 *      and a cache of the previous format (version 2) is a clean miss.
 */
#include "graph_test_util.h"

#include <math.h>

#include "graph_internal.h" /* ds_checksum64: a version 2 header's checksum */

#define HEAVY_MAX (1u << 24) /* the heavy-tailed range of bench/sssp: 1..2^24 */
#define SIGMAS 5.0           /* shape checks: within 5 standard deviations */

/* ---- 1. fixed values ---------------------------------------------------------- */

typedef struct {
  uint64_t seed;
  uint32_t u, v, lo, hi;
  ds_weight_dist dist;
  uint32_t want;
} fixed_case;

/* Uniform: ds_pattern_weight before the distributions (f25dcf7); log and
 * bimodal: the weights that bench/sssp/reweight.py wrote for NY-log,
 * NY-bimodal (seed 60, 1..2^24) before the loader drew them itself. */
static const fixed_case FIXED[] = {
    {1, 0, 1, 1, 1000, DS_WEIGHTS_UNIFORM, 607},
    {42, 7, 3, 5, 9, DS_WEIGHTS_UNIFORM, 7},
    {60, 100, 5, 1, HEAVY_MAX, DS_WEIGHTS_UNIFORM, 11665102},
    {1, 123456, 654321, 0, UINT32_MAX - 1, DS_WEIGHTS_UNIFORM, 624575960},
    {60, 100, 5, 1, HEAVY_MAX, DS_WEIGHTS_LOG, 11766},
    {60, 0, 1, 1, HEAVY_MAX, DS_WEIGHTS_LOG, 21},
    {7, 264345, 3, 1, 255, DS_WEIGHTS_LOG, 244},
    {60, 100, 5, 1, HEAVY_MAX, DS_WEIGHTS_BIMODAL, 112},
    {60, 0, 1, 1, HEAVY_MAX, DS_WEIGHTS_BIMODAL, 95},
    {7, 264345, 3, 1, 255, DS_WEIGHTS_BIMODAL, 1},
};

static void fixed_values(void) {
  for (size_t i = 0; i < sizeof FIXED / sizeof FIXED[0]; i++) {
    const fixed_case *c = &FIXED[i];
    const uint32_t w = ds_pattern_weight(c->seed, c->u, c->v, c->lo, c->hi, c->dist);
    const uint32_t back = ds_pattern_weight(c->seed, c->v, c->u, c->lo, c->hi, c->dist);
    CHECK(w == c->want && back == w, "%s weight of {%u, %u}, seed %llu, %u:%u: %u and %u back, "
          "want %u", ds_weight_dist_name(c->dist), c->u, c->v, (unsigned long long)c->seed, c->lo,
          c->hi, w, back, c->want);
  }
}

/* ---- 2. the CSR build with each distribution ------------------------------------ */

enum { N = 1 << 16, EDGES = 1 << 19 };

/* The weights of the built graph, each undirected edge once (u < v). */
static void check_build(const ds_edge_list *el, ds_weight_dist dist, uint32_t lo, uint32_t hi) {
  const char *name = ds_weight_dist_name(dist);
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.weight_min = lo;
  opt.weight_max = hi;
  opt.weight_dist = dist;
  opt.seed = 9;
  ds_graph g;
  ds_error err;
  REQUIRE(ds_csr_build(el, 1, &opt, &g, &err) == DS_OK, "%s build: %s", name, err.msg);
  CHECK(g.weights_generated && g.weight_dist == dist && g.weight_min == lo && g.weight_max == hi,
        "%s: the graph records %s %u:%u", name, ds_weight_dist_name(g.weight_dist), g.weight_min,
        g.weight_max);
  const uint32_t *w = g.weights;
  uint64_t edges = 0, outside = 0, asymmetric = 0, octave[32] = {0}, high = 0, low = 0;
  const uint32_t span = hi - lo;
  for (uint32_t u = 0; u < g.n; u++)
    for (uint64_t a = g.row_offsets[u]; a < g.row_offsets[u + 1]; a++) {
      const uint32_t v = g.col[a];
      if (v < u) continue;
      edges++;
      // the reverse arc: a binary search in v's sorted row
      uint64_t b = g.row_offsets[v], e = g.row_offsets[v + 1];
      while (b < e) {
        uint64_t mid = b + (e - b) / 2;
        if (g.col[mid] < u) b = mid + 1;
        else e = mid;
      }
      asymmetric += b == g.row_offsets[v + 1] || g.col[b] != u || w[b] != w[a];
      if (w[a] < lo || w[a] > hi) outside++;
      else if (w[a] > 0) octave[ds_floor_log2(w[a])]++;
      high += w[a] >= hi - span / 2;
      low += w[a] <= lo + span / DS_BIMODAL_LOW_DIVISOR;
    }
  CHECK(asymmetric == 0, "%s: %llu edges differ in weight between their directions", name,
        (unsigned long long)asymmetric);
  CHECK(outside == 0, "%s: %llu weights outside %u:%u", name, (unsigned long long)outside, lo, hi);
  if (dist == DS_WEIGHTS_LOG) { /* octaves k_lo..k_hi, chosen uniformly */
    const int k_lo = ds_floor_log2(lo), k_hi = ds_floor_log2(hi);
    const double p = 1.0 / (k_hi - k_lo + 1), mean = p * (double)edges;
    const double sd = sqrt(mean * (1 - p));
    for (int k = k_lo; k <= k_hi; k++)
      CHECK(fabs((double)octave[k] - mean) <= SIGMAS * sd,
            "log: octave %d holds %llu of %llu, expected %.0f +- %.0f", k,
            (unsigned long long)octave[k], (unsigned long long)edges, mean, SIGMAS * sd);
  }
  if (dist == DS_WEIGHTS_BIMODAL) {
    const double p = DS_BIMODAL_HIGH_PERCENT / 100.0, mean = p * (double)edges;
    const double sd = sqrt(mean * (1 - p));
    CHECK(high + low == edges, "bimodal: %llu weights in neither mode",
          (unsigned long long)(edges - high - low));
    CHECK(fabs((double)high - mean) <= SIGMAS * sd, "bimodal: %llu of %llu high, expected %.0f "
          "+- %.0f", (unsigned long long)high, (unsigned long long)edges, mean, SIGMAS * sd);
  }
  // uniform: the build draws exactly ds_pattern_weight's values
  if (dist == DS_WEIGHTS_UNIFORM && g.n > 1 && g.row_offsets[1] > 0)
    CHECK(w[0] == ds_pattern_weight(9, 0, g.col[0], lo, hi, DS_WEIGHTS_UNIFORM),
          "uniform: the first arc's weight %u is not ds_pattern_weight's", w[0]);
  ds_graph_free(&g);
}

static void builds(void) {
  uint32_t *src = malloc(EDGES * sizeof *src), *dst = malloc(EDGES * sizeof *dst);
  REQUIRE(src && dst, "out of memory");
  uint64_t s = 5;
  for (uint32_t i = 0; i < EDGES; i++) {
    src[i] = (uint32_t)(ds_splitmix64_next(&s) % N);
    dst[i] = (uint32_t)(ds_splitmix64_next(&s) % N);
  }
  const ds_edge_list el = {N, EDGES, src, dst, DS_WEIGHT_U32, NULL};
  check_build(&el, DS_WEIGHTS_UNIFORM, 1, 1000);
  check_build(&el, DS_WEIGHTS_LOG, 1, HEAVY_MAX);
  check_build(&el, DS_WEIGHTS_LOG, 3, 100000); /* partial first and last octaves */
  check_build(&el, DS_WEIGHTS_BIMODAL, 1, HEAVY_MAX);
  check_build(&el, DS_WEIGHTS_BIMODAL, 0, UINT32_MAX);
  // 3. the build's refusals name the problem
  ds_load_options opt;
  ds_load_options_default(&opt);
  ds_graph g;
  ds_error err;
  opt.weight_dist = DS_WEIGHTS_LOG;
  opt.weight_min = 0;
  CHECK(ds_csr_build(&el, 1, &opt, &g, &err) == DS_ERR_ARG && strstr(err.msg, "log-uniform"),
        "log weights from 0: %s", err.msg);
  opt.weight_dist = (ds_weight_dist)7;
  opt.weight_min = 1;
  CHECK(ds_csr_build(&el, 1, &opt, &g, &err) == DS_ERR_ARG &&
            strstr(err.msg, "unknown weight distribution 7"), "distribution 7: %s", err.msg);
  free(src);
  free(dst);
}

/* ---- 3. names, parsing, checks ---------------------------------------------------- */

static void names(void) {
  ds_error err;
  for (int k = 0; k < DS_WEIGHT_DISTS; k++) {
    ds_weight_dist d = (ds_weight_dist)(k == 0);
    CHECK(ds_weight_dist_parse(ds_weight_dist_name((ds_weight_dist)k), &d, &err) == DS_OK &&
              d == (ds_weight_dist)k, "the name '%s' does not parse back",
          ds_weight_dist_name((ds_weight_dist)k));
  }
  const char *bad[] = {"", "Log", "log ", "gauss", "uniform,log"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ds_weight_dist d = DS_WEIGHTS_BIMODAL;
    CHECK(ds_weight_dist_parse(bad[i], &d, &err) == DS_ERR_ARG && d == DS_WEIGHTS_BIMODAL &&
              strstr(err.msg, "is not a weight distribution"),
          "'%s' parsed, or changed *d: %s", bad[i], err.msg);
  }
  CHECK(strcmp(ds_weight_dist_name((ds_weight_dist)9), "unknown") == 0, "name of 9");
  CHECK(ds_weight_dist_check(DS_WEIGHTS_UNIFORM, 0, 0, &err) == DS_OK, "uniform 0:0: %s", err.msg);
  CHECK(ds_weight_dist_check(DS_WEIGHTS_BIMODAL, 0, 5, &err) == DS_OK, "bimodal 0:5: %s", err.msg);
  CHECK(ds_weight_dist_check(DS_WEIGHTS_LOG, 1, 1, &err) == DS_OK, "log 1:1: %s", err.msg);
  CHECK(ds_weight_dist_check(DS_WEIGHTS_LOG, 0, 5, &err) == DS_ERR_ARG, "log 0:5 accepted");
  CHECK(ds_weight_dist_check(DS_WEIGHTS_UNIFORM, 9, 2, &err) == DS_ERR_ARG &&
            strstr(err.msg, "9:2 is empty"), "9:2: %s", err.msg);
}

/* ---- 4. the cache ----------------------------------------------------------------- */

#define TEXT "%%MatrixMarket matrix coordinate pattern symmetric\n8 8 9\n2 1\n3 2\n4 3\n5 4\n" \
             "6 5\n7 6\n8 7\n8 1\n5 1\n"
/* cache.c's header: version 3 is 400 bytes; version 2 was the same without the
 * weight distribution and its padding word (bytes 48..55 of version 3) */
#define HDR_VERSION 8
#define HDR_SIZE_FIELD 12
#define HDR_DIST_AT 48
#define HDR_DIST_BYTES 8
#define HDR_V3_BYTES 400
#define HDR_V2_BYTES 392
#define V2_VERSION 2u

static ds_cache_use load_as(const char *in, ds_weight_dist dist, ds_graph *g, ds_load_info *info) {
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.progress = 0;
  opt.weight_min = 1;
  opt.weight_max = HEAVY_MAX;
  opt.weight_dist = dist;
  ds_error err;
  ds_status st = ds_graph_load_info(in, &opt, g, info, &err);
  CHECK(st == DS_OK, "load %s as %s: %s", in, ds_weight_dist_name(dist), err.msg);
  return st == DS_OK ? info->cache : (ds_cache_use)-1;
}

/* The graph built without the cache, for comparison. */
static void reference(const char *in, ds_weight_dist dist, ds_graph *g) {
  ds_load_options opt = options_no_cache();
  opt.weight_min = 1;
  opt.weight_max = HEAVY_MAX;
  opt.weight_dist = dist;
  ds_error err;
  CHECK(ds_graph_load(in, &opt, g, &err) == DS_OK, "reference load: %s", err.msg);
}

static void cache(void) {
  char dir[1024], in[1200], cpath[1300];
  scratch_make(dir, sizeof dir, "wdist");
  snprintf(in, sizeof in, "%s/ring.mtx", dir);
  snprintf(cpath, sizeof cpath, "%s.dscache", in);
  write_bytes(in, TEXT, strlen(TEXT));
  ds_graph g, ref[DS_WEIGHT_DISTS];
  ds_load_info info;
  for (int d = 0; d < DS_WEIGHT_DISTS; d++) reference(in, (ds_weight_dist)d, &ref[d]);
  CHECK(!same_graph(&ref[DS_WEIGHTS_UNIFORM], &ref[DS_WEIGHTS_LOG]) &&
            !same_graph(&ref[DS_WEIGHTS_LOG], &ref[DS_WEIGHTS_BIMODAL]),
        "the distributions gave the same weights: the test below would prove nothing");
  // 1. every change of distribution misses; the same one again hits
  const int order[] = {DS_WEIGHTS_UNIFORM, DS_WEIGHTS_LOG, DS_WEIGHTS_LOG, DS_WEIGHTS_BIMODAL,
                       DS_WEIGHTS_UNIFORM, DS_WEIGHTS_UNIFORM};
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    const ds_weight_dist d = (ds_weight_dist)order[i];
    const ds_cache_use want = i > 0 && order[i - 1] == order[i] ? DS_CACHE_HIT : DS_CACHE_MISS;
    if (load_as(in, d, &g, &info) == (ds_cache_use)-1) continue;
    CHECK(info.cache == want && same_graph(&g, &ref[d]) && g.weight_dist == d,
          "load %zu (%s): cache %d (want %d), same weights %d", i, ds_weight_dist_name(d),
          info.cache, want, same_graph(&g, &ref[d]));
    ds_graph_free(&g);
  }
  // 2. ds_cache_read itself: stale for another distribution (the uniform cache is there now)
  ds_input_stamp stamp;
  ds_error err;
  CHECK(ds_input_stamp_of(in, &stamp, &err) == DS_OK, "stamp: %s", err.msg);
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.weight_max = HEAVY_MAX;
  opt.weight_dist = DS_WEIGHTS_BIMODAL;
  CHECK(ds_cache_read(cpath, &opt, &stamp, &g, &err) == DS_ERR_STALE,
        "a uniform cache read as bimodal: not stale");
  // 3. a cache of format version 2 (as the previous release wrote it) is a clean miss:
  //    no note, rebuilt from the text and rewritten
  static unsigned char img[1 << 16], old[1 << 16];
  FILE *f = fopen(cpath, "rb");
  size_t len = f ? fread(img, 1, sizeof img, f) : 0;
  if (f) fclose(f);
  REQUIRE(len > HDR_V3_BYTES, "no cache at %s", cpath);
  memcpy(old, img, HDR_DIST_AT);
  memcpy(old + HDR_DIST_AT, img + HDR_DIST_AT + HDR_DIST_BYTES, len - HDR_DIST_AT - HDR_DIST_BYTES);
  const uint32_t version = V2_VERSION, bytes = HDR_V2_BYTES;
  memcpy(old + HDR_VERSION, &version, sizeof version);
  memcpy(old + HDR_SIZE_FIELD, &bytes, sizeof bytes);
  const uint64_t sum = ds_checksum64(old, HDR_V2_BYTES - sizeof sum, 0);
  memcpy(old + HDR_V2_BYTES - sizeof sum, &sum, sizeof sum);
  write_bytes(cpath, old, len - HDR_DIST_BYTES);
  opt.weight_dist = DS_WEIGHTS_UNIFORM;
  CHECK(ds_cache_read(cpath, &opt, &stamp, &g, &err) == DS_ERR_STALE &&
            strstr(err.msg, "cache version 2, expected "), "a version 2 cache: %s", err.msg);
  if (load_as(in, DS_WEIGHTS_UNIFORM, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_MISS && info.note[0] == '\0' && info.cache_written &&
              same_graph(&g, &ref[DS_WEIGHTS_UNIFORM]),
          "a version 2 cache: cache %d, note '%s', written %d", info.cache, info.note,
          info.cache_written);
    ds_graph_free(&g);
  }
  if (load_as(in, DS_WEIGHTS_UNIFORM, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_HIT, "the rewritten cache missed");
    ds_graph_free(&g);
  }
  for (int d = 0; d < DS_WEIGHT_DISTS; d++) ds_graph_free(&ref[d]);
  scratch_remove(dir);
}

int main(void) {
  fixed_values();
  builds();
  names();
  cache();
  return ds_test_finish("weight distributions");
}
