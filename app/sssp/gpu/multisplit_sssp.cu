/* deltasplit GPU SSSP: delta-stepping with its buckets kept by multisplit
 * ("Multisplit-SSSP", Ashkiani's PhD thesis, UC Davis 2017, section 3.7.2).
 *
 * The bucketed engine (bucket_engine.cuh) with the msplit library's stable
 * multisplit as the Splitter: the work items a phase spilled out of the
 * current bucket are permuted into m contiguous buckets, the bucket of vertex
 * v being (dist[v] - base0) / delta clamped into the window (bucket_of<W>, a
 * functor that reads the tentative distance), with the m + 1 bucket offsets
 * written on the device. The library's grid-wide multisplit
 * (msplit/grid_multisplit.cuh) runs inside the engine's one cooperative
 * kernel, so the whole search is one launch: no host round trip per phase.
 * (Until 2026-11-23 the host called msplit::multisplit_keys once per phase,
 * which needs the spill's size on the host: ~45 us of launches and a
 * read-back per phase, 10 % of NY's time.)
 */
#include <msplit/grid_multisplit.cuh>

#include "bucket_engine.cuh"

namespace dsgpu {

template <typename W> struct multisplit_splitter {
  static constexpr bool ON_DEVICE = true;
  typedef msplit::grid_multisplit_storage<RELAX_BLOCK> smem;
  uint32_t *counts = nullptr; /* the grid multisplit's scratch: grid x m words */
  bucket_of<W> fn;
  uint32_t m = 0;
  static const char *name() { return "multisplit"; }

  ds_status init(ds_gpu_ctx *, uint32_t m_, size_t max_n, uint32_t grid, bucket_of<W> fn_, const uint32_t *,
                 uint32_t *, ds_error *err) {
    fn = fn_;
    m = m_;
    if (max_n > 0xFFFFFFFFull)
      return ds_error_set(err, DS_ERR_ARG, "multisplit: queues of %zu entries exceed the grid multisplit's 2^32",
                          max_n);
    if (cudaMalloc(&counts, sizeof(uint32_t) * msplit::grid_multisplit_count_words(grid, m)) != cudaSuccess)
      return ds_error_set(err, DS_ERR_DEVICE, "multisplit: cannot allocate the bucket counts");
    return DS_OK;
  }
  __device__ __forceinline__ void split(grid_barrier &grid, smem &s, const uint32_t *in, uint32_t *out,
                                        uint32_t n, size_t *d_off, typename weight_traits<W>::acc_t base0,
                                        uint32_t c) const {
    msplit::grid_multisplit_keys<RELAX_BLOCK>(grid, s, in, out, n, m, window_bucket<W>{fn.dist, base0, fn.delta, c, m},
                                              counts, d_off);
  }
  void release() {
    cudaFree(counts);
    counts = nullptr;
  }
};

} // namespace dsgpu

template <typename W>
ds_status ds_multisplit_run(ds_gpu_ctx *ctx, uint32_t source, double delta, uint32_t buckets,
                            ds_sssp_result *res, ds_error *err) {
  return dsgpu::bucket_engine<W, dsgpu::multisplit_splitter<W>>(ctx, source, delta, buckets, res, err);
}
template ds_status ds_multisplit_run<uint32_t>(ds_gpu_ctx *, uint32_t, double, uint32_t,
                                               ds_sssp_result *, ds_error *);
template ds_status ds_multisplit_run<float>(ds_gpu_ctx *, uint32_t, double, uint32_t,
                                            ds_sssp_result *, ds_error *);
