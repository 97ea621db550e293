/* Splits 10 keys into 3 delta buckets through the installed msplit C API.
 * Exit 0 on the right answer, 77 without a CUDA device, 1 otherwise. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>
#include <stdio.h>

int main(void) {
  const uint32_t keys[10] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 14};
  const uint32_t expect[10] = {3, 9, 0, 5, 17, 12, 14, 25, 30, 21}; /* delta 10: [0,10) [10,20) rest */
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    printf("no CUDA device\n");
    return 77;
  }
  uint32_t *d_in = NULL, *d_out = NULL, out[10];
  size_t *d_off = NULL, off[4], bytes = 0;
  void *d_temp = NULL;
  int ok = 0;
  msplit_bucket_desc desc = {0};
  desc.kind = MSPLIT_BUCKET_DELTA;
  desc.base.u = 0;
  desc.delta.u = 10;
  if (cudaMalloc((void **)&d_in, sizeof keys) != cudaSuccess || cudaMalloc((void **)&d_out, sizeof keys) != cudaSuccess ||
      cudaMalloc((void **)&d_off, sizeof off) != cudaSuccess)
    goto done;
  cudaMemcpy(d_in, keys, sizeof keys, cudaMemcpyHostToDevice);
  if (msplit_multisplit(NULL, &bytes, d_in, d_out, NULL, NULL, 10, 3, desc, d_off, MSPLIT_TYPE_U32,
                        MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, NULL) != MSPLIT_SUCCESS ||
      cudaMalloc(&d_temp, bytes) != cudaSuccess ||
      msplit_multisplit(d_temp, &bytes, d_in, d_out, NULL, NULL, 10, 3, desc, d_off, MSPLIT_TYPE_U32,
                        MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, NULL) != MSPLIT_SUCCESS ||
      msplit_copy_offsets_sync(off, d_off, 3, NULL) != MSPLIT_SUCCESS) {
    printf("msplit error: %s\n", msplit_last_error_message());
    goto done;
  }
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  ok = off[0] == 0 && off[1] == 4 && off[2] == 7 && off[3] == 10;
  for (int i = 0; i < 10; ++i) ok = ok && out[i] == expect[i];
  printf("msplit %s consumer: %s\n", msplit_version_string(), ok ? "ok" : "WRONG");
done:
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_off);
  cudaFree(d_temp);
  return ok ? 0 : 1;
}
