/* deltasplit GPU SSSP: delta-stepping with its buckets kept by multisplit
 * ("Multisplit-SSSP", Ashkiani's thesis, seed 003 section 3.7.2).
 *
 * The bucketed engine (bucket_engine.cuh) with the msplit library's stable
 * multisplit as the Splitter: the work items a phase spilled out of the
 * current bucket are permuted into m contiguous buckets, the bucket of vertex
 * v being (dist[v] - base0) / delta clamped into the window (bucket_of<W>, a
 * functor that reads the tentative distance), with the m + 1 bucket offsets
 * written on the device. One call per phase (and per window refill), no
 * synchronisation inside it.
 */
#include <msplit/multisplit.cuh>

#include "bucket_engine.cuh"

namespace dsgpu {

template <typename W> struct multisplit_splitter {
  void *temp = nullptr;
  size_t temp_bytes = 0;
  bucket_of<W> fn;
  uint32_t m = 0;
  cudaStream_t stream = 0;
  static const char *name() { return "multisplit"; }

  ds_status init(ds_gpu_ctx *ctx, uint32_t m_, size_t max_n, bucket_of<W> fn_, const uint32_t *in,
                 uint32_t *out, ds_error *err) {
    fn = fn_;
    m = m_;
    stream = ctx->stream;
    msplit_status s = msplit::multisplit_keys(nullptr, &temp_bytes, in, out, max_n, m, fn,
                                              (size_t *)nullptr, stream);
    if (s != MSPLIT_SUCCESS)
      return ds_error_set(err, DS_ERR_DEVICE, "multisplit: sizing failed: %s",
                          msplit_last_error_message());
    if (temp_bytes > 0 && cudaMalloc(&temp, temp_bytes) != cudaSuccess)
      return ds_error_set(err, DS_ERR_DEVICE, "multisplit: cannot allocate %zu bytes of temporary storage",
                          temp_bytes);
    return DS_OK;
  }
  ds_status split(const uint32_t *in, uint32_t *out, size_t n, size_t *d_off, ds_error *err) {
    size_t bytes = temp_bytes;
    msplit_status s = msplit::multisplit_keys(temp, &bytes, in, out, n, m, fn, d_off, stream);
    if (s != MSPLIT_SUCCESS)
      return ds_error_set(err, DS_ERR_DEVICE, "multisplit of %zu items into %u buckets failed: %s",
                          n, m, msplit_last_error_message());
    return DS_OK;
  }
  void release() {
    cudaFree(temp);
    temp = nullptr;
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
