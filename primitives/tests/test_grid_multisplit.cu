// grid_multisplit_keys (the device API, inside a cooperative kernel) against a CPU oracle (stable
// partition by bucket), element for element, with the bucket offsets.
//
// Cases: m x n x distribution x grid size (one block, a few, every resident block), keys u32 and
// u64, the library's delta functor and a functor that reads device memory (as SSSP's does), and
// two splits in one kernel (the output of the first is the input of the second, so the scratch
// is reused across a grid barrier). Outputs are poisoned before each run.
//
//   test_grid_multisplit [--quick]    (or MSPLIT_TEST_QUICK=1): small sizes, for compute-sanitizer
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "msplit/grid_multisplit.cuh"
#include "msplit/multisplit.cuh"
#include "msplit_test.h"

namespace {

long g_runs = 0;

constexpr int BT = msplit::tuning::MULTISPLIT_BLOCK_THREADS;

// Bucket of a vertex read from a table in device memory (SSSP's use): table[v] / width.
struct table_bucket {
  const uint32_t *table;
  uint32_t width;
  __device__ uint32_t operator()(const uint32_t &v) const { return table[v] / width; }
};

// One split, or two in a row (in -> mid with op1, then mid -> out with op2).
template <typename Key, typename Op1, typename Op2>
__global__ void __launch_bounds__(BT) split_kernel(const Key *in, Key *mid, Key *out, uint32_t n, uint32_t m1,
                                                   Op1 op1, uint32_t m2, Op2 op2, int twice, uint32_t *counts,
                                                   size_t *off1, size_t *off2) {
  __shared__ msplit::grid_multisplit_storage<BT> sm;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  msplit::grid_multisplit_keys(grid, sm, in, mid, n, m1, op1, counts, off1);
  if (!twice) return;
  grid.sync();
  msplit::grid_multisplit_keys(grid, sm, (const Key *)mid, out, n, m2, op2, counts, off2);
}

struct rng {
  std::mt19937_64 g;
  explicit rng(uint64_t seed) : g(seed) {}
  uint32_t below(uint32_t n) { return n ? uint32_t(g() % n) : 0; }
};

enum dist_kind { UNIFORM, ONE_BUCKET, SORTED, BEYOND, NUM_DISTS };
const char *dist_name[] = {"uniform", "one-bucket", "sorted", "beyond-last"};

// Stable partition by bucket (the oracle); bucket ids already clamped.
template <typename Key>
void oracle(const std::vector<Key> &in, const std::vector<uint32_t> &bucket, uint32_t m, std::vector<Key> &out,
            std::vector<size_t> &off) {
  off.assign(m + 1, 0);
  for (uint32_t b : bucket) ++off[b + 1];
  for (uint32_t j = 0; j < m; ++j) off[j + 1] += off[j];
  std::vector<size_t> pos(off.begin(), off.end() - 1);
  out.resize(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[pos[bucket[i]]++] = in[i];
}

template <typename T>
T *dalloc(size_t count) {
  T *p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)));
  return p;
}

// A failed case, described for the reader: the harness counts it and prints the first ones.
void fail(const char *what, uint32_t m, size_t n, int grid, const char *dist, const char *detail) {
  FAIL("[m=%u n=%zu grid=%d dist=%s]: %s %s", m, n, grid, dist, what, detail);
}

template <typename Key>
bool compare(const char *what, const std::vector<Key> &got, const std::vector<Key> &expect,
             const std::vector<size_t> &got_off, const std::vector<size_t> &expect_off, uint32_t m, size_t n,
             int grid, const char *dist) {
  char msg[160];
  for (size_t j = 0; j < expect_off.size(); ++j)
    if (got_off[j] != expect_off[j]) {
      std::snprintf(msg, sizeof msg, "offset %zu is %zu, expected %zu", j, got_off[j], expect_off[j]);
      fail(what, m, n, grid, dist, msg);
      return false;
    }
  for (size_t i = 0; i < expect.size(); ++i)
    if (got[i] != expect[i]) {
      std::snprintf(msg, sizeof msg, "keys differ first at output %zu", i);
      fail(what, m, n, grid, dist, msg);
      return false;
    }
  return msplit_test::pass();
}

