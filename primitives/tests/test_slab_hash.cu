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
// from a test kernel; maps and sets, of 32-bit keys and values and of 64-bit ones (keys that use
// the high word, some with a low word equal to a marker's). Outputs are poisoned before every
// launch. The helpers, templated on the key type, are in slab_hash_test_util.h.
//   test_slab_hash [--quick] [--key-bits 32|64]   (--quick: small sizes, for compute-sanitizer;
//                                                  both widths unless --key-bits)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "slab_hash_test_util.h"

namespace {

using namespace slab_test;

// 1. Unique keys: insert, find hit and miss, erase half and absent keys, erase then re-insert,
//    assign, flush, and reuse of the freed slabs. `buckets` 1 is the all-in-one-bucket case.
template <typename K>
bool case_unique(bool has_values, size_t n, uint32_t buckets, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<K> keys, absent;
  make_keys(rng, n, keys, absent);
  // room for every slot that the erase / re-insert rounds take before the flush (2.5 n)
  const uint32_t capacity = uint32_t(3 * n / slots<K>(has_values) + buckets + 64);
  table<K> tb(buckets, capacity, has_values);
  oracle<K> o{has_values, {}, 0};
  const std::vector<K> everything = concat(keys, absent);
  char what[96];
  std::snprintf(what, sizeof what, "%s%d n=%zu buckets=%u", has_values ? "map" : "set",
                int(8 * sizeof(K)), n, buckets);
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, keys, 1), true)) return false;
  if (!verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)))) return false;
  // inserting again changes nothing (and keeps the values)
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, keys, 2), true)) return false;
  if (has_values &&
      !exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT_OR_ASSIGN, keys, 3), true))
    return false;
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_FIND, everything, 0), true)) return false;
  // erase the first half and the absent keys
  std::vector<K> half(keys.begin(), keys.begin() + n / 2);
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, concat(half, absent), 0), true))
    return false;
  if (!verify(what, tb.t, o, everything)) return false;
  // erase then re-insert, three rounds, with a new value each time: one copy each time
  for (K round = 0; round < 3; ++round) {
    if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, half, 10 + round), true))
      return false;
    if (!verify(what, tb.t, o, everything)) return false;
    if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, half, 0), true)) return false;
  }
  // flush: erased slots go, the chains shrink to what the live keys need
  CHECK_MSPLIT(msplit_slab_hash_flush(&tb.t, nullptr));
  if (!verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)))) return false;
  // reuse: the freed slabs take the re-inserted half and the absent keys
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, concat(half, absent), 20), true))
    return false;
  if (!verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)))) return false;
  // erase all, flush: the pool is empty again
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, everything, 0), true)) return false;
  CHECK_MSPLIT(msplit_slab_hash_flush(&tb.t, nullptr));
  if (!verify(what, tb.t, o, everything, 0)) return false;
  CHECK_MSPLIT(msplit_slab_hash_check_sync(&tb.t, nullptr));
  return true;
}

