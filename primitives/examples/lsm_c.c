/* msplit's GPU LSM, C API: three batches of 4 updates (inserts, deletes, a key inserted and
 * deleted in one batch), lookups, counts and a range query, a cleanup, an update refused by a full
 * structure, and the slots the cleanup freed reclaimed. Documented in msplit/lsm.h. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "example_util.h"

#define N 12
#define Q 4
#define R 3
#define FULL 16

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  /* batch 1: inserts; batch 2: 9 replaced, 3 deleted, 7 inserted then deleted (the later entry
   * wins); batch 3: 11 inserted then deleted, 20 and 1 inserted */
  const uint32_t keys[N] = {5, 6, 9, 3, 9, 3, 7, 7, 11, 11, 20, 1};
  const uint32_t values[N] = {50, 60, 90, 30, 91, 0, 70, 0, 110, 0, 200, 10};
  const uint8_t ops[N] = {MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT,
                          MSPLIT_LSM_INSERT, MSPLIT_LSM_DELETE, MSPLIT_LSM_INSERT, MSPLIT_LSM_DELETE,
                          MSPLIT_LSM_INSERT, MSPLIT_LSM_DELETE, MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT};
  const uint32_t queries[Q] = {5, 7, 9, 11};
  const uint32_t lo[R] = {4, 10, 12}, hi[R] = {10, 4, 19}, all_lo = 0, all_hi = 100;
  const size_t max_elements = 28, batch = 4, n = N, q = Q, r = R;
  uint32_t found_values[Q], counts[R], out_keys[N], out_values[N], full_keys[FULL] = {0}, full_values[FULL] = {0};
  uint8_t found[Q];
  uint64_t offsets[R + 1], size = 0;
  msplit_lsm lsm;
  size_t bytes = 0, temp_bytes = 0, other = 0;
  void *d_storage = NULL, *d_temp = NULL;
  uint32_t *d_keys = NULL, *d_values = NULL, *d_queries = NULL, *d_found_values = NULL, *d_lo = NULL, *d_hi = NULL;
  uint32_t *d_counts = NULL, *d_out_keys = NULL, *d_out_values = NULL;
  uint8_t *d_ops = NULL, *d_found = NULL;
  uint64_t *d_offsets = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_keys, FULL * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc((void **)&d_values, FULL * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc((void **)&d_ops, N));
  CHECK_CUDA(cudaMalloc((void **)&d_queries, sizeof queries));
  CHECK_CUDA(cudaMalloc((void **)&d_found_values, sizeof found_values));
  CHECK_CUDA(cudaMalloc((void **)&d_found, sizeof found));
  CHECK_CUDA(cudaMalloc((void **)&d_lo, sizeof lo));
  CHECK_CUDA(cudaMalloc((void **)&d_hi, sizeof hi));
  CHECK_CUDA(cudaMalloc((void **)&d_counts, sizeof counts));
  CHECK_CUDA(cudaMalloc((void **)&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMalloc((void **)&d_out_keys, sizeof out_keys));
  CHECK_CUDA(cudaMalloc((void **)&d_out_values, sizeof out_values));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_ops, ops, sizeof ops, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_queries, queries, sizeof queries, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_lo, lo, sizeof lo, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_hi, hi, sizeof hi, cudaMemcpyHostToDevice));

  /* the structure, then one temporary allocation for every operation: the largest size */
  CHECK(msplit_lsm_storage_bytes(max_elements, batch, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &bytes));
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  CHECK(msplit_lsm_init(&lsm, d_storage, bytes, max_elements, batch, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, NULL));
  CHECK(msplit_lsm_update(NULL, &temp_bytes, &lsm, d_keys, d_values, d_ops, n, NULL));
  CHECK(msplit_lsm_count(NULL, &other, &lsm, d_lo, d_hi, r, d_counts, d_offsets, NULL));
  if (other > temp_bytes) temp_bytes = other;
  CHECK(msplit_lsm_cleanup(NULL, &other, &lsm, NULL));
  if (other > temp_bytes) temp_bytes = other;
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));

  CHECK(msplit_lsm_update(d_temp, &temp_bytes, &lsm, d_keys, d_values, d_ops, n, NULL));
  CHECK(msplit_lsm_lookup(&lsm, d_queries, q, d_found_values, d_found, NULL));
  CHECK_CUDA(cudaMemcpy(found_values, d_found_values, sizeof found_values, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(found, d_found, sizeof found, cudaMemcpyDeviceToHost));
  printf("lookup:");
  for (size_t i = 0; i < q; ++i) {
    if (found[i]) printf(" %u->%u", (unsigned)queries[i], (unsigned)found_values[i]);
    else printf(" %u->(absent)", (unsigned)queries[i]);
  }
  printf("\n");

  /* counts of [4, 10], [10, 4] (lo > hi: none) and [12, 19] (no key), then the first range */
  CHECK(msplit_lsm_count(d_temp, &temp_bytes, &lsm, d_lo, d_hi, r, d_counts, d_offsets, NULL));
  CHECK(msplit_lsm_range(d_temp, &temp_bytes, &lsm, d_lo, d_hi, r, d_offsets, d_out_keys, d_out_values, NULL));
  CHECK(msplit_check_sync(d_temp, temp_bytes, NULL));
  CHECK_CUDA(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out_keys, d_out_keys, offsets[R] * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out_values, d_out_values, offsets[R] * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  printf("counts: %u %u %u\n", (unsigned)counts[0], (unsigned)counts[1], (unsigned)counts[2]);
  printf("range [4, 10]:");
  for (uint64_t i = offsets[0]; i < offsets[1]; ++i) printf(" %u->%u", (unsigned)out_keys[i], (unsigned)out_values[i]);
  printf("\n");

  /* cleanup: levels 0 and 1 (three batches) become one run in level 2 */
  const unsigned long long before = (unsigned long long)lsm.occupied;
  CHECK(msplit_lsm_cleanup(d_temp, &temp_bytes, &lsm, NULL));
  CHECK_CUDA(cudaMemcpy(d_lo, &all_lo, sizeof all_lo, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_hi, &all_hi, sizeof all_hi, cudaMemcpyHostToDevice));
  CHECK(msplit_lsm_count(d_temp, &temp_bytes, &lsm, d_lo, d_hi, 1, d_counts, NULL, NULL));
  CHECK_CUDA(cudaMemcpy(counts, d_counts, sizeof counts[0], cudaMemcpyDeviceToHost));
  printf("after cleanup: levels %#llx -> %#llx, count [0, 100] = %u\n", before, (unsigned long long)lsm.occupied,
         (unsigned)counts[0]);

  /* 16 more entries need 4 batches; 3 are free: refused, nothing done */
  CHECK_CUDA(cudaMemcpy(d_keys, full_keys, sizeof full_keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, full_values, sizeof full_values, cudaMemcpyHostToDevice));
  msplit_status st = msplit_lsm_update(d_temp, &temp_bytes, &lsm, d_keys, d_values, NULL, FULL, NULL);
  printf("full: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  /* the cleanup dropped 7 of 12 entries: reclaimed, 5 entries take 2 batches' slots */
  CHECK(msplit_lsm_reclaim_sync(&lsm, &size, NULL));
  printf("after reclaim: %llu entries, levels %#llx\n", (unsigned long long)size, (unsigned long long)lsm.occupied);
  st = msplit_lsm_update(d_temp, &temp_bytes, &lsm, d_keys, d_values, NULL, FULL, NULL);
  printf("16 more entries: %s, levels %#llx\n", msplit_status_string(st), (unsigned long long)lsm.occupied);

  cudaFree(d_temp);
  cudaFree(d_storage);
  cudaFree(d_out_values);
  cudaFree(d_out_keys);
  cudaFree(d_offsets);
  cudaFree(d_counts);
  cudaFree(d_hi);
  cudaFree(d_lo);
  cudaFree(d_found);
  cudaFree(d_found_values);
  cudaFree(d_queries);
  cudaFree(d_ops);
  cudaFree(d_values);
  cudaFree(d_keys);
  return 0;
}
