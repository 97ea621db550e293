// Slab hash tests against a CPU oracle: a hash map from key to the list of its values that
// replays every batch in input order. Operations of one GPU batch run concurrently and their
// outcome is that of some serial order; batches whose keys are distinct commute, so for them the
// oracle's input order gives the exact expected result of every operation, and most batches here
// are built that way. Batches that repeat a key (inserts of duplicates) are checked by what every
// order must give: one DONE per new key, its value one of those offered, every copy of a
// multimap insert kept. After each phase the whole state is compared: count and find of every key
// ever used and of absent ones, find-all of multimap keys, the size, and the pool's slab count
// where it is known exactly (a chain of c entries takes max(1, ceil(c / slots)) slabs).
// Cases: random unique keys, many duplicates, a multimap, all keys in one bucket (num_buckets 1:
// the worst hash), erase then re-insert, erase and find of absent keys, pools filled to 10%..100%
// and exhausted mid-batch, flush then reuse, mixed batches (insert/erase/find-hit/find-miss =
// 50/50/0/0, 20/20/30/30, 10/10/40/40), reserved keys, argument errors, and the device reference
// from a test kernel; maps and sets. Outputs are poisoned before every launch.
//   test_slab_hash [--quick]   (--quick: small sizes, for compute-sanitizer)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "msplit/slab_hash.cuh"
#include "msplit/slab_hash.h"
#include "test_util.h"

namespace {

int g_failures = 0;
int g_checks = 0;

#define EXPECT(cond, ...)                              \
  do {                                                 \
    ++g_checks;                                        \
    if (!(cond)) {                                     \
      ++g_failures;                                    \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      std::printf(__VA_ARGS__);                        \
      std::printf("\n");                               \
      return false;                                    \
    }                                                  \
  } while (0)

// A call that must succeed (outside what is under test): a message and exit(1) otherwise.
#define CHECK(call)                                                    \
  do {                                                                 \
    const msplit_status st_ = (call);                                  \
    if (st_ != MSPLIT_SUCCESS) {                                       \
      std::printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                  msplit_last_error_message());                        \
      std::exit(1);                                                    \
    }                                                                  \
  } while (0)

constexpr unsigned char POISON = 0xAB;
constexpr uint32_t SLOTS_MAP = 15, SLOTS_SET = 30;

