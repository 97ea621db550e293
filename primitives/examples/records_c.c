/* msplit's records, C API: edges of (source, target, weight) split into three buckets (a bucket id
 * per edge), then sorted by weight, then gathered by an index array, and a gather with an index
 * out of range, which the device reports through msplit_check_sync. Documented in
 * msplit/records.h. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "example_util.h"

typedef struct {
  uint32_t src, dst, weight;
} edge;

/* "label:   (s,d,w) ... | ..." with a bar between buckets (offsets: m + 1 entries, or NULL). */
static void print_edges(const char *label, const edge *e, size_t n, const size_t *offsets, uint32_t m) {
  printf("%-9s", label);
  for (size_t i = 0; i < n; ++i) {
    printf(i ? " (%u,%u,%u)" : "(%u,%u,%u)", (unsigned)e[i].src, (unsigned)e[i].dst, (unsigned)e[i].weight);
    for (uint32_t b = 1; offsets && b < m; ++b)
      if (offsets[b] == i + 1 && i + 1 < n) printf(" |");
  }
  printf("\n");
}

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const edge edges[] = {{3, 0, 50}, {4, 1, 40}, {1, 2, 70}, {0, 3, 30}, {4, 4, 20}, {2, 5, 10}, {3, 6, 60}};
  const uint32_t buckets[] = {2, 0, 1, 0, 1, 0, 2};
  const uint32_t idx[] = {6, 0, 6}, bad_idx[] = {6, 9, 0};
  const size_t n = sizeof edges / sizeof edges[0];
  edge out[sizeof edges / sizeof edges[0]];
  uint32_t perm[sizeof edges / sizeof edges[0]];
  size_t offsets[4];
  edge *d_records = NULL, *d_out = NULL;
  uint32_t *d_buckets = NULL, *d_perm = NULL, *d_idx = NULL;
  size_t *d_offsets = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_records, sizeof edges));
  CHECK_CUDA(cudaMalloc((void **)&d_out, sizeof edges));
  CHECK_CUDA(cudaMalloc((void **)&d_buckets, sizeof buckets));
  CHECK_CUDA(cudaMalloc((void **)&d_perm, sizeof perm));
  CHECK_CUDA(cudaMalloc((void **)&d_idx, sizeof idx));
  CHECK_CUDA(cudaMalloc((void **)&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_records, edges, sizeof edges, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_buckets, buckets, sizeof buckets, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_idx, idx, sizeof idx, cudaMemcpyHostToDevice));

  /* one allocation for the three calls: the largest of their sizes */
  size_t temp_bytes = 0, sort_bytes = 0;
  void *d_temp = NULL;
  CHECK(msplit_split_records(NULL, &temp_bytes, d_records, d_buckets, d_out, d_perm, n, sizeof(edge), 3,
                             d_offsets, NULL));
  CHECK(msplit_sort_records(NULL, &sort_bytes, d_records, d_out, NULL, n, sizeof(edge), offsetof(edge, weight),
                            MSPLIT_TYPE_U32, NULL));
  if (sort_bytes > temp_bytes) temp_bytes = sort_bytes;
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit_split_records(d_temp, &temp_bytes, d_records, d_buckets, d_out, d_perm, n, sizeof(edge), 3,
                             d_offsets, NULL));
  /* cudaMemcpy waits for the default stream, on which the split was queued */
  CHECK_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(perm, d_perm, sizeof perm, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  print_edges("split:", out, n, offsets, 3);
  example_print_keys("perm:", perm, n, NULL, 0);
  printf("offsets: %zu %zu %zu %zu\n", offsets[0], offsets[1], offsets[2], offsets[3]);

  CHECK(msplit_sort_records(d_temp, &temp_bytes, d_records, d_out, NULL, n, sizeof(edge),
                            offsetof(edge, weight), MSPLIT_TYPE_U32, NULL));
  CHECK_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  print_edges("sorted:", out, n, NULL, 0);

  CHECK(msplit_gather_records(d_temp, &temp_bytes, d_records, d_idx, d_out, 3, n, sizeof(edge), NULL));
  CHECK_CUDA(cudaMemcpy(out, d_out, 3 * sizeof(edge), cudaMemcpyDeviceToHost));
  print_edges("gather:", out, 3, NULL, 0);

  CHECK_CUDA(cudaMemcpy(d_idx, bad_idx, sizeof bad_idx, cudaMemcpyHostToDevice));
  CHECK(msplit_gather_records(d_temp, &temp_bytes, d_records, d_idx, d_out, 3, n, sizeof(edge), NULL));
  const msplit_status st = msplit_check_sync(d_temp, temp_bytes, NULL);
  printf("bad index: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  cudaFree(d_temp);
  cudaFree(d_offsets);
  cudaFree(d_idx);
  cudaFree(d_perm);
  cudaFree(d_buckets);
  cudaFree(d_out);
  cudaFree(d_records);
  return 0;
}
