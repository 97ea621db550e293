// records_bench: msplit's records (gather, split, sort of records) against the CUB way to do each,
// on the same data, in the same process.
//
// Configurations (inputs from a fixed seed, generated on the device):
//   gatherR  gather of R-byte records (R = 16, 32, 64, 128) by uniform random indexes, against a
//            thread-per-record gather (what thrust::gather of an R-byte struct does) and a plain
//            device-to-device copy of the same record bytes. Bytes moved: the index and the record
//            read and the record written, 4 + 2 R per record; a random R-byte read still costs a
//            whole 32-byte sector, so for R = 16 the bound is half the copy bandwidth.
//   split32  split of 32-byte records into 256 buckets by a bucket id array (msplit_split_records,
//            the records and the bucket offsets out) against CUB's way: positions, SortPairs of
//            (bucket id, position) on 8 bits, then the gather of the records by the positions.
//   split2   split of 32-byte records into 2 buckets by a bit of the record (split_records_by with
//            a bucket functor) against CUB's DevicePartition::If (three-way, stable: bucket 0 into
//            the output, bucket 1 into a second buffer) and a copy of bucket 1 behind bucket 0.
//   sort64   sort of 64-byte records by a u32 key at offset 0 (msplit_sort_records) against CUB's
//            way: the keys and positions out of the records, SortPairs on 32 bits, the gather.
// Every msplit result is compared with the CUB way's, word for word, on the device. Protocol: one
// warm-up, then --trials timed runs (CUDA events around the whole call, every step of the CUB way
// included), median, min and max.
//
//   records_bench [--n 26] [--configs gather16,gather32,gather64,gather128,split32,split2,sort64]
//                 [--trials 10] [--json FILE] [--commit SHA]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "bench_util.h"
#include <cub/device/device_partition.cuh>

#include "msplit/records.cuh"
#include "msplit/records.h"

#ifndef MSPLIT_BENCH_COMMIT
#define MSPLIT_BENCH_COMMIT "unknown"
#endif

namespace {

using bench::hash32;
constexpr int THREADS = 256;
constexpr uint32_t SPLIT_BUCKETS = 256;

unsigned blocks_for(size_t n) { return unsigned((n + THREADS - 1) / THREADS); }

// Random words for the records, and a value per record below `mod` (indexes, bucket ids).
__global__ void gen_words(uint32_t *w, size_t count, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
    w[i] = hash32(seed * 0x9E3779B97F4A7C15ull + i);
}
__global__ void gen_below(uint32_t *v, size_t n, uint32_t mod, uint64_t seed) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    v[i] = hash32(seed * 0x9E3779B97F4A7C15ull + i) % mod;
}

// The CUB way's pieces: a record of R bytes moved by one thread (16-byte words, as a struct copy
// compiles), the positions, and the keys with the positions.
template <int R>
struct alignas(16) record {
  uint4 w[R / 16];
};
template <int R>
__global__ void thread_gather(const record<R> *in, const uint32_t *idx, record<R> *out, size_t n) {
  const size_t i = size_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}
__global__ void positions(uint32_t *p, size_t n) {
  const size_t i = size_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i < n) p[i] = uint32_t(i);
}
__global__ void keys_and_positions(const uint32_t *records, size_t words_per_record, uint32_t *keys, uint32_t *p,
                                   size_t n) {
  const size_t i = size_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= n) return;
  keys[i] = records[i * words_per_record];
  p[i] = uint32_t(i);
}

// The bucket of split2: the low bit of the record's first word, for both ways.
struct low_bit {
  __host__ __device__ uint32_t operator()(const record<32> &r) const { return r.w[0].x & 1u; }
};
struct in_bucket {
  uint32_t bucket;
  __host__ __device__ bool operator()(const record<32> &r) const { return low_bit{}(r) == bucket; }
};
// Bucket 1 (in `second`, count n - selected[0]) copied behind bucket 0 in `out`.
__global__ void append_second(const record<32> *second, const int *selected, record<32> *out, size_t n) {
  const size_t i = size_t(blockIdx.x) * THREADS + threadIdx.x;
  const size_t first = size_t(selected[0]);
  if (i < n - first) out[first + i] = second[i];
}

