// The slab hash's host side, without a GPU (runs in CI): the bucket plan against an independent
// Poisson model of the chains, the storage size, and every argument error that is found before
// anything reaches the device (each must name the argument), for 32- and 64-bit keys.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "msplit/slab_hash.h"
#include "msplit_test.h"

namespace {


// The model: with `lambda` entries a bucket on average (Poisson) and E slots a slab, a bucket
// takes 1 + sum_{k >= 1} P(X > kE) slabs; utilization is the entries' bytes over the slabs'.
double model_utilization(double lambda, int E, double entry_fraction, double *slabs_per_bucket) {
  double p = std::exp(-lambda), cdf = 0, slabs = 1;
  int x = 0;
  for (int k = 1; k < 1000; ++k) {
    for (; x <= k * E; ++x) {  // cdf = P(X <= kE)
      cdf += p;
      p *= lambda / (x + 1);
    }
    slabs += 1 - cdf;
    if (1 - cdf < 1e-12) break;
  }
  *slabs_per_bucket = slabs;
  return lambda * entry_fraction / slabs;
}

void expect_error(msplit_status st, msplit_status want, const char *what, const char *word) {
  CHECK(st == want, "%s: status %d, expected %d", what, int(st), int(want));
  CHECK(std::strstr(msplit_last_error_message(), word) != nullptr, "%s: message '%s' lacks '%s'",
         what, msplit_last_error_message(), word);
}

// The value type of a map (32-bit values) or a set.
msplit_type value_type(int has_values) { return has_values ? MSPLIT_TYPE_U32 : MSPLIT_TYPE_NONE; }

void test_plan() {
  const size_t n = size_t(1) << 26;
  const struct {
    int has_values;
    double target;
  } cases[] = {{1, 0.5}, {1, 0.65}, {1, 0.75}, {1, 0.85}, {0, 0.65}, {0, 0.85}};
  for (const auto &c : cases) {
    uint32_t buckets = 0, pool = 0;
    const msplit_status st =
        msplit_slab_hash_plan(n, c.target, MSPLIT_TYPE_U32, value_type(c.has_values), &buckets, &pool);
    CHECK(st == MSPLIT_SUCCESS, "plan %d %.2f: %s", c.has_values, c.target,
           msplit_last_error_message());
    if (st != MSPLIT_SUCCESS) continue;
    const int E = c.has_values ? 15 : 30;
    double slabs = 0;
    const double u =
        model_utilization(double(n) / buckets, E, c.has_values ? 1.0 / 16 : 1.0 / 32, &slabs);
    CHECK(u >= c.target - 0.002 && u < c.target + 0.03, "plan %d %.2f: model utilization %.4f",
           c.has_values, c.target, u);
    const double want_pool = buckets * (slabs - 1);
    CHECK(std::fabs(pool - want_pool) <= 0.01 * want_pool + 2, "plan %d %.2f: pool %u, model %.0f",
           c.has_values, c.target, pool, want_pool);
  }
  uint32_t b = 0, p = 0;
  expect_error(msplit_slab_hash_plan(100, 1.0, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &b, &p), MSPLIT_ERROR_INVALID_ARGUMENT,
               "plan 1.0", "utilization");
  expect_error(msplit_slab_hash_plan(100, std::nan(""), MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &b, &p), MSPLIT_ERROR_INVALID_ARGUMENT,
               "plan NaN", "utilization");
  expect_error(msplit_slab_hash_plan(100, 0.5, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr, &p), MSPLIT_ERROR_INVALID_ARGUMENT,
               "plan NULL", "num_buckets");
}

void test_storage_and_init() {
  size_t bytes = 0;
  CHECK(msplit_slab_hash_storage_bytes(10, 2048 + 1, &bytes) == MSPLIT_SUCCESS, "storage");
  // counters (128) + 3 bitmap blocks (128 each) + 10 heads and 2049 pool slabs (128 each)
  CHECK(bytes == 128 + 3 * 128 + (10 + 2049) * 128, "storage bytes %zu", bytes);
  CHECK(msplit_slab_hash_storage_bytes(1, 0, &bytes) == MSPLIT_SUCCESS && bytes == 256,
         "storage without a pool: %zu", bytes);
  expect_error(msplit_slab_hash_storage_bytes(0, 10, &bytes), MSPLIT_ERROR_INVALID_ARGUMENT,
               "zero buckets", "num_buckets");
  expect_error(msplit_slab_hash_storage_bytes(1u << 31, 1, &bytes),
               MSPLIT_ERROR_INVALID_ARGUMENT, "too many slabs", "2^31");
  expect_error(msplit_slab_hash_storage_bytes(1, 1, nullptr), MSPLIT_ERROR_INVALID_ARGUMENT,
               "bytes NULL", "bytes");
  // init refuses before touching the device
  msplit_slab_hash t{};
  alignas(128) static char fake[1];
  void *aligned = fake, *misaligned = fake + 1;
  expect_error(msplit_slab_hash_init(nullptr, aligned, 1 << 20, 4, 4, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init table NULL", "table");
  expect_error(msplit_slab_hash_init(&t, nullptr, 1 << 20, 4, 4, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init storage NULL", "d_storage");
  expect_error(msplit_slab_hash_init(&t, aligned, 64, 4, 4, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr), MSPLIT_ERROR_TEMP_STORAGE,
               "init small", "bytes");
  expect_error(msplit_slab_hash_init(&t, misaligned, 1 << 20, 4, 4, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init misaligned", "aligned");
  CHECK(t.d_storage == nullptr, "a failed init wrote the table");
}

void test_bulk_arguments() {
  alignas(128) static char fake[1];
  const uint32_t *keys = reinterpret_cast<const uint32_t *>(fake);
  msplit_slab_hash none{};
  expect_error(msplit_slab_hash_find(&none, keys, 4, nullptr, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "uninitialised", "not initialised");
  expect_error(msplit_slab_hash_find(nullptr, keys, 4, nullptr, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "table NULL", "table");
  const msplit_slab_hash map{fake, 4, 4, 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32};
  expect_error(
      msplit_slab_hash_insert(&map, nullptr, keys, 4, MSPLIT_HASH_OP_INSERT, nullptr, nullptr),
      MSPLIT_ERROR_INVALID_ARGUMENT, "keys NULL", "d_keys");
  expect_error(
      msplit_slab_hash_insert(&map, keys, nullptr, 4, MSPLIT_HASH_OP_INSERT, nullptr, nullptr),
      MSPLIT_ERROR_INVALID_ARGUMENT, "values NULL", "d_values");
  expect_error(msplit_slab_hash_insert(&map, keys, keys, 4, MSPLIT_HASH_OP_ERASE, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "mode", "mode");
  expect_error(msplit_slab_hash_apply(&map, nullptr, keys, keys, 4, nullptr, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "ops NULL", "d_ops");
  expect_error(msplit_slab_hash_count(&map, keys, 4, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "counts NULL", "d_counts");
  expect_error(msplit_slab_hash_find_all(&map, keys, 4, nullptr, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "offsets NULL", "d_offsets");
  expect_error(msplit_slab_hash_contains(&map, keys, 4, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "found NULL", "d_found");
  // a set's insert needs no values; zero operations launch nothing
  const msplit_slab_hash set{fake, 4, 4, 0, MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE};
  CHECK(msplit_slab_hash_insert(&set, keys, nullptr, 0, MSPLIT_HASH_OP_INSERT, nullptr, nullptr) ==
             MSPLIT_SUCCESS,
         "n = 0: %s", msplit_last_error_message());
  CHECK(std::strcmp(msplit_status_string(MSPLIT_ERROR_OUT_OF_CAPACITY), "out of capacity") == 0,
         "status string");
}

// The 64-bit keys: the plan of each format against the model, init's type checks, and the bulk
// functions' argument errors on 64-bit tables, including the mixes the C API does not serve.
void test_64_bit() {
  const size_t n = size_t(1) << 26;
  const struct {
    msplit_type key, value;
    int E;
    double entry_fraction;
  } formats[] = {{MSPLIT_TYPE_U64, MSPLIT_TYPE_U64, 7, 16.0 / 128},
                 {MSPLIT_TYPE_U64, MSPLIT_TYPE_NONE, 15, 8.0 / 128},
                 {MSPLIT_TYPE_U64, MSPLIT_TYPE_U32, 7, 12.0 / 128},
                 {MSPLIT_TYPE_U32, MSPLIT_TYPE_U64, 7, 12.0 / 128}};
  for (const auto &f : formats) {
    uint32_t buckets = 0, pool = 0;
    const double target = 0.6;
    const msplit_status st = msplit_slab_hash_plan(n, target, f.key, f.value, &buckets, &pool);
    CHECK(st == MSPLIT_SUCCESS, "plan %d/%d: %s", f.key, f.value, msplit_last_error_message());
    if (st != MSPLIT_SUCCESS) continue;
    double slabs = 0;
    const double u = model_utilization(double(n) / buckets, f.E, f.entry_fraction, &slabs);
    CHECK(u >= target - 0.002 && u < target + 0.03, "plan %d/%d: model utilization %.4f", f.key,
           f.value, u);
  }
  uint32_t b = 0, p = 0;
  expect_error(msplit_slab_hash_plan(100, 0.5, MSPLIT_TYPE_I64, MSPLIT_TYPE_U64, &b, &p),
               MSPLIT_ERROR_UNSUPPORTED, "plan I64", "key_type");
  expect_error(msplit_slab_hash_plan(100, 0.5, MSPLIT_TYPE_U64, MSPLIT_TYPE_F32, &b, &p),
               MSPLIT_ERROR_UNSUPPORTED, "plan F32 values", "value_type");
  msplit_slab_hash t{};
  alignas(128) static char fake[1];
  expect_error(msplit_slab_hash_init(&t, fake, 1 << 20, 4, 4, MSPLIT_TYPE_U16,
                                           MSPLIT_TYPE_NONE, nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "init U16", "key_type");
  expect_error(msplit_slab_hash_init(&t, fake, 64, 4, 4, MSPLIT_TYPE_U64, MSPLIT_TYPE_U64,
                                           nullptr),
               MSPLIT_ERROR_TEMP_STORAGE, "init 64 small", "bytes");
  expect_error(msplit_slab_hash_init(&t, nullptr, 1 << 20, 4, 4, MSPLIT_TYPE_U64,
                                           MSPLIT_TYPE_NONE, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init 64 storage NULL", "d_storage");
  CHECK(t.d_storage == nullptr, "a failed init wrote the table");

  const uint64_t *keys = reinterpret_cast<const uint64_t *>(fake);
  uint64_t *out = reinterpret_cast<uint64_t *>(fake);
  const msplit_slab_hash map{fake, 4, 4, 1, MSPLIT_TYPE_U64, MSPLIT_TYPE_U64};
  const msplit_slab_hash set{fake, 4, 4, 0, MSPLIT_TYPE_U64, MSPLIT_TYPE_NONE};
  const msplit_slab_hash narrow{fake, 4, 4, 1, MSPLIT_TYPE_U64, MSPLIT_TYPE_U32};
  const msplit_slab_hash wide{fake, 4, 4, 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U64};
  const msplit_slab_hash odd{fake, 4, 4, 0, MSPLIT_TYPE_I32, MSPLIT_TYPE_NONE};
  const msplit_slab_hash none{};
  const msplit_hash_op ins = MSPLIT_HASH_OP_INSERT;
  expect_error(msplit_slab_hash_find(&none, keys, 4, out, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 uninitialised", "not initialised");
  expect_error(msplit_slab_hash_insert(&map, nullptr, keys, 4, ins, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 keys NULL", "d_keys");
  expect_error(msplit_slab_hash_insert(&map, keys, nullptr, 4, ins, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 values NULL", "d_values");
  expect_error(
      msplit_slab_hash_insert(&map, keys, keys, 4, MSPLIT_HASH_OP_COUNT, nullptr, nullptr),
      MSPLIT_ERROR_INVALID_ARGUMENT, "u64 mode", "mode");
  expect_error(msplit_slab_hash_apply(&map, nullptr, keys, keys, 4, out, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 ops NULL", "d_ops");
  expect_error(msplit_slab_hash_count(&map, keys, 4, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 counts NULL", "d_counts");
  expect_error(msplit_slab_hash_find_all(&map, keys, 4, nullptr, out, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 offsets NULL", "d_offsets");
  expect_error(msplit_slab_hash_contains(&set, keys, 4, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "u64 found NULL", "d_found");
  // the C API has no 64 -> 32 or 32 -> 64 map (the C++ API has), and no other key type
  expect_error(msplit_slab_hash_erase(&wide, keys, 4, 0, nullptr, nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "32-bit keys with 64-bit values", "uint64 values");
  expect_error(msplit_slab_hash_erase(&odd, keys, 4, 0, nullptr, nullptr), MSPLIT_ERROR_UNSUPPORTED,
               "a table of another key type", "C API");
  expect_error(msplit_slab_hash_find(&narrow, keys, 4, out, nullptr, nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "64-bit keys with 32-bit values", "uint32 values");
  CHECK(msplit_slab_hash_insert(&set, keys, nullptr, 0, ins, nullptr, nullptr) ==
             MSPLIT_SUCCESS,
         "u64 n = 0: %s", msplit_last_error_message());
}

}  // namespace

int main() {
  test_plan();
  test_storage_and_init();
  test_bulk_arguments();
  test_64_bit();
  return msplit_test_finish("slab hash host side");
}
