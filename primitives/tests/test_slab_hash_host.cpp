// The slab hash's host side, without a GPU (runs in CI): the bucket plan against an independent
// Poisson model of the chains, the storage size, and every argument error that is found before
// anything reaches the device (each must name the argument).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "msplit/slab_hash.h"

namespace {

int g_failures = 0;

#define EXPECT(cond, ...)                              \
  do {                                                 \
    if (!(cond)) {                                     \
      ++g_failures;                                    \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      std::printf(__VA_ARGS__);                        \
      std::printf("\n");                               \
    }                                                  \
  } while (0)

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
  EXPECT(st == want, "%s: status %d, expected %d", what, int(st), int(want));
  EXPECT(std::strstr(msplit_last_error_message(), word) != nullptr, "%s: message '%s' lacks '%s'",
         what, msplit_last_error_message(), word);
}

void test_plan() {
  const size_t n = size_t(1) << 26;
  const struct {
    int has_values;
    double target;
  } cases[] = {{1, 0.5}, {1, 0.65}, {1, 0.75}, {1, 0.85}, {0, 0.65}, {0, 0.85}};
  for (const auto &c : cases) {
    uint32_t buckets = 0, pool = 0;
    const msplit_status st = msplit_slab_hash_plan(n, c.target, c.has_values, &buckets, &pool);
    EXPECT(st == MSPLIT_SUCCESS, "plan %d %.2f: %s", c.has_values, c.target,
           msplit_last_error_message());
    if (st != MSPLIT_SUCCESS) continue;
    const int E = c.has_values ? 15 : 30;
    double slabs = 0;
    const double u =
        model_utilization(double(n) / buckets, E, c.has_values ? 1.0 / 16 : 1.0 / 32, &slabs);
    EXPECT(u >= c.target - 0.002 && u < c.target + 0.03, "plan %d %.2f: model utilization %.4f",
           c.has_values, c.target, u);
    const double want_pool = buckets * (slabs - 1);
    EXPECT(std::fabs(pool - want_pool) <= 0.01 * want_pool + 2, "plan %d %.2f: pool %u, model %.0f",
           c.has_values, c.target, pool, want_pool);
  }
  uint32_t b = 0, p = 0;
  expect_error(msplit_slab_hash_plan(100, 1.0, 1, &b, &p), MSPLIT_ERROR_INVALID_ARGUMENT,
               "plan 1.0", "utilization");
  expect_error(msplit_slab_hash_plan(100, std::nan(""), 1, &b, &p), MSPLIT_ERROR_INVALID_ARGUMENT,
               "plan NaN", "utilization");
  expect_error(msplit_slab_hash_plan(100, 0.5, 1, nullptr, &p), MSPLIT_ERROR_INVALID_ARGUMENT,
               "plan NULL", "num_buckets");
}

void test_storage_and_init() {
  size_t bytes = 0;
  EXPECT(msplit_slab_hash_storage_bytes(10, 2048 + 1, 1, &bytes) == MSPLIT_SUCCESS, "storage");
  // counters (128) + 3 bitmap blocks (128 each) + 10 heads and 2049 pool slabs (128 each)
  EXPECT(bytes == 128 + 3 * 128 + (10 + 2049) * 128, "storage bytes %zu", bytes);
  EXPECT(msplit_slab_hash_storage_bytes(1, 0, 0, &bytes) == MSPLIT_SUCCESS && bytes == 256,
         "storage without a pool: %zu", bytes);
  expect_error(msplit_slab_hash_storage_bytes(0, 10, 1, &bytes), MSPLIT_ERROR_INVALID_ARGUMENT,
               "zero buckets", "num_buckets");
  expect_error(msplit_slab_hash_storage_bytes(1u << 31, 1, 1, &bytes),
               MSPLIT_ERROR_INVALID_ARGUMENT, "too many slabs", "2^31");
  expect_error(msplit_slab_hash_storage_bytes(1, 1, 1, nullptr), MSPLIT_ERROR_INVALID_ARGUMENT,
               "bytes NULL", "bytes");
  // init refuses before touching the device
  msplit_slab_hash t{};
  alignas(128) static char fake[1];
  void *aligned = fake, *misaligned = fake + 1;
  expect_error(msplit_slab_hash_init(nullptr, aligned, 1 << 20, 4, 4, 1, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init table NULL", "table");
  expect_error(msplit_slab_hash_init(&t, nullptr, 1 << 20, 4, 4, 1, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init storage NULL", "d_storage");
  expect_error(msplit_slab_hash_init(&t, aligned, 64, 4, 4, 1, nullptr), MSPLIT_ERROR_TEMP_STORAGE,
               "init small", "bytes");
  expect_error(msplit_slab_hash_init(&t, misaligned, 1 << 20, 4, 4, 1, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "init misaligned", "aligned");
  EXPECT(t.d_storage == nullptr, "a failed init wrote the table");
}

void test_bulk_arguments() {
  alignas(128) static char fake[1];
  const uint32_t *keys = reinterpret_cast<const uint32_t *>(fake);
  msplit_slab_hash none{};
  expect_error(msplit_slab_hash_find(&none, keys, 4, nullptr, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "uninitialised", "not initialised");
  expect_error(msplit_slab_hash_find(nullptr, keys, 4, nullptr, nullptr, nullptr),
               MSPLIT_ERROR_INVALID_ARGUMENT, "table NULL", "table");
  const msplit_slab_hash map{fake, 4, 4, 1};
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
  const msplit_slab_hash set{fake, 4, 4, 0};
  EXPECT(msplit_slab_hash_insert(&set, keys, nullptr, 0, MSPLIT_HASH_OP_INSERT, nullptr, nullptr) ==
             MSPLIT_SUCCESS,
         "n = 0: %s", msplit_last_error_message());
  EXPECT(std::strcmp(msplit_status_string(MSPLIT_ERROR_OUT_OF_CAPACITY), "out of capacity") == 0,
         "status string");
}

}  // namespace

int main() {
  test_plan();
  test_storage_and_init();
  test_bulk_arguments();
  std::printf("%s: %d failures\n", g_failures ? "FAIL" : "PASS", g_failures);
  return g_failures ? 1 : 0;
}