__global__ void count_diff(const uint32_t *a, const uint32_t *b, size_t n, unsigned long long *diff) {
  unsigned long long d = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    d += a[i] != b[i];
  if (d) atomicAdd(diff, d);
}
unsigned long long differences(const void *a, const void *b, size_t bytes) {
  unsigned long long *d, h = 0;
  CHECK_CUDA(cudaMalloc(&d, sizeof h));
  CHECK_CUDA(cudaMemset(d, 0, sizeof h));
  count_diff<<<2048, 256>>>(static_cast<const uint32_t *>(a), static_cast<const uint32_t *>(b), bytes / 4, d);
  CHECK_CUDA(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d));
  return h;
}

struct result {
  std::string config;
  int record_bytes;
  bench::timing mine, cub, copy;  // copy: gathers only
  double bytes;                   // bytes that must move (gathers: 4 + 2 R per record)
  size_t temp, cub_temp;
  unsigned long long diff;
};

// Device buffers of one configuration, freed together.
struct buffers {
  std::vector<void *> all;
  template <typename T>
  T *get(size_t bytes) {
    void *p = nullptr;
    CHECK_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
    all.push_back(p);
    return static_cast<T *>(p);
  }
  ~buffers() {
    for (void *p : all) cudaFree(p);
  }
};

template <int R>
result run_gather(size_t n, int trials) {
  buffers b;
  uint32_t *in = b.get<uint32_t>(n * R), *idx = b.get<uint32_t>(n * 4);
  void *out = b.get<void>(n * R), *ref = b.get<void>(n * R), *copy = b.get<void>(n * R);
  gen_words<<<4096, 256>>>(in, n * R / 4, 7);
  gen_below<<<4096, 256>>>(idx, n, uint32_t(n), 11);
  result r{"gather" + std::to_string(R), R, {}, {}, {}, double(n) * (4 + 2 * R), 0, 0, 0};
  MS(msplit_gather_records(nullptr, &r.temp, nullptr, nullptr, nullptr, n, n, R, nullptr));
  void *temp = b.get<void>(r.temp);
  bench::timer tm;
  r.mine = tm.run([&] { MS(msplit_gather_records(temp, &r.temp, in, idx, out, n, n, R, nullptr)); }, trials);
  r.cub = tm.run(
      [&] {
        thread_gather<R><<<blocks_for(n), THREADS>>>(reinterpret_cast<const record<R> *>(in), idx,
                                                     static_cast<record<R> *>(ref), n);
      },
      trials);
  r.copy = tm.run([&] { CHECK_CUDA(cudaMemcpyAsync(copy, in, n * R, cudaMemcpyDeviceToDevice)); }, trials);
  MS(msplit_check_sync(temp, r.temp, nullptr));
  r.diff = differences(out, ref, n * R);
  return r;
}

