// msplit's radix sort, CUDA C++ API: 64-bit keys with 32-bit values in the double-buffer form
// (no copy of the data in the temporary storage); equal keys keep their input order.
// Documented in msplit/radix_sort.cuh.
#include <cuda_runtime.h>

#include <msplit/radix_sort.cuh>

#include "example_util.h"

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint64_t keys_in[] = {42, 7, 1000000000000ull, 42, 7, 1000000000000ull, 42, 18446744073709551615ull};
  const size_t n = sizeof keys_in / sizeof keys_in[0];
  uint32_t values_in[n];
  for (size_t i = 0; i < n; ++i) values_in[i] = uint32_t(i);
  uint64_t keys_out[n];
  uint32_t values_out[n];
  cudaStream_t stream;
  uint64_t *d_keys = nullptr, *d_keys_alt = nullptr;
  uint32_t *d_values = nullptr, *d_values_alt = nullptr;
  void *d_temp = nullptr;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys_in));
  CHECK_CUDA(cudaMalloc(&d_keys_alt, sizeof keys_in));
  CHECK_CUDA(cudaMalloc(&d_values, sizeof values_in));
  CHECK_CUDA(cudaMalloc(&d_values_alt, sizeof values_in));
  CHECK_CUDA(cudaMemcpy(d_keys, keys_in, sizeof keys_in, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values_in, sizeof values_in, cudaMemcpyHostToDevice));

  msplit::double_buffer<uint64_t> keys(d_keys, d_keys_alt);
  msplit::double_buffer<uint32_t> values(d_values, d_values_alt);
  size_t temp_bytes = 0;
  CHECK(msplit::radix_sort_pairs(nullptr, &temp_bytes, keys, values, n));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::radix_sort_pairs(d_temp, &temp_bytes, keys, values, n, 0, 64, stream));
  // the result is in keys.current() and values.current(); wait for the stream before reading it
  CHECK_CUDA(cudaMemcpyAsync(keys_out, keys.current(), sizeof keys_out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(values_out, values.current(), sizeof values_out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::printf("keys:    ");
  for (size_t i = 0; i < n; ++i) std::printf(" %llu", (unsigned long long)keys_out[i]);
  std::printf("\nvalues:  ");
  for (size_t i = 0; i < n; ++i) std::printf(" %u", values_out[i]);
  std::printf("\nselector: %d\n", keys.selector);

  cudaFree(d_temp);
  cudaFree(d_values_alt);
  cudaFree(d_values);
  cudaFree(d_keys_alt);
  cudaFree(d_keys);
  cudaStreamDestroy(stream);
  return 0;
}