// 2. Batches that repeat keys: unique inserts (one DONE per key, a value among those offered),
//    then the multimap: duplicate inserts, count, find-all, erase one copy, erase-all.
template <typename K>
bool case_duplicates(bool has_values, size_t n, uint32_t seed) {
  using A = api<K>;
  std::mt19937 rng(seed);
  const size_t distinct = std::max<size_t>(n / 16, 1);
  std::vector<K> pool_keys, absent;
  make_keys(rng, distinct, pool_keys, absent);
  std::vector<op<K>> ops;
  for (size_t i = 0; i < n; ++i)
    ops.push_back({MSPLIT_HASH_OP_INSERT, pool_keys[rng() % distinct], K(i) | random_k<K>(rng) << 24});
  const uint32_t buckets = uint32_t(distinct / 10 + 1);
  // room for every copy (n / 4 slabs in the 32-bit set's 30-entry slabs, more in wider ones)
  table<K> tb(buckets, uint32_t(n * 8 / slots<K>(has_values) + 64), has_values);
  const char *what = has_values ? "map duplicates" : "set duplicates";
  std::vector<uint8_t> res;
  std::vector<K> out;
  run_batch(tb, ops, true, res, out);
  std::unordered_map<K, std::vector<K>> offered;
  std::unordered_map<K, int> done;
  for (size_t i = 0; i < n; ++i) {
    offered[ops[i].key].push_back(ops[i].value);
    REQUIRE_OR(false, res[i] == MSPLIT_HASH_DONE || res[i] == MSPLIT_HASH_EXISTED, "%s: result %d", what,
           res[i]);
    done[ops[i].key] += res[i] == MSPLIT_HASH_DONE;
  }
  oracle<K> o{has_values, {}, 0};
  const std::vector<K> everything = concat(pool_keys, absent);
  {
    dbuf<K> d_keys(pool_keys), d_vals(distinct);
    CHECK_MSPLIT(A::find(&tb.t, d_keys.p, distinct, d_vals.p, nullptr, nullptr));
    const std::vector<K> vals = d_vals.get();
    for (size_t i = 0; i < distinct; ++i) {
      const K k = pool_keys[i];
      if (!offered.count(k)) continue;
      REQUIRE_OR(false, done[k] == 1, "%s: key %llx inserted %d times", what, ull(k), done[k]);
      const auto &vs = offered[k];
      if (has_values)
        REQUIRE_OR(false, std::find(vs.begin(), vs.end(), vals[i]) != vs.end(),
               "%s: key %llx has a value never offered", what, ull(k));
      o.m[k].push_back(has_values ? vals[i] : k);
      ++o.size;
    }
  }
  if (!verify(what, tb.t, o, everything)) return false;
  // the multimap: every copy is kept
  for (auto &x : ops) x.code = MSPLIT_HASH_OP_INSERT_DUP;
  run_batch(tb, ops, true, res, out);
  for (size_t i = 0; i < n; ++i) {
    REQUIRE_OR(false, res[i] == MSPLIT_HASH_DONE, "%s: duplicate insert result %d", what, res[i]);
    o.m[ops[i].key].push_back(has_values ? ops[i].value : ops[i].key);
    ++o.size;
  }
  if (!verify(what, tb.t, o, everything)) return false;
  // erase one copy of a third of the keys (which copy is the table's choice: then its values are
  // read back), erase-all another third
  std::vector<K> third1(pool_keys.begin(), pool_keys.begin() + distinct / 3);
  std::vector<K> third2(pool_keys.begin() + distinct / 3, pool_keys.begin() + 2 * distinct / 3);
  run_batch(tb, ops_of(MSPLIT_HASH_OP_ERASE, third1, 0), true, res, out);
  // which copy each erase took, the multiset's values tell: find-all of every key that had one, in
  // one batch (a batch per key cost a few ms of allocations each, minutes in all beside other GPU
  // processes)
  std::vector<K> erased;
  std::vector<uint32_t> off{0};
  for (size_t i = 0; i < third1.size(); ++i) {
    auto &vs = o.m[third1[i]];
    REQUIRE_OR(false, res[i] == (vs.empty() ? MSPLIT_HASH_NOT_FOUND : MSPLIT_HASH_DONE), "%s: erase one copy",
           what);
    if (vs.empty()) {
      o.m.erase(third1[i]);
      continue;
    }
    erased.push_back(third1[i]);
    off.push_back(off.back() + uint32_t(vs.size() - 1));
  }
  if (!erased.empty()) {
    dbuf<K> d_k(erased), d_all(std::max<size_t>(off.back(), 1));
    dbuf<uint32_t> d_off(off);
    CHECK_MSPLIT(A::find_all(&tb.t, d_k.p, erased.size(), d_off.p, d_all.p, nullptr));
    const std::vector<K> all = d_all.get();
    for (size_t j = 0; j < erased.size(); ++j) {
      auto &vs = o.m[erased[j]];
      std::vector<K> left(all.begin() + off[j], all.begin() + off[j + 1]), before = vs;
      std::sort(left.begin(), left.end());
      std::sort(before.begin(), before.end());
      REQUIRE_OR(false, std::includes(before.begin(), before.end(), left.begin(), left.end()),
             "%s: erase lost a wrong value", what);
      vs = left;
      --o.size;
      if (vs.empty()) o.m.erase(erased[j]);
    }
  }
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE_ALL, concat(third2, absent), 0), true))
    return false;
  if (!verify(what, tb.t, o, everything)) return false;
  CHECK_MSPLIT(msplit_slab_hash_flush(&tb.t, nullptr));
  return verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)));
}

