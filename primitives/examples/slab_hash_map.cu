// msplit's slab hash, C++ API: a map built in bulk, read from a user kernel through its device
// reference, then erases, a flush and the size. Documented in msplit/slab_hash.cuh.
#include <cuda_runtime.h>

#include <cstdio>

#include "example_util.h"
#include "msplit/slab_hash.cuh"

// One warp: lanes 0-3 look up a key each; the whole warp calls find together.
__global__ void lookup_kernel(msplit::slab_hash_ref<true> ref, const uint32_t *queries,
                              uint32_t *out) {
  const int lane = threadIdx.x % 32;
  const bool active = lane < 4;
  uint32_t value = 0;
  const uint32_t r = ref.find(active, active ? queries[lane] : 0, value);
  if (active) out[lane] = r == MSPLIT_HASH_DONE ? value : MSPLIT_HASH_ABSENT_VALUE;
}

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {1, 2, 3, 4, 5, 6, 7, 8};
  const uint32_t values[] = {10, 20, 30, 40, 50, 60, 70, 80};
  const uint32_t queries[] = {7, 8, 9, 3};
  const size_t n = 8;
  uint32_t *d_keys = nullptr, *d_values = nullptr, *d_queries = nullptr, *d_out = nullptr;
  void *d_storage = nullptr;
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_values, sizeof values));
  CHECK_CUDA(cudaMalloc(&d_queries, sizeof queries));
  CHECK_CUDA(cudaMalloc(&d_out, sizeof queries));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_queries, queries, sizeof queries, cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));

  const uint32_t num_buckets = 2, capacity = 64;
  size_t bytes = 0;
  CHECK(msplit::slab_hash<true>::storage_bytes(num_buckets, capacity, &bytes));
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  msplit::slab_hash<true> table;
  CHECK(table.init(d_storage, bytes, num_buckets, capacity, stream));
  CHECK(table.insert(d_keys, d_values, n, MSPLIT_HASH_OP_INSERT, nullptr, stream));
  lookup_kernel<<<1, 32, 0, stream>>>(table.ref(), d_queries, d_out);
  CHECK_CUDA(cudaGetLastError());
  uint32_t out[4];
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::printf("from a kernel:");
  for (int i = 0; i < 4; ++i) {
    if (out[i] == MSPLIT_HASH_ABSENT_VALUE)
      std::printf(" %u->(absent)", queries[i]);
    else
      std::printf(" %u->%u", queries[i], out[i]);
  }
  msplit_slab_hash_stats stats;
  CHECK(table.stats_sync(&stats, stream));
  std::printf("\nsize %llu, pool slabs %llu\n", (unsigned long long)stats.size,
              (unsigned long long)stats.pool_slabs_used);

  CHECK(table.erase(d_keys, 3, false, nullptr, stream));
  CHECK(table.flush(stream));
  uint8_t found = 1;
  uint8_t *d_found = nullptr;
  CHECK_CUDA(cudaMalloc(&d_found, 1));
  CHECK(table.contains(d_keys, 1, d_found, stream));
  CHECK_CUDA(cudaMemcpyAsync(&found, d_found, 1, cudaMemcpyDeviceToHost, stream));
  std::printf("after erasing 3 keys and a flush: size %llu, find 1: %s\n",
              (unsigned long long)table.size_sync(stream), found ? "found" : "(absent)");

  cudaFree(d_found);
  cudaFree(d_storage);
  cudaFree(d_out);
  cudaFree(d_queries);
  cudaFree(d_values);
  cudaFree(d_keys);
  cudaStreamDestroy(stream);
  return 0;
}
