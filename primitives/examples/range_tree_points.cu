// msplit's range tree, C++ API: hotels as (rating, value) points in float; the hotels of a
// window of ratings and values (closed: a hotel on its border is inside), and the window's
// skyline, the hotels no other hotel of the window beats on both rating and value. The second
// window is inverted, so empty. Documented in msplit/range_tree.cuh.
#include <msplit/range_tree.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "example_util.h"

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  using box = msplit::range_tree<float>::box;
  const std::vector<float> rating = {2.5f, 3.0f, 4.5f, 3.5f, 5.0f, 4.0f, 3.5f, 4.5f};
  const std::vector<float> value = {95, 60, 70, 55, 99, 85, 90, 40};
  const std::vector<box> boxes = {{3.0f, 4.5f, 50, 90}, {4.5f, 3.0f, 50, 90}};
  const size_t n = rating.size(), q = boxes.size();
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  float *d_rating = nullptr, *d_value = nullptr;
  box *d_boxes = nullptr;
  uint32_t *d_counts = nullptr, *d_out = nullptr;
  uint64_t *d_offsets = nullptr;
  void *d_storage = nullptr, *d_temp = nullptr;
  CHECK_CUDA(cudaMalloc(&d_rating, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_value, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_boxes, q * sizeof(box)));
  CHECK_CUDA(cudaMalloc(&d_counts, q * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&d_offsets, (q + 1) * sizeof(uint64_t)));
  CHECK_CUDA(cudaMalloc(&d_out, q * n * sizeof(uint32_t)));
  CHECK_CUDA(cudaMemcpy(d_rating, rating.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_value, value.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_boxes, boxes.data(), q * sizeof(box), cudaMemcpyHostToDevice));

  // the storage and one temporary allocation, the larger of the build's and the counts' sizes
  msplit::range_tree<float> tree;
  size_t bytes = 0, temp_bytes = 0, count_bytes = 0;
  CHECK(msplit::range_tree<float>::storage_bytes(n, &bytes));
  CHECK(tree.build(nullptr, &temp_bytes, nullptr, 0, nullptr, nullptr, n, stream));
  CHECK(tree.count(nullptr, &count_bytes, nullptr, q, nullptr, nullptr, stream));
  temp_bytes = std::max(temp_bytes, count_bytes);
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(tree.build(d_temp, &temp_bytes, d_storage, bytes, d_rating, d_value, n, stream));

  // the hotels of each window: counts and offsets, then the indices (in no particular order)
  std::vector<uint32_t> counts(q), out(q * n);
  std::vector<uint64_t> offsets(q + 1);
  CHECK(tree.count(d_temp, &temp_bytes, d_boxes, q, d_counts, d_offsets, stream));
  CHECK(tree.report(d_temp, &temp_bytes, d_boxes, q, d_offsets, d_out, stream));
  CHECK_CUDA(cudaMemcpyAsync(counts.data(), d_counts, q * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(offsets.data(), d_offsets, (q + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(out.data(), d_out, q * n * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(msplit::check_sync(d_temp, temp_bytes, stream));
  for (size_t i = 0; i < q; ++i) {
    std::sort(out.begin() + long(offsets[i]), out.begin() + long(offsets[i + 1]));
    std::printf("window [%g, %g] x [%g, %g]: %u hotels:", boxes[i].x_lo, boxes[i].x_hi, boxes[i].y_lo, boxes[i].y_hi,
                counts[i]);
    for (uint64_t k = offsets[i]; k < offsets[i + 1]; ++k) std::printf(" %u", out[k]);
    std::printf("\n");
  }

  // the skylines, in decreasing value
  CHECK(tree.skyline_count(d_temp, &temp_bytes, d_boxes, q, nullptr, d_offsets, stream));
  CHECK(tree.skyline_report(d_temp, &temp_bytes, d_boxes, q, d_offsets, d_out, stream));
  CHECK_CUDA(cudaMemcpyAsync(offsets.data(), d_offsets, (q + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(out.data(), d_out, q * n * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  CHECK(msplit::check_sync(d_temp, temp_bytes, stream));
  for (size_t i = 0; i < q; ++i) {
    std::printf("skyline of [%g, %g] x [%g, %g]:", boxes[i].x_lo, boxes[i].x_hi, boxes[i].y_lo, boxes[i].y_hi);
    for (uint64_t k = offsets[i]; k < offsets[i + 1]; ++k)
      std::printf(" %u (%g, %g)", out[k], rating[out[k]], value[out[k]]);
    std::printf("\n");
  }

  for (void *p : {(void *)d_rating, (void *)d_value, (void *)d_boxes, (void *)d_counts, (void *)d_offsets,
                  (void *)d_out, d_storage, d_temp})
    CHECK_CUDA(cudaFree(p));
  CHECK_CUDA(cudaStreamDestroy(stream));
  return 0;
}