// 3. The pool filled to a fraction of its capacity, exactly full, and exhausted mid-batch: the
//    inserts that found no slab say so, the rest are in, and the table stays usable.
template <typename K>
bool case_capacity(bool has_values, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<K> keys, absent;
  make_keys(rng, n, keys, absent);
  const uint32_t buckets =
      uint32_t(std::max<size_t>(n / (4 * slots<K>(has_values)), 1));  // chains of about 4 slabs
  oracle<K> full{has_values, {}, 0};
  for (K k : keys) full.m[k].push_back(has_values ? value_of(k, K(1)) : k), ++full.size;
  const size_t need = full.pool_slabs(bucket_counts(full, buckets));
  const char *what = has_values ? "map capacity" : "set capacity";
  const std::vector<K> everything = concat(keys, absent);
  for (double fill : {0.1, 0.5, 0.65, 0.85, 0.95}) {
    table<K> tb(buckets, uint32_t(std::ceil(need / fill)), has_values);
    oracle<K> o{has_values, {}, 0};
    if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, keys, K(1)), true)) return false;
    if (!verify(what, tb.t, o, everything, need)) return false;
    const msplit_status st = msplit_slab_hash_check_sync(&tb.t, nullptr);
    REQUIRE_OR(false, st == MSPLIT_SUCCESS, "%s: fill %.2f: check_sync %d", what, fill, int(st));
  }
  // exhaustion: half the slabs needed
  table<K> tb(buckets, uint32_t(need / 2), has_values);
  std::vector<uint8_t> res;
  std::vector<K> out;
  std::vector<op<K>> ins = ops_of(MSPLIT_HASH_OP_INSERT, keys, K(1));
  run_batch(tb, ins, true, res, out);
  oracle<K> o{has_values, {}, 0};
  std::vector<K> failed, inserted;
  for (size_t i = 0; i < n; ++i) {
    REQUIRE_OR(false, res[i] == MSPLIT_HASH_DONE || res[i] == MSPLIT_HASH_OUT_OF_SLABS, "%s: result %d", what,
           res[i]);
    if (res[i] == MSPLIT_HASH_DONE) {
      o.m[keys[i]].push_back(has_values ? ins[i].value : keys[i]);
      ++o.size;
      inserted.push_back(keys[i]);
    } else {
      failed.push_back(keys[i]);
    }
  }
  REQUIRE_OR(false, !failed.empty(), "%s: half the pool took every key", what);
  if (!verify(what, tb.t, o, everything)) return false;  // racing warps may hold back a slab
  msplit_slab_hash_stats s = tb.stats();
  REQUIRE_OR(false, s.out_of_slabs == failed.size(), "%s: out_of_slabs %llu, %zu failed", what,
         (unsigned long long)s.out_of_slabs, failed.size());
  const msplit_status st = msplit_slab_hash_check_sync(&tb.t, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_OUT_OF_CAPACITY, "%s: check_sync gave %d", what, int(st));
  REQUIRE_OR(false, std::strstr(msplit_last_error_message(), "no free slab") != nullptr, "%s: message '%s'",
         what, msplit_last_error_message());
  REQUIRE_OR(false, msplit_slab_hash_check_sync(&tb.t, nullptr) == MSPLIT_SUCCESS,
         "%s: check_sync did not reset", what);
  // still usable: erase the inserted keys, flush, and the failed ones go in
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_ERASE, inserted, 0), true)) return false;
  CHECK_MSPLIT(msplit_slab_hash_flush(&tb.t, nullptr));
  if (!verify(what, tb.t, o, everything, 0)) return false;
  failed.resize(failed.size() / 2);  // half of them fit for sure
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, failed, 5), true)) return false;
  return verify(what, tb.t, o, everything, o.pool_slabs(bucket_counts(o, buckets)));
}