template <typename T>
struct dbuf {
  T *p = nullptr;
  size_t n = 0;
  explicit dbuf(size_t count) : n(count) {
    CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)));
  }
  dbuf(const std::vector<T> &h) : dbuf(h.size()) { put(h); }
  ~dbuf() { cudaFree(p); }
  dbuf(const dbuf &) = delete;
  void put(const std::vector<T> &h) {
    CHECK_CUDA(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  void poison() { CHECK_CUDA(cudaMemset(p, POISON, n * sizeof(T))); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// A table in its own storage.
struct table {
  void *storage = nullptr;
  msplit_slab_hash t{};
  table(uint32_t buckets, uint32_t capacity, bool has_values) {
    size_t bytes = 0;
    CHECK(msplit_slab_hash_storage_bytes(buckets, capacity, has_values, &bytes));
    CHECK_CUDA(cudaMalloc(&storage, bytes));
    CHECK(msplit_slab_hash_init(&t, storage, bytes, buckets, capacity, has_values, nullptr));
  }
  ~table() { cudaFree(storage); }
  table(const table &) = delete;
  msplit_slab_hash_stats stats() const {
    msplit_slab_hash_stats s{};
    CHECK(msplit_slab_hash_stats_sync(&t, &s, nullptr));
    return s;
  }
};

struct op {
  uint8_t code;
  uint32_t key, value;
};

// The oracle: each key's values in insertion order.
struct oracle {
  bool has_values;
  std::unordered_map<uint32_t, std::vector<uint32_t>> m;
  size_t size = 0;
  // The serial result of one operation and its out value (as msplit_slab_hash_apply).
  uint8_t apply(const op &o, uint32_t &out) {
    auto it = m.find(o.key);
    const size_t copies = it == m.end() ? 0 : it->second.size();
    const uint32_t v = has_values ? o.value : o.key;
    switch (o.code) {
      case MSPLIT_HASH_OP_INSERT:
      case MSPLIT_HASH_OP_INSERT_OR_ASSIGN:
        if (copies) {
          if (o.code == MSPLIT_HASH_OP_INSERT_OR_ASSIGN) it->second[0] = v;
          return MSPLIT_HASH_EXISTED;
        }
        m[o.key].push_back(v);
        ++size;
        return MSPLIT_HASH_DONE;
      case MSPLIT_HASH_OP_INSERT_DUP:
        m[o.key].push_back(v);
        ++size;
        return MSPLIT_HASH_DONE;
      case MSPLIT_HASH_OP_FIND:
        out = copies ? it->second[0] : MSPLIT_HASH_ABSENT_VALUE;
        return copies ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
      case MSPLIT_HASH_OP_ERASE:
        if (!copies) return MSPLIT_HASH_NOT_FOUND;
        it->second.erase(it->second.begin());
        if (it->second.empty()) m.erase(it);
        --size;
        return MSPLIT_HASH_DONE;
      case MSPLIT_HASH_OP_ERASE_ALL:
      case MSPLIT_HASH_OP_COUNT:
        out = uint32_t(copies);
        if (o.code == MSPLIT_HASH_OP_ERASE_ALL && copies) {
          size -= copies;
          m.erase(it);
        }
        return copies ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
    }
    return MSPLIT_HASH_BAD_OP;
  }
  // Pool slabs the chains take, given the key -> bucket map of the table (only for tables without
  // erases since the last flush: erased slots still take room).
  size_t pool_slabs(const std::vector<uint32_t> &bucket_count) const {
    const uint32_t slots = has_values ? SLOTS_MAP : SLOTS_SET;
    size_t s = 0;
    for (uint32_t c : bucket_count) s += c > slots ? (c + slots - 1) / slots - 1 : 0;
    return s;
  }
};

// The table's bucket function (the test predicts the chains, hence the pool's use, from it).
uint32_t bucket_host(uint32_t key, uint32_t buckets) {
  return msplit::detail::slab::bucket_of(key, buckets);
}

// Runs a batch through msplit_slab_hash_apply, or through the bulk call of its single operation
// (bulk = true), and returns results and out values.
void run_batch(const table &tb, const std::vector<op> &ops, bool bulk, std::vector<uint8_t> &res,
               std::vector<uint32_t> &out) {
  const size_t n = ops.size();
  std::vector<uint8_t> codes(n);
  std::vector<uint32_t> keys(n), values(n);
  for (size_t i = 0; i < n; ++i)
    codes[i] = ops[i].code, keys[i] = ops[i].key, values[i] = ops[i].value;
  dbuf<uint8_t> d_codes(codes), d_res(n);
  dbuf<uint32_t> d_keys(keys), d_values(values), d_out(n);
  d_res.poison();
  d_out.poison();
  const msplit_slab_hash *t = &tb.t;
  if (!bulk) {
    CHECK(msplit_slab_hash_apply(t, d_codes.p, d_keys.p, d_values.p, n, d_out.p, d_res.p, nullptr));
  } else {
    const msplit_hash_op c = msplit_hash_op(n ? codes[0] : 0);
    switch (c) {
      case MSPLIT_HASH_OP_FIND:
        CHECK(msplit_slab_hash_find(t, d_keys.p, n, d_out.p, d_res.p, nullptr));
        break;
      case MSPLIT_HASH_OP_ERASE:
      case MSPLIT_HASH_OP_ERASE_ALL:
        CHECK(msplit_slab_hash_erase(t, d_keys.p, n, c == MSPLIT_HASH_OP_ERASE_ALL, d_res.p,
                                     nullptr));
        break;
      case MSPLIT_HASH_OP_COUNT: {
        CHECK(msplit_slab_hash_count(t, d_keys.p, n, d_out.p, nullptr));
        out = d_out.get();
        res.assign(n, 0);
        for (size_t i = 0; i < n; ++i) res[i] = out[i] ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
        return;
      }
      default:
        CHECK(msplit_slab_hash_insert(t, d_keys.p, d_values.p, n, c, d_res.p, nullptr));
    }
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  res = d_res.get();
  out = d_out.get();
}

// A batch of distinct keys: every result and out value must be the oracle's.
bool exact_batch(const char *what, const table &tb, oracle &o, const std::vector<op> &ops,
                 bool bulk) {
  std::vector<uint8_t> res;
  std::vector<uint32_t> out;
  run_batch(tb, ops, bulk, res, out);
  for (size_t i = 0; i < ops.size(); ++i) {
    uint32_t want_out = 0;
    const uint8_t want = o.apply(ops[i], want_out);
    EXPECT(res[i] == want, "%s: op %zu (code %d key %u): result %d, expected %d", what, i,
           ops[i].code, ops[i].key, res[i], want);
    const uint8_t c = ops[i].code;
    // (the bulk erase gives no counts)
    const bool has_out = c == MSPLIT_HASH_OP_FIND || c == MSPLIT_HASH_OP_COUNT ||
                         (c == MSPLIT_HASH_OP_ERASE_ALL && !bulk);
    if (has_out)
      EXPECT(out[i] == want_out, "%s: op %zu key %u: out %u, expected %u", what, i, ops[i].key,
             out[i], want_out);
    if (!has_out && !bulk)
      EXPECT(out[i] == 0xABABABABu, "%s: op %zu: out written for an operation without one", what,
             i);
  }
  return true;
}

// The whole state: count and find of every key in `keys` (present or not), find-all for
// multimaps, the size, and (if expected_pool >= 0) the pool's slabs in use.
bool verify(const char *what, const msplit_slab_hash &t, const oracle &o,
            const std::vector<uint32_t> &keys, long long expected_pool = -1) {
  const size_t n = keys.size();
  dbuf<uint32_t> d_keys(keys), d_counts(n), d_vals(n);
  dbuf<uint8_t> d_res(n), d_found(n);
  d_counts.poison();
  d_vals.poison();
  d_res.poison();
  d_found.poison();
  CHECK(msplit_slab_hash_count(&t, d_keys.p, n, d_counts.p, nullptr));
  CHECK(msplit_slab_hash_find(&t, d_keys.p, n, d_vals.p, d_res.p, nullptr));
  CHECK(msplit_slab_hash_contains(&t, d_keys.p, n, d_found.p, nullptr));
  const std::vector<uint32_t> counts = d_counts.get(), vals = d_vals.get();
  const std::vector<uint8_t> res = d_res.get(), found = d_found.get();
  std::vector<uint32_t> offsets(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    auto it = o.m.find(keys[i]);
    const size_t copies = it == o.m.end() ? 0 : it->second.size();
    EXPECT(counts[i] == copies, "%s: count(%u) = %u, expected %zu", what, keys[i], counts[i],
           copies);
    EXPECT(found[i] == (copies > 0), "%s: contains(%u) = %d", what, keys[i], found[i]);
    EXPECT(res[i] == (copies ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND), "%s: find(%u) result %d",
           what, keys[i], res[i]);
    if (copies) {
      EXPECT(std::find(it->second.begin(), it->second.end(), vals[i]) != it->second.end(),
             "%s: find(%u) = %u, not a value of the key", what, keys[i], vals[i]);
    } else {
      EXPECT(vals[i] == MSPLIT_HASH_ABSENT_VALUE, "%s: find(%u) of an absent key = %u", what,
             keys[i], vals[i]);
    }
    offsets[i + 1] = offsets[i] + uint32_t(copies);
  }
  // find-all: each key's values as a multiset
  dbuf<uint32_t> d_off(offsets), d_all(offsets[n]);
  d_all.poison();
  CHECK(msplit_slab_hash_find_all(&t, d_keys.p, n, d_off.p, d_all.p, nullptr));
  const std::vector<uint32_t> all = d_all.get();
  for (size_t i = 0; i < n; ++i) {
    auto it = o.m.find(keys[i]);
    if (it == o.m.end()) continue;
    std::vector<uint32_t> got(all.begin() + offsets[i], all.begin() + offsets[i + 1]),
        want = it->second;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT(got == want, "%s: find_all(%u) differs (%zu values)", what, keys[i], want.size());
  }
  msplit_slab_hash_stats s{};
  CHECK(msplit_slab_hash_stats_sync(&t, &s, nullptr));
  EXPECT(s.size == o.size, "%s: size %llu, expected %zu", what, (unsigned long long)s.size, o.size);
  if (expected_pool >= 0)
    EXPECT(s.pool_slabs_used == uint64_t(expected_pool), "%s: pool slabs %llu, expected %lld", what,
           (unsigned long long)s.pool_slabs_used, expected_pool);
  return true;
}

std::vector<uint32_t> bucket_counts(const oracle &o, uint32_t buckets) {
  std::vector<uint32_t> c(buckets, 0);
  for (const auto &kv : o.m) c[bucket_host(kv.first, buckets)] += uint32_t(kv.second.size());
  return c;
}

// n distinct random keys (no reserved ones), and as many absent ones.
void make_keys(std::mt19937 &rng, size_t n, std::vector<uint32_t> &present,
               std::vector<uint32_t> &absent) {
  std::unordered_set<uint32_t> seen;
  present.clear();
  absent.clear();
  while (present.size() + absent.size() < 2 * n) {
    const uint32_t k = rng();
    if (k >= MSPLIT_HASH_ERASED_KEY || !seen.insert(k).second) continue;
    (present.size() < n ? present : absent).push_back(k);
  }
}

std::vector<op> ops_of(uint8_t code, const std::vector<uint32_t> &keys, uint32_t value_salt) {
  std::vector<op> v;
  for (uint32_t k : keys) v.push_back({code, k, k * 2654435761u + value_salt});
  return v;
}

std::vector<uint32_t> concat(const std::vector<uint32_t> &a, const std::vector<uint32_t> &b) {
  std::vector<uint32_t> c = a;
  c.insert(c.end(), b.begin(), b.end());
  return c;
}

// 1. Unique keys: insert, find hit and miss, erase half and absent keys, erase then re-insert,
//    assign, flush, and reuse of the freed slabs. `buckets` 1 is the all-in-one-bucket case.
bool case_unique(bool has_values, size_t n, uint32_t buckets, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys, absent;
  make_keys(rng, n, keys, absent);
  const uint32_t slots = has_values ? SLOTS_MAP : SLOTS_SET;
  // room for every slot that the erase / re-insert rounds take before the flush (2.5 n)
  const uint32_t capacity = uint32_t(3 * n / slots + buckets + 64);
  table tb(buckets, capacity, has_values);
  oracle o{has_values, {}, 0};
  const std::vector<uint32_t> everything = concat(keys, absent);
  char what[96];
  std::snprintf(what, sizeof what, "%s n=%zu buckets=%u", has_values ? "map" : "set", n, buckets);
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, keys, 1), true)) return false;
  if (!verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)))) return false;
  // inserting again changes nothing (and keeps the values)
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, keys, 2), true)) return false;
  if (has_values &&
      !exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT_OR_ASSIGN, keys, 3), true))
    return false;
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_FIND, everything, 0), true)) return false;
  // erase the first half and the absent keys
  std::vector<uint32_t> half(keys.begin(), keys.begin() + n / 2);
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, concat(half, absent), 0), true))
    return false;
  if (!verify(what, tb.t, o, everything)) return false;
  // erase then re-insert, three rounds, with a new value each time: one copy each time
  for (uint32_t round = 0; round < 3; ++round) {
    if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, half, 10 + round), true))
      return false;
    if (!verify(what, tb.t, o, everything)) return false;
    if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, half, 0), true)) return false;
  }
  // flush: erased slots go, the chains shrink to what the live keys need
  CHECK(msplit_slab_hash_flush(&tb.t, nullptr));
  if (!verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)))) return false;
  // reuse: the freed slabs take the re-inserted half and the absent keys
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, concat(half, absent), 20), true))
    return false;
  if (!verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)))) return false;
  // erase all, flush: the pool is empty again
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, everything, 0), true)) return false;
  CHECK(msplit_slab_hash_flush(&tb.t, nullptr));
  if (!verify(what, tb.t, o, everything, 0)) return false;
  CHECK(msplit_slab_hash_check_sync(&tb.t, nullptr));
  return true;
}

