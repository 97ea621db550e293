// msplit's CUDA C++ API: ten keys split into three buckets by a built-in functor (delta_bucket)
// and by a functor of one's own. Documented in msplit/multisplit.cuh.
#include <cuda_runtime.h>

#include <msplit/multisplit.cuh>

#include "example_util.h"

struct mod3 {  // a bucket functor of one's own
  __device__ uint32_t operator()(uint32_t key) const { return key % 3; }
};

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 14};
  const size_t n = sizeof keys / sizeof keys[0];
  uint32_t out[n];
  size_t offsets[4];
  cudaStream_t stream;
  uint32_t *d_keys = nullptr, *d_out = nullptr;
  size_t *d_offsets = nullptr;
  void *d_temp = nullptr;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_out, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  example_print_keys("in:", keys, n, nullptr, 0);

  msplit::delta_bucket<uint32_t> tens(0, 10, 3);  // buckets [0, 10) [10, 20) [20, ...)
  size_t temp_bytes = 0;
  CHECK(msplit::multisplit_keys(nullptr, &temp_bytes, d_keys, d_out, n, 3, tens, d_offsets, stream));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::multisplit_keys(d_temp, &temp_bytes, d_keys, d_out, n, 3, tens, d_offsets, stream));
  // nothing has synchronised yet: wait for the stream before reading the results
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  example_print_keys("tens:", out, n, offsets, 3);
  example_print_offsets(offsets, 3);

  // the same size of temporary storage serves: same n, m and types (query again if they change)
  CHECK(msplit::multisplit_keys(d_temp, &temp_bytes, d_keys, d_out, n, 3, mod3{}, d_offsets, stream));
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  example_print_keys("mod3:", out, n, offsets, 3);
  example_print_offsets(offsets, 3);

  std::printf("variant for m = 3: %s, for m = 2: %s\n",
              msplit_variant_name(msplit::multisplit_resolve_variant(MSPLIT_VARIANT_AUTO, 3, sizeof(uint32_t), 0, n)),
              msplit_variant_name(msplit::multisplit_resolve_variant(MSPLIT_VARIANT_AUTO, 2, sizeof(uint32_t), 0, n)));
  cudaFree(d_temp);
  cudaFree(d_offsets);
  cudaFree(d_out);
  cudaFree(d_keys);
  cudaStreamDestroy(stream);
  return 0;
}
