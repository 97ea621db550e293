/* Brutal memory test (after LAGraph's *_brutal tests): every loader and CPU
 * backend runs under an allocator that fails its k-th allocation, for k = 1,
 * 2, ... until a run completes with every allocation granted; once failing
 * only the k-th allocation and once failing the k-th and all later ones
 * (brutal_alloc.h). Every run must end in one of two ways:
 *   - DS_OK with the same result as a run without failures (a failure the
 *     code can absorb, such as a cache it cannot read, is absorbed);
 *   - DS_ERR_NOMEM, or DS_ERR_IO, with a message, a graph output zeroed, and
 *     only after a failure was injected;
 * never a crash, and the live block count must be back where it was once the
 * outputs are freed (nothing leaked). Under the asan preset, ASan also catches
 * a use after free or a double free on an error path.
 */
#include "brutal_fixture.h" /* first: it includes ds_test.h, which sets the feature macros */

#include "brutal_alloc.h"
#include "kcore.h"
#include "tc.h"

#define MAX_K 100000u /* no case makes this many allocations */

/* ---- the operations under test -------------------------------------------
 * run: the call whose allocations fail (only the code under test allocates);
 * check: after a DS_OK, with the allocator disarmed, 1 when the result is right. */
typedef ds_status (*run_fn)(fixture *fx, int arg, ds_graph *g, ds_error *err);
typedef int (*check_fn)(fixture *fx, int arg, const ds_graph *g);

static ds_status run_load(fixture *fx, int in, ds_graph *g, ds_error *err) {
  ds_load_options o = load_options(NULL);
  return ds_graph_load(fx->path[in], &o, g, err);
}

static ds_status run_load_cache_hit(fixture *fx, int in, ds_graph *g, ds_error *err) {
  ds_load_options o = load_options(fx->hit_dir);
  return ds_graph_load(fx->path[in], &o, g, err);
}

static ds_status run_load_cache_miss(fixture *fx, int in, ds_graph *g, ds_error *err) {
  ds_load_options o = load_options(fx->miss_dir);
  char cache[PATH_LEN];
  ds_status st = ds_cache_path(fx->path[in], &o, cache, sizeof cache, err);
  if (st != DS_OK) return st;
  remove(cache); /* a miss every time: the load parses and writes the cache */
  return ds_graph_load(fx->path[in], &o, g, err);
}

static ds_status run_load_cache_file(fixture *fx, int in, ds_graph *g, ds_error *err) {
  (void)in;
  ds_load_options o = load_options(NULL);
  return ds_graph_load(fx->hit_cache, &o, g, err); /* a .dscache named as the input */
}

static ds_status run_cache_read(fixture *fx, int in, ds_graph *g, ds_error *err) {
  (void)in;
  ds_load_options o = load_options(fx->hit_dir);
  return ds_cache_read(fx->hit_cache, &o, &fx->in_stamp, g, err);
}

static ds_status run_cache_write(fixture *fx, int in, ds_graph *g, ds_error *err) {
  (void)g;
  return ds_cache_write(fx->out_cache, &fx->ref[in], NULL, &fx->in_stamp, err);
}

static ds_status run_mtx_write(fixture *fx, int in, ds_graph *g, ds_error *err) {
  (void)g;
  return ds_mtx_write(fx->out_mtx, &fx->ref[in], err);
}

static ds_status run_csr_build(fixture *fx, int symmetric, ds_graph *g, ds_error *err) {
  ds_edge_list el = {SMALL_N, SMALL_M, fx->src, fx->dst, DS_WEIGHT_U32, symmetric ? fx->w : NULL};
  return ds_csr_build(&el, symmetric, NULL, g, err);
}

static ds_status run_search(fixture *fx, int f, ds_algo algo, ds_error *err) {
  ds_sssp_params p;
  ds_sssp_params_default(&p);
  p.want_pred = 1;
  p.threads = SEARCH_THREADS;
  p.delta = f == 1 ? SEARCH_DELTA_FLOAT : SEARCH_DELTA;
  p.dist_width = search_width(fx, f);
  ds_sssp_result r = {.dist = fx->dist, .pred = fx->pred};
  memset(fx->dist, POISON_BYTE, SEARCH_N * sizeof(uint64_t));
  return algo == DS_ALGO_DIJKSTRA ? ds_sssp_dijkstra(&fx->search[f], 0, &p, &r, err)
                                  : ds_sssp_cpu_delta(&fx->search[f], 0, &p, &r, err);
}

static ds_status run_dijkstra(fixture *fx, int f, ds_graph *g, ds_error *err) {
  (void)g;
  return run_search(fx, f, DS_ALGO_DIJKSTRA, err);
}

static ds_status run_cpu_delta(fixture *fx, int f, ds_graph *g, ds_error *err) {
  (void)g;
  return run_search(fx, f, DS_ALGO_CPU_DELTA, err);
}