// 2. Batches that repeat keys: unique inserts (one DONE per key, a value among those offered),
//    then the multimap: duplicate inserts, count, find-all, erase one copy, erase-all.
bool case_duplicates(bool has_values, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t distinct = std::max<size_t>(n / 16, 1);
  std::vector<uint32_t> pool_keys, absent;
  make_keys(rng, distinct, pool_keys, absent);
  std::vector<op> ops;
  for (size_t i = 0; i < n; ++i)
    ops.push_back({MSPLIT_HASH_OP_INSERT, pool_keys[rng() % distinct], uint32_t(i)});
  const uint32_t buckets = uint32_t(distinct / 10 + 1);
  table tb(buckets, uint32_t(n / 4 + 64), has_values);
  const char *what = has_values ? "map duplicates" : "set duplicates";
  std::vector<uint8_t> res;
  std::vector<uint32_t> out;
  run_batch(tb, ops, true, res, out);
  std::unordered_map<uint32_t, std::vector<uint32_t>> offered;
  std::unordered_map<uint32_t, int> done;
  for (size_t i = 0; i < n; ++i) {
    offered[ops[i].key].push_back(ops[i].value);
    EXPECT(res[i] == MSPLIT_HASH_DONE || res[i] == MSPLIT_HASH_EXISTED, "%s: result %d", what,
           res[i]);
    done[ops[i].key] += res[i] == MSPLIT_HASH_DONE;
  }
  oracle o{has_values, {}, 0};
  const std::vector<uint32_t> everything = concat(pool_keys, absent);
  {
    dbuf<uint32_t> d_keys(pool_keys), d_vals(distinct);
    CHECK(msplit_slab_hash_find(&tb.t, d_keys.p, distinct, d_vals.p, nullptr, nullptr));
    const std::vector<uint32_t> vals = d_vals.get();
    for (size_t i = 0; i < distinct; ++i) {
      const uint32_t k = pool_keys[i];
      if (!offered.count(k)) continue;
      EXPECT(done[k] == 1, "%s: key %u inserted %d times", what, k, done[k]);
      const auto &vs = offered[k];
      if (has_values)
        EXPECT(std::find(vs.begin(), vs.end(), vals[i]) != vs.end(),
               "%s: key %u has a value never offered", what, k);
      o.m[k].push_back(has_values ? vals[i] : k);
      ++o.size;
    }
  }
  if (!verify(what, tb.t, o, everything)) return false;
  // the multimap: every copy is kept
  for (auto &x : ops) x.code = MSPLIT_HASH_OP_INSERT_DUP;
  run_batch(tb, ops, true, res, out);
  for (size_t i = 0; i < n; ++i) {
    EXPECT(res[i] == MSPLIT_HASH_DONE, "%s: duplicate insert result %d", what, res[i]);
    o.m[ops[i].key].push_back(has_values ? ops[i].value : ops[i].key);
    ++o.size;
  }
  if (!verify(what, tb.t, o, everything)) return false;
  // erase one copy of a third of the keys (which copy is the table's choice: then its values are
  // read back), erase-all another third
  std::vector<uint32_t> third1(pool_keys.begin(), pool_keys.begin() + distinct / 3);
  std::vector<uint32_t> third2(pool_keys.begin() + distinct / 3,
                               pool_keys.begin() + 2 * distinct / 3);
  run_batch(tb, ops_of(MSPLIT_HASH_OP_ERASE, third1, 0), true, res, out);
  for (size_t i = 0; i < third1.size(); ++i) {
    auto &vs = o.m[third1[i]];
    EXPECT(res[i] == (vs.empty() ? MSPLIT_HASH_NOT_FOUND : MSPLIT_HASH_DONE), "%s: erase one copy",
           what);
    if (vs.empty()) {
      o.m.erase(third1[i]);
      continue;
    }
    // the multiset loses one value: which one, find-all of the key tells
    dbuf<uint32_t> d_k(std::vector<uint32_t>{third1[i]}),
        d_off(std::vector<uint32_t>{0, uint32_t(vs.size() - 1)}), d_all(vs.size());
    CHECK(msplit_slab_hash_find_all(&tb.t, d_k.p, 1, d_off.p, d_all.p, nullptr));
    std::vector<uint32_t> left = d_all.get(), before = vs;
    left.resize(vs.size() - 1);
    std::sort(left.begin(), left.end());
    std::sort(before.begin(), before.end());
    EXPECT(std::includes(before.begin(), before.end(), left.begin(), left.end()),
           "%s: erase lost a wrong value", what);
    vs = left;
    --o.size;
    if (vs.empty()) o.m.erase(third1[i]);
  }
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE_ALL, concat(third2, absent), 0), true))
    return false;
  if (!verify(what, tb.t, o, everything)) return false;
  CHECK(msplit_slab_hash_flush(&tb.t, nullptr));
  return verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)));
}

