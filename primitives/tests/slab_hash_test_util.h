// Helpers of the slab hash's GPU tests (test_slab_hash.cu): device buffers, a table in its own
// storage, the C API for each key width, the CPU oracle, batch runners
// and the whole-state check, all templated on the key type K (uint32_t or uint64_t; maps of K -> K
// and sets of K), so that every case runs for both widths from one body.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "msplit/slab_hash.cuh"
#include "msplit/slab_hash.h"
#include "msplit_test.h"

namespace slab_test {

constexpr unsigned char POISON = 0xAB;

// A key or value in a message.
inline unsigned long long ull(uint64_t x) { return x; }

// The C API's bulk operations, one form for both key widths (the table carries its types), and
// the key type K as the msplit_type a table of K is initialised with.
template <typename K>
struct api {
  static_assert(sizeof(K) == 4 || sizeof(K) == 8, "32- or 64-bit keys");
  static constexpr msplit_type TYPE = sizeof(K) == 8 ? MSPLIT_TYPE_U64 : MSPLIT_TYPE_U32;
  static constexpr auto insert = msplit_slab_hash_insert;
  static constexpr auto find = msplit_slab_hash_find;
  static constexpr auto contains = msplit_slab_hash_contains;
  static constexpr auto erase = msplit_slab_hash_erase;
  static constexpr auto count = msplit_slab_hash_count;
  static constexpr auto find_all = msplit_slab_hash_find_all;
  static constexpr auto apply = msplit_slab_hash_apply;
};

// Entries a slab holds: a map of K -> K, or a set of K.
template <typename K>
uint32_t slots(bool has_values) {
  namespace sl = msplit::detail::slab;
  return has_values ? sl::format<K, K>::ENTRIES : sl::format<K, void>::ENTRIES;
}
template <typename K>
constexpr K ABSENT = K(~0ull);
template <typename K>
constexpr K RESERVED_EMPTY = K(~0ull);
template <typename K>
constexpr K RESERVED_ERASED = K(~1ull);

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

// A table of K keys (and K values) in its own storage.
template <typename K>
struct table {
  void *storage = nullptr;
  msplit_slab_hash t{};
  table(uint32_t buckets, uint32_t capacity, bool has_values) {
    size_t bytes = 0;
    CHECK_MSPLIT(msplit_slab_hash_storage_bytes(buckets, capacity, &bytes));
    CHECK_CUDA(cudaMalloc(&storage, bytes));
    CHECK_MSPLIT(msplit_slab_hash_init(&t, storage, bytes, buckets, capacity, api<K>::TYPE,
                                       has_values ? api<K>::TYPE : MSPLIT_TYPE_NONE, nullptr));
  }
  ~table() { cudaFree(storage); }
  table(const table &) = delete;
  msplit_slab_hash_stats stats() const {
    msplit_slab_hash_stats s{};
    CHECK_MSPLIT(msplit_slab_hash_stats_sync(&t, &s, nullptr));
    return s;
  }
};

template <typename K>
struct op {
  uint8_t code;
  K key, value;
};

// The oracle: each key's values in insertion order.
template <typename K>
struct oracle {
  bool has_values;
  std::unordered_map<K, std::vector<K>> m;
  size_t size = 0;
  // The serial result of one operation and its out value (as msplit_slab_hash_apply).
  uint8_t apply(const op<K> &o, K &out) {
    auto it = m.find(o.key);
    const size_t copies = it == m.end() ? 0 : it->second.size();
    const K v = has_values ? o.value : o.key;
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
        out = copies ? it->second[0] : ABSENT<K>;
        return copies ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
      case MSPLIT_HASH_OP_ERASE:
        if (!copies) return MSPLIT_HASH_NOT_FOUND;
        it->second.erase(it->second.begin());
        if (it->second.empty()) m.erase(it);
        --size;
        return MSPLIT_HASH_DONE;
      case MSPLIT_HASH_OP_ERASE_ALL:
      case MSPLIT_HASH_OP_COUNT:
        out = K(copies);
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
    const uint32_t e = slots<K>(has_values);
    size_t s = 0;
    for (uint32_t c : bucket_count) s += c > e ? (c + e - 1) / e - 1 : 0;
    return s;
  }
};

// The table's bucket function (the test predicts the chains, hence the pool's use, from it).
template <typename K>
uint32_t bucket_host(K key, uint32_t buckets) {
  return msplit::detail::slab::bucket_of(key, buckets);
}

// Runs a batch through msplit_slab_hash_apply, or through the bulk call of its single operation
// (bulk = true), and returns results and out values.
template <typename K>
void run_batch(const table<K> &tb, const std::vector<op<K>> &ops, bool bulk,
               std::vector<uint8_t> &res, std::vector<K> &out) {
  using A = api<K>;
  const size_t n = ops.size();
  std::vector<uint8_t> codes(n);
  std::vector<K> keys(n), values(n);
  for (size_t i = 0; i < n; ++i)
    codes[i] = ops[i].code, keys[i] = ops[i].key, values[i] = ops[i].value;
  dbuf<uint8_t> d_codes(codes), d_res(n);
  dbuf<K> d_keys(keys), d_values(values), d_out(n);
  dbuf<uint32_t> d_counts(n);
  d_res.poison();
  d_out.poison();
  const msplit_slab_hash *t = &tb.t;
  if (!bulk) {
    CHECK_MSPLIT(A::apply(t, d_codes.p, d_keys.p, d_values.p, n, d_out.p, d_res.p, nullptr));
  } else {
    const msplit_hash_op c = msplit_hash_op(n ? codes[0] : 0);
    switch (c) {
      case MSPLIT_HASH_OP_FIND:
        CHECK_MSPLIT(A::find(t, d_keys.p, n, d_out.p, d_res.p, nullptr));
        break;
      case MSPLIT_HASH_OP_ERASE:
      case MSPLIT_HASH_OP_ERASE_ALL:
        CHECK_MSPLIT(A::erase(t, d_keys.p, n, c == MSPLIT_HASH_OP_ERASE_ALL, d_res.p, nullptr));
        break;
      case MSPLIT_HASH_OP_COUNT: {
        CHECK_MSPLIT(A::count(t, d_keys.p, n, d_counts.p, nullptr));
        const std::vector<uint32_t> counts = d_counts.get();
        out.assign(counts.begin(), counts.end());
        res.assign(n, 0);
        for (size_t i = 0; i < n; ++i) res[i] = out[i] ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
        return;
      }
      default:
        CHECK_MSPLIT(A::insert(t, d_keys.p, d_values.p, n, c, d_res.p, nullptr));
    }
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  res = d_res.get();
  out = d_out.get();
}

// A batch of distinct keys: every result and out value must be the oracle's.
template <typename K>
bool exact_batch(const char *what, const table<K> &tb, oracle<K> &o, const std::vector<op<K>> &ops,
                 bool bulk) {
  std::vector<uint8_t> res;
  std::vector<K> out;
  run_batch(tb, ops, bulk, res, out);
  for (size_t i = 0; i < ops.size(); ++i) {
    K want_out = 0;
    const uint8_t want = o.apply(ops[i], want_out);
    REQUIRE_OR(false, res[i] == want, "%s: op %zu (code %d key %llx): result %d, expected %d", what, i,
           ops[i].code, ull(ops[i].key), res[i], want);
    const uint8_t c = ops[i].code;
    // (the bulk erase gives no counts)
    const bool has_out = c == MSPLIT_HASH_OP_FIND || c == MSPLIT_HASH_OP_COUNT ||
                         (c == MSPLIT_HASH_OP_ERASE_ALL && !bulk);
    if (has_out)
      REQUIRE_OR(false, out[i] == want_out, "%s: op %zu key %llx: out %llx, expected %llx", what, i,
             ull(ops[i].key), ull(out[i]), ull(want_out));
    if (!has_out && !bulk)
      REQUIRE_OR(false, out[i] == K(0xABABABABABABABABull),
             "%s: op %zu: out written for an operation without one", what, i);
  }
  return true;
}

// The whole state: count and find of every key in `keys` (present or not), find-all for
// multimaps, the size, and (if expected_pool >= 0) the pool's slabs in use.
template <typename K>
bool verify(const char *what, const msplit_slab_hash &t, const oracle<K> &o,
            const std::vector<K> &keys, long long expected_pool = -1) {
  using A = api<K>;
  const size_t n = keys.size();
  dbuf<K> d_keys(keys), d_vals(n);
  dbuf<uint32_t> d_counts(n);
  dbuf<uint8_t> d_res(n), d_found(n);
  d_counts.poison();
  d_vals.poison();
  d_res.poison();
  d_found.poison();
  CHECK_MSPLIT(A::count(&t, d_keys.p, n, d_counts.p, nullptr));
  CHECK_MSPLIT(A::find(&t, d_keys.p, n, d_vals.p, d_res.p, nullptr));
  CHECK_MSPLIT(A::contains(&t, d_keys.p, n, d_found.p, nullptr));
  const std::vector<uint32_t> counts = d_counts.get();
  const std::vector<K> vals = d_vals.get();
  const std::vector<uint8_t> res = d_res.get(), found = d_found.get();
  std::vector<uint32_t> offsets(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    auto it = o.m.find(keys[i]);
    const size_t copies = it == o.m.end() ? 0 : it->second.size();
    REQUIRE_OR(false, counts[i] == copies, "%s: count(%llx) = %u, expected %zu", what, ull(keys[i]),
           counts[i], copies);
    REQUIRE_OR(false, found[i] == (copies > 0), "%s: contains(%llx) = %d", what, ull(keys[i]), found[i]);
    REQUIRE_OR(false, res[i] == (copies ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND),
           "%s: find(%llx) result %d", what, ull(keys[i]), res[i]);
    if (copies) {
      REQUIRE_OR(false, std::find(it->second.begin(), it->second.end(), vals[i]) != it->second.end(),
             "%s: find(%llx) = %llx, not a value of the key", what, ull(keys[i]), ull(vals[i]));
    } else {
      REQUIRE_OR(false, vals[i] == ABSENT<K>, "%s: find(%llx) of an absent key = %llx", what, ull(keys[i]),
             ull(vals[i]));
    }
    offsets[i + 1] = offsets[i] + uint32_t(copies);
  }
  // find-all: each key's values as a multiset
  dbuf<uint32_t> d_off(offsets);
  dbuf<K> d_all(offsets[n]);
  d_all.poison();
  CHECK_MSPLIT(A::find_all(&t, d_keys.p, n, d_off.p, d_all.p, nullptr));
  const std::vector<K> all = d_all.get();
  for (size_t i = 0; i < n; ++i) {
    auto it = o.m.find(keys[i]);
    if (it == o.m.end()) continue;
    std::vector<K> got(all.begin() + offsets[i], all.begin() + offsets[i + 1]), want = it->second;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    REQUIRE_OR(false, got == want, "%s: find_all(%llx) differs (%zu values)", what, ull(keys[i]),
           want.size());
  }
  msplit_slab_hash_stats s{};
  CHECK_MSPLIT(msplit_slab_hash_stats_sync(&t, &s, nullptr));
  REQUIRE_OR(false, s.size == o.size, "%s: size %llu, expected %zu", what, (unsigned long long)s.size, o.size);
  if (expected_pool >= 0)
    REQUIRE_OR(false, s.pool_slabs_used == uint64_t(expected_pool), "%s: pool slabs %llu, expected %lld", what,
           (unsigned long long)s.pool_slabs_used, expected_pool);
  return true;
}

template <typename K>
std::vector<uint32_t> bucket_counts(const oracle<K> &o, uint32_t buckets) {
  std::vector<uint32_t> c(buckets, 0);
  for (const auto &kv : o.m) c[bucket_host(kv.first, buckets)] += uint32_t(kv.second.size());
  return c;
}

// A random key or value of K: 64-bit ones use the high word.
template <typename K>
K random_k(std::mt19937 &rng) {
  if constexpr (sizeof(K) == sizeof(uint32_t)) {
    return rng();
  } else {
    const K hi = rng();
    return hi << 32 | rng();
  }
}

// A 64-bit key whose words probe the half-word comparisons: a low word equal to a marker's low
// word (all ones, or all ones but the lowest bit), an all-ones high word, or the low word of the
// previous key under another high word. One key in two is plain random.
inline uint64_t tricky_key(std::mt19937 &rng, uint64_t prev) {
  const uint64_t hi = uint64_t(rng()) << 32, lo = rng();
  switch (rng() % 8) {
    case 0: return hi | 0xFFFFFFFFull;
    case 1: return hi | 0xFFFFFFFEull;
    case 2: return 0xFFFFFFFF00000000ull | lo;
    case 3: return hi | (prev & 0xFFFFFFFFull);
    default: return hi | lo;
  }
}

// n distinct random keys (no reserved ones), and as many absent ones.
template <typename K>
void make_keys(std::mt19937 &rng, size_t n, std::vector<K> &present, std::vector<K> &absent) {
  std::unordered_set<K> seen;
  present.clear();
  absent.clear();
  K k = 0;
  while (present.size() + absent.size() < 2 * n) {
    if constexpr (sizeof(K) == sizeof(uint32_t))
      k = rng();
    else
      k = tricky_key(rng, k);
    if (k >= RESERVED_ERASED<K> || !seen.insert(k).second) continue;
    (present.size() < n ? present : absent).push_back(k);
  }
}

template <typename K>
K value_of(K key, K salt) {
  return key * K(2654435761u) + salt;
}

// (the salt is not deduced, so that a literal serves either width)
template <typename K>
std::vector<op<K>> ops_of(uint8_t code, const std::vector<K> &keys,
                          std::common_type_t<K> value_salt) {
  std::vector<op<K>> v;
  for (K k : keys) v.push_back({code, k, value_of(k, value_salt)});
  return v;
}

template <typename K>
std::vector<K> concat(const std::vector<K> &a, const std::vector<K> &b) {
  std::vector<K> c = a;
  c.insert(c.end(), b.begin(), b.end());
  return c;
}

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

}  // namespace slab_test