static ds_status run_validate(fixture *fx, int f, ds_graph *g, ds_error *err) {
  (void)g;
  return ds_sssp_validate(&fx->search[f], 0, fx->dist_ref[f], search_width(fx, f),
                          fx->pred_ref[f], NULL, err);
}

static ds_status run_compare(fixture *fx, int f, ds_graph *g, ds_error *err) {
  (void)g;
  return ds_sssp_compare(&fx->search[f], fx->dist_ref[f], fx->dist_ref[f], search_width(fx, f),
                         NULL, err);
}

/* Core numbers and triangles of the symmetric built graph, arg 1: with per-vertex counts.
 * The outputs live here; the checks compare them with the oracles, run disarmed. */
#define ALGO_THREADS 4
static uint32_t algo_core[SMALL_N];
static uint64_t algo_total, algo_tri[SMALL_N];

static ds_status run_kcore(fixture *fx, int arg, ds_graph *g, ds_error *err) {
  (void)g, (void)arg;
  memset(algo_core, POISON_BYTE, sizeof algo_core);
  return ds_kcore_cpu(&fx->built, ALGO_THREADS, algo_core, err);
}

static ds_status run_kcore_oracle(fixture *fx, int arg, ds_graph *g, ds_error *err) {
  (void)g, (void)arg;
  memset(algo_core, POISON_BYTE, sizeof algo_core);
  return ds_kcore_oracle(&fx->built, algo_core, err);
}

static ds_status run_tc(fixture *fx, int per_vertex, ds_graph *g, ds_error *err) {
  (void)g;
  memset(algo_tri, POISON_BYTE, sizeof algo_tri);
  return ds_tc_cpu(&fx->built, ALGO_THREADS, &algo_total, per_vertex ? algo_tri : NULL, err);
}

static int check_kcore(fixture *fx, int arg, const ds_graph *g) {
  (void)g, (void)arg;
  uint32_t want[SMALL_N];
  ds_error err;
  return ds_kcore_oracle(&fx->built, want, &err) == DS_OK &&
         memcmp(want, algo_core, fx->built.n * sizeof *want) == 0;
}

static int check_tc(fixture *fx, int per_vertex, const ds_graph *g) {
  (void)g;
  uint64_t want[SMALL_N], total;
  ds_error err;
  return ds_tc_oracle(&fx->built, &total, want, &err) == DS_OK && total == algo_total &&
         (!per_vertex || memcmp(want, algo_tri, fx->built.n * sizeof *want) == 0);
}

static int check_input(fixture *fx, int in, const ds_graph *g) {
  return same_graph(&fx->ref[in], g);
}

static int check_built(fixture *fx, int symmetric, const ds_graph *g) {
  return same_graph(symmetric ? &fx->built : &fx->built_pattern, g);
}

/* Reads back what a writer wrote (disarmed) and compares it with input in. */
static int check_written(const char *path, fixture *fx, int in) {
  ds_load_options o = load_options(NULL);
  ds_graph back;
  ds_error err;
  if (ds_graph_load(path, &o, &back, &err) != DS_OK) {
    printf("reading back %s: %s\n", path, err.msg);
    return 0;
  }
  int same = same_graph(&fx->ref[in], &back);
  ds_graph_free(&back);
  return same;
}

static int check_cache_write(fixture *fx, int in, const ds_graph *g) {
  (void)g;
  return check_written(fx->out_cache, fx, in);
}

static int check_mtx_write(fixture *fx, int in, const ds_graph *g) {
  (void)g;
  return check_written(fx->out_mtx, fx, in);
}

static int check_search(fixture *fx, int f, const ds_graph *g) {
  (void)g;
  ds_error err;
  const ds_dist_width w = search_width(fx, f);
  return ds_sssp_compare(&fx->search[f], fx->dist_ref[f], fx->dist, w, NULL, &err) == DS_OK &&
         ds_sssp_validate(&fx->search[f], 0, fx->dist, w, fx->pred, NULL, &err) == DS_OK;
}

static int check_ok(fixture *fx, int arg, const ds_graph *g) {
  (void)fx, (void)arg, (void)g;
  return 1; /* DS_OK is the right answer: the results it judged are correct */
}

typedef struct {
  const char *name;
  run_fn run;
  check_fn check;
  int arg;        /* an input_id, the symmetric flag, or 0/1 for integer/float weights */
  int makes_graph; /* *g is an output: zeroed on failure, freed after a success */
} brutal_case;