// Keys of type Key with the delta functor (base 1000, width 37): the keys are drawn so that
// their buckets follow the distribution; BEYOND puts a third of them past the last bucket and
// some below the base (clamped to bucket 0).
template <typename Key>
void run_delta_case(uint32_t m, uint32_t n, dist_kind d, int grid, uint64_t seed) {
  ++g_runs;
  rng r(seed);
  const Key base = 1000, width = 37;
  std::vector<Key> keys(n);
  std::vector<uint32_t> bucket(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t t = d == ONE_BUCKET ? m / 2 : r.below(m);
    Key k = base + Key(t) * width + Key(r.below(uint32_t(width)));
    if (d == BEYOND && r.below(3) == 0) k = base + Key(m + r.below(1000)) * width;
    if (d == BEYOND && r.below(10) == 0) k = Key(r.below(uint32_t(base)));
    keys[i] = k;
  }
  if (d == SORTED) std::sort(keys.begin(), keys.end());
  for (uint32_t i = 0; i < n; ++i) {
    const Key k = keys[i];
    const uint64_t q = k < base ? 0 : uint64_t((k - base) / width);
    bucket[i] = q >= m ? m - 1 : uint32_t(q);
  }
  // second split: by the low bits of the key, into 7 buckets
  std::vector<Key> expect1, expect2;
  std::vector<size_t> eoff1, eoff2;
  oracle(keys, bucket, m, expect1, eoff1);
  std::vector<uint32_t> bucket2(n);
  for (uint32_t i = 0; i < n; ++i) bucket2[i] = uint32_t(expect1[i] & 7) > 6 ? 6 : uint32_t(expect1[i] & 7);
  oracle(expect1, bucket2, 7, expect2, eoff2);

  Key *d_in = dalloc<Key>(n), *d_mid = dalloc<Key>(n), *d_out = dalloc<Key>(n);
  size_t *d_off = dalloc<size_t>(2 * (m + 1) + 8);
  uint32_t *d_counts = dalloc<uint32_t>(msplit::grid_multisplit_count_words(grid, std::max<uint32_t>(m, 7)));
  CHECK_CUDA(cudaMemcpy(d_in, keys.data(), n * sizeof(Key), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_mid, 0xAB, std::max<size_t>(n, 1) * sizeof(Key)));
  CHECK_CUDA(cudaMemset(d_out, 0xCD, std::max<size_t>(n, 1) * sizeof(Key)));
  CHECK_CUDA(cudaMemset(d_off, 0xEF, (2 * (m + 1) + 8) * sizeof(size_t)));
  CHECK_CUDA(cudaMemset(d_counts, 0x5A, msplit::grid_multisplit_count_words(grid, std::max<uint32_t>(m, 7)) * 4));
  msplit::delta_bucket<Key> op1(base, width, m);
  msplit::bitfield_bucket<Key> op2;
  op2.shift = 0;
  op2.bits = 3;
  const Key *a_in = d_in;
  Key *a_mid = d_mid, *a_out = d_out;
  uint32_t a_n = n, a_m1 = m, a_m2 = 7;
  int twice = 1;
  uint32_t *a_counts = d_counts;
  size_t *a_off1 = d_off, *a_off2 = d_off + m + 1;
  void *args[] = {&a_in, &a_mid, &a_out, &a_n, &a_m1, &op1, &a_m2, &op2, &twice, &a_counts, &a_off1, &a_off2};
  CHECK_CUDA(cudaLaunchCooperativeKernel((void *)split_kernel<Key, msplit::delta_bucket<Key>, msplit::bitfield_bucket<Key>>,
                                         dim3(grid), dim3(BT), args, 0, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<Key> got1(n), got2(n);
  std::vector<size_t> off(m + 1 + 8);
  CHECK_CUDA(cudaMemcpy(got1.data(), d_mid, n * sizeof(Key), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got2.data(), d_out, n * sizeof(Key), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(off.data(), d_off, off.size() * sizeof(size_t), cudaMemcpyDeviceToHost));
  std::vector<size_t> off1(off.begin(), off.begin() + m + 1), off2(off.begin() + m + 1, off.begin() + m + 1 + 8);
  const char *dn = dist_name[d];
  if (compare("first split", got1, expect1, off1, eoff1, m, n, grid, dn))
    compare("second split (low bits, m = 7)", got2, expect2, off2, eoff2, m, n, grid, dn);
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_mid));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_off));
  CHECK_CUDA(cudaFree(d_counts));
}

