// msplit's GPU LSM, C++ API: a dynamic graph's edges keyed by (source << 32 | target) with 32-bit
// weights; one batch inserts, replaces (a key twice in the batch: the later entry wins) and
// deletes edges, and a range query per vertex lists its out-edges in order. Then an insert of the
// reserved weight, which the device reports through msplit::check_sync. Documented in
// msplit/lsm.cuh.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "example_util.h"
#include "msplit/lsm.cuh"

namespace {

using edge_map = msplit::lsm<uint64_t, uint32_t>;

constexpr uint64_t edge_key(uint32_t source, uint32_t target) { return uint64_t(source) << 32 | target; }

}  // namespace

int main() {
  if (!example_have_gpu()) return EXAMPLE_SKIP;
  const uint64_t keys[] = {edge_key(1, 2), edge_key(3, 0), edge_key(2, 3), edge_key(1, 5),
                           edge_key(3, 1), edge_key(3, 4), edge_key(2, 3), edge_key(3, 1)};
  const uint32_t weights[] = {7, 9, 8, 3, 5, 6, 0, 4};
  const uint8_t ops[] = {MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT,
                         MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT, MSPLIT_LSM_DELETE, MSPLIT_LSM_INSERT};
  constexpr size_t n = sizeof keys / sizeof keys[0], q = 3;
  uint64_t lo[q], hi[q];
  for (uint32_t v = 1; v <= q; ++v) {  // the out-edges of v: keys (v, 0) to (v, 2^32 - 1)
    lo[v - 1] = edge_key(v, 0);
    hi[v - 1] = edge_key(v, UINT32_MAX);
  }
  const size_t max_edges = 1000, batch = 4;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  uint64_t *d_keys, *d_lo, *d_hi, *d_offsets, *d_out_keys;
  uint32_t *d_weights, *d_out_weights;
  uint8_t *d_ops;
  void *d_storage, *d_temp;
  CHECK_CUDA(cudaMalloc(&d_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_weights, sizeof weights));
  CHECK_CUDA(cudaMalloc(&d_ops, sizeof ops));
  CHECK_CUDA(cudaMalloc(&d_lo, sizeof lo));
  CHECK_CUDA(cudaMalloc(&d_hi, sizeof hi));
  CHECK_CUDA(cudaMalloc(&d_offsets, (q + 1) * sizeof(uint64_t)));
  CHECK_CUDA(cudaMalloc(&d_out_keys, sizeof keys));
  CHECK_CUDA(cudaMalloc(&d_out_weights, sizeof weights));
  CHECK_CUDA(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_weights, weights, sizeof weights, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_ops, ops, sizeof ops, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_lo, lo, sizeof lo, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_hi, hi, sizeof hi, cudaMemcpyHostToDevice));

  size_t bytes = 0, temp_bytes = 0, count_bytes = 0;
  edge_map edges;
  CHECK(edge_map::storage_bytes(max_edges, batch, &bytes));
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  CHECK(edges.init(d_storage, bytes, max_edges, batch, stream));
  // one temporary allocation: the largest of the update's and the count's (the range's is smaller)
  CHECK(edges.update(nullptr, &temp_bytes, d_keys, d_weights, d_ops, n, stream));
  CHECK(edges.count(nullptr, &count_bytes, d_lo, d_hi, q, nullptr, d_offsets, stream));
  if (count_bytes > temp_bytes) temp_bytes = count_bytes;
  CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
  CHECK(edges.update(d_temp, &temp_bytes, d_keys, d_weights, d_ops, n, stream));
  CHECK(edges.count(d_temp, &temp_bytes, d_lo, d_hi, q, nullptr, d_offsets, stream));
  CHECK(edges.range(d_temp, &temp_bytes, d_lo, d_hi, q, d_offsets, d_out_keys, d_out_weights, stream));
  CHECK(msplit::check_sync(d_temp, temp_bytes, stream));

  uint64_t offsets[q + 1], out_keys[n];
  uint32_t out_weights[n];
  CHECK_CUDA(cudaMemcpy(offsets, d_offsets, sizeof offsets, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out_keys, d_out_keys, offsets[q] * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(out_weights, d_out_weights, offsets[q] * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  for (uint32_t v = 1; v <= q; ++v) {
    std::printf("out-edges of %u:", unsigned(v));
    if (offsets[v - 1] == offsets[v]) std::printf(" (none)");
    for (uint64_t i = offsets[v - 1]; i < offsets[v]; ++i)
      std::printf(" %u->%u (%u)", unsigned(out_keys[i] >> 32), unsigned(out_keys[i] & UINT32_MAX),
                  unsigned(out_weights[i]));
    std::printf("\n");
  }

  // the weight 0xffffffff is the reserved tombstone: the entry is stored as a delete, and reported
  const uint32_t reserved = edge_map::DELETED;
  CHECK_CUDA(cudaMemcpy(d_weights, &reserved, sizeof reserved, cudaMemcpyHostToDevice));
  CHECK(edges.update(d_temp, &temp_bytes, d_keys, d_weights, nullptr, 1, stream));
  const msplit_status st = msplit::check_sync(d_temp, temp_bytes, stream);
  std::printf("an insert of the reserved weight: %s: %s\n", msplit_status_string(st), msplit_last_error_message());

  cudaFree(d_temp);
  cudaFree(d_storage);
  cudaFree(d_out_weights);
  cudaFree(d_out_keys);
  cudaFree(d_offsets);
  cudaFree(d_hi);
  cudaFree(d_lo);
  cudaFree(d_ops);
  cudaFree(d_weights);
  cudaFree(d_keys);
  cudaStreamDestroy(stream);
  return 0;
}
