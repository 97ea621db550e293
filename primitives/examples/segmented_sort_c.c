/* msplit's C API: a stable segmented sort of float keys in three segments (with -0.0, the
 * infinities and a NaN), then a call whose offsets are bad, which the device-side check reports
 * and which writes nothing. Documented in msplit/segmented_sort.h. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <msplit/msplit.h>
#include <stdio.h>
#include <string.h>

#include "example_util.h"

/* "label   k0 k1 | k2 ..." with a bar between segments. */
static void print_segments(const char *label, const float *keys, const uint32_t *offsets, size_t num_segments) {
  size_t s;
  uint32_t i;
  printf("%-7s", label);
  for (s = 0; s < num_segments; ++s) {
    if (s > 0) printf(" |");
    for (i = offsets[s]; i < offsets[s + 1]; ++i) printf(" %g", (double)keys[i]);
  }
  printf("\n");
}

int main(void) {
  const float keys[] = {2.5f, -1.0f, 0.5f, 3.0f, -0.0f, 0.0f, -2.0f, INFINITY, NAN, -INFINITY, 1.0f};
  const uint32_t offsets[] = {0, 3, 7, 11};
  const uint32_t bad_offsets[] = {0, 3, 7, 12}; /* the last segment ends beyond n */
  const size_t n = sizeof keys / sizeof keys[0];
  float out[sizeof keys / sizeof keys[0]], again[sizeof keys / sizeof keys[0]];
  float *d_keys = NULL, *d_keys_out = NULL;
  uint32_t *d_offsets = NULL, *d_bad_offsets = NULL;
  void *d_temp = NULL;
  msplit_status st;
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  CHECK_CUDA(cudaMalloc((void **)&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_keys_out, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMalloc((void **)&d_bad_offsets, sizeof bad_offsets));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_bad_offsets, bad_offsets, sizeof bad_offsets, cudaMemcpyHostToDevice));

  size_t temp_bytes = 0;
  CHECK(msplit_segmented_sort(NULL, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, 3, d_offsets,
                              d_offsets + 1, MSPLIT_TYPE_F32, MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, NULL));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit_segmented_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, 3, d_offsets,
                              d_offsets + 1, MSPLIT_TYPE_F32, MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, NULL));
  CHECK(msplit_check_sync(d_temp, temp_bytes, NULL));
  CHECK_CUDA(cudaMemcpy(out, d_keys_out, sizeof out, cudaMemcpyDeviceToHost));
  print_segments("keys:", keys, offsets, 3);
  print_segments("sorted:", out, offsets, 3);

  st = msplit_segmented_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, 3, d_bad_offsets,
                             d_bad_offsets + 1, MSPLIT_TYPE_F32, MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, NULL);
  printf("queued: %s\n", msplit_status_string(st));
  st = msplit_check_sync(d_temp, temp_bytes, NULL);
  printf("checked: %s: %s\n", msplit_status_string(st), msplit_last_error_message());
  CHECK_CUDA(cudaMemcpy(again, d_keys_out, sizeof again, cudaMemcpyDeviceToHost));
  printf("output untouched: %s\n", memcmp(again, out, sizeof out) == 0 ? "yes" : "no");
  cudaFree(d_temp);
  cudaFree(d_bad_offsets);
  cudaFree(d_offsets);
  cudaFree(d_keys_out);
  cudaFree(d_keys);
  return 0;
}