// 3. The pool filled to a fraction of its capacity, exactly full, and exhausted mid-batch: the
//    inserts that found no slab say so, the rest are in, and the table stays usable.
bool case_capacity(bool has_values, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys, absent;
  make_keys(rng, n, keys, absent);
  const uint32_t slots = has_values ? SLOTS_MAP : SLOTS_SET;
  const uint32_t buckets =
      uint32_t(std::max<size_t>(n / (4 * slots), 1));  // chains of about 4 slabs
  oracle full{has_values, {}, 0};
  for (uint32_t k : keys) full.m[k].push_back(has_values ? k * 2654435761u + 1 : k), ++full.size;
  const size_t need = full.pool_slabs(bucket_counts(full, buckets));
  const char *what = has_values ? "map capacity" : "set capacity";
  const std::vector<uint32_t> everything = concat(keys, absent);
  for (double fill : {0.1, 0.5, 0.65, 0.85, 0.95}) {
    table tb(buckets, uint32_t(std::ceil(need / fill)), has_values);
    oracle o{has_values, {}, 0};
    if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, keys, 1), true)) return false;
    if (!verify(what, tb.t, o, everything, need)) return false;
    const msplit_status st = msplit_slab_hash_check_sync(&tb.t, nullptr);
    EXPECT(st == MSPLIT_SUCCESS, "%s: fill %.2f: check_sync %d", what, fill, int(st));
  }
  // exhaustion: half the slabs needed
  table tb(buckets, uint32_t(need / 2), has_values);
  std::vector<uint8_t> res;
  std::vector<uint32_t> out;
  std::vector<op> ins = ops_of(MSPLIT_HASH_OP_INSERT, keys, 1);
  run_batch(tb, ins, true, res, out);
  oracle o{has_values, {}, 0};
  std::vector<uint32_t> failed, inserted;
  for (size_t i = 0; i < n; ++i) {
    EXPECT(res[i] == MSPLIT_HASH_DONE || res[i] == MSPLIT_HASH_OUT_OF_SLABS, "%s: result %d", what,
           res[i]);
    if (res[i] == MSPLIT_HASH_DONE) {
      o.m[keys[i]].push_back(has_values ? ins[i].value : keys[i]);
      ++o.size;
      inserted.push_back(keys[i]);
    } else {
      failed.push_back(keys[i]);
    }
  }
  EXPECT(!failed.empty(), "%s: half the pool took every key", what);
  if (!verify(what, tb.t, o, everything)) return false;  // racing warps may hold back a slab
  msplit_slab_hash_stats s = tb.stats();
  EXPECT(s.out_of_slabs == failed.size(), "%s: out_of_slabs %llu, %zu failed", what,
         (unsigned long long)s.out_of_slabs, failed.size());
  const msplit_status st = msplit_slab_hash_check_sync(&tb.t, nullptr);
  EXPECT(st == MSPLIT_ERROR_OUT_OF_CAPACITY, "%s: check_sync gave %d", what, int(st));
  EXPECT(std::strstr(msplit_last_error_message(), "no free slab") != nullptr, "%s: message '%s'",
         what, msplit_last_error_message());
  EXPECT(msplit_slab_hash_check_sync(&tb.t, nullptr) == MSPLIT_SUCCESS,
         "%s: check_sync did not reset", what);
  // still usable: erase the inserted keys, flush, and the failed ones go in
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, inserted, 0), true)) return false;
  CHECK(msplit_slab_hash_flush(&tb.t, nullptr));
  if (!verify(what, tb.t, o, everything, 0)) return false;
  failed.resize(failed.size() / 2);  // half of them fit for sure
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, failed, 5), true)) return false;
  return verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)));
}