// Split of 32-byte records into 256 buckets; sort of 64-byte records by a u32 key at offset 0.
template <int R>
result run_split_or_sort(bool sort, size_t n, int trials) {
  buffers b;
  uint32_t *in = b.get<uint32_t>(n * R), *ids = b.get<uint32_t>(n * 4);
  void *out = b.get<void>(n * R), *ref = b.get<void>(n * R);
  size_t *offsets = b.get<size_t>((SPLIT_BUCKETS + 1) * sizeof(size_t));
  uint32_t *keys = b.get<uint32_t>(n * 4), *keys_out = b.get<uint32_t>(n * 4);
  uint32_t *pos = b.get<uint32_t>(n * 4), *perm = b.get<uint32_t>(n * 4);
  gen_words<<<4096, 256>>>(in, n * R / 4, 7);
  gen_below<<<4096, 256>>>(ids, n, SPLIT_BUCKETS, 13);
  result r{sort ? "sort" + std::to_string(R) : "split" + std::to_string(R), R, {}, {}, {}, 0, 0, 0, 0};
  const int bits = sort ? 32 : 8;
  if (sort) MS(msplit_sort_records(nullptr, &r.temp, nullptr, nullptr, nullptr, n, R, 0, MSPLIT_TYPE_U32, nullptr));
  else MS(msplit_split_records(nullptr, &r.temp, nullptr, nullptr, nullptr, nullptr, n, R, SPLIT_BUCKETS, nullptr,
                               nullptr));
  CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, r.cub_temp, keys, keys_out, pos, perm, n, 0, bits));
  void *temp = b.get<void>(r.temp), *cub_temp = b.get<void>(r.cub_temp);
  bench::timer tm;
  r.mine = tm.run(
      [&] {
        if (sort) MS(msplit_sort_records(temp, &r.temp, in, out, nullptr, n, R, 0, MSPLIT_TYPE_U32, nullptr));
        else MS(msplit_split_records(temp, &r.temp, in, ids, out, nullptr, n, R, SPLIT_BUCKETS, offsets, nullptr));
      },
      trials);
  r.cub = tm.run(
      [&] {
        if (sort) keys_and_positions<<<blocks_for(n), THREADS>>>(in, R / 4, keys, pos, n);
        else positions<<<blocks_for(n), THREADS>>>(pos, n);
        CHECK_CUDA(cub::DeviceRadixSort::SortPairs(cub_temp, r.cub_temp, sort ? keys : ids, keys_out, pos, perm, n, 0,
                                                   bits));
        thread_gather<R><<<blocks_for(n), THREADS>>>(reinterpret_cast<const record<R> *>(in), perm,
                                                     static_cast<record<R> *>(ref), n);
      },
      trials);
  MS(msplit_check_sync(temp, r.temp, nullptr));
  r.diff = differences(out, ref, n * R);
  return r;
}