// 4. Mixed batches, insert/erase/find-hit/find-miss in the given percentages, distinct keys per
//    batch, several batches in a row (apply), then a flush and the state.
template <typename K>
bool case_mixed(bool has_values, size_t batch, int batches, const int mix[4], uint32_t seed) {
  std::mt19937 rng(seed);
  const size_t universe = batch * 4;
  std::vector<K> keys, spare;
  make_keys(rng, universe, keys, spare);
  const uint32_t e = slots<K>(has_values);
  table<K> tb(uint32_t(universe / (e * 2) + 1), uint32_t(universe / e + 64) * 2, has_values);
  oracle<K> o{has_values, {}, 0};
  char what[64];
  std::snprintf(what, sizeof what, "%s%d mixed %d/%d/%d/%d", has_values ? "map" : "set",
                int(8 * sizeof(K)), mix[0], mix[1], mix[2], mix[3]);
  // half the universe in first
  std::vector<K> first(keys.begin(), keys.begin() + universe / 2);
  if (!exact_batch(what, tb, o, ops_of(MSPLIT_HASH_OP_INSERT, first, 1), true)) return false;
  for (int b = 0; b < batches; ++b) {
    std::vector<K> order = keys;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<K> present, missing;
    for (K k : order) (o.m.count(k) ? present : missing).push_back(k);
    std::vector<op<K>> ops;
    size_t pi = 0, mi = 0;
    for (size_t i = 0; i < batch && pi < present.size() && mi < missing.size(); ++i) {
      const int r = int(rng() % 100);
      uint8_t code;
      K k;
      if (r < mix[0])
        code = MSPLIT_HASH_OP_INSERT, k = missing[mi++];
      else if (r < mix[0] + mix[1])
        code = MSPLIT_HASH_OP_ERASE, k = present[pi++];
      else if (r < mix[0] + mix[1] + mix[2])
        code = MSPLIT_HASH_OP_FIND, k = present[pi++];
      else
        code = MSPLIT_HASH_OP_FIND, k = missing[mi++];
      ops.push_back({code, k, random_k<K>(rng)});
    }
    if (!exact_batch(what, tb, o, ops, false)) return false;
  }
  if (!verify(what, tb.t, o, concat(keys, spare))) return false;
  CHECK_MSPLIT(msplit_slab_hash_flush(&tb.t, nullptr));
  return verify(what, tb.t, o, concat(keys, spare),
                o.pool_slabs(bucket_counts(o, tb.t.num_buckets)));
}

