/* Graph500's Kronecker graph, generated where it lives: every rank draws its
 * own share of the edges and the distributed build (dgraph.h) sends them to
 * their owners, so no rank ever holds the whole graph.
 *
 * The graph: 2^scale vertices, edge_factor << scale undirected edges drawn
 * with Graph500's quadrant probabilities (a = 0.57, b = 0.19, c = 0.19), ids
 * scrambled by a seeded bijection, self-loops and duplicates drawn as they
 * come (the CSR rules drop the loops and keep the least weight of
 * duplicates), float weights uniform on [0, 1) as Graph500's SSSP kernel
 * draws them: ds_graph500_build's graph (ds/graph500.h), which one process builds
 * whole to compare with. Edge i, its endpoints and its weight come from its
 * own stream (ds/kron_edge.h: graphgen's generator draws the same
 * endpoints), so rank r of R drawing edges [floor(r M / R),
 * floor((r + 1) M / R)) gives the same graph for any R, and a CUDA kernel
 * drawing the same stream on the device gives it too.
 *
 * Example (every rank of comm):
 *
 *     ds_dkron_spec spec;
 *     ds_dkron_spec_default(&spec);
 *     spec.scale = 20;
 *     ds_dgraph g; ds_dkron_info info; ds_error err;
 *     if (ds_dkron_build(comm, &spec, &g, &info, &err) != DS_OK) ... err.msg
 */
#ifndef DS_DIST_DKRON_H
#define DS_DIST_DKRON_H

#include <stdint.h>

#include "dist/comm.h"
#include "dist/dgraph.h"
#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t scale;       /* 1..DS_GRAPH500_MAX_SCALE (ds/graph500.h) */
  uint32_t edge_factor; /* edges = edge_factor << scale; Graph500's is 16 */
  uint64_t seed;
  int threads;          /* OpenMP threads that draw a rank's share; 0: OpenMP's default */
} ds_dkron_spec;

/* scale 16, edge factor 16, seed 1, threads 0. */
void ds_dkron_spec_default(ds_dkron_spec *spec);

/* Errors: DS_ERR_ARG naming the parameter ("kron: scale 40 is not in [1, 31]"). */
ds_status ds_dkron_spec_check(const ds_dkron_spec *spec, ds_error *err);

/* The edges of the whole graph (edge_factor << scale). */
uint64_t ds_dkron_edge_count(const ds_dkron_spec *spec);

/* Drawn edges, owned: list views src, dst and w (float weights). */
typedef struct {
  ds_edge_list list;
  uint32_t *src, *dst;
  float *w;
} ds_dkron_edges;

/* Draws edges [begin, end) of the graph (a checked spec; end at most
 * ds_dkron_edge_count). Local, on spec->threads OpenMP threads; the edges do
 * not depend on their number. [out] out owns its arrays (ds_dkron_edges_free);
 * zeroed on failure. Errors: DS_ERR_ARG (the spec, the range), DS_ERR_NOMEM. */
ds_status ds_dkron_generate(const ds_dkron_spec *spec, uint64_t begin, uint64_t end,
                            ds_dkron_edges *out, ds_error *err);
void ds_dkron_edges_free(ds_dkron_edges *e);

/* out with room for count edges of the spec's graph (its list set up, the
 * values not drawn): for generators that fill the arrays themselves (the
 * GPU's, which copies its draws there). Errors: DS_ERR_NOMEM (out zeroed). */
ds_status ds_dkron_edges_alloc(const ds_dkron_spec *spec, uint64_t count, ds_dkron_edges *out,
                               ds_error *err);

#define DS_DKRON_NOTE_LEN 256

/* What a distributed generation did on this rank. */
typedef struct {
  uint64_t edges;       /* drawn here */
  double generate_ms;   /* drawing them */
  ds_dgraph_build_info build; /* the build: partition, group by owner, exchange, CSR (its
                                 arcs_to and arcs_from pointers are the caller's, or NULL) */
  int generated_on_device;    /* the engine's generator drew them, not the host's */
  char note[DS_DKRON_NOTE_LEN]; /* why the engine left a step to the host, or empty */
} ds_dkron_info;

/* Where a build's edges are drawn and grouped, other than the host: the
 * GPU's (dkron_gpu.h). generate fills out as ds_dkron_generate does (the same
 * edges) and sets *on_device; group is the build's grouper (dgraph.h).
 * Either NULL: the host's. */
typedef struct {
  void *ctx;
  ds_status (*generate)(void *ctx, const ds_dkron_spec *spec, uint64_t begin, uint64_t end,
                        ds_dkron_edges *out, int *on_device, ds_error *err);
  ds_dgraph_grouper group;
} ds_dkron_engine;

/* Builds this rank's part of the graph (collective: every rank of comm calls
 * it with the same spec): its share of the edges (ds_partition_share), then
 * ds_dgraph_build with both directions of every edge. A rank holds its share,
 * its arcs and O(R) counts. The ranks check that they hold the same spec.
 * [out] g     as ds_dgraph_build's (ds_dgraph_free); zeroed on failure.
 * [out] info  may be NULL; set info->build's arcs_to and arcs_from first.
 * Errors, on every rank: DS_ERR_ARG (the spec, specs that differ between the
 * ranks), DS_ERR_NOMEM, the communicator's and ds_dgraph_build's. */
ds_status ds_dkron_build(ds_comm *comm, const ds_dkron_spec *spec, ds_dgraph *g,
                         ds_dkron_info *info, ds_error *err);

/* ds_dkron_build with the edges drawn and grouped by engine (NULL: the
 * host's): the same parts. */
ds_status ds_dkron_build_with(ds_comm *comm, const ds_dkron_spec *spec,
                              const ds_dkron_engine *engine, ds_dgraph *g, ds_dkron_info *info,
                              ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_DIST_DKRON_H */
