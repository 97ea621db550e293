// Segmented sort against a CPU oracle (std::stable_sort of each segment), element for element.
//
// A table of cases: segment-length distribution x key distribution x key/value/offset types x
// order x pointer alignment, plus the sizes around the tile (4,096) and the argument errors. The
// oracle orders keys with its own host code (floats: -0.0 equal to +0.0, NaNs beyond the
// infinities by sign). Values carry the input index, so stability is checked. Outputs are
// poisoned before each run; items outside every segment must stay poisoned, and so must every
// output after an argument error or a bad offset.
//
//   test_segmented_sort [--quick]    (or MSPLIT_TEST_QUICK=1): small sizes only, for compute-sanitizer
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "msplit/msplit.h"
#include "msplit/segmented_sort.h"
#include "segsort_test_cases.h"
#include "msplit_test.h"

namespace {

long g_runs = 0;
constexpr unsigned char POISON = 0xA5;

// Device buffers of a run, each allocated with one spare element so that pointers can be unaligned.
struct dev_buf {
  unsigned char *base = nullptr;
  unsigned char *p = nullptr;
  size_t bytes = 0;
  void alloc(size_t b, size_t shift) {
    bytes = b;
    CHECK_CUDA(cudaMalloc(&base, b + 16));
    p = base + shift;
  }
  ~dev_buf() {
    if (base) cudaFree(base);
  }
};

std::string describe(const test_case &c, size_t n, size_t segments) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s n=%zu segs=%zu keys=%s %s/%s off=%s%s%s", len_name[c.lens], n, segments,
                key_name[c.keys], type_name(c.key_type), type_name(c.value_type), type_name(c.offset_type),
                c.descending ? " desc" : "", c.unaligned ? " unaligned" : "");
  return buf;
}