// Split of 32-byte records into 2 buckets by a bit of the record.
result run_split2(size_t n, int trials) {
  using rec = record<32>;
  buffers b;
  rec *in = b.get<rec>(n * sizeof(rec)), *out = b.get<rec>(n * sizeof(rec)), *ref = b.get<rec>(n * sizeof(rec));
  rec *second = b.get<rec>(n * sizeof(rec));
  size_t *offsets = b.get<size_t>(3 * sizeof(size_t));
  int *selected = b.get<int>(2 * sizeof(int));
  gen_words<<<4096, 256>>>(reinterpret_cast<uint32_t *>(in), n * sizeof(rec) / 4, 7);
  result r{"split2", int(sizeof(rec)), {}, {}, {}, 0, 0, 0, 0};
  MS(msplit::split_records_by<rec>(nullptr, &r.temp, nullptr, nullptr, nullptr, n, 2, low_bit{}, nullptr));
  CHECK_CUDA(cub::DevicePartition::If(nullptr, r.cub_temp, in, ref, second, second, selected, n, in_bucket{0},
                                      in_bucket{1}));
  void *temp = b.get<void>(r.temp), *cub_temp = b.get<void>(r.cub_temp);
  bench::timer tm;
  r.mine = tm.run(
      [&] { MS(msplit::split_records_by(temp, &r.temp, in, out, nullptr, n, 2, low_bit{}, offsets)); }, trials);
  r.cub = tm.run(
      [&] {
        CHECK_CUDA(cub::DevicePartition::If(cub_temp, r.cub_temp, in, ref, second, second, selected, n, in_bucket{0},
                                            in_bucket{1}));
        append_second<<<blocks_for(n), THREADS>>>(second, selected, ref, n);
      },
      trials);
  MS(msplit_check_sync(temp, r.temp, nullptr));
  r.diff = differences(out, ref, n * sizeof(rec));
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  bench::sweep_args args;
  args.ns = {"26"};
  args.configs = bench::split_list("gather16,gather32,gather64,gather128,split32,split2,sort64");
  args.commit = MSPLIT_BENCH_COMMIT;
  if (!args.parse(argc, argv, "records_bench")) return 2;
  const std::vector<std::string> &ns = args.ns, &configs = args.configs;
  const int trials = args.trials;
  const std::string &json = args.json, &commit = args.commit;
  if (!bench::require_device()) return 77;
  const bench::machine mc;
  std::printf("# %s, CUDA runtime %d, driver %d; commit %s\n", mc.prop.name, mc.runtime, mc.driver, commit.c_str());
  std::printf("%-10s %5s %9s %9s %9s %9s %9s %7s %12s %12s %s\n", "config", "log2n", "ms", "GB/s", "cub ms",
              "cub GB/s", "copy GB/s", "of copy", "temp", "cub temp", "speedup");
  FILE *f = json.empty() ? nullptr
                         : bench::json_open(json, "records_bench", mc, commit, bench::command_line(argc, argv), trials,
                                            "gathers: 4 + 2 x record bytes per record (index, record read and "
                                            "written) against a device-to-device copy of the records in the same run");
  if (f) std::fprintf(f, "  \"results\": [\n");
  bool first = true, mismatch = false;
  for (const std::string &sn : ns) {
    const int lg = std::atoi(sn.c_str());
    const size_t n = size_t(1) << lg;
    for (const std::string &c : configs) {
      result r;
      if (c == "gather16") r = run_gather<16>(n, trials);
      else if (c == "gather32") r = run_gather<32>(n, trials);
      else if (c == "gather64") r = run_gather<64>(n, trials);
      else if (c == "gather128") r = run_gather<128>(n, trials);
      else if (c == "split32") r = run_split_or_sort<32>(false, n, trials);
      else if (c == "split2") r = run_split2(n, trials);
      else if (c == "sort64") r = run_split_or_sort<64>(true, n, trials);
      else {
        std::fprintf(stderr, "records_bench: unknown config %s\n", c.c_str());
        return 2;
      }
      const bool gather = r.bytes > 0;
      const double gbs = gather ? r.bytes / (r.mine.median_ms * 1e6) : 0;
      const double cub_gbs = gather ? r.bytes / (r.cub.median_ms * 1e6) : 0;
      const double copy_gbs = gather ? 2.0 * double(n) * r.record_bytes / (r.copy.median_ms * 1e6) : 0;
      const double of_copy = gather ? gbs / copy_gbs : 0;
      std::printf("%-10s %5d %9.3f %9.1f %9.3f %9.1f %9.1f %6.1f%% %12zu %12zu %.2fx%s\n", c.c_str(), lg,
                  r.mine.median_ms, gbs, r.cub.median_ms, cub_gbs, copy_gbs, 100 * of_copy, r.temp, r.cub_temp,
                  r.cub.median_ms / r.mine.median_ms, r.diff ? "  MISMATCH" : "");
      mismatch = mismatch || r.diff;
      if (f) {
        std::fprintf(f,
                     "%s    {\"config\": \"%s\", \"log2n\": %d, \"record_bytes\": %d, \"msplit_ms\": %.4f, "
                     "\"msplit_min_ms\": %.4f, \"msplit_max_ms\": %.4f, \"cub_way_ms\": %.4f, \"cub_way_min_ms\": %.4f, "
                     "\"cub_way_max_ms\": %.4f, \"speedup\": %.3f, \"msplit_temp_bytes\": %zu, "
                     "\"cub_temp_bytes\": %zu, \"mismatches\": %llu",
                     first ? "" : ",\n", c.c_str(), lg, r.record_bytes, r.mine.median_ms, r.mine.min_ms,
                     r.mine.max_ms, r.cub.median_ms, r.cub.min_ms, r.cub.max_ms, r.cub.median_ms / r.mine.median_ms,
                     r.temp, r.cub_temp, r.diff);
        if (gather)
          std::fprintf(f,
                       ", \"bytes_moved\": %.0f, \"msplit_GBps\": %.1f, \"cub_way_GBps\": %.1f, \"copy_ms\": %.4f, "
                       "\"copy_GBps\": %.1f, \"msplit_copy_fraction\": %.3f",
                       r.bytes, gbs, cub_gbs, r.copy.median_ms, copy_gbs, of_copy);
        std::fprintf(f, "}");
        first = false;
      }
    }
  }
  if (f) {
    std::fprintf(f, "\n  ]\n}\n");
    std::fclose(f);
  }
  return mismatch ? 1 : 0;
}
