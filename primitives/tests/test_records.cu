// Records tests: gather, scatter, split (by bucket ids and by a functor) and sort of records of
// 4 to 256 bytes, sizes that are not a multiple of 4 and arrays that are not 16-byte aligned
// included, against CPU oracles: the gather and scatter by their definition, the split by a
// stable counting sort of the positions, the sort by std::stable_sort of the positions by key.
// Records are compared byte for byte; the permutations (input positions) check stability.
// Outputs are poisoned before each run: an argument error must write nothing, an index out of
// range must be reported by msplit_check_sync and leave only its own record unwritten, a bucket id
// out of range must leave the records unwritten.
//   test_records [--quick]   (--quick: small sizes, for compute-sanitizer)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "msplit/records.cuh"
#include "msplit/records.h"
#include "msplit_test.h"

namespace {

constexpr unsigned char POISON = 0xAB;
// Every record size class: vector widths 16, 8, 4 and 1, and odd sizes.
const size_t RECORD_SIZES[] = {4, 5, 12, 13, 16, 20, 32, 36, 64, 100, 128, 250, 256};
// Byte offsets of the arrays from a 256-byte aligned allocation: the vector width falls with them.
const size_t MISALIGN[] = {0, 1, 4, 8};

using bytes = std::vector<unsigned char>;

// A device allocation, poisoned, with the array placed `shift` bytes into it.
struct dev {
  unsigned char *base = nullptr;
  size_t shift = 0, size = 0;
  dev(size_t bytes_, size_t shift_ = 0) : shift(shift_), size(bytes_) {
    CHECK_CUDA(cudaMalloc(&base, bytes_ + shift_ + 1));
    CHECK_CUDA(cudaMemset(base, POISON, bytes_ + shift_ + 1));
  }
  ~dev() { cudaFree(base); }
  dev(const dev &) = delete;
  dev &operator=(const dev &) = delete;
  unsigned char *p() const { return base + shift; }
  template <typename T> T *as() const { return reinterpret_cast<T *>(p()); }
  template <typename T> void put(const std::vector<T> &h) const {
    if (!h.empty()) CHECK_CUDA(cudaMemcpy(p(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  template <typename T> std::vector<T> get(size_t count) const {
    std::vector<T> h(count);
    if (count) CHECK_CUDA(cudaMemcpy(h.data(), p(), count * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

bytes random_bytes(size_t count, std::mt19937_64 &rng) {
  bytes b(count);
  for (size_t i = 0; i < count; i += 8) {
    const uint64_t r = rng();
    std::memcpy(&b[i], &r, count - i < 8 ? count - i : 8);
  }
  return b;
}

// Temporary storage of the size a query gave, with one extra byte poisoned: the call must not
// write past what it asked for (compute-sanitizer sees that too).
struct temp {
  dev d;
  size_t bytes;
  explicit temp(size_t b) : d(b), bytes(b) {}
};

// The first differing record of two arrays of record_bytes records, or -1.
long first_mismatch(const bytes &got, const bytes &want, size_t record_bytes) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) return long(i / record_bytes);
  return -1;
}

msplit_status synced(msplit_status st, const temp &t) {
  if (st != MSPLIT_SUCCESS) return st;
  return msplit_check_sync(t.d.p(), t.bytes, nullptr);
}

// ---- gather and scatter ------------------------------------------------------------------------

void test_gather(size_t rb, size_t n, size_t num_in, size_t shift, std::mt19937_64 &rng) {
  const bytes in = random_bytes(num_in * rb, rng);
  std::vector<uint32_t> idx(n);
  for (auto &x : idx) x = uint32_t(rng() % (num_in ? num_in : 1));
  dev d_in(in.size(), shift), d_out(n * rb, shift), d_idx(n * 4);
  d_in.put(in);
  d_idx.put(idx);
  size_t tb = 0;
  CHECK_MSPLIT(msplit_gather_records(nullptr, &tb, nullptr, nullptr, nullptr, n, num_in, rb, nullptr));
  temp t(tb);
  const msplit_status st =
      synced(msplit_gather_records(t.d.p(), &tb, d_in.p(), d_idx.as<uint32_t>(), d_out.p(), n, num_in, rb, nullptr), t);
  REQUIRE(st == MSPLIT_SUCCESS, "gather R=%zu n=%zu shift=%zu: %s", rb, n, shift, msplit_last_error_message());
  bytes want(n * rb);
  for (size_t i = 0; i < n; ++i) std::memcpy(&want[i * rb], &in[idx[i] * rb], rb);
  const long bad = first_mismatch(d_out.get<unsigned char>(n * rb), want, rb);
  CHECK(bad < 0, "gather R=%zu n=%zu num_in=%zu shift=%zu: record %ld differs", rb, n, num_in, shift, bad);
}

void test_scatter(size_t rb, size_t n, size_t shift, std::mt19937_64 &rng) {
  const size_t num_out = n + 7;  // records no index names stay as they were
  const bytes in = random_bytes(n * rb, rng);
  std::vector<uint32_t> slots(num_out);
  std::iota(slots.begin(), slots.end(), 0u);
  std::shuffle(slots.begin(), slots.end(), rng);
  const std::vector<uint32_t> idx(slots.begin(), slots.begin() + long(n));
  dev d_in(in.size(), shift), d_out(num_out * rb, shift), d_idx(n * 4);
  d_in.put(in);
  d_idx.put(idx);
  size_t tb = 0;
  CHECK_MSPLIT(msplit_scatter_records(nullptr, &tb, nullptr, nullptr, nullptr, n, num_out, rb, nullptr));
  temp t(tb);
  const msplit_status st = synced(
      msplit_scatter_records(t.d.p(), &tb, d_in.p(), d_idx.as<uint32_t>(), d_out.p(), n, num_out, rb, nullptr), t);
  REQUIRE(st == MSPLIT_SUCCESS, "scatter R=%zu n=%zu: %s", rb, n, msplit_last_error_message());
  bytes want(num_out * rb, POISON);
  for (size_t i = 0; i < n; ++i) std::memcpy(&want[idx[i] * rb], &in[i * rb], rb);
  const long bad = first_mismatch(d_out.get<unsigned char>(num_out * rb), want, rb);
  CHECK(bad < 0, "scatter R=%zu n=%zu shift=%zu: output record %ld differs", rb, n, shift, bad);
}

// An index out of range: reported with its position, its record unwritten, the others moved.
void test_bad_index(bool scatter, std::mt19937_64 &rng) {
  const size_t rb = 36, n = 5000, bound = n, bad_at = 1234;
  const bytes in = random_bytes(n * rb, rng);
  std::vector<uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  std::shuffle(idx.begin(), idx.end(), rng);
  idx[bad_at] = uint32_t(bound + 3);
  dev d_in(in.size()), d_out(n * rb), d_idx(n * 4);
  d_in.put(in);
  d_idx.put(idx);
  size_t tb = 0;
  CHECK_MSPLIT(msplit_gather_records(nullptr, &tb, nullptr, nullptr, nullptr, n, bound, rb, nullptr));
  temp t(tb);
  const msplit_status st = synced(
      scatter ? msplit_scatter_records(t.d.p(), &tb, d_in.p(), d_idx.as<uint32_t>(), d_out.p(), n, bound, rb, nullptr)
              : msplit_gather_records(t.d.p(), &tb, d_in.p(), d_idx.as<uint32_t>(), d_out.p(), n, bound, rb, nullptr),
      t);
  const std::string msg = msplit_last_error_message();
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT && msg.find("d_indexes[1234] = 5003") != std::string::npos,
        "%s with a bad index: %s: %s", scatter ? "scatter" : "gather", msplit_status_string(st), msg.c_str());
  bytes want(n * rb, POISON);
  for (size_t i = 0; i < n; ++i) {
    if (i == bad_at) continue;
    if (scatter) std::memcpy(&want[idx[i] * rb], &in[i * rb], rb);
    else std::memcpy(&want[i * rb], &in[idx[i] * rb], rb);
  }
  const long bad = first_mismatch(d_out.get<unsigned char>(n * rb), want, rb);
  CHECK(bad < 0, "%s with a bad index: record %ld differs (only the bad one is left unwritten)",
        scatter ? "scatter" : "gather", bad);
}

// ---- split ---------------------------------------------------------------------------------------

enum id_dist { UNIFORM_IDS, ONE_BUCKET, SKEWED };

std::vector<uint32_t> make_ids(size_t n, uint32_t m, id_dist d, std::mt19937_64 &rng) {
  std::vector<uint32_t> ids(n);
  for (auto &x : ids) {
    switch (d) {
      case UNIFORM_IDS: x = uint32_t(rng() % m); break;
      case ONE_BUCKET: x = m / 2; break;
      case SKEWED: x = rng() % 8 ? 0 : uint32_t(rng() % m); break;
    }
  }
  return ids;
}

// The stable split's permutation and offsets (counting sort of the positions).
void split_oracle(const std::vector<uint32_t> &ids, uint32_t m, std::vector<uint32_t> &perm,
                  std::vector<size_t> &offsets) {
  offsets.assign(size_t(m) + 1, 0);
  for (uint32_t b : ids) ++offsets[b + 1];
  for (uint32_t b = 0; b < m; ++b) offsets[b + 1] += offsets[b];
  std::vector<size_t> next(offsets.begin(), offsets.end() - 1);
  perm.assign(ids.size(), 0);
  for (size_t i = 0; i < ids.size(); ++i) perm[next[ids[i]]++] = uint32_t(i);
}

bytes permuted(const bytes &in, const std::vector<uint32_t> &perm, size_t rb) {
  bytes out(perm.size() * rb);
  for (size_t j = 0; j < perm.size(); ++j) std::memcpy(&out[j * rb], &in[size_t(perm[j]) * rb], rb);
  return out;
}

// The three forms: records, permutation and offsets; records alone; permutation alone.
void test_split(size_t rb, size_t n, uint32_t m, id_dist dist, std::mt19937_64 &rng) {
  const bytes in = random_bytes(n * rb, rng);
  const std::vector<uint32_t> ids = make_ids(n, m, dist, rng);
  std::vector<uint32_t> want_perm;
  std::vector<size_t> want_off;
  split_oracle(ids, m, want_perm, want_off);
  const bytes want = permuted(in, want_perm, rb);
  // every vector width across the split sizes: 16 (32), 8 (256 shifted by 8), 4 (4, 100), 1 (13)
  const size_t shift = rb == 256 ? 8 : 0;
  dev d_in(in.size(), shift), d_ids(n * 4), d_out(n * rb), d_perm(n * 4), d_off((size_t(m) + 1) * sizeof(size_t));
  d_in.put(in);
  d_ids.put(ids);
  size_t tb = 0;
  CHECK_MSPLIT(msplit_split_records(nullptr, &tb, nullptr, nullptr, nullptr, nullptr, n, rb, m, nullptr, nullptr));
  temp t(tb);
  for (int form = 0; form < 3; ++form) {
    CHECK_CUDA(cudaMemset(d_out.p(), POISON, n * rb));
    CHECK_CUDA(cudaMemset(d_perm.p(), POISON, n * 4));
    void *out = form == 2 ? nullptr : d_out.p();
    uint32_t *perm = form == 1 ? nullptr : d_perm.as<uint32_t>();
    size_t *off = form == 1 ? nullptr : d_off.as<size_t>();
    const msplit_status st =
        synced(msplit_split_records(t.d.p(), &tb, d_in.p(), d_ids.as<uint32_t>(), out, perm, n, rb, m, off, nullptr), t);
    REQUIRE(st == MSPLIT_SUCCESS, "split R=%zu n=%zu m=%u form %d: %s", rb, n, m, form, msplit_last_error_message());
    if (out) {
      const long bad = first_mismatch(d_out.get<unsigned char>(n * rb), want, rb);
      CHECK(bad < 0, "split R=%zu n=%zu m=%u dist %d form %d: output record %ld differs", rb, n, m, int(dist), form,
            bad);
    }
    if (perm) {
      CHECK(d_perm.get<uint32_t>(n) == want_perm, "split R=%zu n=%zu m=%u dist %d form %d: permutation differs", rb, n,
            m, int(dist), form);
      CHECK(d_off.get<size_t>(size_t(m) + 1) == want_off, "split R=%zu n=%zu m=%u form %d: offsets differ", rb, n, m,
            form);
    }
  }
}

// A bucket id at or beyond m: reported with its record's position, and no record written, on both
// paths (the tiled split for m <= 256, the multisplit and gather above).
void test_bad_bucket(uint32_t m, std::mt19937_64 &rng) {
  const size_t rb = 20, n = 3000, bad_at = 2999;
  const bytes in = random_bytes(n * rb, rng);
  std::vector<uint32_t> ids = make_ids(n, m, UNIFORM_IDS, rng);
  ids[bad_at] = m + 4;
  dev d_in(in.size()), d_ids(n * 4), d_out(n * rb);
  d_in.put(in);
  d_ids.put(ids);
  size_t tb = 0;
  CHECK_MSPLIT(msplit_split_records(nullptr, &tb, nullptr, nullptr, nullptr, nullptr, n, rb, m, nullptr, nullptr));
  temp t(tb);
  const msplit_status st = synced(
      msplit_split_records(t.d.p(), &tb, d_in.p(), d_ids.as<uint32_t>(), d_out.p(), nullptr, n, rb, m, nullptr, nullptr),
      t);
  const std::string msg = msplit_last_error_message();
  const std::string want = "record 2999 is " + std::to_string(m + 4);
  CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT && msg.find(want) != std::string::npos,
        "split into %u buckets with a bad bucket id: %s: %s", m, msplit_status_string(st), msg.c_str());
  const long bad = first_mismatch(d_out.get<unsigned char>(n * rb), bytes(n * rb, POISON), rb);
  CHECK(bad < 0, "split into %u buckets with a bad bucket id wrote output record %ld", m, bad);
}

// The functor form on a record type: the bucket is a field of the record.
struct rec36 {
  uint32_t w[9];
};
struct field_bucket {
  uint32_t m;
  __device__ uint32_t operator()(const rec36 &r) const { return r.w[4] % m; }
};

void test_split_by(size_t n, uint32_t m, std::mt19937_64 &rng) {
  std::vector<rec36> in(n);
  for (auto &r : in)
    for (auto &x : r.w) x = uint32_t(rng());
  std::vector<uint32_t> ids(n), want_perm;
  std::vector<size_t> want_off;
  for (size_t i = 0; i < n; ++i) ids[i] = in[i].w[4] % m;
  split_oracle(ids, m, want_perm, want_off);
  dev d_in(n * sizeof(rec36)), d_out(n * sizeof(rec36)), d_perm(n * 4), d_off((size_t(m) + 1) * sizeof(size_t));
  d_in.put(in);
  size_t tb = 0;
  CHECK_MSPLIT(msplit::split_records_by<rec36>(nullptr, &tb, nullptr, nullptr, nullptr, n, m, field_bucket{m}, nullptr));
  temp t(tb);
  const msplit_status st =
      synced(msplit::split_records_by(t.d.p(), &tb, d_in.as<rec36>(), d_out.as<rec36>(), d_perm.as<uint32_t>(), n, m,
                                      field_bucket{m}, d_off.as<size_t>()),
             t);
  REQUIRE(st == MSPLIT_SUCCESS, "split_records_by n=%zu m=%u: %s", n, m, msplit_last_error_message());
  CHECK(d_perm.get<uint32_t>(n) == want_perm, "split_records_by n=%zu m=%u: permutation differs", n, m);
  CHECK(d_off.get<size_t>(size_t(m) + 1) == want_off, "split_records_by n=%zu m=%u: offsets differ", n, m);
  const std::vector<rec36> out = d_out.get<rec36>(n);
  bool same = true;
  for (size_t j = 0; j < n && same; ++j) same = std::memcmp(&out[j], &in[want_perm[j]], sizeof(rec36)) == 0;
  CHECK(same, "split_records_by n=%zu m=%u: records differ", n, m);
}

// ---- sort ----------------------------------------------------------------------------------------

template <typename Key>
Key key_at(const bytes &in, size_t i, size_t rb, size_t off) {
  Key k = 0;
  std::memcpy(&k, &in[i * rb + off], sizeof k);  // little-endian, as the GPU
  return k;
}

// Keys drawn from a small range (many equal: stability) or the full range.
template <typename Key>
void test_sort(size_t rb, size_t n, size_t off, bool few_keys, std::mt19937_64 &rng) {
  bytes in = random_bytes(n * rb, rng);
  if (few_keys)
    for (size_t i = 0; i < n; ++i) {
      const Key k = Key(rng() % 17);
      std::memcpy(&in[i * rb + off], &k, sizeof k);
    }
  // the stable order is the (key, index) order; keys are read out once, as a comparison that
  // reads them from records far apart misses the cache twice (seconds per million records)
  std::vector<std::pair<Key, uint32_t>> keyed(n);
  for (size_t i = 0; i < n; ++i) keyed[i] = {key_at<Key>(in, i, rb, off), uint32_t(i)};
  std::sort(keyed.begin(), keyed.end());
  std::vector<uint32_t> want_perm(n);
  for (size_t i = 0; i < n; ++i) want_perm[i] = keyed[i].second;
  dev d_in(in.size()), d_out(n * rb, 8), d_perm(n * 4);
  d_in.put(in);
  const msplit_type type = sizeof(Key) == 4 ? MSPLIT_TYPE_U32 : MSPLIT_TYPE_U64;
  size_t tb = 0;
  CHECK_MSPLIT(msplit_sort_records(nullptr, &tb, nullptr, nullptr, nullptr, n, rb, off, type, nullptr));
  temp t(tb);
  const msplit_status st =
      synced(msplit_sort_records(t.d.p(), &tb, d_in.p(), d_out.p(), d_perm.as<uint32_t>(), n, rb, off, type, nullptr), t);
  REQUIRE(st == MSPLIT_SUCCESS, "sort R=%zu n=%zu key %zu at %zu: %s", rb, n, sizeof(Key), off,
          msplit_last_error_message());
  CHECK(d_perm.get<uint32_t>(n) == want_perm, "sort R=%zu n=%zu key %zu bytes at %zu (%s keys): permutation differs",
        rb, n, sizeof(Key), off, few_keys ? "few" : "random");
  const long bad = first_mismatch(d_out.get<unsigned char>(n * rb), permuted(in, want_perm, rb), rb);
  CHECK(bad < 0, "sort R=%zu n=%zu key at %zu: output record %ld differs", rb, n, off, bad);
}

// ---- argument errors -------------------------------------------------------------------------------

// Each call must return its status, name what is wrong, and write nothing.
void test_argument_errors() {
  const size_t rb = 16, n = 100;
  dev d_in(n * rb), d_out(n * rb), d_idx(n * 4);
  CHECK_CUDA(cudaMemset(d_idx.p(), 0, n * 4));
  size_t tb = 0;
  CHECK_MSPLIT(msplit_split_records(nullptr, &tb, nullptr, nullptr, nullptr, nullptr, n, rb, 4, nullptr, nullptr));
  temp t(tb);
  size_t small = 16;
  unsigned char *in = d_in.p(), *out = d_out.p(), *tp = t.d.p();
  const uint32_t *idx = d_idx.as<uint32_t>();
  uint32_t *perm_on_ids = d_idx.as<uint32_t>();
  struct error_case {
    const char *what;
    msplit_status want;
    const char *says;  // in the message
    std::function<msplit_status()> call;
  };
  const error_case cases[] = {
      {"record_bytes 3", MSPLIT_ERROR_UNSUPPORTED, "record_bytes is 3",
       [&] { return msplit_gather_records(tp, &tb, in, idx, out, n, n, 3, nullptr); }},
      {"record_bytes 257", MSPLIT_ERROR_UNSUPPORTED, "record_bytes is 257",
       [&] { return msplit_scatter_records(tp, &tb, in, idx, out, n, n, 257, nullptr); }},
      {"temp_bytes NULL", MSPLIT_ERROR_INVALID_ARGUMENT, "temp_bytes is NULL",
       [&] { return msplit_gather_records(tp, nullptr, in, idx, out, n, n, rb, nullptr); }},
      {"NULL indexes", MSPLIT_ERROR_INVALID_ARGUMENT, "d_indexes is NULL",
       [&] { return msplit_gather_records(tp, &tb, in, nullptr, out, n, n, rb, nullptr); }},
      {"out overlaps in", MSPLIT_ERROR_INVALID_ARGUMENT, "overlaps d_records_in",
       [&] { return msplit_gather_records(tp, &tb, in, idx, in + rb, n, n, rb, nullptr); }},
      {"temp too small", MSPLIT_ERROR_TEMP_STORAGE, "temp_bytes is 16",
       [&] { return msplit_gather_records(tp, &small, in, idx, out, n, n, rb, nullptr); }},
      {"no buckets", MSPLIT_ERROR_INVALID_ARGUMENT, "num_buckets is 0",
       [&] { return msplit_split_records(tp, &tb, in, idx, out, nullptr, n, rb, 0, nullptr, nullptr); }},
      {"no split output", MSPLIT_ERROR_INVALID_ARGUMENT, "both NULL",
       [&] { return msplit_split_records(tp, &tb, in, idx, nullptr, nullptr, n, rb, 4, nullptr, nullptr); }},
      {"permutation overlaps ids", MSPLIT_ERROR_INVALID_ARGUMENT, "d_permutation overlaps",
       [&] { return msplit_split_records(tp, &tb, in, idx, out, perm_on_ids, n, rb, 4, nullptr, nullptr); }},
      {"split temp too small", MSPLIT_ERROR_TEMP_STORAGE, "needed",
       [&] { return msplit_split_records(tp, &small, in, idx, out, nullptr, n, rb, 4, nullptr, nullptr); }},
      {"key outside the record", MSPLIT_ERROR_INVALID_ARGUMENT, "not inside a 16-byte record",
       [&] { return msplit_sort_records(tp, &tb, in, out, nullptr, n, rb, 12, MSPLIT_TYPE_U64, nullptr); }},
      {"float keys", MSPLIT_ERROR_UNSUPPORTED, "key type 3",
       [&] { return msplit_sort_records(tp, &tb, in, out, nullptr, n, rb, 0, MSPLIT_TYPE_F32, nullptr); }},
      {"no sort output", MSPLIT_ERROR_INVALID_ARGUMENT, "both NULL",
       [&] { return msplit_sort_records(tp, &tb, in, nullptr, nullptr, n, rb, 0, MSPLIT_TYPE_U32, nullptr); }},
  };
  for (const error_case &c : cases) {
    const msplit_status st = c.call();
    CHECK(st == c.want && std::strstr(msplit_last_error_message(), c.says), "%s: %s (%s), expected %s saying \"%s\"",
          c.what, msplit_status_string(st), msplit_last_error_message(), msplit_status_string(c.want), c.says);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  const long bad = first_mismatch(d_out.get<unsigned char>(n * rb), bytes(n * rb, POISON), rb);
  CHECK(bad < 0, "an argument error wrote output record %ld", bad);
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  std::mt19937_64 rng(20260401);
  const std::vector<size_t> counts =
      quick ? std::vector<size_t>{0, 1, 1000, 5003} : std::vector<size_t>{0, 1, 2, 1000, 65537, (size_t(1) << 20) + 3};

  for (size_t rb : RECORD_SIZES)
    for (size_t n : counts) {
      for (size_t shift : MISALIGN)
        if (shift == 0 || n < counts.back()) test_gather(rb, n, n + 11, shift, rng);
      test_gather(rb, n, 1, 0, rng);  // every index the same record
      test_scatter(rb, n, rb % 2 ? 1 : 0, rng);
    }
  std::printf("gather and scatter done\n");
  test_bad_index(false, rng);
  test_bad_index(true, rng);

  const uint32_t buckets[] = {1, 2, 3, 17, 256, 257, 1000, 65536};
  const size_t split_sizes[] = {4, 13, 32, 100, 256};
  for (size_t rb : split_sizes)
    for (uint32_t m : buckets)
      for (size_t n : counts) {
        if (!quick || m <= 257) test_split(rb, n, m, UNIFORM_IDS, rng);
        if (n > 1 && rb == 32) {
          test_split(rb, n, m, ONE_BUCKET, rng);
          test_split(rb, n, m, SKEWED, rng);
        }
      }
  for (size_t n : counts) test_split_by(n, 7, rng);
  test_split_by(quick ? 5003 : 100000, 300, rng);
  test_bad_bucket(5, rng);
  test_bad_bucket(1000, rng);
  std::printf("split done\n");

  for (size_t rb : RECORD_SIZES)
    for (size_t n : counts) {
      test_sort<uint32_t>(rb, n, rb - 4, false, rng);  // at the end: unaligned for odd sizes
      test_sort<uint32_t>(rb, n, 0, true, rng);
      if (rb >= 8) test_sort<uint64_t>(rb, n, 0, true, rng);
      if (rb >= 11) test_sort<uint64_t>(rb, n, 3, false, rng);  // unaligned 64-bit keys
    }
  std::printf("sort done\n");
  test_argument_errors();
  return msplit_test_finish("records%s", quick ? " (quick)" : "");
}
