// msplit's CUDA C++ API: a stable segmented sort of key-value pairs, then of the keys descending,
// on four segments (one of them empty). The values are the keys' input positions, which shows
// that equal keys keep their order. Documented in msplit/segmented_sort.cuh.
#include <cuda_runtime.h>

#include <cstdio>

#include <msplit/segmented_sort.cuh>

#include "example_util.h"

// "label      k0 k1 | k2 ..." with a bar between segments.
static void print_segments(const char *label, const uint32_t *keys, const uint32_t *offsets, size_t num_segments) {
  std::printf("%-11s", label);
  for (size_t s = 0; s < num_segments; ++s) {
    if (s > 0) std::printf(" |");
    for (uint32_t i = offsets[s]; i < offsets[s + 1]; ++i) std::printf(" %u", keys[i]);
  }
  std::printf("\n");
}

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {7, 3, 9, 5, 1, 5, 0, 2};
  const uint32_t offsets[] = {0, 3, 3, 7, 8};  // segments [0, 3) [3, 3) [3, 7) [7, 8)
  const size_t n = sizeof keys / sizeof keys[0], num_segments = 4;
  uint32_t values[n], keys_out[n], values_out[n];
  for (size_t i = 0; i < n; ++i) values[i] = uint32_t(i);
  cudaStream_t stream = 0;  // the default stream
  uint32_t *d_keys = nullptr, *d_keys_out = nullptr, *d_values = nullptr, *d_values_out = nullptr, *d_offsets = nullptr;
  void *d_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_keys_out, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_values, sizeof values));
  CHECK_CUDA(cudaMalloc(&d_values_out, sizeof values));
  CHECK_CUDA(cudaMalloc(&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice));

  size_t temp_bytes = 0;
  CHECK(msplit::segmented_sort_pairs(nullptr, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n,
                                     num_segments, d_offsets, d_offsets + 1, stream));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::segmented_sort_pairs(d_temp, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n,
                                     num_segments, d_offsets, d_offsets + 1, stream));
  CHECK_CUDA(cudaMemcpy(keys_out, d_keys_out, sizeof keys_out, cudaMemcpyDeviceToHost));  // waits
  CHECK_CUDA(cudaMemcpy(values_out, d_values_out, sizeof values_out, cudaMemcpyDeviceToHost));
  print_segments("keys:", keys, offsets, num_segments);
  print_segments("sorted:", keys_out, offsets, num_segments);
  print_segments("values:", values_out, offsets, num_segments);

  CHECK(msplit::segmented_sort_keys_descending(d_temp, &temp_bytes, d_keys, d_keys_out, n, num_segments,
                                               d_offsets, d_offsets + 1, stream));
  CHECK(msplit::check_sync(d_temp, temp_bytes, stream));  // waits; the offsets were fine
  CHECK_CUDA(cudaMemcpy(keys_out, d_keys_out, sizeof keys_out, cudaMemcpyDeviceToHost));
  print_segments("descending:", keys_out, offsets, num_segments);
  cudaFree(d_temp);
  cudaFree(d_offsets);
  cudaFree(d_values_out);
  cudaFree(d_values);
  cudaFree(d_keys_out);
  cudaFree(d_keys);
  return 0;
}