// 4. Mixed batches, insert/erase/find-hit/find-miss in the given percentages, distinct keys per
//    batch, several batches in a row (apply), then a flush and the state.
bool case_mixed(bool has_values, size_t batch, int batches, const int mix[4], uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t universe = batch * 4;
  std::vector<uint32_t> keys, spare;
  make_keys(rng, universe, keys, spare);
  const uint32_t slots = has_values ? SLOTS_MAP : SLOTS_SET;
  table tb(uint32_t(universe / (slots * 2) + 1), uint32_t(universe / slots + 64) * 2, has_values);
  oracle o{has_values, {}, 0};
  char what[64];
  std::snprintf(what, sizeof what, "%s mixed %d/%d/%d/%d", has_values ? "map" : "set", mix[0],
                mix[1], mix[2], mix[3]);
  // half the universe in first
  std::vector<uint32_t> first(keys.begin(), keys.begin() + universe / 2);
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, first, 1), true)) return false;
  for (int b = 0; b < batches; ++b) {
    std::vector<uint32_t> order = keys;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<uint32_t> present, missing;
    for (uint32_t k : order) (o.m.count(k) ? present : missing).push_back(k);
    std::vector<op> ops;
    size_t pi = 0, mi = 0;
    for (size_t i = 0; i < batch && pi < present.size() && mi < missing.size(); ++i) {
      const int r = int(rng() % 100);
      uint8_t code;
      uint32_t k;
      if (r < mix[0])
        code = MSPLIT_HASH_OP_INSERT, k = missing[mi++];
      else if (r < mix[0] + mix[1])
        code = MSPLIT_HASH_OP_ERASE, k = present[pi++];
      else if (r < mix[0] + mix[1] + mix[2])
        code = MSPLIT_HASH_OP_FIND, k = present[pi++];
      else
        code = MSPLIT_HASH_OP_FIND, k = missing[mi++];
      ops.push_back({code, k, uint32_t(rng())});
    }
    if (!exact_batch(what, tb, o, ops, false)) return false;
  }
  if (!verify(what, tb.t, o, concat(keys, spare))) return false;
  CHECK(msplit_slab_hash_flush(&tb.t, nullptr));
  return verify(what, tb.t, o, concat(keys, spare),
                o.pool_slabs(bucket_counts(o, tb.t.num_buckets)));
}

