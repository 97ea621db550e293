// grid_barrier (msplit/grid_barrier.cuh): many barriers of data exchange between blocks, checked
// on the host; the barrier as grid_multisplit_keys's Grid; and a forced stall (one block passes a
// barrier without arriving) that must end the kernel within about the bound, with the record
// filled, and leave the context usable.
//
//   test_grid_barrier [--quick]    (or MSPLIT_TEST_QUICK=1): fewer rounds, for compute-sanitizer
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "msplit/grid_barrier.cuh"
#include "msplit/grid_multisplit.cuh"
#include "msplit_test.h"

namespace {

constexpr int BT = 256;
constexpr int NO_SKIP = -1;


__host__ __device__ uint32_t value_of(uint32_t round, uint32_t block) { return round * 2654435761u + block * 40503u + 1; }

// Round r: block b writes value_of(r, b) into buf[r % 2][b]; after the barrier it adds what
// block (b + 1 + r) % G wrote. A barrier that lets a block through early reads a stale slot. The
// block numbered skip_block passes round skip_round's barrier without arriving.
__global__ void __launch_bounds__(BT) exchange_kernel(msplit::grid_barrier_state *state, msplit_error_record *rec,
                                                      unsigned long long bound_ns, uint32_t rounds, uint32_t *buf,
                                                      unsigned long long *sums, uint32_t *passed, int skip_block,
                                                      uint32_t skip_round) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  msplit::grid_barrier bar;
  bar.init(grid, state, rec, bound_ns);
  const uint32_t G = gridDim.x, b = blockIdx.x;
  unsigned long long sum = 0;
  for (uint32_t r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) buf[(r % 2) * G + b] = value_of(r, b);
    if (int(b) == skip_block && r == skip_round) bar.sync_without_arriving();
    else bar.sync();
    if (threadIdx.x == 0) {
      sum += buf[(r % 2) * G + (b + 1 + r) % G];
      passed[b] = r + 1;
    }
  }
  if (threadIdx.x == 0) sums[b] = sum;
}

// The barrier as the Grid of grid_multisplit_keys: keys split by their low 2 bits.
__global__ void __launch_bounds__(BT) split_kernel(msplit::grid_barrier_state *state, msplit_error_record *rec,
                                                   const uint32_t *in, uint32_t *out, uint32_t n, uint32_t *counts,
                                                   size_t *offsets) {
  __shared__ msplit::grid_multisplit_storage<BT> sm;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  msplit::grid_barrier bar;
  bar.init(grid, state, rec);
  msplit::grid_multisplit_keys(bar, sm, in, out, n, 4, msplit::bitfield_bucket<uint32_t>{0, 2}, counts, offsets);
}

struct device_state {
  msplit::grid_barrier_state *state = nullptr;
  msplit_error_record *rec = nullptr;
  unsigned grid = 0;
};

unsigned resident_blocks(const void *kernel) {
  int dev = 0, sms = 0, per_sm = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BT, 0));
  return unsigned(sms * per_sm);
}

// Runs the exchange; returns the kernel's time in ms and fills passed (rounds each block passed).
float run_exchange(const device_state &d, unsigned grid, uint32_t rounds, unsigned long long bound_ns, int skip_block,
                   uint32_t skip_round, std::vector<unsigned long long> &sums, std::vector<uint32_t> &passed) {
  uint32_t *buf;
  unsigned long long *d_sums;
  uint32_t *d_passed;
  CHECK_CUDA(cudaMalloc(&buf, 2 * grid * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&d_sums, grid * sizeof(unsigned long long)));
  CHECK_CUDA(cudaMalloc(&d_passed, grid * sizeof(uint32_t)));
  CHECK_CUDA(cudaMemset(d_sums, 0, grid * sizeof(unsigned long long)));
  CHECK_CUDA(cudaMemset(d_passed, 0, grid * sizeof(uint32_t)));
  CHECK_CUDA(cudaMemset(d.rec, 0, sizeof(msplit_error_record)));
  cudaEvent_t t0, t1;
  CHECK_CUDA(cudaEventCreate(&t0));
  CHECK_CUDA(cudaEventCreate(&t1));
  void *args[] = {(void *)&d.state, (void *)&d.rec, &bound_ns, &rounds, &buf, &d_sums, &d_passed, &skip_block, &skip_round};
  CHECK_CUDA(cudaEventRecord(t0));
  CHECK_CUDA(cudaLaunchCooperativeKernel((const void *)exchange_kernel, dim3(grid), dim3(BT), args, 0, 0));
  CHECK_CUDA(cudaEventRecord(t1));
  CHECK_CUDA(cudaDeviceSynchronize());
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, t0, t1));
  sums.resize(grid);
  passed.resize(grid);
  CHECK_CUDA(cudaMemcpy(sums.data(), d_sums, grid * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(passed.data(), d_passed, grid * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaEventDestroy(t0));
  CHECK_CUDA(cudaEventDestroy(t1));
  CHECK_CUDA(cudaFree(buf));
  CHECK_CUDA(cudaFree(d_sums));
  CHECK_CUDA(cudaFree(d_passed));
  return ms;
}

msplit_error_record read_record(const device_state &d) {
  msplit_error_record r;
  CHECK_CUDA(cudaMemcpy(&r, d.rec, sizeof r, cudaMemcpyDeviceToHost));
  return r;
}

// Every block passed every barrier and read what its neighbour wrote before it.
void check_exchange(const device_state &d, unsigned grid, uint32_t rounds, const char *what) {
  std::vector<unsigned long long> sums;
  std::vector<uint32_t> passed;
  run_exchange(d, grid, rounds, MSPLIT_STALL_NS, NO_SKIP, 0, sums, passed);
  int bad = 0;
  for (uint32_t b = 0; b < grid; ++b) {
    unsigned long long want = 0;
    for (uint32_t r = 0; r < rounds; ++r) want += value_of(r, (b + 1 + r) % grid);
    if (sums[b] != want || passed[b] != rounds) ++bad;
  }
  CHECK(bad == 0, "%s: %d of %u blocks read a stale value or missed a round (%u rounds)", what, bad, grid, rounds);
  const msplit_error_record r = read_record(d);
  CHECK(r.code == MSPLIT_SUCCESS, "%s: the record holds status %u", what, r.code);
}

void test_split(const device_state &d) {
  const uint32_t n = 10007;
  const unsigned grid = std::min(d.grid, 8u);
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = i * 7919u;
  uint32_t *d_in, *d_out, *counts;
  size_t *offsets;
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&counts, msplit::grid_multisplit_count_words(grid, 4) * sizeof(uint32_t)));
  CHECK_CUDA(cudaMalloc(&offsets, 5 * sizeof(size_t)));
  CHECK_CUDA(cudaMemcpy(d_in, in.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d.rec, 0, sizeof(msplit_error_record)));
  uint32_t nn = n;
  void *args[] = {(void *)&d.state, (void *)&d.rec, &d_in, &d_out, &nn, &counts, &offsets};
  CHECK_CUDA(cudaLaunchCooperativeKernel((const void *)split_kernel, dim3(grid), dim3(BT), args, 0, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint32_t> out(n), want(in);
  CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  std::stable_sort(want.begin(), want.end(), [](uint32_t a, uint32_t b) { return (a & 3) < (b & 3); });
  CHECK(out == want, "grid_multisplit_keys with grid_barrier as its Grid: the split differs from the oracle");
  CHECK(read_record(d).code == MSPLIT_SUCCESS, "grid_multisplit_keys with grid_barrier: an error was recorded");
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(counts));
  CHECK_CUDA(cudaFree(offsets));
}

