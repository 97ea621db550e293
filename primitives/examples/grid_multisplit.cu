// msplit's grid multisplit: ten keys split into four buckets by their two low bits
// (bitfield_bucket) from inside a cooperatively launched kernel. Documented in
// msplit/grid_multisplit.cuh.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <msplit/grid_multisplit.cuh>

#include "example_util.h"

__global__ void split_by_low_bits(const uint32_t *in, uint32_t *out, uint32_t n, uint32_t *counts,
                                  size_t *offsets) {
  __shared__ msplit::grid_multisplit_storage<> storage;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const msplit::bitfield_bucket<uint32_t> low_bits{0, 2};  // bucket = key & 3
  msplit::grid_multisplit_keys(grid, storage, in, out, n, 4, low_bits, counts, offsets);
  grid.sync();  // before anyone reads out or offsets
}

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {25, 3, 17, 9, 0, 30, 12, 5, 21, 14};
  uint32_t n = sizeof keys / sizeof keys[0];
  uint32_t out[sizeof keys / sizeof keys[0]];
  size_t offsets[5];
  const unsigned blocks = 4;
  uint32_t *d_keys = nullptr, *d_out = nullptr, *d_counts = nullptr;
  size_t *d_offsets = nullptr;
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_out, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_counts, sizeof(uint32_t) * msplit::grid_multisplit_count_words(blocks, 4)));
  CHECK_CUDA(cudaMalloc(&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));

  void *args[] = {&d_keys, &d_out, &n, &d_counts, &d_offsets};
  CHECK_CUDA(cudaLaunchCooperativeKernel((const void *)split_by_low_bits, dim3(blocks),
                                         dim3(msplit::tuning::MULTISPLIT_BLOCK_THREADS), args, 0, 0));
  CHECK_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  example_print_keys("in:", keys, n, nullptr, 0);
  example_print_keys("out:", out, n, offsets, 4);
  example_print_offsets(offsets, 4);
  cudaFree(d_offsets);
  cudaFree(d_counts);
  cudaFree(d_out);
  cudaFree(d_keys);
  return 0;
}
