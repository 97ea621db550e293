// msplit's CUDA C++ API: twelve 8-bit samples counted into four even bins, counted again on top
// (accumulate), and counted by a bin functor of one's own. Documented in msplit/histogram.cuh.
#include <cuda_runtime.h>

#include <msplit/histogram.cuh>

#include "example_util.h"

struct last_digit {  // a bin functor of one's own: bins 0..9 by the last decimal digit
  __device__ uint32_t operator()(uint8_t x) const { return x % 10; }
};

static void print_counts(const char *label, const uint32_t *counts, uint32_t m) {
  printf("%-12s", label);
  for (uint32_t b = 0; b < m; ++b) printf(b ? " %u" : "%u", counts[b]);
  printf("\n");
}

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint8_t samples[] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 45, 14, 39};
  const size_t n = sizeof samples / sizeof samples[0];
  uint32_t counts[10];
  cudaStream_t stream;
  uint8_t *d_samples = nullptr;
  uint32_t *d_hist = nullptr, *d_digits = nullptr;
  void *d_temp = nullptr;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&d_samples, sizeof samples));
  CHECK_CUDA(cudaMalloc(&d_hist, 4 * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&d_digits, 10 * sizeof(uint32_t)));
  CHECK_CUDA(cudaMemcpy(d_samples, samples, sizeof samples, cudaMemcpyHostToDevice));
  printf("%-12s", "samples:");
  for (size_t i = 0; i < n; ++i) printf(i ? " %u" : "%u", unsigned(samples[i]));
  printf("\n");

  // 4 bins of width 10 from 0: [0, 10) [10, 20) [20, 30) [30, 40); 45 is in none
  size_t temp_bytes = 0;
  CHECK(msplit::histogram_even(nullptr, &temp_bytes, d_samples, n, 4, 0u, 10u, d_hist, stream));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::histogram_even(d_temp, &temp_bytes, d_samples, n, 4, 0u, 10u, d_hist, stream));
  // nothing has synchronised yet: wait for the stream before reading the counts
  CHECK_CUDA(cudaMemcpyAsync(counts, d_hist, 4 * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_counts("even:", counts, 4);
  // accumulate = true adds the counts to those in d_hist
  CHECK(msplit::histogram_even(d_temp, &temp_bytes, d_samples, n, 4, 0u, 10u, d_hist, stream, true));
  CHECK_CUDA(cudaMemcpyAsync(counts, d_hist, 4 * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_counts("again:", counts, 4);

  CHECK(msplit::histogram(d_temp, &temp_bytes, d_samples, n, 10, last_digit{}, d_digits, stream));
  CHECK_CUDA(cudaMemcpyAsync(counts, d_digits, 10 * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_counts("last digit:", counts, 10);

  cudaFree(d_temp);
  cudaFree(d_digits);
  cudaFree(d_hist);
  cudaFree(d_samples);
  cudaStreamDestroy(stream);
  return 0;
}
