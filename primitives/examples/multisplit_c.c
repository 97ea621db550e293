/* msplit's C API: ten keys split into three delta buckets of width 10, the offsets read back,
 * then what an argument error looks like. Documented in msplit/multisplit.h. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>

#include "example_util.h"

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 14};
  const size_t n = sizeof keys / sizeof keys[0];
  uint32_t out[sizeof keys / sizeof keys[0]];
  size_t offsets[4];
  uint32_t *d_keys = NULL, *d_out = NULL;
  size_t *d_offsets = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_out, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));

  msplit_bucket_desc bucket = {0};
  bucket.kind = MSPLIT_BUCKET_DELTA;
  bucket.base.u = 0;
  bucket.delta.u = 10; // buckets [0, 10) [10, 20) [20, ...)
  size_t temp_bytes = 0;
  void *d_temp = NULL;
  CHECK(msplit_multisplit(NULL, &temp_bytes, d_keys, d_out, NULL, NULL, n, 3, bucket, d_offsets,
                          MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, NULL));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit_multisplit(d_temp, &temp_bytes, d_keys, d_out, NULL, NULL, n, 3, bucket, d_offsets,
                          MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, NULL));
  CHECK(msplit_copy_offsets_sync(offsets, d_offsets, 3, NULL));
  CHECK_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  example_print_keys("in:", keys, n, NULL, 0);
  example_print_keys("out:", out, n, offsets, 3);
  example_print_offsets(offsets, 3);

  /* An argument error: nothing runs or is written, the status says what kind of error and the
   * message which argument. */
  const msplit_status st = msplit_multisplit(d_temp, &temp_bytes, d_keys, d_out, NULL, NULL, n, 0, bucket,
                                             d_offsets, MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE,
                                             MSPLIT_VARIANT_AUTO, NULL);
  printf("with 0 buckets: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  printf("variant names:");
  const msplit_variant variants[] = {MSPLIT_VARIANT_AUTO, MSPLIT_VARIANT_DIRECT, MSPLIT_VARIANT_ONEPASS,
                                     MSPLIT_VARIANT_SORT};
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v) printf(" %s", msplit_variant_name(variants[v]));
  printf("\nversion: %s\n", msplit_version_string());

  cudaFree(d_temp);
  cudaFree(d_offsets);
  cudaFree(d_out);
  cudaFree(d_keys);
  return 0;
}
