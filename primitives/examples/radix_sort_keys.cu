// msplit's radix sort, CUDA C++ API: ten keys sorted ascending, descending and by their low four
// bits (stable), and floats in IEEE order with the NaN last. Documented in msplit/radix_sort.cuh.
#include <cuda_runtime.h>

#include <cmath>

#include <msplit/radix_sort.cuh>

#include "example_util.h"

static void print_u32(const char *label, const uint32_t *v, size_t n) {
  std::printf("%-12s", label);
  for (size_t i = 0; i < n; ++i) std::printf(i ? " %u" : "%u", v[i]);
  std::printf("\n");
}

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 14};
  const float floats[] = {2.0f, -0.0f, NAN, -1.5f, 0.0f, -INFINITY};
  const size_t n = sizeof keys / sizeof keys[0];
  uint32_t out[n];
  float floats_out[6];
  cudaStream_t stream;
  uint32_t *d_keys = nullptr, *d_out = nullptr;
  float *d_floats = nullptr, *d_floats_out = nullptr;
  void *d_temp = nullptr;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_out, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_floats, sizeof floats));
  CHECK_CUDA(cudaMalloc(&d_floats_out, sizeof floats));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_floats, floats, sizeof floats, cudaMemcpyHostToDevice));
  print_u32("in:", keys, n);

  // one query serves every call below: the same key width, n or fewer keys, 32 bits or fewer
  size_t temp_bytes = 0;
  CHECK(msplit::radix_sort_keys(nullptr, &temp_bytes, d_keys, d_out, n));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::radix_sort_keys(d_temp, &temp_bytes, d_keys, d_out, n, 0, 32, stream));
  // nothing has synchronised yet: wait for the stream before reading the results
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_u32("ascending:", out, n);
  CHECK(msplit::radix_sort_keys_descending(d_temp, &temp_bytes, d_keys, d_out, n, 0, 32, stream));
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_u32("descending:", out, n);
  CHECK(msplit::radix_sort_keys(d_temp, &temp_bytes, d_keys, d_out, n, 0, 4, stream));
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_u32("low 4 bits:", out, n);
  CHECK(msplit::radix_sort_keys(d_temp, &temp_bytes, d_floats, d_floats_out, 6, 0, 32, stream));
  CHECK_CUDA(cudaMemcpyAsync(floats_out, d_floats_out, sizeof floats_out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::printf("%-12s", "floats:");
  for (int i = 0; i < 6; ++i) std::printf(i ? " %g" : "%g", floats_out[i]);
  std::printf("\n");

  cudaFree(d_temp);
  cudaFree(d_floats_out);
  cudaFree(d_floats);
  cudaFree(d_out);
  cudaFree(d_keys);
  cudaStreamDestroy(stream);
  return 0;
}
