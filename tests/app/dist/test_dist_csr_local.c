/* A rank's local CSR (app/dist/dgraph_local.h) from random arc sets: integer
 * and float weights, heads repeated with other weights (and with the same),
 * self-loops, empty rows, a long row, 1 to a few thousand rows from first > 0
 * (and one row of a one-vertex graph).
 *   --host  the host build (dgraph_csr.c, on 1 and 2 threads) against an
 *           independent oracle: each row's (head, weight bits) keys sorted by
 *           qsort, the first of every head kept.
 *   --gpu   the GPU build (dgraph_csr_gpu.cu) against the host build, arc for
 *           arc; its refusals (no room under a memory cap, a head >= n: left
 *           to the host, g untouched; an arc of a vertex the rank does not own:
 *           the host's error in its words); then ds_dgraph_build on 1 to 3
 *           in-process ranks (all on the current GPU) built there
 *           (info.csr_on_gpu) and, under a memory cap of one byte, on the host,
 *           both times the whole graph's CSR. Exits 77 in a build without CUDA
 *           or on a machine without a GPU.
 */
#include "ds_test.h"

#include "dist/dgraph.h"
#include "dist/dgraph_local.h"
#include "dist_test_util.h"
#include "ds/device.h"

#define ARC_WORDS DS_DGRAPH_ARC_WORDS
#define WEIGHT_BITS 32
#define FLOAT_ZERO_SHARE 0.02 /* weights exactly 0 */

typedef struct {
  const char *name;
  uint32_t n_local, first, n; /* rows [first, first + n_local) of a graph of n vertices */
  uint64_t count;
  int floats;
  double dup_share;  /* arcs that repeat an earlier (tail, head) with another weight */
  double same_share; /* of those, with the same weight */
  double loop_share;
  uint32_t empty_every; /* every this-th row gets no arc (0: none) */
  double long_share;    /* arcs of row n_local / 2 (the long row) */
} arc_case;

static const arc_case CASES[] = {
    {"one row, one vertex", 1, 0, 1, 200, 0, 0.3, 0.5, 1.0, 0, 0.0},
    {"one row", 1, 7, 1000, 500, 1, 0.3, 0.2, 0.1, 0, 0.0},
    {"two rows, few heads", 2, 3, 9, 300, 0, 0.2, 0.2, 0.2, 0, 0.0},
    {"small, no arcs", 17, 5, 40, 0, 0, 0.0, 0.0, 0.0, 0, 0.0},
    {"small int", 100, 50, 400, 3000, 0, 0.2, 0.3, 0.05, 3, 0.0},
    {"small float", 100, 50, 400, 3000, 1, 0.2, 0.3, 0.05, 3, 0.0},
    {"wide heads int", 3000, 1000000, 5000000, 40000, 0, 0.1, 0.1, 0.02, 5, 0.1},
    {"wide heads float", 3000, 1000000, 5000000, 40000, 1, 0.1, 0.1, 0.02, 5, 0.1},
    {"long row int", 2500, 123, 10000, 200000, 0, 0.15, 0.1, 0.01, 7, 0.5},
    {"long row float", 2500, 123, 10000, 200000, 1, 0.15, 0.1, 0.01, 7, 0.5},
    {"dense rows", 4000, 4000, 12000, 300000, 1, 0.3, 0.05, 0.01, 0, 0.0},
};
#define CASE_COUNT (sizeof CASES / sizeof CASES[0])

static uint32_t weight_bits(int floats, uint64_t *st) {
  if (!floats) return (uint32_t)(ds_splitmix64_next(st) % (TEST_WEIGHT_MAX + 1));
  const double u = ds_unit_double(ds_splitmix64_next(st));
  float w = u < FLOAT_ZERO_SHARE ? 0.0f : (float)(u * TEST_WEIGHT_MAX);
  uint32_t b;
  memcpy(&b, &w, sizeof b);
  return b;
}

