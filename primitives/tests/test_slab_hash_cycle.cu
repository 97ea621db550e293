// The slab hash on a corrupted table: one bucket's chain made cyclic (its last slab linked back
// to its head). Every operation that walks it (find, insert, count, find_all, flush) must end,
// report MSPLIT_HASH_GAVE_UP where it reports per operation, and msplit_slab_hash_check_sync must
// return MSPLIT_ERROR_STALLED naming the bucket, then reset; operations on an intact table
// report nothing of the kind.
//
//   test_slab_hash_cycle [--quick]
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "msplit/detail/slab_hash/slab.cuh"
#include "msplit/slab_hash.h"
#include "msplit_test.h"

namespace {

namespace sl = msplit::detail::slab;

constexpr uint32_t CAPACITY = 64;  // pool slabs
constexpr size_t KEYS = 210;       // 14 full slabs of 15 entries: no empty slot ends a walk

// Links the last slab of bucket 0's chain back to its head; returns the chain's length.
size_t make_cycle(const msplit_slab_hash &t) {
  const sl::layout l(t.num_buckets, t.capacity_slabs);
  std::vector<uint32_t> slabs((size_t(t.num_buckets) + t.capacity_slabs) * sl::WARP);
  unsigned char *base = static_cast<unsigned char *>(t.d_storage);
  CHECK_CUDA(cudaMemcpy(slabs.data(), base + l.slabs_offset, slabs.size() * 4, cudaMemcpyDeviceToHost));
  uint32_t s = 0;
  size_t length = 1;
  while (slabs[size_t(s) * sl::WARP + sl::NEXT_LANE] != sl::NULL_SLAB) {
    s = slabs[size_t(s) * sl::WARP + sl::NEXT_LANE];
    ++length;
  }
  const uint32_t head = 0;
  CHECK_CUDA(cudaMemcpy(base + l.slabs_offset + (size_t(s) * sl::WARP + sl::NEXT_LANE) * 4, &head, 4,
                        cudaMemcpyHostToDevice));
  return length;
}

// check_sync after an operation that gave up: MSPLIT_ERROR_STALLED naming bucket 0, then reset.
void expect_gave_up(const msplit_slab_hash &t, const char *what) {
  const msplit_status st = msplit_slab_hash_check_sync(&t, nullptr);
  CHECK(st == MSPLIT_ERROR_STALLED && std::strstr(msplit_last_error_message(), "bucket 0"),
         "%s: check_sync gave %s: %s", what, msplit_status_string(st), msplit_last_error_message());
  CHECK(msplit_slab_hash_check_sync(&t, nullptr) == MSPLIT_SUCCESS, "%s: the counters were not reset", what);
}

}  // namespace

int main(int argc, char **argv) {
  msplit_test_gpu_start(argc, argv);
  std::vector<uint32_t> keys(KEYS), values(KEYS);
  for (size_t i = 0; i < KEYS; ++i) keys[i] = uint32_t(i) * 7u, values[i] = uint32_t(i);
  uint32_t *d_keys, *d_values, *d_out, *d_offsets;
  uint8_t *d_results;
  CHECK_CUDA(cudaMalloc(&d_keys, KEYS * 4));
  CHECK_CUDA(cudaMalloc(&d_values, KEYS * 4));
  CHECK_CUDA(cudaMalloc(&d_out, KEYS * 4));
  CHECK_CUDA(cudaMalloc(&d_offsets, 2 * 4));
  CHECK_CUDA(cudaMalloc(&d_results, KEYS));
  CHECK_CUDA(cudaMemcpy(d_keys, keys.data(), KEYS * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_values, values.data(), KEYS * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_offsets, 0, 2 * 4));
  size_t bytes = 0;
  CHECK_MSPLIT(msplit_slab_hash_storage_bytes(1, CAPACITY, &bytes));
  void *d_storage;
  CHECK_CUDA(cudaMalloc(&d_storage, bytes));
  msplit_slab_hash t;
  CHECK_MSPLIT(msplit_slab_hash_init(&t, d_storage, bytes, 1, CAPACITY, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr));
  CHECK_MSPLIT(msplit_slab_hash_insert(&t, d_keys, d_values, KEYS, MSPLIT_HASH_OP_INSERT, d_results, nullptr));
  CHECK_MSPLIT(msplit_slab_hash_find(&t, d_keys, KEYS, d_out, d_results, nullptr));
  CHECK(msplit_slab_hash_check_sync(&t, nullptr) == MSPLIT_SUCCESS, "intact table: %s", msplit_last_error_message());

  const size_t length = make_cycle(t);
  CHECK(length > 2, "the chain has only %zu slabs", length);
  const uint32_t absent = 1;  // not a multiple of 7: its walk meets no match, no empty slot
  CHECK_CUDA(cudaMemcpy(d_keys, &absent, 4, cudaMemcpyHostToDevice));
  uint8_t r = 0;
  struct op {
    const char *what;
    msplit_status (*run)(const msplit_slab_hash &, uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint8_t *);
    bool reports;  // writes a per-operation result
  };
  const op ops[] = {
      {"find", [](const msplit_slab_hash &t, uint32_t *k, uint32_t *, uint32_t *o, uint32_t *, uint8_t *res) {
         return msplit_slab_hash_find(&t, k, 1, o, res, nullptr);
       }, true},
      {"insert", [](const msplit_slab_hash &t, uint32_t *k, uint32_t *v, uint32_t *, uint32_t *, uint8_t *res) {
         return msplit_slab_hash_insert(&t, k, v, 1, MSPLIT_HASH_OP_INSERT, res, nullptr);
       }, true},
      {"count", [](const msplit_slab_hash &t, uint32_t *k, uint32_t *, uint32_t *o, uint32_t *, uint8_t *) {
         return msplit_slab_hash_count(&t, k, 1, o, nullptr);
       }, false},
      {"find_all", [](const msplit_slab_hash &t, uint32_t *k, uint32_t *, uint32_t *o, uint32_t *off, uint8_t *) {
         return msplit_slab_hash_find_all(&t, k, 1, off, o, nullptr);
       }, false},
      {"flush", [](const msplit_slab_hash &t, uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint8_t *) {
         return msplit_slab_hash_flush(&t, nullptr);
       }, false},
  };
  for (const op &o : ops) {
    CHECK_CUDA(cudaMemset(d_results, 0xEE, 1));
    CHECK_MSPLIT(o.run(t, d_keys, d_values, d_out, d_offsets, d_results));
    CHECK_CUDA(cudaDeviceSynchronize());  // it ends: the test would time out otherwise
    if (o.reports) {
      CHECK_CUDA(cudaMemcpy(&r, d_results, 1, cudaMemcpyDeviceToHost));
      CHECK(r == MSPLIT_HASH_GAVE_UP, "%s on a cyclic chain: result %u", o.what, unsigned(r));
    }
    expect_gave_up(t, o.what);
  }
  std::printf("cyclic chain of %zu slabs: every operation gave up and was reported\n", length);
  cudaFree(d_storage);
  cudaFree(d_keys);
  cudaFree(d_values);
  cudaFree(d_out);
  cudaFree(d_offsets);
  cudaFree(d_results);
  return msplit_test_finish("slab hash cycle");
}
