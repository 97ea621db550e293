/* Graph500's Kronecker edges drawn on the GPU (app/dist/dkron_gpu.cu) against
 * the host's (ds_graph500_edges): the same endpoints and weight bits, edge by
 * edge, for whole graphs and for ranges that start and end anywhere (a
 * rank's share of 3 or 7), on several scales and seeds; the refusals. Then
 * the distributed build with the edges drawn and grouped by owner on the GPU
 * (ds_dkron_build_device) against the host's (ds_dkron_build), on 1 to 4
 * simulated ranks (threads of this process, all on GPU 0), in one chunk and
 * in many: every rank's part equal (rows, heads, weight bits), the same arcs
 * sent to and received from every rank, and both steps done on the GPU.
 * Exits 77 without a CUDA device. Prints the device's edges per second on the
 * largest graph (one untimed draw first). */
#include "ds_test.h"

#include <cuda_runtime_api.h>

#include "dist/dkron_gpu.h"
#include "ds/graph500.h"

#define GROUP_MAX_RANKS 4

#define LARGEST_SCALE 20
#define TIMED_DRAWS 5

static void *device_alloc(size_t bytes) {
  void *p = NULL;
  if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc of %zu bytes failed\n", bytes);
    exit(2);
  }
  return p;
}

/* Edges [begin, end) on the device and on the host: equal bit for bit. */
static void check_range(const ds_dkron_spec *spec, uint64_t begin, uint64_t end) {
  const size_t len = (size_t)(end - begin), cap = len ? len : 1;
  uint32_t *hs = malloc(cap * 4), *hd = malloc(cap * 4), *gs = malloc(cap * 4), *gd = malloc(cap * 4);
  float *hw = malloc(cap * 4), *gw = malloc(cap * 4);
  if (!hs || !hd || !hw || !gs || !gd || !gw) exit(2);
  uint32_t *ds = device_alloc(cap * 4), *dd = device_alloc(cap * 4);
  float *dw = device_alloc(cap * 4);
  ds_error err;
  REQUIRE(ds_graph500_edges(spec->scale, spec->edge_factor, spec->seed, 0, begin, end, hs, hd, hw,
                            &err) == DS_OK, "%s", err.msg);
  REQUIRE(ds_dkron_generate_device(spec, begin, end, ds, dd, dw, 0, &err) == DS_OK, "%s", err.msg);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess, "the generator's kernel failed");
  REQUIRE(cudaMemcpy(gs, ds, len * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
          cudaMemcpy(gd, dd, len * 4, cudaMemcpyDeviceToHost) == cudaSuccess &&
          cudaMemcpy(gw, dw, len * 4, cudaMemcpyDeviceToHost) == cudaSuccess, "copies back failed");
  size_t bad = 0, first = len;
  for (size_t k = 0; k < len; k++)
    if (gs[k] != hs[k] || gd[k] != hd[k] || memcmp(&gw[k], &hw[k], 4) != 0) {
      if (bad++ == 0) first = k;
    }
  CHECK(bad == 0, "scale %u ef %u seed %llu, edges [%llu, %llu): %zu differ from the host's, "
        "first edge %llu", spec->scale, spec->edge_factor, (unsigned long long)spec->seed,
        (unsigned long long)begin, (unsigned long long)end, bad,
        (unsigned long long)(begin + first));
  cudaFree(ds), cudaFree(dd), cudaFree(dw);
  free(hs), free(hd), free(hw), free(gs), free(gd), free(gw);
}

static void check_graph(uint32_t scale, uint32_t edge_factor, uint64_t seed) {
  ds_dkron_spec spec;
  ds_dkron_spec_default(&spec);
  spec.scale = scale;
  spec.edge_factor = edge_factor;
  spec.seed = seed;
  const uint64_t count = ds_dkron_edge_count(&spec);
  check_range(&spec, 0, count);
  const int parts[] = {3, 7};
  for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++)
    for (int r = 0; r < parts[p]; r++) {
      uint64_t b, e;
      ds_partition_share(count, r, parts[p], &b, &e);
      check_range(&spec, b, e);
    }
}