void run_case(const test_case &c, uint64_t seed) {
  rng r(seed);
  std::vector<uint64_t> begin, end;
  size_t n = 0;
  make_segments(c, r, begin, end, n);
  const size_t S = begin.size();
  std::vector<unsigned char> keys;
  fill_keys(c, r, keys, n);
  const size_t kb = type_size(c.key_type), vb = type_size(c.value_type), ob = type_size(c.offset_type);
  std::vector<unsigned char> values(n * vb), offsets_b(S * ob), offsets_e(S * ob);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = uint64_t(i) * 0x100000001ull;  // the input index (both halves for u64)
    if (vb) std::memcpy(&values[i * vb], &v, vb);
  }
  for (size_t s = 0; s < S; ++s) {
    std::memcpy(&offsets_b[s * ob], &begin[s], ob);
    std::memcpy(&offsets_e[s * ob], &end[s], ob);
  }
  // the oracle: stable sort of each segment's (key, index) items (the keys sorted beside their
  // indices, not through them: an indirect comparison made the 2^26-item segment take a minute)
  std::vector<unsigned char> want_k(n * kb, POISON), want_v(n * vb, POISON);
  struct keyed {
    host_key key;
    size_t index;
  };
  std::vector<keyed> seg;
  for (size_t s = 0; s < S; ++s) {
    seg.resize(end[s] - begin[s]);
    for (size_t j = 0; j < seg.size(); ++j) seg[j] = {host_key_of(keys.data(), begin[s] + j, c.key_type), begin[s] + j};
    if (c.descending)
      std::stable_sort(seg.begin(), seg.end(), [](const keyed &a, const keyed &b) { return host_less(b.key, a.key); });
    else
      std::stable_sort(seg.begin(), seg.end(), [](const keyed &a, const keyed &b) { return host_less(a.key, b.key); });
    for (size_t j = 0; j < seg.size(); ++j) {
      std::memcpy(&want_k[(begin[s] + j) * kb], &keys[seg[j].index * kb], kb);
      if (vb) std::memcpy(&want_v[(begin[s] + j) * vb], &values[seg[j].index * vb], vb);
    }
  }
  // the device run
  const size_t shift_k = c.unaligned ? kb : 0, shift_v = c.unaligned ? vb : 0, shift_o = c.unaligned ? ob : 0;
  dev_buf kin, kout, vin, vout, ob_d, oe_d, temp;
  kin.alloc(n * kb, shift_k);
  kout.alloc(n * kb, shift_k);
  vin.alloc(n * vb, shift_v);
  vout.alloc(n * vb, shift_v);
  ob_d.alloc(S * ob, shift_o);
  oe_d.alloc(S * ob, shift_o);
  CHECK_CUDA(cudaMemcpy(kin.p, keys.data(), n * kb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(vin.p, values.data(), n * vb, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(ob_d.p, offsets_b.data(), S * ob, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(oe_d.p, offsets_e.data(), S * ob, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(kout.base, POISON, n * kb + 16));
  CHECK_CUDA(cudaMemset(vout.base, POISON, n * vb + 16));
  const std::string what = describe(c, n, S);
  void *vi = c.value_type == MSPLIT_TYPE_NONE ? nullptr : vin.p, *vo = c.value_type == MSPLIT_TYPE_NONE ? nullptr : vout.p;
  size_t temp_bytes = 0;
  msplit_status st = msplit_segmented_sort(nullptr, &temp_bytes, kin.p, kout.p, vi, vo, n, S, ob_d.p, oe_d.p,
                                           c.key_type, c.value_type, c.offset_type, c.descending, nullptr);
  CHECK(st == MSPLIT_SUCCESS, "%s: size query: %s", what.c_str(), msplit_last_error_message());
  if (st != MSPLIT_SUCCESS) return;
  temp.alloc(temp_bytes, 0);
  CHECK_CUDA(cudaMemset(temp.base, POISON, temp_bytes));
  st = msplit_segmented_sort(temp.p, &temp_bytes, kin.p, kout.p, vi, vo, n, S, ob_d.p, oe_d.p, c.key_type,
                             c.value_type, c.offset_type, c.descending, nullptr);
  CHECK(st == MSPLIT_SUCCESS, "%s: %s", what.c_str(), msplit_last_error_message());
  st = msplit_check_sync(temp.p, temp_bytes, nullptr);
  CHECK(st == MSPLIT_SUCCESS, "%s: check: %s", what.c_str(), msplit_last_error_message());
  ++g_runs;
  // compare, with the spare element after each output still poisoned
  std::vector<unsigned char> got_k(n * kb + kb), got_v(n * vb + vb);
  CHECK_CUDA(cudaMemcpy(got_k.data(), kout.p, n * kb + kb, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_v.data(), vout.p, n * vb + vb, cudaMemcpyDeviceToHost));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool ok = std::memcmp(&got_k[i * kb], &want_k[i * kb], kb) == 0 &&
                    (!vb || std::memcmp(&got_v[i * vb], &want_v[i * vb], vb) == 0);
    if (!ok && bad++ == 0) first = i;
  }
  for (size_t b = 0; b < kb; ++b) bad += got_k[n * kb + b] != POISON;
  for (size_t b = 0; b < vb; ++b) bad += got_v[n * vb + b] != POISON;
  if (bad) {
    uint64_t gk = 0, wk = 0, gv = 0, wv = 0;
    if (first < n) {
      std::memcpy(&gk, &got_k[first * kb], kb);
      std::memcpy(&wk, &want_k[first * kb], kb);
      if (vb) {
        std::memcpy(&gv, &got_v[first * vb], vb);
        std::memcpy(&wv, &want_v[first * vb], vb);
      }
    }
    FAIL("%s: %zu wrong elements, first at %zu: key %llx value %llx, want %llx %llx", what.c_str(), bad, first,
           (unsigned long long)gk, (unsigned long long)gv, (unsigned long long)wk, (unsigned long long)wv);
  }
}

// Argument errors: the status, a message naming the argument, and untouched outputs.
void run_argument_errors() {
  const size_t n = 64, S = 4;
  const uint32_t offsets[] = {0, 10, 30, 40, 64};
  uint32_t *keys = nullptr, *out = nullptr, *vals = nullptr, *vout = nullptr, *off = nullptr;
  int32_t *ioff = nullptr;
  void *temp = nullptr;
  CHECK_CUDA(cudaMalloc(&keys, n * 4));
  CHECK_CUDA(cudaMalloc(&out, n * 4));
  CHECK_CUDA(cudaMalloc(&vals, n * 4));
  CHECK_CUDA(cudaMalloc(&vout, n * 4));
  CHECK_CUDA(cudaMalloc(&off, sizeof offsets));
  CHECK_CUDA(cudaMalloc(&ioff, sizeof offsets));
  CHECK_CUDA(cudaMemset(keys, 0x11, n * 4));
  CHECK_CUDA(cudaMemset(vals, 0x22, n * 4));
  CHECK_CUDA(cudaMemcpy(off, offsets, sizeof offsets, cudaMemcpyHostToDevice));
  size_t bytes = 0;
  CHECK(msplit_segmented_sort(nullptr, &bytes, keys, out, vals, vout, n, S, off, off + 1, MSPLIT_TYPE_U32,
                               MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, 0, nullptr) == MSPLIT_SUCCESS,
         "size query: %s", msplit_last_error_message());
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  auto untouched = [&](const char *what) {
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<unsigned char> h(n * 4);
    CHECK_CUDA(cudaMemcpy(h.data(), out, n * 4, cudaMemcpyDeviceToHost));
    bool ok = std::all_of(h.begin(), h.end(), [](unsigned char b) { return b == POISON; });
    CHECK_CUDA(cudaMemcpy(h.data(), vout, n * 4, cudaMemcpyDeviceToHost));
    ok = ok && std::all_of(h.begin(), h.end(), [](unsigned char b) { return b == POISON; });
    CHECK(ok, "%s: an output was written", what);
  };
  struct arg_case {
    const char *what, *must_name;
    msplit_status want;
    void *temp;
    size_t *bytes;
    const void *kin;
    void *kout;
    const void *vin;
    void *vout;
    const void *b, *e;
    msplit_type kt, vt, ot;
    size_t temp_bytes;
  };
  const arg_case cases[] = {
      {"temp_bytes NULL", "temp_bytes", MSPLIT_ERROR_INVALID_ARGUMENT, temp, nullptr, keys, out, vals, vout, off, off + 1,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"keys in NULL", "d_keys_in", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, nullptr, out, vals, vout, off, off + 1,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"keys out NULL", "d_keys_out", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, nullptr, vals, vout, off, off + 1,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"values in NULL", "d_values_in", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, out, nullptr, vout, off,
       off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"values out NULL", "d_values_out", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, out, vals, nullptr, off,
       off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"begin NULL", "d_begin_offsets", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, out, vals, vout, nullptr,
       off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"end NULL", "d_end_offsets", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, out, vals, vout, off, nullptr,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"keys overlap", "d_keys_out overlaps d_keys_in", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, keys + 3,
       vals, vout, off, off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"values overlap", "d_values_out overlaps d_values_in", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, out,
       vals, vals + 1, off, off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"key/value overlap", "key and value buffers overlap", MSPLIT_ERROR_INVALID_ARGUMENT, temp, &bytes, keys, out,
       vals, out + 8, off, off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"temp too small", "temp_bytes", MSPLIT_ERROR_TEMP_STORAGE, temp, &bytes, keys, out, vals, vout, off, off + 1,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes - 1},
      {"key type", "key type", MSPLIT_ERROR_UNSUPPORTED, temp, &bytes, keys, out, vals, vout, off, off + 1,
       MSPLIT_TYPE_F64, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, bytes},
      {"value type", "value type", MSPLIT_ERROR_UNSUPPORTED, temp, &bytes, keys, out, vals, vout, off, off + 1,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_F32, MSPLIT_TYPE_U32, bytes},
      {"offset type", "offset type", MSPLIT_ERROR_UNSUPPORTED, temp, &bytes, keys, out, vals, vout, off, off + 1,
       MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, MSPLIT_TYPE_F32, bytes},
  };
  for (const arg_case &c : cases) {
    CHECK_CUDA(cudaMemset(out, POISON, n * 4));
    CHECK_CUDA(cudaMemset(vout, POISON, n * 4));
    size_t tb = c.temp_bytes;
    size_t *tbp = c.bytes ? &tb : nullptr;
    const msplit_status st =
        msplit_segmented_sort(c.temp, tbp, c.kin, c.kout, c.vin, c.vout, n, S, c.b, c.e, c.kt, c.vt, c.ot, 0, nullptr);
    CHECK(st == c.want, "%s: status %s, want %s", c.what, msplit_status_string(st), msplit_status_string(c.want));
    CHECK(std::strstr(msplit_last_error_message(), c.must_name) != nullptr, "%s: message \"%s\" does not name %s",
           c.what, msplit_last_error_message(), c.must_name);
    untouched(c.what);
    ++g_runs;
  }
  // offsets checked on the device: the sort returns success, the check names the segment
  struct bad_offsets {
    const char *what, *must_name;
    std::vector<int64_t> begin, end;
    msplit_type ot;
  };
  const bad_offsets bads[] = {
      {"begin > end", "segment 2 is out of order: d_begin_offsets[2] = 31 > d_end_offsets[2] = 30",
       {0, 10, 31, 40}, {10, 30, 30, 64}, MSPLIT_TYPE_U32},
      {"end > n", "segment 3 is beyond n: d_end_offsets[3] = 65 > n = 64", {0, 10, 30, 40}, {10, 30, 40, 65},
       MSPLIT_TYPE_U64},
      {"negative offset", "segment 1", {0, -5, 30, 40}, {10, 30, 40, 64}, MSPLIT_TYPE_I32},
      {"two bad segments", "segment 1 is out of order", {0, 20, 30, 40}, {10, 10, 40, 99}, MSPLIT_TYPE_I64},
  };
  void *db = nullptr, *de = nullptr;
  CHECK_CUDA(cudaMalloc(&db, 8 * S));
  CHECK_CUDA(cudaMalloc(&de, 8 * S));
  for (const bad_offsets &c : bads) {
    std::vector<unsigned char> hb(8 * S), he(8 * S);
    const size_t ob = type_size(c.ot);
    for (size_t s = 0; s < S; ++s) {
      std::memcpy(&hb[s * ob], &c.begin[s], ob);  // little-endian: the low bytes
      std::memcpy(&he[s * ob], &c.end[s], ob);
    }
    CHECK_CUDA(cudaMemcpy(db, hb.data(), 8 * S, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(de, he.data(), 8 * S, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(out, POISON, n * 4));
    CHECK_CUDA(cudaMemset(vout, POISON, n * 4));
    size_t tb = bytes;
    msplit_status st = msplit_segmented_sort(temp, &tb, keys, out, vals, vout, n, S, db, de, MSPLIT_TYPE_U32,
                                             MSPLIT_TYPE_U32, c.ot, 0, nullptr);
    CHECK(st == MSPLIT_SUCCESS, "%s: queued with %s", c.what, msplit_status_string(st));
    st = msplit_check_sync(temp, bytes, nullptr);
    CHECK(st == MSPLIT_ERROR_INVALID_ARGUMENT, "%s: check gave %s", c.what, msplit_status_string(st));
    CHECK(std::strstr(msplit_last_error_message(), c.must_name) != nullptr, "%s: message \"%s\" lacks \"%s\"", c.what,
           msplit_last_error_message(), c.must_name);
    untouched(c.what);
    ++g_runs;
  }
  // and a good call on the same storage clears the record
  size_t tb = bytes;
  CHECK(msplit_segmented_sort(temp, &tb, keys, out, vals, vout, n, S, off, off + 1, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32,
                               MSPLIT_TYPE_U32, 0, nullptr) == MSPLIT_SUCCESS &&
             msplit_check_sync(temp, bytes, nullptr) == MSPLIT_SUCCESS,
         "good offsets after bad ones: %s", msplit_last_error_message());
  CHECK(msplit_check_sync(nullptr, bytes, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT, "check_sync(NULL)");
  {  // overlapping long segments: more long ones than n items can hold is refused, nothing written
    const size_t n2 = 10000;
    const uint32_t ob[] = {0, 2000, 5000}, oe[] = {5000, 7000, 10000};
    uint32_t *k2 = nullptr, *o2 = nullptr, *d2 = nullptr;
    void *t2 = nullptr;
    CHECK_CUDA(cudaMalloc(&k2, 2 * n2 * 4));
    CHECK_CUDA(cudaMalloc(&o2, sizeof ob + sizeof oe));
    CHECK_CUDA(cudaMemset(k2, POISON, 2 * n2 * 4));
    CHECK_CUDA(cudaMemcpy(o2, ob, sizeof ob, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(o2 + 3, oe, sizeof oe, cudaMemcpyHostToDevice));
    d2 = k2 + n2;
    size_t b2 = 0;
    CHECK(msplit_segmented_sort(nullptr, &b2, d2, k2, nullptr, nullptr, n2, 3, o2, o2 + 3, MSPLIT_TYPE_U32,
                                 MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, nullptr) == MSPLIT_SUCCESS, "overlap: size");
    CHECK_CUDA(cudaMalloc(&t2, b2));
    CHECK(msplit_segmented_sort(t2, &b2, d2, k2, nullptr, nullptr, n2, 3, o2, o2 + 3, MSPLIT_TYPE_U32,
                                 MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, 0, nullptr) == MSPLIT_SUCCESS, "overlap: queue");
    CHECK(msplit_check_sync(t2, b2, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT &&
               std::strstr(msplit_last_error_message(), "segment 2 = [5000, 10000) overlaps") != nullptr,
           "overlapping long segments: \"%s\"", msplit_last_error_message());
    std::vector<unsigned char> h(n2 * 4);
    CHECK_CUDA(cudaMemcpy(h.data(), k2, n2 * 4, cudaMemcpyDeviceToHost));
    CHECK(std::all_of(h.begin(), h.end(), [](unsigned char b) { return b == POISON; }), "overlap: output written");
    ++g_runs;
    cudaFree(t2);
    cudaFree(o2);
    cudaFree(k2);
  }
  cudaFree(db);
  cudaFree(de);
  cudaFree(temp);
  cudaFree(ioff);
  cudaFree(off);
  cudaFree(vout);
  cudaFree(vals);
  cudaFree(out);
  cudaFree(keys);
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  const size_t big = quick ? size_t(1) << 14 : size_t(1) << 20;  // items of the distribution cases
  std::vector<test_case> cases;
  const msplit_type U32 = MSPLIT_TYPE_U32, I32 = MSPLIT_TYPE_I32, F32 = MSPLIT_TYPE_F32, U64 = MSPLIT_TYPE_U64,
                    NONE = MSPLIT_TYPE_NONE;
  // 1. every length distribution, pairs u32 + u32, random keys
  const size_t lens_size[] = {quick ? size_t(500) : size_t(100000), quick ? size_t(3000) : size_t(1000000), big, big, big,
                              quick ? size_t(1) << 16 : size_t(1) << 24, quick ? size_t(1) << 16 : size_t(1) << 23, big};
  for (int l = ALL_EMPTY; l <= MIXED_GAPS; ++l)
    cases.push_back({len_kind(l), lens_size[l], KEYS_RANDOM, U32, U32, U32, false, false});
  // 2. key distributions on the binned lengths and on long segments, both orders
  for (int k = KEYS_RANDOM; k <= KEYS_FEW; ++k)
    for (len_kind l : {UNIFORM_32, UNIFORM_4096, MIXED_GAPS})
      for (bool desc : {false, true}) cases.push_back({l, big / 2, key_kind(k), U32, U32, U32, desc, false});
  // 3. every key type, value type and offset type
  for (msplit_type kt : {U32, I32, F32, U64})
    for (msplit_type vt : {NONE, U32, U64})
      cases.push_back({MIXED_GAPS, big / 2, KEYS_RANDOM, kt, vt, kt == U64 ? U64 : kt == I32 ? MSPLIT_TYPE_I32 : U32,
                       kt == I32, kt == F32});
  for (bool desc : {false, true}) {
    cases.push_back({MIXED_GAPS, big / 2, KEYS_FLOAT_SPECIAL, F32, U32, U64, desc, false});
    cases.push_back({UNIFORM_32, big / 4, KEYS_FLOAT_SPECIAL, F32, NONE, U32, desc, true});
  }
  cases.push_back({MIXED_GAPS, big / 2, KEYS_FEW, U64, U64, MSPLIT_TYPE_I64, true, true});
  // 4. sizes around the tile, one segment and mixed lengths each
  std::vector<size_t> sizes = {0, 1, 31, 32, 33, TILE - 1, TILE, TILE + 1, 2 * TILE + 1, 3 * TILE + 5};
  if (!quick) {
    sizes.push_back(1000007);
    sizes.push_back(size_t(1) << 26);
  }
  for (size_t n : sizes) {
    cases.push_back({ONE_SEGMENT, n, KEYS_RANDOM, U32, U32, U32, false, n % 2 == 1});
    if (n <= (size_t(1) << 20)) cases.push_back({UNIFORM_4096, n, KEYS_FEW, F32, U32, U64, n % 2 == 0, false});
  }
  if (!quick) cases.push_back({UNIFORM_32, size_t(1) << 26, KEYS_RANDOM, U32, U32, U32, false, false});
  // 5. segments sorted by radix halves (more than 2^17 items with 4-byte keys, 2^21 with 8-byte
  //    ones): every key type, with and without values, equal and special keys, both orders
  const size_t r32 = (size_t(32) << 12) + 1, r64 = (size_t(512) << 12) + 1;  // the shortest of each
  cases.push_back({ONE_SEGMENT, r32, KEYS_RANDOM, U32, U32, U32, false, false});
  cases.push_back({ONE_SEGMENT, r32 + TILE, KEYS_FEW, I32, NONE, U32, true, true});
  cases.push_back({RADIX_MIX, quick ? 3 * r32 : size_t(3) << 22, KEYS_RANDOM, U32, U32, U64, false, true});
  cases.push_back({ONE_SEGMENT, quick ? r32 + 5 : size_t(1) << 22, KEYS_FLOAT_SPECIAL, F32, U32, U32, false, false});
  cases.push_back({ONE_SEGMENT, quick ? r32 + 7 : (size_t(1) << 22) + 3, KEYS_FLOAT_SPECIAL, F32, NONE, U32, true, false});
  cases.push_back({ONE_SEGMENT, r64, KEYS_RANDOM, U64, NONE, U32, false, false});
  if (!quick) {
    cases.push_back({ONE_SEGMENT, r64 + 3 * TILE + 17, KEYS_FEW, U64, U64, MSPLIT_TYPE_I64, true, true});
    cases.push_back({RADIX_MIX, size_t(3) << 23, KEYS_RANDOM, U64, U32, U64, false, false});
    cases.push_back({ONE_SEGMENT, size_t(1) << 21, KEYS_EQUAL, U32, U32, U32, false, false});
    cases.push_back({MANY_PLUS_ONE_BIG, size_t(1) << 23, KEYS_RANDOM, I32, U64, U32, true, false});
  }

  uint64_t seed = 1;
  for (const test_case &c : cases) run_case(c, seed++);
  run_argument_errors();
  return msplit_test_finish("segmented sort: %ld runs%s", g_runs, quick ? " (quick)" : "");
}
