// The GPU LSM (msplit/lsm.h, msplit/lsm.cuh) against a CPU oracle, std::map applying the same
// entries in order: many batches mixing inserts and deletes over a small key range (so that
// batches repeat keys, within a batch and across batches), batches shorter than, equal to and
// longer than b, lookups of present, deleted and never-seen keys, counts and ranges of random
// intervals and at the edges (lo > hi, empty, one key, the whole key space, the 64-bit extremes),
// cleanups between batches and queries after them, a full structure refused without a change,
// and the errors found on the device (a bad op, an insert of the reserved value, a range slice
// too short) and on the host.
//
//   test_lsm [--quick]   (--quick: fewer and smaller rounds, for compute-sanitizer)
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "msplit/lsm.cuh"
#include "msplit_test.h"

namespace {

// A device array (freed at scope exit).
struct dev {
  void *p = nullptr;
  explicit dev(size_t bytes) { CHECK_CUDA(cudaMalloc(&p, bytes ? bytes : 1)); }
  ~dev() { cudaFree(p); }
  dev(const dev &) = delete;
  dev &operator=(const dev &) = delete;
  template <typename T> T *as() const { return static_cast<T *>(p); }
  template <typename T> void put(const std::vector<T> &h) const {
    CHECK_CUDA(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  template <typename T> std::vector<T> get(size_t n) const {
    std::vector<T> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// One structure under test with its oracle and its scratch storage.
template <typename K, typename V>
struct fixture {
  using table = msplit::lsm<K, V>;
  static constexpr V DELETED = table::DELETED;
  size_t b, max_elements, max_queries;
  table t;
  std::map<K, V> oracle;
  std::vector<K> touched;  // every key ever updated: lookups of deleted keys come from here
  dev *storage = nullptr, *temp = nullptr;
  size_t temp_bytes = 0;

  fixture(size_t b_, size_t max_, size_t queries) : b(b_), max_elements(max_), max_queries(queries) {
    size_t bytes = 0;
    CHECK_MSPLIT(table::storage_bytes(max_elements, b, &bytes));
    storage = new dev(bytes);
    CHECK_MSPLIT(t.init(storage->p, bytes, max_elements, b));
    // one temporary allocation for every operation: the largest of their sizes
    size_t s = 0;
    CHECK_MSPLIT(t.update(nullptr, &s, nullptr, nullptr, nullptr, 0));
    temp_bytes = std::max(temp_bytes, s);
    CHECK_MSPLIT(t.cleanup(nullptr, &s));
    temp_bytes = std::max(temp_bytes, s);
    CHECK_MSPLIT(t.count(nullptr, &s, nullptr, nullptr, max_queries, nullptr, nullptr));
    temp_bytes = std::max(temp_bytes, s);
    CHECK_MSPLIT(t.range(nullptr, &s, nullptr, nullptr, max_queries, nullptr, nullptr, nullptr));
    temp_bytes = std::max(temp_bytes, s);
    temp = new dev(temp_bytes);
  }
  ~fixture() {
    delete temp;
    delete storage;
  }

  // Batch slots still free.
  uint64_t free_batches() const {
    return ((uint64_t(1) << t.handle().num_levels) - 1) - t.handle().occupied;
  }

  // Applies the entries to the structure and to the oracle; returns the structure's status.
  msplit_status update(const std::vector<K> &keys, const std::vector<V> &values, const std::vector<uint8_t> &ops) {
    const size_t n = keys.size();
    dev dk(n * sizeof(K)), dv(n * sizeof(V)), dop(n);
    dk.put(keys);
    dv.put(values);
    dop.put(ops);
    const msplit_status st = t.update(temp->p, &temp_bytes, dk.as<K>(), dv.as<V>(), dop.as<uint8_t>(), n);
    if (st != MSPLIT_SUCCESS) return st;
    for (size_t i = 0; i < n; ++i) {
      touched.push_back(keys[i]);
      if (ops[i] == MSPLIT_LSM_INSERT && values[i] != DELETED) oracle[keys[i]] = values[i];
      else oracle.erase(keys[i]);
    }
    return msplit::check_sync(temp->p, temp_bytes);
  }

  void check_lookups(const std::vector<K> &queries, const char *when) {
    const size_t n = queries.size();
    dev dq(n * sizeof(K)), dv(n * sizeof(V)), df(n);
    dq.put(queries);
    CHECK_MSPLIT(t.lookup(dq.as<K>(), n, dv.as<V>(), df.as<uint8_t>()));
    const std::vector<V> v = dv.get<V>(n);
    const std::vector<uint8_t> f = df.get<uint8_t>(n);
    for (size_t i = 0; i < n; ++i) {
      const auto it = oracle.find(queries[i]);
      const bool present = it != oracle.end();
      if (!CHECK(f[i] == present && v[i] == (present ? it->second : DELETED),
                 "%s: lookup %llu: found %d value %llu, expected %d %llu", when, (unsigned long long)queries[i],
                 int(f[i]), (unsigned long long)v[i], int(present),
                 (unsigned long long)(present ? it->second : DELETED)))
        return;
    }
  }

  void check_ranges(const std::vector<K> &lo, const std::vector<K> &hi, const char *when) {
    const size_t n = lo.size();
    // the oracle as sorted arrays: a range's entries are then an index interval found by binary
    // search (walking the map's nodes for a thousand wide ranges took most of the test's time)
    std::vector<K> ok;
    std::vector<V> ov;
    ok.reserve(oracle.size());
    ov.reserve(oracle.size());
    for (const auto &kv : oracle) ok.push_back(kv.first), ov.push_back(kv.second);
    auto first_of = [&](K x) { return size_t(std::lower_bound(ok.begin(), ok.end(), x) - ok.begin()); };
    auto past_of = [&](K x) { return size_t(std::upper_bound(ok.begin(), ok.end(), x) - ok.begin()); };
    dev dlo(n * sizeof(K)), dhi(n * sizeof(K)), dc(n * sizeof(uint32_t)), doff((n + 1) * sizeof(uint64_t));
    dlo.put(lo);
    dhi.put(hi);
    CHECK_MSPLIT(t.count(temp->p, &temp_bytes, dlo.as<K>(), dhi.as<K>(), n, dc.as<uint32_t>(), doff.as<uint64_t>()));
    CHECK_MSPLIT(msplit::check_sync(temp->p, temp_bytes));
    const std::vector<uint32_t> counts = dc.get<uint32_t>(n);
    const std::vector<uint64_t> offsets = doff.get<uint64_t>(n + 1);
    std::vector<uint64_t> want(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      uint64_t c = 0;
      if (!(hi[i] < lo[i])) c = past_of(hi[i]) - first_of(lo[i]);
      want[i + 1] = want[i] + c;
      if (!CHECK(counts[i] == c && offsets[i] == want[i], "%s: count [%llu, %llu]: %u at offset %llu, expected %llu at %llu",
                 when, (unsigned long long)lo[i], (unsigned long long)hi[i], counts[i],
                 (unsigned long long)offsets[i], (unsigned long long)c, (unsigned long long)want[i]))
        return;
    }
    if (!CHECK(offsets[n] == want[n], "%s: total %llu, expected %llu", when, (unsigned long long)offsets[n],
               (unsigned long long)want[n]))
      return;
    const size_t total = want[n];
    dev dk(total * sizeof(K)), dv(total * sizeof(V));
    CHECK_MSPLIT(t.range(temp->p, &temp_bytes, dlo.as<K>(), dhi.as<K>(), n, doff.as<uint64_t>(), dk.as<K>(),
                         dv.as<V>()));
    CHECK_MSPLIT(msplit::check_sync(temp->p, temp_bytes));
    const std::vector<K> keys = dk.get<K>(total);
    const std::vector<V> values = dv.get<V>(total);
    for (size_t i = 0; i < n; ++i) {
      if (hi[i] < lo[i]) continue;
      size_t at = want[i];
      for (size_t j = first_of(lo[i]), end = past_of(hi[i]); j < end; ++j, ++at)
        if (!CHECK(keys[at] == ok[j] && values[at] == ov[j],
                   "%s: range %zu [%llu, %llu] entry %zu: %llu->%llu, expected %llu->%llu", when, i,
                   (unsigned long long)lo[i], (unsigned long long)hi[i], at - want[i], (unsigned long long)keys[at],
                   (unsigned long long)values[at], (unsigned long long)ok[j], (unsigned long long)ov[j]))
          return;
    }
  }

  // Lookups of present, deleted and random keys; ranges at random and at the edges.
  void check_all(std::mt19937_64 &rng, K key_lo, K key_hi, const char *when) {
    std::uniform_int_distribution<K> any(key_lo, key_hi);
    std::vector<K> q = {std::numeric_limits<K>::min(), std::numeric_limits<K>::max(), key_lo, key_hi};
    for (const auto &kv : oracle) {
      if (q.size() >= max_queries / 2) break;
      q.push_back(kv.first);
    }
    while (q.size() < max_queries) q.push_back(touched.empty() || rng() % 2 ? any(rng) : touched[rng() % touched.size()]);
    check_lookups(q, when);

    const K MAX = std::numeric_limits<K>::max();
    std::vector<K> lo = {0, 0, MAX, MAX, key_hi, 1}, hi = {MAX, 0, MAX, 0, key_lo, 0};  // full, edges, lo > hi
    if (!oracle.empty()) {  // one key, and the gap just past the largest
      lo.push_back(oracle.begin()->first);
      hi.push_back(oracle.begin()->first);
      const K last = oracle.rbegin()->first;
      if (last < MAX) {
        lo.push_back(last + 1);
        hi.push_back(MAX);
      }
    }
    while (lo.size() < max_queries) {
      K a = any(rng), c = any(rng);
      if (rng() % 8 != 0 && c < a) std::swap(a, c);  // an eighth stay lo > hi
      const K d = K(rng() % 16);
      if (rng() % 2) c = K(a + d) < a ? MAX : K(a + d);  // short ranges, as a graph's rows
      lo.push_back(a);
      hi.push_back(c);
    }
    check_ranges(lo, hi, when);
  }
};

struct config {
  const char *name;
  size_t b, max_elements;
  uint64_t key_range;  // keys drawn from [key_lo, key_lo + key_range)
  bool top;            // key_lo is the top of the key space (the largest keys), else 0
  int rounds;
};

template <typename K, typename V>
void run_config(const config &c, bool quick, std::mt19937_64 &rng) {
  const size_t queries = quick ? 200 : 2000;
  fixture<K, V> f(c.b, c.max_elements, queries);
  const K MAX = std::numeric_limits<K>::max();
  const K key_lo = c.top ? K(MAX - K(c.key_range - 1)) : K(0), key_hi = K(key_lo + K(c.key_range - 1));
  std::uniform_int_distribution<K> key(key_lo, key_hi);
  std::uniform_int_distribution<uint64_t> value(0, uint64_t(std::numeric_limits<V>::max()) - 1);
  char when[160];
  const int rounds = quick ? std::min(c.rounds, 6) : c.rounds;
  for (int r = 0; r < rounds; ++r) {
    // 1. a batch of one entry, under b, exactly b, or over b (several batches)
    const size_t sizes[4] = {1, c.b / 2 + 1, c.b, c.b + c.b / 2 + 3};
    size_t n = sizes[rng() % 4];
    if ((n + c.b - 1) / c.b > f.free_batches()) {
      // a cleanup, and its dropped entries' slots reclaimed
      std::snprintf(when, sizeof when, "%s round %d, cleanup and reclaim before a full structure", c.name, r);
      CHECK_MSPLIT(f.t.cleanup(f.temp->p, &f.temp_bytes));
      CHECK_MSPLIT(msplit::check_sync(f.temp->p, f.temp_bytes));
      uint64_t size = 0;
      CHECK_MSPLIT(f.t.reclaim_sync(&size));
      CHECK(size == f.oracle.size(), "%s: size %llu, expected %zu", when, (unsigned long long)size, f.oracle.size());
      f.check_all(rng, key_lo, key_hi, when);
      if ((n + c.b - 1) / c.b > f.free_batches()) n = f.free_batches() * c.b;
      if (n == 0) break;
    }
    std::vector<K> keys(n);
    std::vector<V> values(n);
    std::vector<uint8_t> ops(n);
    for (size_t i = 0; i < n; ++i) {
      keys[i] = key(rng);
      values[i] = V(value(rng));
      ops[i] = rng() % 10 < 3 ? MSPLIT_LSM_DELETE : MSPLIT_LSM_INSERT;
    }
    if (n > 2) keys[n - 1] = keys[0];  // a key twice in one batch: the later entry wins
    const msplit_status st = f.update(keys, values, ops);
    std::snprintf(when, sizeof when, "%s round %d (%zu entries, levels occupied %#llx)", c.name, r, n,
                  (unsigned long long)f.t.handle().occupied);
    if (!CHECK(st == MSPLIT_SUCCESS, "%s: update: %s: %s", when, msplit_status_string(st), msplit_last_error_message()))
      return;
    f.check_all(rng, key_lo, key_hi, when);
    // 2. now and then a cleanup: one clean run, the same answers
    if (r % 5 == 4) {
      CHECK_MSPLIT(f.t.cleanup(f.temp->p, &f.temp_bytes));
      CHECK_MSPLIT(msplit::check_sync(f.temp->p, f.temp_bytes));
      std::snprintf(when, sizeof when, "%s round %d after cleanup", c.name, r);
      CHECK(f.t.handle().clean == 1, "%s: not clean", when);
      f.check_all(rng, key_lo, key_hi, when);
    }
  }
  // 3. fill up: the update that needs one batch more than is free is refused, and changes nothing
  const uint64_t free = f.free_batches();
  const size_t n = size_t(free + 1) * c.b;
  std::vector<K> keys(n, key_lo);
  std::vector<V> values(n, 1);
  std::vector<uint8_t> ops(n, MSPLIT_LSM_INSERT);
  const uint64_t occupied = f.t.handle().occupied;
  const msplit_status st = f.update(keys, values, ops);
  std::snprintf(when, sizeof when, "%s full", c.name);
  CHECK(st == MSPLIT_ERROR_OUT_OF_CAPACITY && f.t.handle().occupied == occupied,
        "%s: an update of %llu batches with %llu free: %s", when, (unsigned long long)(free + 1),
        (unsigned long long)free, msplit_status_string(st));
  f.check_all(rng, key_lo, key_hi, when);
}

// Errors: on the device (a bad op, the reserved value, a short range slice) and on the host.
void test_errors() {
  using K = uint32_t;
  using V = uint32_t;
  fixture<K, V> f(4, 64, 8);
  std::vector<K> keys = {5, 6, 7};
  std::vector<V> values = {50, MSPLIT_LSM_DELETED, 70};
  std::vector<uint8_t> ops = {MSPLIT_LSM_INSERT, MSPLIT_LSM_INSERT, 7};
  // either bad entry may be the one recorded; both are stored as deletes (as the oracle does)
  msplit_status st = f.update(keys, values, ops);
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "lsm_update") != nullptr,
        "a bad op and a reserved value: %s: %s", msplit_status_string(st), msplit_last_error_message());
  std::mt19937_64 rng(7);
  f.check_all(rng, 0, 16, "after bad entries");

  // a range slice one entry short
  const std::vector<K> lo = {0}, hi = {100};
  const std::vector<uint64_t> offsets = {0, 0};
  dev dlo(4), dhi(4), doff(16), dk(16), dv(16);
  dlo.put(lo);
  dhi.put(hi);
  doff.put(offsets);
  CHECK_MSPLIT(f.t.range(f.temp->p, &f.temp_bytes, dlo.as<K>(), dhi.as<K>(), 1, doff.as<uint64_t>(), dk.as<K>(),
                         dv.as<V>()));
  st = msplit::check_sync(f.temp->p, f.temp_bytes);
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "slice") != nullptr,
        "a short slice: %s: %s", msplit_status_string(st), msplit_last_error_message());