// 5. Reserved keys and argument errors.
bool case_errors() {
  const char *what = "errors";
  table tb(4, 16, true);
  const std::vector<uint32_t> keys = {5, MSPLIT_HASH_EMPTY_KEY, 6, MSPLIT_HASH_ERASED_KEY};
  dbuf<uint32_t> d_keys(keys), d_vals(keys), d_out(4);
  dbuf<uint8_t> d_res(4);
  d_res.poison();
  CHECK(msplit_slab_hash_insert(&tb.t, d_keys.p, d_vals.p, 4, MSPLIT_HASH_OP_INSERT, d_res.p,
                                nullptr));
  std::vector<uint8_t> res = d_res.get();
  EXPECT(res[0] == MSPLIT_HASH_DONE && res[1] == MSPLIT_HASH_RESERVED_KEY &&
             res[2] == MSPLIT_HASH_DONE && res[3] == MSPLIT_HASH_RESERVED_KEY,
         "%s: reserved-key results %d %d %d %d", what, res[0], res[1], res[2], res[3]);
  d_out.poison();
  CHECK(msplit_slab_hash_find(&tb.t, d_keys.p, 4, d_out.p, d_res.p, nullptr));
  res = d_res.get();
  const std::vector<uint32_t> out = d_out.get();
  EXPECT(res[1] == MSPLIT_HASH_RESERVED_KEY && out[1] == MSPLIT_HASH_ABSENT_VALUE && out[2] == 6,
         "%s: find of reserved keys", what);
  EXPECT(tb.stats().size == 2, "%s: size %llu", what, (unsigned long long)tb.stats().size);
  msplit_status st = msplit_slab_hash_check_sync(&tb.t, nullptr);
  EXPECT(st == MSPLIT_ERROR_INVALID_ARGUMENT &&
             std::strstr(msplit_last_error_message(), "4 operation(s)"),
         "%s: check_sync %d '%s'", what, int(st), msplit_last_error_message());
  // a bad tag in a mixed batch
  dbuf<uint8_t> d_ops(std::vector<uint8_t>{3, 9, 3, 7});
  CHECK(msplit_slab_hash_apply(&tb.t, d_ops.p, d_keys.p, nullptr, 4, d_out.p, d_res.p, nullptr));
  res = d_res.get();
  EXPECT(res[1] == MSPLIT_HASH_BAD_OP && res[3] == MSPLIT_HASH_DONE && res[0] == MSPLIT_HASH_DONE,
         "%s: bad tag results %d %d %d", what, res[0], res[1], res[3]);
  // argument errors name the argument and write nothing
  msplit_slab_hash none{};
  st = msplit_slab_hash_find(&none, d_keys.p, 4, d_out.p, nullptr, nullptr);
  EXPECT(st == MSPLIT_ERROR_INVALID_ARGUMENT &&
             std::strstr(msplit_last_error_message(), "not initialised"),
         "%s: uninitialised table: %d '%s'", what, int(st), msplit_last_error_message());
  st =
      msplit_slab_hash_insert(&tb.t, nullptr, d_vals.p, 4, MSPLIT_HASH_OP_INSERT, nullptr, nullptr);
  EXPECT(st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "d_keys"),
         "%s: keys NULL", what);
  st =
      msplit_slab_hash_insert(&tb.t, d_keys.p, nullptr, 4, MSPLIT_HASH_OP_INSERT, nullptr, nullptr);
  EXPECT(
      st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "d_values"),
      "%s: map values NULL", what);
  st = msplit_slab_hash_insert(&tb.t, d_keys.p, d_vals.p, 4, MSPLIT_HASH_OP_FIND, nullptr, nullptr);
  EXPECT(st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "mode"),
         "%s: mode", what);
  size_t bytes = 0;
  st = msplit_slab_hash_storage_bytes(0, 10, 1, &bytes);
  EXPECT(st == MSPLIT_ERROR_INVALID_ARGUMENT &&
             std::strstr(msplit_last_error_message(), "num_buckets"),
         "%s: zero buckets", what);
  msplit_slab_hash t2{};
  st = msplit_slab_hash_init(&t2, tb.storage, 64, 4, 16, 1, nullptr);
  EXPECT(st == MSPLIT_ERROR_TEMP_STORAGE, "%s: small storage gave %d", what, int(st));
  CHECK(msplit_slab_hash_insert(&tb.t, d_keys.p, d_vals.p, 0, MSPLIT_HASH_OP_INSERT, nullptr,
                                nullptr));
  return true;
}