// Vertex ids split by a table in device memory, one split, no offsets wanted.
void run_table_case(uint32_t m, uint32_t n, int grid, uint64_t seed) {
  ++g_runs;
  rng r(seed);
  const uint32_t nv = n + 100, width = 13;
  std::vector<uint32_t> table(nv), verts(n), bucket(n);
  for (auto &t : table) t = r.below(width * (m + 3));
  for (uint32_t i = 0; i < n; ++i) {
    verts[i] = r.below(nv);
    const uint32_t q = table[verts[i]] / width;
    bucket[i] = q >= m ? m - 1 : q;
  }
  std::vector<uint32_t> expect;
  std::vector<size_t> eoff;
  oracle(verts, bucket, m, expect, eoff);
  uint32_t *d_table = dalloc<uint32_t>(nv), *d_in = dalloc<uint32_t>(n), *d_out = dalloc<uint32_t>(n);
  uint32_t *d_counts = dalloc<uint32_t>(msplit::grid_multisplit_count_words(grid, m));
  CHECK_CUDA(cudaMemcpy(d_table, table.data(), nv * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_in, verts.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0xAB, std::max<size_t>(n, 1) * 4));
  table_bucket op{d_table, width};
  const uint32_t *a_in = d_in;
  uint32_t *a_mid = d_out, *a_out = nullptr, *a_counts = d_counts;
  uint32_t a_n = n, a_m = m;
  int twice = 0;
  size_t *no_off = nullptr;
  void *args[] = {&a_in, &a_mid, &a_out, &a_n, &a_m, &op, &a_m, &op, &twice, &a_counts, &no_off, &no_off};
  CHECK_CUDA(cudaLaunchCooperativeKernel((void *)split_kernel<uint32_t, table_bucket, table_bucket>, dim3(grid),
                                         dim3(BT), args, 0, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint32_t> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
  compare("table functor", got, expect, eoff, eoff, m, n, grid, "table");
  CHECK_CUDA(cudaFree(d_table));
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_counts));
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  int sms = 0, per_sm[3] = {0, 0, 0};
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm[0], split_kernel<uint64_t, msplit::delta_bucket<uint64_t>, msplit::bitfield_bucket<uint64_t>>, BT, 0));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm[1], split_kernel<uint32_t, msplit::delta_bucket<uint32_t>, msplit::bitfield_bucket<uint32_t>>, BT, 0));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[2], split_kernel<uint32_t, table_bucket, table_bucket>,
                                                           BT, 0));
  const int full = sms * std::min(per_sm[0], std::min(per_sm[1], per_sm[2]));  // every block resident
  const int grids[] = {1, 3, sms, full};
  const uint32_t ms[] = {1, 2, 3, 5, 10, 32, 33, 64, 100, 255, 256};
  const uint32_t ns_full[] = {0, 1, 31, 255, 256, 257, 1000, 4097, 100003, (1u << 20) + 7};
  const uint32_t ns_quick[] = {0, 1, 257, 4097, 20011};
  const uint32_t *ns = quick ? ns_quick : ns_full;
  const int nn = quick ? 5 : 10;
  uint64_t seed = 777;
  long index = 0;
  // 1. m x n x grid, u32 keys, the distribution rotating; u64 keys on every third case
  for (uint32_t m : ms)
    for (int g = 0; g < 4; ++g)
      for (int i = 0; i < nn; ++i, ++index) {
        if (quick && g == 1 && m > 5) continue;
        const dist_kind d = dist_kind(index % NUM_DISTS);
        if (index % 3 == 2) run_delta_case<uint64_t>(m, ns[i], d, grids[g], seed++);
        else run_delta_case<uint32_t>(m, ns[i], d, grids[g], seed++);
      }
  std::printf("delta functor: %ld runs, %ld failures\n", g_runs, msplit_test_failures());
  // 2. the functor that reads device memory
  const uint32_t tms[] = {2, 10, 40, 256};
  for (uint32_t m : tms)
    for (int g : {sms, full}) run_table_case(m, quick ? 30011 : 2000003, g, seed++);
  // 3. large inputs on the full grid
  if (!quick) {
    run_delta_case<uint32_t>(10, 5000011, UNIFORM, full, seed++);
    run_delta_case<uint32_t>(256, 5000011, BEYOND, full, seed++);
    run_delta_case<uint64_t>(3, 3000017, SORTED, full, seed++);
  }
  return msplit_test_finish("grid_multisplit: %ld runs", g_runs);
}
