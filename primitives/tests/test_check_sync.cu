// msplit_check_sync, the one check of every primitive's device-side errors: each call clears the
// error record at the start of its temporary storage, whatever path it takes (storage poisoned
// with 0xFF before every call, so that a path that forgot would report garbage), and the check
// refuses storage that cannot hold the record. The errors themselves are forced in
// test_histogram (unsorted levels), test_segmented_sort (bad offsets), test_lookback_stall and
// test_grid_barrier (stalls).
//
//   test_check_sync
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cuda_runtime.h>

#include <cstdio>
#include <functional>
#include <vector>

#include "msplit/msplit.h"
#include "msplit_test.h"

namespace {

constexpr uint8_t POISON = 0xFF;

// A primitive's call: (d_temp, &temp_bytes) with d_temp NULL sizes it.
using call_fn = std::function<msplit_status(void *, size_t *)>;

void check_clears(const char *what, const call_fn &call) {
  size_t bytes = 0;
  msplit_status st = call(nullptr, &bytes);
  CHECK(st == MSPLIT_SUCCESS && bytes >= sizeof(msplit_error_record), "%s: size query: %s, %zu bytes", what,
         msplit_last_error_message(), bytes);
  if (st != MSPLIT_SUCCESS) return;
  void *temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  CHECK_CUDA(cudaMemset(temp, POISON, bytes));
  st = call(temp, &bytes);
  CHECK(st == MSPLIT_SUCCESS, "%s: %s", what, msplit_last_error_message());
  st = msplit_check_sync(temp, bytes, nullptr);
  CHECK(st == MSPLIT_SUCCESS, "%s: the record was not cleared: %s: %s", what, msplit_status_string(st),
         msplit_last_error_message());
  CHECK_CUDA(cudaFree(temp));
}

}  // namespace

int main(int argc, char **argv) {
  msplit_test_gpu_start(argc, argv);
  const size_t N = size_t(1) << 20;
  uint32_t *in, *out, *vin, *vout, *offsets, *halves;
  size_t *bucket_offsets;
  CHECK_CUDA(cudaMalloc(&in, N * 8));
  CHECK_CUDA(cudaMalloc(&out, N * 8));
  CHECK_CUDA(cudaMalloc(&vin, N * 4));
  CHECK_CUDA(cudaMalloc(&vout, N * 4));
  CHECK_CUDA(cudaMalloc(&offsets, 1025 * 4));
  CHECK_CUDA(cudaMalloc(&halves, 3 * 4));
  CHECK_CUDA(cudaMalloc(&bucket_offsets, 1025 * sizeof(size_t)));
  std::vector<uint32_t> h(N * 2), off(1025);
  for (size_t i = 0; i < h.size(); ++i) h[i] = uint32_t(i * 2654435761u);
  for (size_t i = 0; i <= 1024; ++i) off[i] = uint32_t(i * (N / 1024));
  CHECK_CUDA(cudaMemcpy(in, h.data(), N * 8, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(vin, h.data(), N * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(offsets, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
  const uint32_t two[] = {0, uint32_t(N / 2), uint32_t(N)};  // two long segments
  CHECK_CUDA(cudaMemcpy(halves, two, sizeof two, cudaMemcpyHostToDevice));

  // multisplit: every variant, and n = 0
  msplit_bucket_desc bits{};
  bits.kind = MSPLIT_BUCKET_BITFIELD;
  bits.shift = 3;
  bits.bits = 4;
  for (int v : {MSPLIT_VARIANT_AUTO, MSPLIT_VARIANT_DIRECT, MSPLIT_VARIANT_ONEPASS, MSPLIT_VARIANT_SORT})
    for (size_t n : {N, size_t(0)}) {
      const uint32_t m = v == MSPLIT_VARIANT_SORT ? 300 : 16;  // the sort path takes m > 256
      if (v == MSPLIT_VARIANT_SORT) bits.bits = 9;
      check_clears(msplit_variant_name(msplit_variant(v)), [&](void *t, size_t *b) {
        return msplit_multisplit(t, b, in, out, vin, vout, n, m, bits, bucket_offsets, MSPLIT_TYPE_U32,
                                 MSPLIT_TYPE_U32, msplit_variant(v), nullptr);
      });
      bits.bits = 4;
    }
  // radix sort: one tile, a short bit range, several passes, n = 0
  struct sort_case {
    const char *what;
    size_t n;
    int begin_bit, end_bit;
  };
  for (const sort_case &c : {sort_case{"radix sort, one tile", 1000, 0, 32}, sort_case{"radix sort, 4 bits", N, 0, 4},
                             sort_case{"radix sort, 64 bits", N, 0, 64}, sort_case{"radix sort, n = 0", 0, 0, 32}})
    check_clears(c.what, [&](void *t, size_t *b) {
      return msplit_radix_sort(t, b, in, out, vin, vout, c.n, c.end_bit > 32 ? MSPLIT_TYPE_U64 : MSPLIT_TYPE_U32,
                               MSPLIT_TYPE_U32, 0, c.begin_bit, c.end_bit, nullptr);
    });
  // histogram: even (overwriting, accumulating), range, n = 0
  for (int acc = 0; acc < 2; ++acc)
    for (size_t n : {N, size_t(0)}) {
      check_clears("histogram even", [&](void *t, size_t *b) {
        return msplit_histogram_even(t, b, in, out, n, 1000, 0.0, 4294968.0, MSPLIT_TYPE_U32,
                                     MSPLIT_TYPE_U32, acc, nullptr);
      });
      check_clears("histogram range", [&](void *t, size_t *b) {
        return msplit_histogram_range(t, b, in, out, n, 1024, offsets, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32,
                                      acc, nullptr);
      });
    }
  // segmented sort: short and long segments, none
  for (size_t segments : {size_t(1024), size_t(2), size_t(0)}) {
    const uint32_t *o = segments == 2 ? halves : offsets;
    check_clears("segmented sort", [&](void *t, size_t *b) {
      return msplit_segmented_sort(t, b, in, out, vin, vout, N, segments, o, o + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32,
                                   MSPLIT_TYPE_U32, 0, nullptr);
    });
  }
  // the check's own errors
  CHECK(msplit_check_sync(nullptr, 256, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT, "check of NULL storage");
  CHECK(msplit_check_sync(in, sizeof(msplit_error_record) - 1, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
         "check of storage smaller than the record");
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(vin));
  CHECK_CUDA(cudaFree(vout));
  CHECK_CUDA(cudaFree(offsets));
  CHECK_CUDA(cudaFree(halves));
  CHECK_CUDA(cudaFree(bucket_offsets));
  return msplit_test_finish("check_sync (every path clears the record)");
}