static void time_largest(void) {
  ds_dkron_spec spec;
  ds_dkron_spec_default(&spec);
  spec.scale = LARGEST_SCALE;
  const uint64_t count = ds_dkron_edge_count(&spec);
  uint32_t *ds = device_alloc(count * 4), *dd = device_alloc(count * 4);
  float *dw = device_alloc(count * 4);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  ds_error err;
  REQUIRE(ds_dkron_generate_device(&spec, 0, count, ds, dd, dw, 0, &err) == DS_OK, "%s", err.msg);
  cudaEventRecord(a, 0);
  for (int t = 0; t < TIMED_DRAWS; t++)
    REQUIRE(ds_dkron_generate_device(&spec, 0, count, ds, dd, dw, 0, &err) == DS_OK, "%s", err.msg);
  cudaEventRecord(b, 0);
  REQUIRE(cudaEventSynchronize(b) == cudaSuccess, "the timed draws failed");
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("scale %d: %llu edges in %.3f ms a draw, %.2f G edges/s\n", LARGEST_SCALE,
         (unsigned long long)count, ms / TIMED_DRAWS, (double)count * TIMED_DRAWS / (ms * 1e6));
  cudaEventDestroy(a), cudaEventDestroy(b);
  cudaFree(ds), cudaFree(dd), cudaFree(dw);
}

static void check_refusals(void) {
  ds_dkron_spec spec;
  ds_dkron_spec_default(&spec);
  ds_error err;
  spec.scale = 0;
  CHECK(ds_dkron_generate_device(&spec, 0, 1, NULL, NULL, NULL, 0, &err) == DS_ERR_ARG &&
        strstr(err.msg, "scale 0") != NULL, "scale 0: '%s'", err.msg);
  spec.scale = 4;
  CHECK(ds_dkron_generate_device(&spec, 0, ds_dkron_edge_count(&spec) + 1, NULL, NULL, NULL, 0,
                                 &err) == DS_ERR_ARG, "a range past the end accepted");
  CHECK(ds_dkron_generate_device(&spec, 0, 8, NULL, NULL, NULL, 0, &err) == DS_ERR_ARG &&
        strstr(err.msg, "must not be NULL") != NULL, "NULL arrays: '%s'", err.msg);
  CHECK(ds_dkron_generate_device(&spec, 5, 5, NULL, NULL, NULL, 0, &err) == DS_OK,
        "an empty range refused: '%s'", err.msg);
}

/* ---- the build grouped on the GPU against the host's --------------------- */

typedef struct {
  ds_dkron_spec spec;
  uint64_t chunk_edges;
  ds_dgraph host[GROUP_MAX_RANKS], gpu[GROUP_MAX_RANKS];
  uint64_t to[2][GROUP_MAX_RANKS][GROUP_MAX_RANKS], from[2][GROUP_MAX_RANKS][GROUP_MAX_RANKS];
  int drawn_on_gpu[GROUP_MAX_RANKS], grouped_on_gpu[GROUP_MAX_RANKS], host_grouper[GROUP_MAX_RANKS];
  char note[GROUP_MAX_RANKS][DS_DKRON_NOTE_LEN];
} group_arg;

/* One rank: its part built by the host, then on the GPU (checked by main: the
 * test's counters are not for threads). */
