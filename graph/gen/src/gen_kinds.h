/* Internal to ds_gen: the per-kind edge generators that ds_gen_edges
 * (gen_common.c) dispatches to, one per file. Specs are already checked by
 * ds_gen_edges. They use gen_edges.h, never the front end.
 */
#ifndef DS_GEN_KINDS_H
#define DS_GEN_KINDS_H

#include "ds/rng.h"
#include "gen_edges.h"

ds_status ds_gen_rmat_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
ds_status ds_gen_grid_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);
/* out == NULL: only the points (px, py, each n doubles); px == NULL: only the edges. */
ds_status ds_gen_geo_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, double *px,
                           double *py, ds_error *err);
ds_status ds_gen_uniform_edges(const ds_gen_spec *spec, ds_gen_edge_list *out, ds_error *err);

#endif /* DS_GEN_KINDS_H */
