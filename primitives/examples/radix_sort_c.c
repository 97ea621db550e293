/* msplit's radix sort, C API: int32 keys with their positions as values, ascending (stable),
 * then the keys alone descending, then an argument error. Documented in msplit/radix_sort.h. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>
#include <stdint.h>
#include <stdio.h>

#include "example_util.h"

static void print_i32(const char *label, const int32_t *v, size_t n) {
  printf("%-12s", label);
  for (size_t i = 0; i < n; ++i) printf(i ? " %d" : "%d", (int)v[i]);
  printf("\n");
}

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const int32_t keys[] = {3, -5, 0, 2147483647, -2147483647 - 1, -5, 3};
  const uint32_t values[] = {0, 1, 2, 3, 4, 5, 6};
  const size_t n = sizeof keys / sizeof keys[0];
  int32_t keys_out[sizeof keys / sizeof keys[0]];
  uint32_t values_out[sizeof keys / sizeof keys[0]];
  int32_t *d_keys = NULL, *d_keys_out = NULL;
  uint32_t *d_values = NULL, *d_values_out = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_keys_out, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_values, sizeof values));
  CHECK_CUDA(cudaMalloc((void **)&d_values_out, sizeof values));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));

  size_t temp_bytes = 0;
  void *d_temp = NULL;
  CHECK(msplit_radix_sort(NULL, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, MSPLIT_TYPE_I32,
                          MSPLIT_TYPE_U32, 0, 0, 32, NULL));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit_radix_sort(d_temp, &temp_bytes, d_keys, d_keys_out, d_values, d_values_out, n, MSPLIT_TYPE_I32,
                          MSPLIT_TYPE_U32, 0, 0, 32, NULL));
  /* cudaMemcpy waits for the default stream, on which the sort was queued */
  CHECK_CUDA(cudaMemcpy(keys_out, d_keys_out, sizeof keys_out, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(values_out, d_values_out, sizeof values_out, cudaMemcpyDeviceToHost));
  print_i32("keys:", keys_out, n);
  printf("%-12s", "values:");
  for (size_t i = 0; i < n; ++i) printf(i ? " %u" : "%u", (unsigned)values_out[i]);
  printf("\n");

  CHECK(msplit_radix_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n, MSPLIT_TYPE_I32,
                          MSPLIT_TYPE_NONE, 1, 0, 32, NULL));
  CHECK_CUDA(cudaMemcpy(keys_out, d_keys_out, sizeof keys_out, cudaMemcpyDeviceToHost));
  print_i32("descending:", keys_out, n);

  const msplit_status st = msplit_radix_sort(d_temp, &temp_bytes, d_keys, d_keys_out, NULL, NULL, n,
                                             MSPLIT_TYPE_I32, MSPLIT_TYPE_NONE, 0, 0, 33, NULL);
  printf("with end_bit 33: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  cudaFree(d_temp);
  cudaFree(d_values_out);
  cudaFree(d_values);
  cudaFree(d_keys_out);
  cudaFree(d_keys);
  return 0;
}