// 6. The device reference: a kernel whose warps insert, find and erase with it, each lane its
//    own key (some lanes idle).
__global__ void ref_kernel(msplit::slab_hash_ref<true> ref, const uint32_t *keys, size_t n,
                           uint32_t *found, uint8_t *erased) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t warp_first = i - (threadIdx.x % 32);
  if (warp_first >= n) return;  // whole warps leave together
  const bool active = i < n && (i % 7) != 3;
  const uint32_t k = active ? keys[i] : 0;
  ref.insert(active, k, k + 1);
  uint32_t v = 0;
  ref.find(active, k, v);
  if (active) found[i] = v;
  const uint32_t r = ref.erase(active && (k & 1), k);
  if (active) erased[i] = uint8_t(r);
}

bool case_device_ref(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> keys, absent;
  make_keys(rng, n, keys, absent);
  void *storage = nullptr;
  size_t bytes = 0;
  const uint32_t buckets = uint32_t(n / 40 + 1);
  CHECK(msplit::slab_hash<true>::storage_bytes(buckets, uint32_t(n / 8 + 64), &bytes));
  CHECK_CUDA(cudaMalloc(&storage, bytes));
  msplit::slab_hash<true> table;
  CHECK(table.init(storage, bytes, buckets, uint32_t(n / 8 + 64)));
  dbuf<uint32_t> d_keys(keys), d_found(n);
  dbuf<uint8_t> d_erased(n);
  d_found.poison();
  d_erased.poison();
  ref_kernel<<<unsigned((n + 127) / 128), 128>>>(table.ref(), d_keys.p, n, d_found.p, d_erased.p);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<uint32_t> found = d_found.get();
  const std::vector<uint8_t> erased = d_erased.get();
  oracle o{true, {}, 0};
  for (size_t i = 0; i < n; ++i) {
    if (i % 7 == 3) continue;
    EXPECT(found[i] == keys[i] + 1, "device ref: find(%u) = %u", keys[i], found[i]);
    EXPECT(erased[i] == MSPLIT_HASH_DONE, "device ref: erase(%u) result %d", keys[i], erased[i]);
    if (!(keys[i] & 1)) o.m[keys[i]].push_back(keys[i] + 1), ++o.size;
  }
  const bool ok = verify("device ref", table.c_table(), o, concat(keys, absent));
  cudaFree(storage);
  return ok;
}

}  // namespace