static ds_status group_rank(ds_comm *c, void *argp, ds_error *err) {
  group_arg *a = argp;
  const int r = ds_comm_rank(c);
  ds_dkron_info hi, gi;
  memset(&hi, 0, sizeof hi);
  memset(&gi, 0, sizeof gi);
  hi.build.arcs_to = a->to[0][r], hi.build.arcs_from = a->from[0][r];
  gi.build.arcs_to = a->to[1][r], gi.build.arcs_from = a->from[1][r];
  ds_status st = ds_dkron_build(c, &a->spec, &a->host[r], &hi, err);
  if (st != DS_OK) return st;
  const ds_dkron_gpu_options opt = {0, a->chunk_edges};
  st = ds_dkron_build_device(c, &a->spec, &opt, &a->gpu[r], &gi, err);
  a->drawn_on_gpu[r] = gi.generated_on_device;
  a->grouped_on_gpu[r] = gi.build.grouped_by_grouper;
  a->host_grouper[r] = hi.build.grouped_by_grouper;
  memcpy(a->note[r], gi.note, sizeof gi.note);
  return st;
}

static int same_part(const ds_dgraph *x, const ds_dgraph *y) {
  if (x->first != y->first || x->n_local != y->n_local || x->m_local != y->m_local ||
      x->m != y->m || x->weight_type != y->weight_type || x->symmetric != y->symmetric)
    return 0;
  const size_t m = (size_t)x->m_local;
  return memcmp(x->row_offsets, y->row_offsets, ((size_t)x->n_local + 1) * 8) == 0 &&
         (m == 0 || (memcmp(x->col, y->col, m * 4) == 0 &&
                     memcmp(x->weights, y->weights, m * 4) == 0));
}

static void check_grouping(uint32_t scale, uint32_t edge_factor, uint64_t seed, uint64_t chunk) {
  for (int R = 1; R <= GROUP_MAX_RANKS; R++) {
    group_arg *a = calloc(1, sizeof *a);
    if (a == NULL) exit(2);
    ds_dkron_spec_default(&a->spec);
    a->spec.scale = scale;
    a->spec.edge_factor = edge_factor;
    a->spec.seed = seed;
    a->spec.threads = 1; /* R host threads already */
    a->chunk_edges = chunk;
    ds_status rs[GROUP_MAX_RANKS];
    ds_error re[GROUP_MAX_RANKS], err;
    const ds_status st = ds_comm_inproc_run(R, NULL, group_rank, a, rs, re, &err);
    if (CHECK(st == DS_OK, "scale %u, %d ranks, chunks of %llu: %s", scale, R,
              (unsigned long long)chunk, err.msg))
      for (int r = 0; r < R; r++) {
        CHECK(a->drawn_on_gpu[r] && a->grouped_on_gpu[r] && a->note[r][0] == '\0',
              "scale %u, rank %d of %d: drawn on the GPU %d, grouped there %d (%s)", scale, r, R,
              a->drawn_on_gpu[r], a->grouped_on_gpu[r], a->note[r]);
        CHECK(!a->host_grouper[r], "rank %d of %d: the host build used a grouper", r, R);
        CHECK(same_part(&a->host[r], &a->gpu[r]), "scale %u, chunks of %llu, rank %d of %d: its "
              "part differs from the host build's", scale, (unsigned long long)chunk, r, R);
        CHECK(memcmp(a->to[0][r], a->to[1][r], sizeof a->to[0][r]) == 0 &&
              memcmp(a->from[0][r], a->from[1][r], sizeof a->from[0][r]) == 0,
              "scale %u, rank %d of %d: arcs sent or received differ from the host build's",
              scale, r, R);
      }
    for (int r = 0; r < R; r++) ds_dgraph_free(&a->host[r]), ds_dgraph_free(&a->gpu[r]);
    free(a);
  }
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return ds_test_skip("no CUDA device");
  check_refusals();
  check_graph(1, 16, 1);
  check_graph(9, 16, 1);
  check_graph(12, 5, 0x5eed);
  check_graph(16, 16, 7);
  check_grouping(10, 16, 1, 0);      /* one chunk */
  check_grouping(12, 5, 0x5eed, 777); /* many, ending anywhere in a share */
  check_grouping(16, 16, 7, 100000);
  time_largest();
  return ds_test_finish("dist kron gpu");
}
