// The decoupled look-back's bounded wait (detail/lookback.cuh), which the one-pass multisplit,
// the radix sort's sweeps and the segmented sort's radix halves share: with every tile published
// it sums as before and records nothing; with tile 0 never published, the walks give up after
// the bound (given tiny here) in one bound's time, not one per waiting tile, record
// MSPLIT_ERROR_STALLED at the look-back, and every tile still publishes its prefix, so that no
// successor is held; the context stays usable.
//
//   test_lookback_stall [--quick]
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "msplit/detail/lookback.cuh"
#include "msplit_test.h"

namespace {

constexpr uint32_t M = 4;          // buckets: 8 lanes of one warp each
constexpr int LB_ITEMS = 4;

// Block t is tile t (a small grid, all resident): it publishes a count of 1 in every bucket,
// walks back, and publishes its inclusive prefix. Tile 0 publishes only if publish_first.
__global__ void walk_kernel(uint32_t *status, uint32_t *before, msplit::detail::lookback_stall stall, bool publish_first) {
  using namespace msplit::detail;
  using ref = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>;
  const size_t tile = blockIdx.x;
  const unsigned G = lookback_group(M);
  const uint32_t b = threadIdx.x / G;
  const unsigned j = threadIdx.x % G;
  const bool active = b < M;
  if (tile == 0) {
    if (publish_first && active && j == 0) ref(status[b]).store(LOOKBACK_FLAG_PREFIX | 1u, cuda::memory_order_relaxed);
    return;
  }
  if (active && j == 0) ref(status[tile * M + b]).store(LOOKBACK_FLAG_AGGREGATE | 1u, cuda::memory_order_relaxed);
  const uint32_t sum = lookback_walk<LB_ITEMS>(status, tile, M, b, j, G, active, stall);
  if (active && j == 0) {
    ref(status[tile * M + b]).store(LOOKBACK_FLAG_PREFIX | (sum + 1u), cuda::memory_order_relaxed);
    before[tile * M + b] = sum;
  }
}

struct run_result {
  std::vector<uint32_t> status, before;
  msplit_error_record rec;
  float ms;
};

run_result run(uint32_t tiles, bool publish_first, unsigned long long bound_ns) {
  uint32_t *status, *before;
  msplit_error_record *rec;
  CHECK_CUDA(cudaMalloc(&status, tiles * M * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&before, tiles * M * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&rec, sizeof(msplit_error_record)));
  CHECK_CUDA(cudaMemset(status, 0, tiles * M * sizeof(uint32_t)));
  CHECK_CUDA(cudaMemset(before, 0xFF, tiles * M * sizeof(uint32_t)));
  CHECK_CUDA(cudaMemset(rec, 0, sizeof(msplit_error_record)));
  cudaEvent_t t0, t1;
  CHECK_CUDA(cudaEventCreate(&t0));
  CHECK_CUDA(cudaEventCreate(&t1));
  CHECK_CUDA(cudaEventRecord(t0));
  walk_kernel<<<tiles, msplit::detail::WARP_SIZE>>>(
      status, before, msplit::detail::lookback_stall{rec, bound_ns, MSPLIT_PRIMITIVE_MULTISPLIT}, publish_first);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(t1));
  CHECK_CUDA(cudaDeviceSynchronize());
  run_result r;
  CHECK_CUDA(cudaEventElapsedTime(&r.ms, t0, t1));
  r.status.resize(tiles * M);
  r.before.resize(tiles * M);
  CHECK_CUDA(cudaMemcpy(r.status.data(), status, tiles * M * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(r.before.data(), before, tiles * M * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&r.rec, rec, sizeof r.rec, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaEventDestroy(t0));
  CHECK_CUDA(cudaEventDestroy(t1));
  CHECK_CUDA(cudaFree(status));
  CHECK_CUDA(cudaFree(before));
  CHECK_CUDA(cudaFree(rec));
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  const uint32_t tiles = quick ? 16 : 100;
  // 1. every tile published: the sums, and an empty record
  {
    const run_result r = run(tiles, true, MSPLIT_STALL_NS);
    int bad = 0;
    for (uint32_t t = 1; t < tiles; ++t)
      for (uint32_t b = 0; b < M; ++b) bad += r.before[t * M + b] != t;
    CHECK(bad == 0, "published: %d of %u sums wrong", bad, (tiles - 1) * M);
    CHECK(r.rec.code == MSPLIT_SUCCESS, "published: the record holds status %u", r.rec.code);
  }
  // 2. tile 0 never published: one bound (msplit_test_stall_ns) for all waiters, the record, every
  // prefix out
  {
    const unsigned long long BOUND_NS = msplit_test_stall_ns();
    const run_result r = run(tiles, false, BOUND_NS);
    CHECK(r.ms < 100.f * BOUND_NS / 1e6f, "stall: %.0f ms with a bound of %.0f ms", r.ms, BOUND_NS / 1e6);
    CHECK(r.rec.code == MSPLIT_ERROR_STALLED && r.rec.site == MSPLIT_SITE_LOOKBACK,
           "stall: the record holds status %u at site %u", r.rec.code, r.rec.site);
    CHECK(r.rec.detail[1] < r.rec.detail[0] && r.rec.detail[2] >= BOUND_NS,
           "stall: tile %llu waited for tile %llu for %llu ns", (unsigned long long)r.rec.detail[0],
           (unsigned long long)r.rec.detail[1], (unsigned long long)r.rec.detail[2]);
    int unpublished = 0;
    for (uint32_t t = 1; t < tiles; ++t)
      for (uint32_t b = 0; b < M; ++b)
        unpublished += (r.status[t * M + b] & msplit::detail::LOOKBACK_FLAG_PREFIX) == 0;
    CHECK(unpublished == 0, "stall: %d tiles' prefixes were never published", unpublished);
    const msplit_status st = msplit_error_record_status(&r.rec);
    CHECK(st == MSPLIT_ERROR_STALLED && std::strstr(msplit_last_error_message(), "gave up waiting at the look-back"),
           "stall: %s: %s", msplit_status_string(st), msplit_last_error_message());
    std::printf("look-back stall: %.1f ms; %s\n", r.ms, msplit_last_error_message());
  }
  // 3. the context is still usable
  {
    const run_result r = run(tiles, true, MSPLIT_STALL_NS);
    CHECK(r.rec.code == MSPLIT_SUCCESS && r.before[(tiles - 1) * M] == tiles - 1, "after the stall: a walk failed");
  }
  return msplit_test_finish("look-back stall");
}