// 5. Reserved keys and argument errors. For 64-bit keys: the reserved keys of that width, a key
//    that shares the empty marker's low word (legal), and a table refused by the other width's
//    functions.
template <typename K>
bool case_errors() {
  using A = api<K>;
  const char *what = sizeof(K) == 8 ? "errors 64" : "errors 32";
  table<K> tb(4, 16, true);
  const K six = sizeof(K) == 8 ? K(0x600000000ull | 0xFFFFFFFFull) : K(6);
  const std::vector<K> keys = {5, RESERVED_EMPTY<K>, six, RESERVED_ERASED<K>};
  dbuf<K> d_keys(keys), d_vals(keys), d_out(4);
  dbuf<uint8_t> d_res(4);
  d_res.poison();
  CHECK_MSPLIT(A::insert(&tb.t, d_keys.p, d_vals.p, 4, MSPLIT_HASH_OP_INSERT, d_res.p, nullptr));
  std::vector<uint8_t> res = d_res.get();
  REQUIRE_OR(false, res[0] == MSPLIT_HASH_DONE && res[1] == MSPLIT_HASH_RESERVED_KEY &&
             res[2] == MSPLIT_HASH_DONE && res[3] == MSPLIT_HASH_RESERVED_KEY,
         "%s: reserved-key results %d %d %d %d", what, res[0], res[1], res[2], res[3]);
  d_out.poison();
  CHECK_MSPLIT(A::find(&tb.t, d_keys.p, 4, d_out.p, d_res.p, nullptr));
  res = d_res.get();
  const std::vector<K> out = d_out.get();
  REQUIRE_OR(false, res[1] == MSPLIT_HASH_RESERVED_KEY && out[1] == ABSENT<K> && out[2] == six,
         "%s: find of reserved keys", what);
  REQUIRE_OR(false, tb.stats().size == 2, "%s: size %llu", what, (unsigned long long)tb.stats().size);
  msplit_status st = msplit_slab_hash_check_sync(&tb.t, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_INVALID_ARGUMENT &&
             std::strstr(msplit_last_error_message(), "4 operation(s)") &&
             std::strstr(msplit_last_error_message(),
                         sizeof(K) == 8 ? "0xfffffffffffffffe" : "0xfffffffe"),
         "%s: check_sync %d '%s'", what, int(st), msplit_last_error_message());
  // the C API serves maps of one width: the table with the other width's values is refused
  // before anything runs, naming its types
  msplit_slab_hash mixed = tb.t;
  mixed.value_type = sizeof(K) == 8 ? MSPLIT_TYPE_U32 : MSPLIT_TYPE_U64;
  st = A::find(&mixed, d_keys.p, 4, d_out.p, nullptr, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_UNSUPPORTED &&
             std::strstr(msplit_last_error_message(), sizeof(K) == 8 ? "uint64 keys" : "uint32 keys"),
         "%s: the other width's values: %d '%s'", what, int(st), msplit_last_error_message());
  // a bad tag in a mixed batch
  dbuf<uint8_t> d_ops(std::vector<uint8_t>{3, 9, 3, 7});
  CHECK_MSPLIT(A::apply(&tb.t, d_ops.p, d_keys.p, nullptr, 4, d_out.p, d_res.p, nullptr));
  res = d_res.get();
  REQUIRE_OR(false, res[1] == MSPLIT_HASH_BAD_OP && res[3] == MSPLIT_HASH_DONE && res[0] == MSPLIT_HASH_DONE,
         "%s: bad tag results %d %d %d", what, res[0], res[1], res[3]);
  // argument errors name the argument and write nothing
  msplit_slab_hash none{};
  st = A::find(&none, d_keys.p, 4, d_out.p, nullptr, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_INVALID_ARGUMENT &&
             std::strstr(msplit_last_error_message(), "not initialised"),
         "%s: uninitialised table: %d '%s'", what, int(st), msplit_last_error_message());
  st = A::insert(&tb.t, nullptr, d_vals.p, 4, MSPLIT_HASH_OP_INSERT, nullptr, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "d_keys"),
         "%s: keys NULL", what);
  st = A::insert(&tb.t, d_keys.p, nullptr, 4, MSPLIT_HASH_OP_INSERT, nullptr, nullptr);
  REQUIRE_OR(false, 
      st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "d_values"),
      "%s: map values NULL", what);
  st = A::insert(&tb.t, d_keys.p, d_vals.p, 4, MSPLIT_HASH_OP_FIND, nullptr, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_INVALID_ARGUMENT && std::strstr(msplit_last_error_message(), "mode"),
         "%s: mode", what);
  size_t bytes = 0;
  st = msplit_slab_hash_storage_bytes(0, 10, &bytes);
  REQUIRE_OR(false, st == MSPLIT_ERROR_INVALID_ARGUMENT &&
             std::strstr(msplit_last_error_message(), "num_buckets"),
         "%s: zero buckets", what);
  msplit_slab_hash t2{};
  st = msplit_slab_hash_init(&t2, tb.storage, 64, 4, 16, A::TYPE, A::TYPE, nullptr);
  REQUIRE_OR(false, st == MSPLIT_ERROR_TEMP_STORAGE, "%s: small storage gave %d", what, int(st));
  CHECK_MSPLIT(A::insert(&tb.t, d_keys.p, d_vals.p, 0, MSPLIT_HASH_OP_INSERT, nullptr, nullptr));
  return true;
}

// 6. The device reference: a kernel whose warps insert, find and erase with it, each lane its
//    own key (some lanes idle).
template <typename K>
__global__ void ref_kernel(msplit::basic_slab_hash_ref<K, K> ref, const K *keys, size_t n, K *found,
                           uint8_t *erased) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  const size_t warp_first = i - (threadIdx.x % 32);
  if (warp_first >= n) return;  // whole warps leave together
  const bool active = i < n && (i % 7) != 3;
  const K k = active ? keys[i] : 0;
  ref.insert(active, k, k + 1);
  K v = 0;
  ref.find(active, k, v);
  if (active) found[i] = v;
  const uint32_t r = ref.erase(active && (k & 1), k);
  if (active) erased[i] = uint8_t(r);
}