/* The case's arcs (malloc'd, ARC_WORDS words each), as an exchange delivers them. */
static uint32_t *case_arcs(const arc_case *c, uint64_t seed) {
  uint32_t *a = malloc((c->count ? (size_t)c->count : 1) * ARC_WORDS * sizeof *a);
  if (a == NULL) exit(2);
  uint64_t st = seed;
  const uint32_t long_row = c->n_local / 2;
  for (uint64_t i = 0; i < c->count; i++) {
    uint32_t *x = a + ARC_WORDS * i;
    const double u = ds_unit_double(ds_splitmix64_next(&st));
    if (i > 0 && u < c->dup_share) { /* an earlier arc's (tail, head) */
      const uint32_t *y = a + ARC_WORDS * (ds_splitmix64_next(&st) % i);
      x[0] = y[0], x[1] = y[1];
      const int same = ds_unit_double(ds_splitmix64_next(&st)) < c->same_share;
      x[2] = same ? y[2] : weight_bits(c->floats, &st);
      continue;
    }
    uint32_t r = long_row;
    if (ds_unit_double(ds_splitmix64_next(&st)) >= c->long_share) {
      r = (uint32_t)(ds_splitmix64_next(&st) % c->n_local);
      if (c->empty_every != 0 && r % c->empty_every == c->empty_every - 1)
        r = r > 0 ? r - 1 : 0; /* its neighbour: the row stays empty */
    }
    x[0] = c->first + r;
    const int loop = ds_unit_double(ds_splitmix64_next(&st)) < c->loop_share;
    x[1] = loop ? x[0] : (uint32_t)(ds_splitmix64_next(&st) % c->n);
    x[2] = weight_bits(c->floats, &st);
  }
  return a;
}

static uint32_t *copy_arcs(const uint32_t *a, uint64_t count) {
  const size_t bytes = (count ? (size_t)count : 1) * ARC_WORDS * sizeof *a;
  uint32_t *b = malloc(bytes);
  if (b == NULL) exit(2);
  memcpy(b, a, bytes);
  return b;
}

static ds_dgraph blank_part(const arc_case *c) {
  ds_dgraph g;
  memset(&g, 0, sizeof g);
  g.n = c->n;
  g.first = c->first;
  g.n_local = c->n_local;
  g.weight_type = c->floats ? DS_WEIGHT_F32 : DS_WEIGHT_U32;
  return g;
}

/* Where two local CSRs first differ (a message in why), or 0 where equal. */
static int parts_differ(const ds_dgraph *a, const ds_dgraph *b, char *why, size_t len) {
  if (a->m_local != b->m_local)
    return snprintf(why, len, "%llu arcs, not %llu", (unsigned long long)a->m_local,
                    (unsigned long long)b->m_local), 1;
  for (uint32_t r = 0; r <= a->n_local; r++)
    if (a->row_offsets[r] != b->row_offsets[r])
      return snprintf(why, len, "row offset %u: %llu, not %llu", r,
                      (unsigned long long)a->row_offsets[r],
                      (unsigned long long)b->row_offsets[r]), 1;
  const uint32_t *wa = a->weights, *wb = b->weights;
  for (uint64_t j = 0; j < a->m_local; j++)
    if (a->col[j] != b->col[j] || wa[j] != wb[j])
      return snprintf(why, len, "arc %llu: (%u, bits %08x), not (%u, bits %08x)",
                      (unsigned long long)j, a->col[j], wa[j], b->col[j], wb[j]), 1;
  return 0;
}

