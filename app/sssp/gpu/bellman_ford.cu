/* deltasplit GPU SSSP: Bellman-Ford on frontiers, the plain baseline (what
 * Gunrock ships as SSSP).
 *
 * Each round relaxes the out-arcs of every vertex whose distance dropped in the
 * previous round, until no distance drops. It is the Near-Far engine with one
 * infinite bucket (no split distance, no far pile), so it shares its
 * load-balanced relaxation and device-side control and differs from
 * delta-stepping only in the order of work: no priority at all, hence more
 * re-relaxations on graphs with a wide spread of path weights.
 */
#include "near_far.cuh"

template <typename W>
ds_status ds_bellman_ford_run(ds_gpu_ctx *ctx, uint32_t source, ds_sssp_result *res,
                              ds_error *err) {
  return dsgpu::near_far_engine<W>(ctx, source, 1.0, 1, NULL, 0, res, err);
}
template ds_status ds_bellman_ford_run<uint32_t>(ds_gpu_ctx *, uint32_t, ds_sssp_result *,
                                                 ds_error *);
template ds_status ds_bellman_ford_run<float>(ds_gpu_ctx *, uint32_t, ds_sssp_result *,
                                              ds_error *);
