// msplit's records, C++ API: edges split by their source vertex with a bucket functor of the
// record (an empty bucket included), then sorted by a 64-bit stamp inside the record, and a
// source beyond the buckets, which the device reports through msplit::check_sync. Documented in
// msplit/records.cuh.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "example_util.h"
#include "msplit/records.cuh"

namespace {

struct edge {
  uint32_t src, dst;
  float weight;
  uint64_t stamp;  // when the edge was added
};

struct by_source {  // bucket = the edge's source vertex
  __device__ uint32_t operator()(const edge &e) const { return e.src; }
};

void print_edges(const char *label, const edge *e, size_t n, const size_t *offsets, uint32_t m) {
  std::printf("%-11s", label);
  for (size_t i = 0; i < n; ++i) {
    std::printf(i ? " (%u,%u,%g)" : "(%u,%u,%g)", unsigned(e[i].src), unsigned(e[i].dst), double(e[i].weight));
    for (uint32_t b = 1; offsets && b < m; ++b)
      if (offsets[b] == i + 1 && i + 1 < n) std::printf(" |");
  }
  std::printf("\n");
}

}  // namespace

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  edge edges[] = {{1, 2, 1.5f, 40}, {3, 4, 3.0f, 20}, {0, 3, 0.5f, 60},
                  {4, 4, 2.0f, 5},  {3, 1, 1.0f, 10}, {1, 0, 2.5f, 30}};
  constexpr size_t n = sizeof edges / sizeof edges[0];
  edge out[n];
  uint32_t perm[n];
  size_t offsets[6];
  edge *d_edges = nullptr, *d_out = nullptr, *d_sorted = nullptr;
  uint32_t *d_perm = nullptr;
  size_t *d_offsets = nullptr;
  void *d_temp = nullptr;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&d_edges, sizeof edges));
  CHECK_CUDA(cudaMalloc(&d_out, sizeof edges));
  CHECK_CUDA(cudaMalloc(&d_sorted, sizeof edges));
  CHECK_CUDA(cudaMalloc(&d_perm, sizeof perm));
  CHECK_CUDA(cudaMalloc(&d_offsets, sizeof offsets));
  CHECK_CUDA(cudaMemcpy(d_edges, edges, sizeof edges, cudaMemcpyHostToDevice));

  size_t temp_bytes = 0, sort_bytes = 0;
  CHECK(msplit::split_records_by(nullptr, &temp_bytes, d_edges, d_out, d_perm, n, 5, by_source{}, d_offsets));
  CHECK(msplit::sort_records<uint64_t>(nullptr, &sort_bytes, d_out, d_sorted, nullptr, n, offsetof(edge, stamp)));
  if (sort_bytes > temp_bytes) temp_bytes = sort_bytes;  // one allocation for both calls
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(msplit::split_records_by(d_temp, &temp_bytes, d_edges, d_out, d_perm, n, 5, by_source{}, d_offsets,
                                 stream));
  CHECK(msplit::sort_records<uint64_t>(d_temp, &temp_bytes, d_out, d_sorted, nullptr, n, offsetof(edge, stamp),
                                       stream));
  CHECK_CUDA(cudaMemcpyAsync(out, d_out, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(perm, d_perm, sizeof perm, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_edges("by source:", out, n, offsets, 5);
  std::printf("%-11s", "perm:");
  for (size_t i = 0; i < n; ++i) std::printf(i ? " %u" : "%u", unsigned(perm[i]));
  std::printf("\n%-11s", "offsets:");
  for (size_t b = 0; b <= 5; ++b) std::printf(b ? " %zu" : "%zu", offsets[b]);
  std::printf("\n");
  CHECK_CUDA(cudaMemcpyAsync(out, d_sorted, sizeof out, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  print_edges("by stamp:", out, n, nullptr, 0);

  edges[3].src = 7;  // no bucket 7 among 5
  CHECK_CUDA(cudaMemcpy(d_edges, edges, sizeof edges, cudaMemcpyHostToDevice));
  CHECK(msplit::split_records_by(d_temp, &temp_bytes, d_edges, d_out, d_perm, n, 5, by_source{}, d_offsets,
                                 stream));
  const msplit_status st = msplit::check_sync(d_temp, temp_bytes, stream);
  std::printf("src 7 of 5 buckets: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  cudaFree(d_temp);
  cudaFree(d_offsets);
  cudaFree(d_perm);
  cudaFree(d_sorted);
  cudaFree(d_out);
  cudaFree(d_edges);
  cudaStreamDestroy(stream);
  return 0;
}
