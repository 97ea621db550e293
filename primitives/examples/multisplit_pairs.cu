// msplit's CUDA C++ API: key-value pairs split into three buckets by splitters (splitter_bucket).
// The values are the keys' input positions, which shows that the split is stable. Documented in
// msplit/multisplit.cuh.
#include <cuda_runtime.h>

#include <msplit/multisplit.cuh>

#include "example_util.h"

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 14};
  const uint32_t splitters[] = {5, 20};  // buckets: keys < 5, 5 <= keys < 20, keys >= 20
  const size_t n = sizeof keys / sizeof keys[0];
  uint32_t values[n], keys_out[n], values_out[n];
  for (size_t i = 0; i < n; ++i) values[i] = uint32_t(i);
  size_t offsets[4];
  cudaStream_t stream = 0;  // the default stream
  uint32_t *d_keys = nullptr, *d_keys_out = nullptr, *d_values = nullptr, *d_values_out = nullptr;
  uint32_t *d_splitters = nullptr;
  size_t *d_offsets = nullptr;
  void *d_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_keys_out, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_values, sizeof values));
  CHECK_CUDA(cudaMalloc(&d_values_out, sizeof values));
  CHECK_CUDA(cudaMalloc(&d_splitters, sizeof splitters));
  CHECK_CUDA(cudaMalloc(&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_splitters, splitters, sizeof splitters, cudaMemcpyHostToDevice));

  const msplit::splitter_bucket<uint32_t> split{d_splitters, 2};  // splitters 5 and 20
  size_t temp_bytes = 0;
  CHECK(msplit::multisplit_pairs(nullptr, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, 3,
                                 split, d_offsets, stream));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::multisplit_pairs(d_temp, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, 3,
                                 split, d_offsets, stream));
  CHECK_CUDA(cudaMemcpy(keys_out, d_keys_out, sizeof keys_out, cudaMemcpyDeviceToHost));  // waits
  CHECK_CUDA(cudaMemcpy(values_out, d_values_out, sizeof values_out, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  example_print_keys("keys:", keys_out, n, offsets, 3);
  example_print_keys("values:", values_out, n, offsets, 3);
  cudaFree(d_temp);
  cudaFree(d_offsets);
  cudaFree(d_splitters);
  cudaFree(d_values_out);
  cudaFree(d_values);
  cudaFree(d_keys_out);
  cudaFree(d_keys);
  return 0;
}