static const brutal_case cases[] = {
  {"load mtx integer", run_load, check_input, IN_MTX_INT, 1},
  {"load mtx real", run_load, check_input, IN_MTX_REAL, 1},
  {"load mtx pattern", run_load, check_input, IN_MTX_PATTERN, 1},
  {"load mtx symmetric", run_load, check_input, IN_MTX_SYM, 1},
  {"load mtx.gz", run_load, check_input, IN_MTX_GZ, 1},
  {"load DIMACS .gr", run_load, check_input, IN_GR, 1},
  {"load .el", run_load, check_input, IN_EL, 1},
  {"load .wel", run_load, check_input, IN_WEL, 1},
  {"load, cache miss and write", run_load_cache_miss, check_input, IN_MTX_INT, 1},
  {"load, cache hit", run_load_cache_hit, check_input, IN_MTX_INT, 1},
  {"load a .dscache file", run_load_cache_file, check_input, IN_MTX_INT, 1},
  {"ds_cache_read", run_cache_read, check_input, IN_MTX_INT, 1},
  {"ds_cache_write", run_cache_write, check_cache_write, IN_MTX_REAL, 0},
  {"ds_mtx_write", run_mtx_write, check_mtx_write, IN_MTX_REAL, 0},
  {"ds_csr_build weighted symmetric", run_csr_build, check_built, 1, 1},
  {"ds_csr_build pattern", run_csr_build, check_built, 0, 1},
  {"ds_sssp_dijkstra integer", run_dijkstra, check_search, 0, 0},
  {"ds_sssp_dijkstra float", run_dijkstra, check_search, 1, 0},
  {"ds_sssp_cpu_delta integer", run_cpu_delta, check_search, 0, 0},
  {"ds_sssp_cpu_delta float", run_cpu_delta, check_search, 1, 0},
  {"ds_sssp_dijkstra 64-bit", run_dijkstra, check_search, 2, 0},
  {"ds_sssp_cpu_delta 64-bit", run_cpu_delta, check_search, 2, 0},
  {"ds_sssp_validate", run_validate, check_ok, 0, 0},
  {"ds_sssp_compare", run_compare, check_ok, 1, 0},
  {"ds_kcore_oracle", run_kcore_oracle, check_kcore, 0, 0},
  {"ds_kcore_cpu", run_kcore, check_kcore, 0, 0},
  {"ds_tc_cpu", run_tc, check_tc, 0, 0},
  {"ds_tc_cpu per vertex", run_tc, check_tc, 1, 0},
};

static int graph_zeroed(const ds_graph *g) {
  return g->n == 0 && g->m == 0 && g->row_offsets == NULL && g->col == NULL && g->weights == NULL;
}

/* Runs one case for k = 1, 2, ... until a run has every allocation granted;
 * stops at its first bad run. Returns the allocations of the full run. */
static uint64_t run_case(fixture *fx, const brutal_case *c, brutal_mode mode) {
  const char *how = mode == BRUTAL_ONE ? "only the k-th" : "from the k-th on";
  for (uint64_t k = 1; k <= MAX_K; k++) {
    ds_graph g;
    ds_error err;
    memset(&g, c->makes_graph ? POISON_BYTE : 0, sizeof g);
    err.msg[0] = '\0';
    const int64_t live = brutal_live();
    const long before = ds_test_failures();
    brutal_arm(k, mode);
    ds_status st = c->run(fx, c->arg, &g, &err);
    uint64_t attempts = brutal_disarm();
    int injected = brutal_failed();
    if (st == DS_OK) {
      CHECK(c->check(fx, c->arg, &g), "%s (failing %s, k = %llu): DS_OK with a wrong result",
            c->name, how, (unsigned long long)k);
      if (c->makes_graph) ds_graph_free(&g);
    } else {
      CHECK(injected, "%s: %s without a failed allocation: %s", c->name, ds_status_name(st),
            err.msg);
      CHECK(st == DS_ERR_NOMEM || st == DS_ERR_IO, "%s (failing %s, k = %llu): %s, not NOMEM or "
            "IO: %s", c->name, how, (unsigned long long)k, ds_status_name(st), err.msg);
      CHECK(err.msg[0] != '\0', "%s (failing %s, k = %llu): %s without a message", c->name, how,
            (unsigned long long)k, ds_status_name(st));
      if (c->makes_graph)
        CHECK(graph_zeroed(&g), "%s (failing %s, k = %llu): the graph is not zeroed on failure",
              c->name, how, (unsigned long long)k);
    }
    CHECK(brutal_live() == live, "%s (failing %s, k = %llu, %s): %lld blocks leaked", c->name,
          how, (unsigned long long)k, ds_status_name(st), (long long)(brutal_live() - live));
    if (ds_test_failures() != before) return attempts;
    if (!injected) return attempts;
  }
  CHECK(0, "%s: more than %u allocations", c->name, MAX_K);
  return MAX_K;
}

int main(void) {
  fixture fx;
  if (!fixture_make(&fx)) {
    printf("cannot make the fixture\n");
    return 2;
  }
  const size_t count = sizeof cases / sizeof cases[0];
  for (size_t i = 0; i < count; i++) {
    uint64_t allocations = run_case(&fx, &cases[i], BRUTAL_ONE);
    run_case(&fx, &cases[i], BRUTAL_FROM);
    printf("%-34s %4llu allocations, each failed in turn\n", cases[i].name,
           (unsigned long long)allocations);
  }
  fixture_free(&fx);
  /* the count is right only if every allocation function in use is wrapped */
  CHECK(brutal_live() == 0, "%lld blocks live at the end", (long long)brutal_live());
  return ds_test_finish("brutal: %zu cases", count);
}
