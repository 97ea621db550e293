/* The dispatch to the CPU algorithms (ds_sssp_cpu in sssp.h), above both:
 * Dijkstra (dijkstra.c) and delta-stepping (delta_cpu.c) use the names and
 * the delta rounding of sssp.c, and this file is the one that names them.
 */
#include "sssp.h"

ds_status ds_sssp_cpu(const ds_graph *g, ds_algo algo, uint32_t source,
                      const ds_sssp_params *params, ds_sssp_result *res, ds_error *err) {
  switch (algo) {
  case DS_ALGO_DIJKSTRA: return ds_sssp_dijkstra(g, source, params, res, err);
  case DS_ALGO_CPU_DELTA: return ds_sssp_cpu_delta(g, source, params, res, err);
  default:
    return ds_error_set(err, DS_ERR_ARG, "algorithm %s is not a CPU algorithm",
                        ds_algo_name(algo));
  }
}
