// Every size query of every primitive, C and C++, with NULL data pointers and n > 0: a query
// (d_temp == NULL) answers before any pointer is looked at, as CUB's do, so a caller can size
// the storage before it has allocated the data. Runs without a GPU, except the queries of the
// multisplit variants that size CUB's storage (CUB's own query needs a device): those are left
// out there, and said so.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include "msplit/histogram.cuh"
#include "msplit/lsm.cuh"
#include "msplit/msplit.h"
#include "msplit/multisplit.cuh"
#include "msplit/radix_sort.cuh"
#include "msplit/records.cuh"
#include "msplit/segmented_sort.cuh"
#include "msplit_test.h"

namespace {

constexpr size_t N = size_t(1) << 20;  // beyond one tile of every primitive
constexpr size_t SEGMENTS = 1000;      // enough for the segmented sort's long path
constexpr uint32_t BUCKETS = 10;

struct query {
  const char *name;
  std::function<msplit_status(size_t *)> call;  // fills the size
  bool needs_device = false;                     // it asks CUB's size query
};

struct low_bits {  // a user's bucket functor for the template forms
  __host__ __device__ uint32_t operator()(uint32_t k) const { return k % BUCKETS; }
};

struct record36 {  // a record type for the records' template forms
  uint32_t w[9];
};
struct record_bucket {
  __device__ uint32_t operator()(const record36 &r) const { return r.w[0] % BUCKETS; }
};

std::vector<query> queries() {
  std::vector<query> q;
  // multisplit: every variant, and a splitters description with no splitters yet
  for (int v : {MSPLIT_VARIANT_AUTO, MSPLIT_VARIANT_DIRECT, MSPLIT_VARIANT_ONEPASS, MSPLIT_VARIANT_SORT}) {
    const msplit_variant var = msplit_variant(v);
    const bool cub = var != MSPLIT_VARIANT_AUTO && var != MSPLIT_VARIANT_ONEPASS;
    q.push_back({msplit_variant_name(var), [var](size_t *b) {
                   msplit_bucket_desc d{};
                   d.kind = MSPLIT_BUCKET_SPLITTERS;
                   return msplit_multisplit(nullptr, b, nullptr, nullptr, nullptr, nullptr, N, BUCKETS, d,
                                            nullptr, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, var, nullptr);
                 }, cub});
    q.push_back({"multisplit_keys", [var](size_t *b) {
                   return msplit::multisplit_keys<uint32_t>(nullptr, b, nullptr, nullptr, N, BUCKETS, low_bits{},
                                                            nullptr, 0, var);
                 }, cub});
    q.push_back({"multisplit_pairs", [var](size_t *b) {
                   return msplit::multisplit_pairs<uint32_t, uint64_t>(nullptr, b, nullptr, nullptr, nullptr, nullptr,
                                                                       N, BUCKETS, low_bits{}, nullptr, 0, var);
                 }, cub});
  }
  // radix sort: plain and double-buffer forms
  q.push_back({"msplit_radix_sort", [](size_t *b) {
                 return msplit_radix_sort(nullptr, b, nullptr, nullptr, nullptr, nullptr, N, MSPLIT_TYPE_U64,
                                          MSPLIT_TYPE_U32, 0, 0, 64, nullptr);
               }});
  q.push_back({"radix_sort_pairs", [](size_t *b) {
                 return msplit::radix_sort_pairs<uint32_t, uint32_t>(nullptr, b, nullptr, nullptr, nullptr, nullptr, N);
               }});
  q.push_back({"radix_sort_keys_descending (double buffer)", [](size_t *b) {
                 msplit::double_buffer<float> keys(nullptr, nullptr);
                 return msplit::radix_sort_keys_descending(nullptr, b, keys, N);
               }});
  // histogram: even, range (no levels yet), any functor
  q.push_back({"msplit_histogram_even", [](size_t *b) {
                 return msplit_histogram_even(nullptr, b, nullptr, nullptr, N, BUCKETS, 0.0, 1.0,
                                              MSPLIT_TYPE_F32, MSPLIT_TYPE_U32, 0, nullptr);
               }});
  q.push_back({"msplit_histogram_range", [](size_t *b) {
                 return msplit_histogram_range(nullptr, b, nullptr, nullptr, N, BUCKETS, nullptr,
                                               MSPLIT_TYPE_U16, MSPLIT_TYPE_U64, 0, nullptr);
               }});
  q.push_back({"histogram_even", [](size_t *b) {
                 return msplit::histogram_even<uint32_t, uint32_t>(nullptr, b, nullptr, N, BUCKETS, 0u, 1u, nullptr);
               }});
  q.push_back({"histogram_range", [](size_t *b) {
                 return msplit::histogram_range<double, unsigned long long>(nullptr, b, nullptr, N, BUCKETS, nullptr,
                                                                            nullptr);
               }});
  q.push_back({"histogram (functor)", [](size_t *b) {
                 return msplit::histogram<uint32_t, low_bits, uint32_t>(nullptr, b, nullptr, N, BUCKETS, low_bits{}, nullptr);
               }});
  // segmented sort: C (every offset type) and C++
  for (msplit_type off : {MSPLIT_TYPE_U32, MSPLIT_TYPE_I64}) {
    q.push_back({"msplit_segmented_sort", [off](size_t *b) {
                   return msplit_segmented_sort(nullptr, b, nullptr, nullptr, nullptr, nullptr, N, SEGMENTS, nullptr,
                                                nullptr, MSPLIT_TYPE_U32, MSPLIT_TYPE_U64, off, 0, nullptr);
                 }});
  }
  q.push_back({"segmented_sort_keys", [](size_t *b) {
                 return msplit::segmented_sort_keys<uint64_t, uint32_t>(nullptr, b, nullptr, nullptr, N, SEGMENTS,
                                                                        nullptr, nullptr);
               }});
  q.push_back({"segmented_sort_pairs_descending", [](size_t *b) {
                 return msplit::segmented_sort_pairs_descending<float, uint32_t, uint64_t>(
                     nullptr, b, nullptr, nullptr, nullptr, nullptr, N, SEGMENTS, nullptr, nullptr);
               }});
  // records: gather, scatter, split (bucket ids and a functor), sort (32- and 64-bit keys)
  q.push_back({"msplit_gather_records", [](size_t *b) {
                 return msplit_gather_records(nullptr, b, nullptr, nullptr, nullptr, N, N, 36, nullptr);
               }});
  q.push_back({"scatter_records", [](size_t *b) {
                 return msplit::scatter_records<record36>(nullptr, b, nullptr, nullptr, nullptr, N, N);
               }});
  q.push_back({"msplit_split_records", [](size_t *b) {
                 return msplit_split_records(nullptr, b, nullptr, nullptr, nullptr, nullptr, N, 13, BUCKETS, nullptr,
                                             nullptr);
               }});
  q.push_back({"split_records_by", [](size_t *b) {
                 return msplit::split_records_by<record36>(nullptr, b, nullptr, nullptr, nullptr, N, BUCKETS,
                                                           record_bucket{}, nullptr);
               }});
  q.push_back({"msplit_sort_records", [](size_t *b) {
                 return msplit_sort_records(nullptr, b, nullptr, nullptr, nullptr, N, 100, 3, MSPLIT_TYPE_U64, nullptr);
               }});
  q.push_back({"sort_records", [](size_t *b) {
                 return msplit::sort_records<uint32_t, record36>(nullptr, b, nullptr, nullptr, nullptr, N, 8);
               }});
  // slab hash: its storage query takes no pointer but the answer's
  q.push_back({"msplit_slab_hash_storage_bytes",
               [](size_t *b) { return msplit_slab_hash_storage_bytes(BUCKETS, 64, b); }});
  // GPU LSM: the storage from the capacity, the operations' storage from a planned shape (no
  // storage behind it)
  q.push_back({"msplit_lsm_storage_bytes", [](size_t *b) {
                 return msplit_lsm_storage_bytes(N, 4096, MSPLIT_TYPE_U64, MSPLIT_TYPE_U32, b);
               }});
  q.push_back({"msplit_lsm_update", [](size_t *b) {
                 msplit_lsm h;
                 const msplit_status st = msplit_lsm_plan(&h, N, 4096, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32);
                 return st ? st : msplit_lsm_update(nullptr, b, &h, nullptr, nullptr, nullptr, N, nullptr);
               }});
  q.push_back({"msplit_lsm_count", [](size_t *b) {
                 msplit_lsm h;
                 const msplit_status st = msplit_lsm_plan(&h, N, 4096, MSPLIT_TYPE_U64, MSPLIT_TYPE_U64);
                 return st ? st : msplit_lsm_count(nullptr, b, &h, nullptr, nullptr, N, nullptr, nullptr, nullptr);
               }});
  q.push_back({"msplit_lsm_range", [](size_t *b) {
                 msplit_lsm h;
                 const msplit_status st = msplit_lsm_plan(&h, N, 4096, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32);
                 return st ? st
                           : msplit_lsm_range(nullptr, b, &h, nullptr, nullptr, N, nullptr, nullptr, nullptr, nullptr);
               }});
  q.push_back({"msplit_lsm_cleanup", [](size_t *b) {
                 msplit_lsm h;
                 const msplit_status st = msplit_lsm_plan(&h, N, 4096, MSPLIT_TYPE_U64, MSPLIT_TYPE_U32);
                 return st ? st : msplit_lsm_cleanup(nullptr, b, &h, nullptr);
               }});
  q.push_back({"lsm::update", [](size_t *b) {
                 msplit::lsm<uint64_t, uint32_t> t;
                 const msplit_status st = t.plan(N, 1000);
                 return st ? st : t.update(nullptr, b, nullptr, nullptr, nullptr, N);
               }});
  q.push_back({"lsm::cleanup", [](size_t *b) {
                 msplit::lsm<uint64_t, uint64_t> t;
                 const msplit_status st = t.plan(N, 1000);
                 return st ? st : t.cleanup(nullptr, b);
               }});
  return q;
}

}  // namespace

int main() {
  int device_count = 0;
  const bool device = cudaGetDeviceCount(&device_count) == cudaSuccess && device_count > 0;
  int left_out = 0;
  for (const query &q : queries()) {
    if (q.needs_device && !device) {
      ++left_out;
      continue;
    }
    size_t bytes = 0;
    const msplit_status st = q.call(&bytes);
    CHECK(st == MSPLIT_SUCCESS && bytes > 0, "%s: %s, %zu bytes: %s", q.name, msplit_status_string(st), bytes,
          msplit_last_error_message());
  }
  if (left_out) std::printf("%d queries that ask CUB left out: no CUDA device\n", left_out);
  return msplit_test_finish("size queries with NULL data pointers");
}
