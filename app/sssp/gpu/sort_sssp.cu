/* deltasplit GPU SSSP: delta-stepping with its buckets kept by a radix sort
 * (Davidson et al.'s "Bucketing", IPDPS 2014), the ablation for multisplit.
 *
 * The bucketed engine (bucket_engine.cuh) with this Splitter: label every item
 * with its bucket (the same bucket_of<W> functor as multisplit_sssp.cu) while
 * counting a histogram, sort (label, vertex) pairs with CUB's radix sort on
 * ceil(log2 m) bits, and turn the histogram into the bucket offsets. Same
 * output as the multisplit (a stable grouping by bucket), more passes.
 */
#include <cub/device/device_radix_sort.cuh>

#include "bucket_engine.cuh"

namespace dsgpu {

template <typename W>
__global__ void label_kernel(const uint32_t *in, size_t n, bucket_of<W> fn, uint32_t *labels,
                             uint32_t *hist) {
  __shared__ uint32_t sh[MAX_BUCKETS];
  for (uint32_t j = threadIdx.x; j < fn.m; j += blockDim.x) sh[j] = 0;
  __syncthreads();
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t b = fn(in[i]);
    labels[i] = b;
    atomicAdd(&sh[b], 1u);
  }
  __syncthreads();
  for (uint32_t j = threadIdx.x; j < fn.m; j += blockDim.x)
    if (sh[j]) atomicAdd(&hist[j], sh[j]);
}

/* Exclusive scan of the histogram into the offsets; clears the histogram. */
__global__ void offsets_kernel(uint32_t *hist, uint32_t m, size_t *off) {
  typedef cub::BlockScan<size_t, MAX_BUCKETS> scan_t;
  __shared__ typename scan_t::TempStorage tmp;
  size_t c = threadIdx.x < m ? hist[threadIdx.x] : 0, pos = 0, total = 0;
  scan_t(tmp).ExclusiveSum(c, pos, total);
  if (threadIdx.x < m) {
    off[threadIdx.x] = pos;
    hist[threadIdx.x] = 0;
  }
  if (threadIdx.x == 0) off[m] = total;
}

template <typename W> struct sort_splitter {
  void *temp = nullptr;
  size_t temp_bytes = 0;
  uint32_t *labels = nullptr; /* labels in, labels out, histogram */
  size_t max_n = 0;
  bucket_of<W> fn;
  uint32_t m = 0, bits = 1;
  int grid = 1;
  cudaStream_t stream = 0;
  static const char *name() { return "sort"; }
  static constexpr bool ON_DEVICE = false; /* CUB's sort is called from the host */

  ds_status init(ds_gpu_ctx *ctx, uint32_t m_, size_t max_n_, uint32_t, bucket_of<W> fn_, const uint32_t *in,
                 uint32_t *out, ds_error *err) {
    fn = fn_;
    m = m_;
    max_n = max_n_;
    stream = ctx->stream;
    grid = 4 * ctx->num_sms;
    while ((1u << bits) < m) ++bits;
    if (cudaMalloc(&labels, sizeof(uint32_t) * (2 * max_n + MAX_BUCKETS)) != cudaSuccess)
      return ds_error_set(err, DS_ERR_DEVICE, "sort: cannot allocate the labels");
    if (cudaMemsetAsync(labels + 2 * max_n, 0, sizeof(uint32_t) * MAX_BUCKETS, stream) != cudaSuccess ||
        cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, labels, labels + max_n, in, out,
                                        (int)max_n, 0, (int)bits, stream) != cudaSuccess ||
        cudaMalloc(&temp, temp_bytes) != cudaSuccess)
      return ds_error_set(err, DS_ERR_DEVICE, "sort: setup failed: %s", cudaGetErrorString(cudaGetLastError()));
    return DS_OK;
  }
  ds_status split(const uint32_t *in, uint32_t *out, size_t n, size_t *d_off, ds_error *err) {
    uint32_t *hist = labels + 2 * max_n;
    label_kernel<W><<<grid, LABEL_BLOCK, 0, stream>>>(in, n, fn, labels, hist);
    size_t bytes = temp_bytes;
    if (cub::DeviceRadixSort::SortPairs(temp, bytes, labels, labels + max_n, in, out, (int)n, 0,
                                        (int)bits, stream) != cudaSuccess)
      return ds_error_set(err, DS_ERR_DEVICE, "sort of %zu items failed: %s", n,
                          cudaGetErrorString(cudaGetLastError()));
    offsets_kernel<<<1, MAX_BUCKETS, 0, stream>>>(hist, m, d_off);
    DS_LAUNCH_CHECK("sort bucketing");
    return DS_OK;
  }
  void release() {
    cudaFree(temp);
    cudaFree(labels);
    temp = nullptr;
    labels = nullptr;
  }
};

} // namespace dsgpu

template <typename W>
ds_status ds_sort_run(ds_gpu_ctx *ctx, uint32_t source, double delta, uint32_t buckets,
                      ds_sssp_result *res, ds_error *err) {
  return dsgpu::bucket_engine<W, dsgpu::sort_splitter<W>>(ctx, source, delta, buckets, res, err);
}
template ds_status ds_sort_run<uint32_t>(ds_gpu_ctx *, uint32_t, double, uint32_t,
                                         ds_sssp_result *, ds_error *);
template ds_status ds_sort_run<float>(ds_gpu_ctx *, uint32_t, double, uint32_t, ds_sssp_result *,
                                      ds_error *);
