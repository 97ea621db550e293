/* msplit's C API: ten float samples counted into four even bins and three range bins, what
 * unsorted boundaries do, and what an argument error looks like. Documented in
 * msplit/histogram.h. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <msplit/msplit.h>

#include "example_util.h"

static void print_counts(const char *label, const uint32_t *counts, uint32_t m, const char *note) {
  printf("%s", label);
  for (uint32_t b = 0; b < m; ++b) printf(" %u", (unsigned)counts[b]);
  printf("%s\n", note);
}

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const float samples[] = {0.1f, 0.3f, 0.6f, 0.9f, -0.5f, 1.0f, 0.2f, 0.8f, NAN, 0.55f};
  const size_t n = sizeof samples / sizeof samples[0];
  uint32_t counts[4];
  float *d_samples = NULL, *d_levels = NULL;
  uint32_t *d_hist = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_samples, sizeof samples));
  CHECK_CUDA(cudaMalloc((void **)&d_levels, 4 * sizeof(float)));
  CHECK_CUDA(cudaMalloc((void **)&d_hist, sizeof counts));
  CHECK_CUDA(cudaMemcpy(d_samples, samples, sizeof samples, cudaMemcpyHostToDevice));
  printf("samples:");
  for (size_t i = 0; i < n; ++i) printf(" %g", samples[i]);
  printf("\n");

  /* 4 even bins of width 0.25 from 0: [0, 0.25) [0.25, 0.5) [0.5, 0.75) [0.75, 1) */
  size_t temp_bytes = 0;
  void *d_temp = NULL;
  CHECK(msplit_histogram_even(NULL, &temp_bytes, d_samples, d_hist, n, 4, 0.0, 0.25, MSPLIT_TYPE_F32,
                              MSPLIT_TYPE_U32, 0, NULL));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit_histogram_even(d_temp, &temp_bytes, d_samples, d_hist, n, 4, 0.0, 0.25, MSPLIT_TYPE_F32,
                              MSPLIT_TYPE_U32, 0, NULL));
  CHECK_CUDA(cudaMemcpy(counts, d_hist, sizeof counts, cudaMemcpyDeviceToHost));
  print_counts("even:   ", counts, 4, "");

  /* range bins between sorted boundaries (device memory) */
  const float levels[] = {-1.0f, 0.0f, 0.5f, 2.0f}; // 3 bins: [-1, 0) [0, 0.5) [0.5, 2)
  CHECK_CUDA(cudaMemcpy(d_levels, levels, sizeof levels, cudaMemcpyHostToDevice));
  CHECK(msplit_histogram_range(d_temp, &temp_bytes, d_samples, d_hist, n, 3, d_levels, MSPLIT_TYPE_F32,
                               MSPLIT_TYPE_U32, 0, NULL));
  CHECK_CUDA(cudaMemcpy(counts, d_hist, 3 * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  print_counts("range:  ", counts, 3, "");

  /* Unsorted boundaries are found on the device: the call has returned, so it cannot say so,
   * but it leaves the histogram as it was; the synchronous check gives the status. */
  const float unsorted[] = {-1.0f, 0.5f, 0.0f, 2.0f};
  CHECK_CUDA(cudaMemcpy(d_levels, unsorted, sizeof unsorted, cudaMemcpyHostToDevice));
  CHECK(msplit_histogram_range(d_temp, &temp_bytes, d_samples, d_hist, n, 3, d_levels, MSPLIT_TYPE_F32,
                               MSPLIT_TYPE_U32, 0, NULL));
  msplit_status st = msplit_check_sync(d_temp, temp_bytes, NULL);
  printf("unsorted: %s: %s\n", msplit_status_string(st), msplit_last_error_message());
  CHECK_CUDA(cudaMemcpy(counts, d_hist, 3 * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  print_counts("range with them:", counts, 3, " (left as it was)");

  /* An argument error: nothing runs or is written; the message names the argument. */
  st = msplit_histogram_even(d_temp, &temp_bytes, d_samples, d_hist, n, 0, 0.0, 0.25, MSPLIT_TYPE_F32,
                             MSPLIT_TYPE_U32, 0, NULL);
  printf("with 0 bins: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  cudaFree(d_temp);
  cudaFree(d_hist);
  cudaFree(d_levels);
  cudaFree(d_samples);
  return 0;
}