// Runs one case and says how it went and how long it took (the suite's time is mostly the
// oracle's, on the CPU).
template <typename F>
bool run_case(const char *name, F f) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = f();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s %s (%.1f s)\n", ok ? "ok  " : "FAIL", name, s);
  std::fflush(stdout);
  return ok;
}

int main(int argc, char **argv) {
  const bool quick = gpu_test_start(argc, argv);
  const size_t n = quick ? 3000 : 1u << 18;
  const size_t big = quick ? 3000 : 1u << 20;
  const size_t mixed = quick ? 2000 : 1u << 16;
  bool ok = true;
  for (bool hv : {true, false}) {
    const char *kind = hv ? "map" : "set";
    std::printf("-- %s\n", kind);
    ok = run_case("unique keys", [&] { return case_unique(hv, n, uint32_t(n / 10), 1); }) && ok;
    ok = run_case("one bucket", [&] { return case_unique(hv, quick ? 600 : 4000, 1, 2); }) && ok;
    ok = run_case("duplicates, multimap", [&] { return case_duplicates(hv, n, 3); }) && ok;
    ok = run_case("pool fill and exhaustion", [&] { return case_capacity(hv, n, 4); }) && ok;
    const int mixes[3][4] = {{50, 50, 0, 0}, {20, 20, 30, 30}, {10, 10, 40, 40}};
    for (const auto &mix : mixes)
      ok =
          run_case("mixed batches", [&] { return case_mixed(hv, mixed, quick ? 2 : 4, mix, 5); }) &&
          ok;
  }
  if (!quick)
    ok = run_case("unique keys, 2^20",
                  [&] { return case_unique(true, big, uint32_t(big / 10), 7); }) &&
         ok;
  ok = run_case("errors", [] { return case_errors(); }) && ok;
  ok = run_case("device reference", [&] { return case_device_ref(quick ? 1000 : 1u << 18, 8); }) &&
       ok;
  std::printf("%s: %d checks, %d failures\n", ok && g_failures == 0 ? "PASS" : "FAIL", g_checks,
              g_failures);
  return ok && g_failures == 0 ? 0 : 1;
}
