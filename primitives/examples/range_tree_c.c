/* msplit's range tree, C API: 8 points, four boxes (one inverted, one with points on its
 * border), the points of each box counted and reported, and each box's skyline. Documented in
 * msplit/range_tree.h. */
#include <cuda_runtime_api.h>
#include <msplit/msplit.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_util.h"

#define N 8
#define Q 4

static int by_value(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* "label i: j k ..." for the slice of query i, sorted ("(none)" when empty) */
static void print_slice(const char *label, size_t i, const uint32_t *boxes, uint32_t *out, const uint64_t *offsets,
                        int with_box) {
  const size_t at = (size_t)offsets[i], len = (size_t)(offsets[i + 1] - offsets[i]);
  qsort(out + at, len, sizeof(uint32_t), by_value);
  printf("%s %zu", label, i);
  if (with_box)
    printf(" [%u, %u] x [%u, %u]", (unsigned)boxes[4 * i], (unsigned)boxes[4 * i + 1], (unsigned)boxes[4 * i + 2],
           (unsigned)boxes[4 * i + 3]);
  printf(":");
  for (size_t k = 0; k < len; ++k) printf(" %u", (unsigned)out[at + k]);
  printf("%s\n", len ? "" : " (none)");
}

int main(void) {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint32_t x[N] = {1, 2, 4, 4, 6, 7, 9, 9}, y[N] = {5, 3, 4, 1, 6, 2, 7, 3};
  /* x_lo, x_hi, y_lo, y_hi: box 2 is inverted (empty); box 3 has points on all four sides */
  const uint32_t boxes[4 * Q] = {2, 7, 2, 5, 0, 10, 0, 10, 5, 3, 0, 10, 4, 9, 1, 4};
  const size_t n = N, q = Q;
  uint32_t counts[Q], out[Q * N];
  uint64_t offsets[Q + 1];
  msplit_range_tree tree;
  size_t bytes = 0, temp_bytes = 0, other = 0;
  void *d_storage = NULL, *d_temp = NULL;
  uint32_t *d_x = NULL, *d_y = NULL, *d_boxes = NULL, *d_counts = NULL, *d_out = NULL;
  uint64_t *d_offsets = NULL;
  CHECK_CUDA(cudaMalloc((void **)&d_x, sizeof x));
  CHECK_CUDA(cudaMalloc((void **)&d_y, sizeof y));
  CHECK_CUDA(cudaMalloc((void **)&d_boxes, sizeof boxes));
  CHECK_CUDA(cudaMalloc((void **)&d_counts, sizeof counts));
  CHECK_CUDA(cudaMalloc((void **)&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMalloc((void **)&d_out, sizeof out));
  CHECK_CUDA(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_y, y, sizeof y, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_boxes, boxes, sizeof boxes, cudaMemcpyHostToDevice));

  /* the tree's storage, then one temporary allocation for every call: the largest size (the
   * size queries look at no pointer and no tree) */
  CHECK(msplit_range_tree_storage_bytes(n, MSPLIT_TYPE_U32, &bytes));
  CHECK(msplit_range_tree_build(NULL, &temp_bytes, NULL, NULL, 0, NULL, NULL, n, MSPLIT_TYPE_U32, NULL));
  CHECK(msplit_range_tree_count(NULL, &other, NULL, NULL, q, NULL, NULL, NULL));
  if (other > temp_bytes) temp_bytes = other;
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit_range_tree_build(d_temp, &temp_bytes, &tree, d_storage, bytes, d_x, d_y, n, MSPLIT_TYPE_U32, NULL));

  /* the points of each box: counts and their offsets, then the indices into the slices */
  CHECK(msplit_range_tree_count(d_temp, &temp_bytes, &tree, d_boxes, q, d_counts, d_offsets, NULL));
  CHECK(msplit_range_tree_report(d_temp, &temp_bytes, &tree, d_boxes, q, d_offsets, d_out, NULL));
  CHECK_CUDA(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(msplit_check_sync(d_temp, temp_bytes, NULL));
  printf("counts: %u %u %u %u\n", (unsigned)counts[0], (unsigned)counts[1], (unsigned)counts[2], (unsigned)counts[3]);
  for (size_t i = 0; i < q; ++i) print_slice("box", i, boxes, out, offsets, 1);

  /* the skylines: the same two calls (the counts not needed, only their offsets) */
  CHECK(msplit_range_tree_skyline_count(d_temp, &temp_bytes, &tree, d_boxes, q, NULL, d_offsets, NULL));
  CHECK(msplit_range_tree_skyline_report(d_temp, &temp_bytes, &tree, d_boxes, q, d_offsets, d_out, NULL));
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
  CHECK(msplit_check_sync(d_temp, temp_bytes, NULL));
  for (size_t i = 0; i < q; ++i) print_slice("skyline", i, boxes, out, offsets, 0);

  CHECK_CUDA(cudaFree(d_x));
  CHECK_CUDA(cudaFree(d_y));
  CHECK_CUDA(cudaFree(d_boxes));
  CHECK_CUDA(cudaFree(d_counts));
  CHECK_CUDA(cudaFree(d_offsets));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_storage));
  CHECK_CUDA(cudaFree(d_temp));
  return 0;
}