// One block passes round 5's barrier without arriving: every block gives up after about the
// bound (msplit_test_stall_ns) (one bound, not one per block), nobody passes round 5, the record says so.
void test_forced_stall(const device_state &d) {
  const unsigned long long BOUND_NS = msplit_test_stall_ns();
  constexpr uint32_t SKIP_ROUND = 5;
  const int skip = int(d.grid) - 1;
  std::vector<unsigned long long> sums;
  std::vector<uint32_t> passed;
  const float ms = run_exchange(d, d.grid, 50, BOUND_NS, skip, SKIP_ROUND, sums, passed);
  const uint32_t most = *std::max_element(passed.begin(), passed.end());
  CHECK(most == SKIP_ROUND, "forced stall: a block passed %u rounds (the barrier of round %u never completes)", most,
         SKIP_ROUND);
  CHECK(ms < 100.f * BOUND_NS / 1e6f, "forced stall: the kernel took %.0f ms with a bound of %.0f ms", ms,
        BOUND_NS / 1e6);
  const msplit_error_record r = read_record(d);
  CHECK(r.code == MSPLIT_ERROR_STALLED && r.site == MSPLIT_SITE_GRID_BARRIER,
         "forced stall: the record holds status %u at site %u", r.code, r.site);
  const unsigned long long missing = r.detail[1] - r.detail[0];
  CHECK(missing >= 1 && missing <= d.grid, "forced stall: the record saw %llu of %llu arrivals",
         (unsigned long long)r.detail[0], (unsigned long long)r.detail[1]);
  CHECK(r.detail[2] >= BOUND_NS, "forced stall: gave up after %llu ns, before the bound", (unsigned long long)r.detail[2]);
  const msplit_status st = msplit_error_record_status(&r);
  CHECK(st == MSPLIT_ERROR_STALLED && std::strstr(msplit_last_error_message(), "gave up waiting at a grid barrier"),
         "forced stall: msplit_error_record_status gave %s: %s", msplit_status_string(st), msplit_last_error_message());
  std::printf("forced stall: %.1f ms; %s\n", ms, msplit_last_error_message());
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  const uint32_t rounds = quick ? 20 : 2000;
  device_state d;
  d.grid = resident_blocks((const void *)exchange_kernel);
  CHECK_CUDA(cudaMalloc(&d.state, sizeof(msplit::grid_barrier_state)));
  CHECK_CUDA(cudaMalloc(&d.rec, sizeof(msplit_error_record)));
  CHECK_CUDA(cudaMemset(d.state, 0, sizeof(msplit::grid_barrier_state)));
  // 1. exchanges on one block, a few, and every resident block; the counter is never reset
  for (unsigned g : {1u, 3u, d.grid}) check_exchange(d, g, rounds, "exchange");
  // 2. a counter about to wrap
  const msplit::grid_barrier_state near_wrap{0xFFFFFFFFu - 3 * d.grid};
  CHECK_CUDA(cudaMemcpy(d.state, &near_wrap, sizeof near_wrap, cudaMemcpyHostToDevice));
  check_exchange(d, d.grid, 10, "exchange across the counter's wrap");
  // 3. the barrier as grid_multisplit_keys's Grid
  test_split(d);
  // 4. a forced stall, then the context is still usable
  test_forced_stall(d);
  CHECK_CUDA(cudaGetLastError());
  check_exchange(d, d.grid, rounds, "exchange after a stall");
  CHECK_CUDA(cudaFree(d.state));
  CHECK_CUDA(cudaFree(d.rec));
  return msplit_test_finish("grid_barrier");
}