template <typename K>
bool case_device_ref(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<K> keys, absent;
  make_keys(rng, n, keys, absent);
  void *storage = nullptr;
  size_t bytes = 0;
  const uint32_t buckets = uint32_t(n / 40 + 1), capacity = uint32_t(n / 4 + 64);
  using map = msplit::slab_map<K, K>;
  CHECK_MSPLIT(map::storage_bytes(buckets, capacity, &bytes));
  CHECK_CUDA(cudaMalloc(&storage, bytes));
  map table;
  CHECK_MSPLIT(table.init(storage, bytes, buckets, capacity));
  dbuf<K> d_keys(keys), d_found(n);
  dbuf<uint8_t> d_erased(n);
  d_found.poison();
  d_erased.poison();
  ref_kernel<<<unsigned((n + 127) / 128), 128>>>(table.ref(), d_keys.p, n, d_found.p, d_erased.p);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<K> found = d_found.get();
  const std::vector<uint8_t> erased = d_erased.get();
  oracle<K> o{true, {}, 0};
  for (size_t i = 0; i < n; ++i) {
    if (i % 7 == 3) continue;
    REQUIRE_OR(false, found[i] == keys[i] + 1, "device ref: find(%llx) = %llx", ull(keys[i]), ull(found[i]));
    REQUIRE_OR(false, erased[i] == MSPLIT_HASH_DONE, "device ref: erase(%llx) result %d", ull(keys[i]),
           erased[i]);
    if (!(keys[i] & 1)) o.m[keys[i]].push_back(keys[i] + 1), ++o.size;
  }
  const bool ok = verify("device ref", table.c_table(), o, concat(keys, absent));
  cudaFree(storage);
  return ok;
}

// Every case for keys of type K (maps of K -> K and sets of K).
template <typename K>
bool run_width(bool quick) {
  const size_t n = quick ? 3000 : 1u << 18;
  const size_t big = quick ? 3000 : 1u << 20;
  const size_t mixed = quick ? 2000 : 1u << 16;
  bool ok = true;
  for (bool hv : {true, false}) {
    std::printf("-- %s of %d-bit keys\n", hv ? "map" : "set", int(8 * sizeof(K)));
    ok = run_case("unique keys", [&] { return case_unique<K>(hv, n, uint32_t(n / 10), 1); }) && ok;
    ok = run_case("one bucket", [&] { return case_unique<K>(hv, quick ? 600 : 4000, 1, 2); }) && ok;
    ok = run_case("duplicates, multimap", [&] { return case_duplicates<K>(hv, n, 3); }) && ok;
    ok = run_case("pool fill and exhaustion", [&] { return case_capacity<K>(hv, n, 4); }) && ok;
    const int mixes[3][4] = {{50, 50, 0, 0}, {20, 20, 30, 30}, {10, 10, 40, 40}};
    for (const auto &mix : mixes)
      ok = run_case("mixed batches",
                    [&] { return case_mixed<K>(hv, mixed, quick ? 2 : 4, mix, 5); }) &&
           ok;
  }
  if (!quick)
    ok = run_case("unique keys, 2^20",
                  [&] { return case_unique<K>(true, big, uint32_t(big / 10), 7); }) &&
         ok;
  ok = run_case("errors", [] { return case_errors<K>(); }) && ok;
  ok = run_case("device reference",
                [&] { return case_device_ref<K>(quick ? 1000 : 1u << 18, 8); }) &&
       ok;
  return ok;
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  int bits = 0;  // both widths
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--key-bits") == 0 && i + 1 < argc) bits = std::atoi(argv[++i]);
  bool ok = true;
  if (bits != 64) ok = run_width<uint32_t>(quick) && ok;
  if (bits != 32) ok = run_width<uint64_t>(quick) && ok;
  if (!ok && msplit_test_failures() == 0) FAIL("a case returned false without a failed check");
  return msplit_test_finish("slab hash");
}
