/* msplit's slab hash, C API: a map of five keys, a find with one absent key, two erases, and an
 * insert of a reserved key reported by msplit_slab_hash_check_sync. Documented in
 * msplit/slab_hash.h. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>
#include <stdint.h>
#include <stdio.h>

#include "example_util.h"

static void print_found(const uint32_t *v, const uint8_t *r, size_t n) {
  printf("found:");
  for (size_t i = 0; i < n; ++i) {
    if (r[i] == MSPLIT_HASH_DONE)
      printf(" %u", (unsigned)v[i]);
    else
      printf(" (absent)");
  }
  printf("\n");
}

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t keys[] = {0, 1, 2, 3, 4, 0xFFFFFFFFu};
  const uint32_t values[] = {10, 11, 12, 13, 14, 15};
  const uint32_t queries[] = {0, 1, 2, 99, 4};
  const size_t n = 5, q = 5;
  uint32_t *d_keys = NULL, *d_values = NULL, *d_queries = NULL, *d_found = NULL;
  uint8_t *d_results = NULL;
  void *d_storage = NULL;
  uint32_t found[5];
  uint8_t results[5];
  CHECK_CUDA(cudaMalloc((void **)&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc((void **)&d_values, sizeof values));
  CHECK_CUDA(cudaMalloc((void **)&d_queries, sizeof queries));
  CHECK_CUDA(cudaMalloc((void **)&d_found, sizeof found));
  CHECK_CUDA(cudaMalloc((void **)&d_results, sizeof results));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_queries, queries, sizeof queries, cudaMemcpyHostToDevice));

  /* buckets for the expected keys at 65% memory utilization, and a pool with room to spare */
  uint32_t num_buckets = 0, slabs = 0;
  CHECK(msplit_slab_hash_plan(n, 0.65, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &num_buckets, &slabs));
  const uint32_t capacity = 2 * slabs + 16;
  size_t bytes = 0;
  CHECK(msplit_slab_hash_storage_bytes(num_buckets, capacity, &bytes));
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  msplit_slab_hash table;
  CHECK(msplit_slab_hash_init(&table, d_storage, bytes, num_buckets, capacity, MSPLIT_TYPE_U32,
                              MSPLIT_TYPE_U32, NULL));
  const msplit_hash_op mode = MSPLIT_HASH_OP_INSERT; /* keep the value of a present key */
  CHECK(msplit_slab_hash_insert(&table, d_keys, d_values, n, mode, NULL, NULL));
  CHECK(msplit_slab_hash_find(&table, d_queries, q, d_found, d_results, NULL));
  CHECK_CUDA(cudaMemcpy(found, d_found, sizeof found, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(results, d_results, sizeof results, cudaMemcpyDeviceToHost));
  print_found(found, results, q);

  CHECK(msplit_slab_hash_erase(&table, d_keys, 2, 0, NULL, NULL));
  msplit_slab_hash_stats stats;
  CHECK(msplit_slab_hash_stats_sync(&table, &stats, NULL));
  CHECK(msplit_slab_hash_find(&table, d_queries, 1, d_found, d_results, NULL));
  CHECK_CUDA(cudaMemcpy(results, d_results, 1, cudaMemcpyDeviceToHost));
  printf("after erasing 2 keys: size %llu, find 0: %s\n", (unsigned long long)stats.size,
         results[0] == MSPLIT_HASH_DONE ? "found" : "(absent)");

  /* the sixth key is the empty marker: refused, and reported by the check */
  CHECK(msplit_slab_hash_insert(&table, d_keys + 5, d_values + 5, 1, MSPLIT_HASH_OP_INSERT, NULL,
                                NULL));
  const msplit_status st = msplit_slab_hash_check_sync(&table, NULL);
  printf("a reserved key: %s\n%s\n", msplit_status_string(st), msplit_last_error_message());

  cudaFree(d_storage);
  cudaFree(d_results);
  cudaFree(d_found);
  cudaFree(d_queries);
  cudaFree(d_values);
  cudaFree(d_keys);
  return 0;
}