static int cmp_u64(const void *x, const void *y) {
  const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* The oracle: a row's keys (head << 32 | weight bits) by qsort, the first of every head kept. */
static ds_dgraph oracle(const arc_case *c, const uint32_t *a) {
  ds_dgraph g = blank_part(c);
  const size_t cap = c->count ? (size_t)c->count : 1;
  uint64_t *keys = malloc(cap * sizeof *keys), *at = calloc((size_t)c->n_local + 1, sizeof *at);
  g.row_offsets = calloc((size_t)c->n_local + 1, sizeof *g.row_offsets);
  g.col = malloc(cap * sizeof *g.col);
  uint32_t *w = malloc(cap * sizeof *w);
  g.weights = w;
  if (!keys || !at || !g.row_offsets || !g.col || !w) exit(2);
  for (uint64_t i = 0; i < c->count; i++) at[a[ARC_WORDS * i] - c->first + 1]++;
  for (uint32_t r = 0; r < c->n_local; r++) at[r + 1] += at[r];
  for (uint64_t i = 0; i < c->count; i++) {
    const uint32_t *x = a + ARC_WORDS * i;
    keys[at[x[0] - c->first]++] = ((uint64_t)x[1] << WEIGHT_BITS) | x[2];
  }
  uint64_t m = 0, lo = 0;
  for (uint32_t r = 0; r < c->n_local; r++) {
    const uint64_t hi = at[r];
    qsort(keys + lo, (size_t)(hi - lo), sizeof *keys, cmp_u64);
    for (uint64_t j = lo; j < hi; j++)
      if (j == lo || (keys[j] >> WEIGHT_BITS) != (keys[j - 1] >> WEIGHT_BITS)) {
        g.col[m] = (uint32_t)(keys[j] >> WEIGHT_BITS);
        w[m++] = (uint32_t)keys[j];
      }
    g.row_offsets[r + 1] = m;
    lo = hi;
  }
  g.m_local = m;
  free(keys), free(at);
  return g;
}

static void check_host(const arc_case *c, const uint32_t *a) {
  ds_dgraph want = oracle(c, a);
  for (int threads = 1; threads <= 2; threads++) {
    ds_dgraph g = blank_part(c);
    ds_error err;
    char why[160];
    if (CHECK(ds_dgraph_build_local(&g, copy_arcs(a, c->count), c->count, threads, &err) == DS_OK,
              "%s, host, %d threads: %s", c->name, threads, err.msg))
      CHECK(!parts_differ(&g, &want, why, sizeof why), "%s, host, %d threads, against the "
            "oracle: %s", c->name, threads, why);
    ds_dgraph_free(&g);
  }
  ds_dgraph_free(&want);
}

#ifdef DS_DIST_CSR_GPU
/* The GPU build against the host's; its refusals leave g untouched. */
static void check_gpu(const arc_case *c, uint32_t *a) {
  ds_dgraph host = blank_part(c), dev = blank_part(c);
  ds_error err;
  char why[160];
  REQUIRE(ds_dgraph_build_local(&host, copy_arcs(a, c->count), c->count, 1, &err) == DS_OK,
          "%s, host: %s", c->name, err.msg);
  if (CHECK(ds_dgraph_build_local_gpu(&dev, a, c->count, &err) == DS_OK, "%s, GPU: %s", c->name,
            err.msg))
    CHECK(!parts_differ(&dev, &host, why, sizeof why), "%s, GPU against the host: %s", c->name,
          why);
  ds_dgraph_free(&dev);
  // no room: the cap one byte below what it needs
  dev = blank_part(c);
  const uint64_t need = ds_dgraph_build_local_gpu_bytes(c->n_local, c->n, c->count);
  ds_device_set_mem_cap(need - 1);
  CHECK(ds_dgraph_build_local_gpu(&dev, a, c->count, &err) == DS_ERR_DEVICE &&
        dev.row_offsets == NULL, "%s: the GPU build under a cap of %llu bytes did not decline",
        c->name, (unsigned long long)need - 1);
  ds_device_set_mem_cap(0);
  if (c->count > 0) {
    // a head >= n: left to the host
    const uint64_t k = c->count / 2;
    const uint32_t head = a[ARC_WORDS * k + 1], tail = a[ARC_WORDS * k];
    a[ARC_WORDS * k + 1] = c->n;
    CHECK(ds_dgraph_build_local_gpu(&dev, a, c->count, &err) == DS_ERR_DEVICE &&
          dev.row_offsets == NULL, "%s: a head beyond n was not left to the host", c->name);
    a[ARC_WORDS * k + 1] = head;
    // an arc of a vertex the rank does not own: the host's error
    a[ARC_WORDS * k] = c->first + c->n_local;
    ds_error host_err;
    ds_dgraph h = blank_part(c);
    const ds_status hs = ds_dgraph_build_local(&h, copy_arcs(a, c->count), c->count, 1, &host_err);
    CHECK(ds_dgraph_build_local_gpu(&dev, a, c->count, &err) == DS_ERR_ARG && hs == DS_ERR_ARG &&
          strcmp(err.msg, host_err.msg) == 0 && dev.row_offsets == NULL,
          "%s: an arc of a vertex not owned: \"%s\", the host: \"%s\"", c->name, err.msg,
          host_err.msg);
    a[ARC_WORDS * k] = tail;
  }
  ds_dgraph_free(&host);
}

/* ds_dgraph_build on in-process ranks: the local CSR on the GPU, or on the host under a cap */
typedef struct {
  const test_edges *edges;
  ds_dgraph g[TEST_MAX_RANKS];
  ds_dgraph_build_info info[TEST_MAX_RANKS];
} build_arg;

static ds_status build_rank(ds_comm *comm, void *arg, ds_error *err) {
  build_arg *b = arg;
  const int r = ds_comm_rank(comm);
  ds_edge_list s = test_slice(b->edges, r, ds_comm_size(comm), 0);
  return ds_dgraph_build(comm, &s, 1, NULL, &b->g[r], &b->info[r], err);
}

static void check_wired(const test_edges *e, int ranks, uint64_t cap) {
  build_arg *b = calloc(1, sizeof *b);
  if (b == NULL) exit(2);
  b->edges = e;
  ds_status rs[TEST_MAX_RANKS];
  ds_error err;
  ds_device_set_mem_cap(cap);
  const ds_status st = ds_comm_inproc_run(ranks, NULL, build_rank, b, rs, NULL, &err);
  ds_device_set_mem_cap(0);
  ds_graph whole;
  memset(&whole, 0, sizeof whole);
  ds_edge_list all = test_whole(e);
  if (CHECK(st == DS_OK, "R=%d cap %llu: %s", ranks, (unsigned long long)cap, err.msg) &&
      CHECK(ds_csr_build(&all, 1, NULL, &whole, &err) == DS_OK, "%s", err.msg)) {
    CHECK(test_rows_differ(b->g, ranks, &whole) == 0, "R=%d cap %llu: the parts differ from the "
          "whole graph's CSR", ranks, (unsigned long long)cap);
    for (int r = 0; r < ranks; r++)
      CHECK(b->info[r].csr_on_gpu == (cap == 0), "R=%d cap %llu rank %d: the CSR was built on the "
            "%s", ranks, (unsigned long long)cap, r, b->info[r].csr_on_gpu ? "GPU" : "host");
  }
  for (int r = 0; r < ranks; r++) ds_dgraph_free(&b->g[r]);
  ds_graph_free(&whole);
  free(b);
}
#endif

int main(int argc, char **argv) {
  const int gpu = argc > 1 && strcmp(argv[1], "--gpu") == 0;
  if (argc != 2 || (!gpu && strcmp(argv[1], "--host") != 0)) {
    fprintf(stderr, "usage: %s --host | --gpu\n", argv[0]);
    return 2;
  }
  if (gpu) {
#ifndef DS_DIST_CSR_GPU
    return ds_test_skip("a build without CUDA: no GPU CSR build");
#else
    char reason[128];
    if (ds_device_count(reason, sizeof reason) == 0) return ds_test_skip("%s", reason);
#endif
  }
  for (size_t i = 0; i < CASE_COUNT; i++) {
    uint32_t *a = case_arcs(&CASES[i], 1000 + i);
    if (!gpu) check_host(&CASES[i], a);
#ifdef DS_DIST_CSR_GPU
    else check_gpu(&CASES[i], a);
#endif
    free(a);
  }
#ifdef DS_DIST_CSR_GPU
  if (gpu) {
    const test_shape hub = {20000, 150000, 0.2, 0.2, 0.05, 100};
    test_edges ints = test_edges_random(&hub, DS_WEIGHT_U32, 0, 21);
    test_edges floats = test_edges_random(&hub, DS_WEIGHT_F32, 0, 22);
    for (int ranks = 1; ranks <= 3; ranks++) {
      check_wired(&ints, ranks, 0);
      check_wired(&floats, ranks, 0);
    }
    check_wired(&floats, 2, 1);
    test_edges_free(&ints);
    test_edges_free(&floats);
  }
#endif
  return ds_test_finish("local CSR builds (%s)", gpu ? "GPU against the host" : "host against "
                        "the oracle");
}