  // host-side: NULL arrays, an empty update, small temporary storage, a type mismatch in the C API
  size_t small = 8;
  st = f.t.update(f.temp->p, &f.temp_bytes, nullptr, dv.as<V>(), nullptr, 3);
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT, "NULL keys: %s", msplit_status_string(st));
  st = f.t.update(f.temp->p, &f.temp_bytes, nullptr, nullptr, nullptr, 0);
  CHECK(st == MSPLIT_SUCCESS, "an empty update: %s", msplit_status_string(st));
  st = f.t.update(f.temp->p, &small, dk.as<K>(), dv.as<V>(), nullptr, 1);
  CHECK(st == MSPLIT_ERROR_TEMP_STORAGE, "small temp: %s", msplit_status_string(st));
  msplit_lsm h = f.t.handle();
  h.value_type = MSPLIT_TYPE_U64;
  st = msplit_lsm_lookup(&h, dk.p, 1, dv.p, nullptr, nullptr);
  CHECK(st == MSPLIT_ERROR_UNSUPPORTED, "U32 keys with U64 values: %s", msplit_status_string(st));
  st = msplit_lsm_count(f.temp->p, &f.temp_bytes, &f.t.handle(), dlo.p, dhi.p, 1, nullptr, nullptr, nullptr);
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT, "count with no output: %s", msplit_status_string(st));
  // no queries: the total alone, 0
  CHECK_CUDA(cudaMemset(doff.p, 0xff, 16));
  CHECK_MSPLIT(f.t.count(f.temp->p, &f.temp_bytes, nullptr, nullptr, 0, nullptr, doff.as<uint64_t>()));
  CHECK(doff.get<uint64_t>(1)[0] == 0, "count of no queries: offsets[0] = %llu",
        (unsigned long long)doff.get<uint64_t>(1)[0]);
  st = f.t.reclaim_sync();
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT, "reclaim after an update, not a cleanup: %s", msplit_status_string(st));
  size_t bytes = 0;
  st = msplit_lsm_storage_bytes(100, 0, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &bytes);
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT, "batch size 0: %s", msplit_status_string(st));
  f.check_all(rng, 0, 16, "after host errors");
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  std::mt19937_64 rng(20260);
  test_errors();
  // b of one entry (every level merge), small b with small key ranges (many stale entries and
  // tombstones), a b of several merge tiles, and the top of the 64-bit key space
  const config configs[] = {
      {"b=1", 1, 40, 16, false, 40},
      {"b=7", 7, 500, 64, false, 60},
      {"b=1000", 1000, 40000, 3000, false, 40},
      {"b=5000 top keys", 5000, 100000, 1u << 20, true, 20},
  };
  for (const config &c : configs) {
    std::printf("u32->u32 %s\n", c.name);
    run_config<uint32_t, uint32_t>(c, quick, rng);
    std::printf("u64->u32 %s\n", c.name);
    run_config<uint64_t, uint32_t>(c, quick, rng);
    std::printf("u64->u64 %s\n", c.name);
    run_config<uint64_t, uint64_t>(c, quick, rng);
  }
  return msplit_test_finish("lsm%s", quick ? " (quick)" : "");
}
