// Tests of the range tree (msplit/range_tree.h, msplit/range_tree.cuh) against a brute-force
// oracle over the points: counts, offsets, reported sets and skylines (as sets, and in decreasing
// y), for uint32_t and float coordinates, on random, duplicate-heavy, all-equal, anti-diagonal
// (every point maximal) and tiny point sets (n = 0, 1, powers of two and not), with inverted,
// degenerate (a point), boundary (bounds on point coordinates: closed) and NaN-bounded boxes. The
// outputs are poisoned before each call. Then the API: size queries with NULL pointers, argument
// errors, and a slice too small found on the device. --quick (or MSPLIT_TEST_QUICK=1): the small
// cases only, for the sanitizer runs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "msplit/range_tree.cuh"
#include "msplit_test.h"

namespace {

constexpr uint32_t POISON = 0xA5A5A5A5u;

template <typename T>
using box = msplit::range_box<T>;

template <typename T>
bool inside(T x, T y, const box<T> &b) {
  return b.x_lo <= x && x <= b.x_hi && b.y_lo <= y && y <= b.y_hi;
}

// The oracle: the indices of the points in b, ascending.
template <typename T>
std::vector<uint32_t> oracle_range(const std::vector<T> &x, const std::vector<T> &y, const box<T> &b) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < x.size(); ++i)
    if (inside(x[i], y[i], b)) out.push_back(uint32_t(i));
  return out;
}

// The oracle skyline: the points of b that no point of b dominates (greater in x and in y).
template <typename T>
std::vector<uint32_t> oracle_skyline(const std::vector<T> &x, const std::vector<T> &y, const box<T> &b) {
  const std::vector<uint32_t> in = oracle_range(x, y, b);
  // the points by x descending: p is maximal iff the highest y among points of larger x is <= p.y
  std::vector<uint32_t> by_x = in;
  std::sort(by_x.begin(), by_x.end(), [&](uint32_t a, uint32_t c) { return x[a] > x[c]; });
  std::vector<uint32_t> out;
  bool any = false;
  T best{};  // the highest y of the points of strictly larger x than the current group
  for (size_t g = 0; g < by_x.size();) {
    size_t e = g;
    T group_best = y[by_x[g]];
    while (e < by_x.size() && x[by_x[e]] == x[by_x[g]]) {
      if (group_best < y[by_x[e]]) group_best = y[by_x[e]];
      ++e;
    }
    for (size_t k = g; k < e; ++k)
      if (!any || !(best > y[by_x[k]])) out.push_back(by_x[k]);
    if (!any || best < group_best) best = group_best;
    any = true;
    g = e;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Device buffers of one case, freed at the end of it.
struct dev {
  std::vector<void *> ptrs;
  template <typename U>
  U *alloc(size_t count) {
    void *p = nullptr;
    CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(U)));
    ptrs.push_back(p);
    return static_cast<U *>(p);
  }
  template <typename U>
  U *upload(const std::vector<U> &h) {
    U *p = alloc<U>(h.size());
    if (!h.empty()) CHECK_CUDA(cudaMemcpy(p, h.data(), h.size() * sizeof(U), cudaMemcpyHostToDevice));
    return p;
  }
  ~dev() {
    for (void *p : ptrs) cudaFree(p);
  }
};

template <typename U>
std::vector<U> download(const U *d, size_t count) {
  std::vector<U> h(count);
  if (count) CHECK_CUDA(cudaMemcpy(h.data(), d, count * sizeof(U), cudaMemcpyDeviceToHost));
  return h;
}

// Builds the tree of (x, y), answers the boxes (range, then skyline) and checks every output
// against the oracle.
template <typename T>
void run_case(const char *name, const std::vector<T> &x, const std::vector<T> &y, const std::vector<box<T>> &boxes) {
  const size_t n = x.size(), q = boxes.size();
  dev d;
  const T *d_x = d.upload(x), *d_y = d.upload(y);
  const box<T> *d_boxes = d.upload(boxes);
  msplit::range_tree<T> tree;
  size_t bytes = 0, temp_bytes = 0;
  CHECK_MSPLIT(msplit::range_tree<T>::storage_bytes(n, &bytes));
  CHECK_MSPLIT(msplit::range_tree<T>::temp_bytes_for(n, q, &temp_bytes));
  void *d_storage = d.alloc<unsigned char>(bytes), *d_temp = d.alloc<unsigned char>(temp_bytes);
  CHECK_CUDA(cudaMemset(d_storage, 0xA5, bytes));
  CHECK_MSPLIT(tree.build(d_temp, &temp_bytes, d_storage, bytes, d_x, d_y, n));
  CHECK_MSPLIT(msplit::check_sync(d_temp, temp_bytes));
  REQUIRE(tree.handle().n == n, "%s: the tree holds %llu points, %zu built", name,
          (unsigned long long)tree.handle().n, n);

  for (int pass = 0; pass < 2; ++pass) {
    const bool sky = pass == 1;
    const char *what = sky ? "skyline" : "range";
    std::vector<std::vector<uint32_t>> want(q);
    uint64_t total = 0;
    for (size_t i = 0; i < q; ++i) {
      want[i] = sky ? oracle_skyline(x, y, boxes[i]) : oracle_range(x, y, boxes[i]);
      total += want[i].size();
    }
    uint32_t *d_counts = d.alloc<uint32_t>(q), *d_out = d.alloc<uint32_t>(total + 1);
    uint64_t *d_offsets = d.alloc<uint64_t>(q + 1);
    CHECK_CUDA(cudaMemset(d_counts, 0xA5, std::max<size_t>(q, 1) * sizeof(uint32_t)));
    CHECK_CUDA(cudaMemset(d_offsets, 0xA5, (q + 1) * sizeof(uint64_t)));
    CHECK_CUDA(cudaMemset(d_out, 0xA5, (total + 1) * sizeof(uint32_t)));
    if (sky) CHECK_MSPLIT(tree.skyline_count(d_temp, &temp_bytes, d_boxes, q, d_counts, d_offsets));
    else CHECK_MSPLIT(tree.count(d_temp, &temp_bytes, d_boxes, q, d_counts, d_offsets));
    CHECK_MSPLIT(msplit::check_sync(d_temp, temp_bytes));
    const std::vector<uint32_t> counts = download(d_counts, q);
    const std::vector<uint64_t> offsets = download(d_offsets, q + 1);
    uint64_t at = 0;
    bool counts_ok = true;
    for (size_t i = 0; i < q; ++i) {
      counts_ok &= CHECK(counts[i] == want[i].size(), "%s n=%zu %s: box %zu counts %u, want %zu", name, n, what, i,
                         counts[i], want[i].size());
      counts_ok &= CHECK(offsets[i] == at, "%s n=%zu %s: offset %zu is %llu, want %llu", name, n, what, i,
                         (unsigned long long)offsets[i], (unsigned long long)at);
      at += want[i].size();
    }
    counts_ok &= CHECK(offsets[q] == total, "%s n=%zu %s: total %llu, want %llu", name, n, what,
                       (unsigned long long)offsets[q], (unsigned long long)total);
    if (!counts_ok) continue;  // the slices would not be the oracle's
    if (sky) CHECK_MSPLIT(tree.skyline_report(d_temp, &temp_bytes, d_boxes, q, d_offsets, d_out));
    else CHECK_MSPLIT(tree.report(d_temp, &temp_bytes, d_boxes, q, d_offsets, d_out));
    CHECK_MSPLIT(msplit::check_sync(d_temp, temp_bytes));
    const std::vector<uint32_t> out = download(d_out, total + 1);
    CHECK(out[total] == POISON, "%s n=%zu %s: a write past the last slice", name, n, what);
    for (size_t i = 0; i < q; ++i) {
      std::vector<uint32_t> got(out.begin() + long(offsets[i]), out.begin() + long(offsets[i + 1]));
      if (sky)  // decreasing y
        for (size_t k = 1; k < got.size(); ++k)
          if (!CHECK(got[k] < n && got[k - 1] < n && !(y[got[k - 1]] < y[got[k]]),
                     "%s n=%zu skyline: box %zu is not in decreasing y at %zu", name, n, i, k))
            break;
      std::sort(got.begin(), got.end());
      if (!CHECK(got == want[i], "%s n=%zu %s: box %zu [%g, %g] x [%g, %g] reports another set of %zu points", name, n,
                 what, i, double(boxes[i].x_lo), double(boxes[i].x_hi), double(boxes[i].y_lo), double(boxes[i].y_hi),
                 got.size()))
        break;
    }
  }
}

// Coordinates of type T from integers: floats get a fraction and a sign, so that negative values
// and -0 beside +0 (equal, though the sort puts -0 first) are exercised.
template <typename T>
T coord(int64_t v) {
  if constexpr (std::is_same_v<T, float>) return v == 501 ? -0.0f : float(v - 500) / 4.0f;
  else return T(v);
}

// Boxes over coordinates drawn from [0, span): random ones (bounds on point coordinates half the
// time: the closed boundary), inverted, degenerate (one point), the whole plane, and empty in y.
template <typename T>
std::vector<box<T>> make_boxes(std::mt19937_64 &rng, const std::vector<T> &x, const std::vector<T> &y, int64_t span,
                               size_t q) {
  std::vector<box<T>> b;
  auto pick = [&](const std::vector<T> &c) {
    return (!c.empty() && rng() % 2) ? c[rng() % c.size()] : coord<T>(int64_t(rng() % uint64_t(span + 2)) - 1);
  };
  for (size_t i = 0; i < q; ++i) {
    T a = pick(x), c = pick(x), e = pick(y), f = pick(y);
    if (c < a) std::swap(a, c);
    if (f < e) std::swap(e, f);
    b.push_back({a, c, e, f});
  }
  const T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  b.push_back({lo, hi, lo, hi});
  if (!x.empty()) {
    const size_t k = rng() % x.size();
    b.push_back({x[k], x[k], y[k], y[k]});          // a point
    b.push_back({x[k], x[k], lo, hi});              // a vertical line
    b.push_back({lo, hi, y[k], y[k]});              // a horizontal line
    b.push_back({coord<T>(span), coord<T>(0), lo, hi});  // inverted in x
    b.push_back({lo, hi, coord<T>(span), coord<T>(0)});  // inverted in y
  }
  if constexpr (std::is_same_v<T, float>) b.push_back({std::nanf(""), hi, lo, hi});  // NaN: empty
  return b;
}

template <typename T>
void run_points(const char *name, std::mt19937_64 &rng, size_t n, int64_t span, size_t q) {
  std::vector<T> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = coord<T>(int64_t(rng() % uint64_t(span)));
    y[i] = coord<T>(int64_t(rng() % uint64_t(span)));
  }
  run_case(name, x, y, make_boxes(rng, x, y, span, q));
}

template <typename T>
void run_shapes(bool quick) {
  std::mt19937_64 rng(sizeof(T) * 7919 + (std::is_same_v<T, float> ? 1 : 0));
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(3), size_t(7), size_t(64), size_t(1000), size_t(1024)})
    run_points<T>("random", rng, n, 1000, 200);
  for (size_t n : {size_t(5), size_t(333), size_t(2048)}) run_points<T>("duplicates", rng, n, 8, 200);
  run_points<T>("all equal", rng, 777, 1, 50);
  {  // anti-diagonal: every point of a box is maximal (the longest skylines)
    const size_t n = 513;
    std::vector<T> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = coord<T>(int64_t(i));
      y[i] = coord<T>(int64_t(n - i));
    }
    run_case("anti-diagonal", x, y, make_boxes(rng, x, y, int64_t(n), 100));
  }
  if (quick) return;
  run_points<T>("random", rng, 100003, 1 << 20, 1000);
  run_points<T>("duplicates", rng, 65537, 64, 500);
  run_points<T>("random", rng, 1 << 18, 1 << 12, 300);
}

// The API: size queries without pointers, argument errors, and the device-side check of a slice.
void run_api() {
  size_t bytes = 0, temp_bytes = 0;
  CHECK(msplit_range_tree_storage_bytes(10, MSPLIT_TYPE_F32, &bytes) == MSPLIT_SUCCESS && bytes > 0,
        "storage_bytes: %s", msplit_last_error_message());
  CHECK(msplit_range_tree_storage_bytes(10, MSPLIT_TYPE_U64, &bytes) == MSPLIT_ERROR_UNSUPPORTED,
        "storage_bytes of U64 is unsupported");
  CHECK(msplit_range_tree_storage_bytes(10, MSPLIT_TYPE_U32, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "storage_bytes: bytes NULL");
  CHECK(msplit_range_tree_storage_bytes(size_t(1) << 32, MSPLIT_TYPE_U32, &bytes) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "storage_bytes: 2^32 points");
  CHECK(msplit_range_tree_build(nullptr, &temp_bytes, nullptr, nullptr, 0, nullptr, nullptr, 1000, MSPLIT_TYPE_F32,
                                nullptr) == MSPLIT_SUCCESS && temp_bytes >= 1000 * sizeof(uint32_t),
        "build's size query with NULL pointers: %s", msplit_last_error_message());
  for (int sky = 0; sky < 2; ++sky) {
    temp_bytes = 0;
    const msplit_status st = sky ? msplit_range_tree_skyline_count(nullptr, &temp_bytes, nullptr, nullptr, 5000,
                                                                   nullptr, nullptr, nullptr)
                                 : msplit_range_tree_count(nullptr, &temp_bytes, nullptr, nullptr, 5000, nullptr,
                                                           nullptr, nullptr);
    CHECK(st == MSPLIT_SUCCESS && temp_bytes >= 5000 * sizeof(uint32_t), "count's size query with NULL pointers: %s",
          msplit_last_error_message());
    temp_bytes = 0;
    CHECK(msplit_range_tree_report(nullptr, &temp_bytes, nullptr, nullptr, 5000, nullptr, nullptr, nullptr) ==
                  MSPLIT_SUCCESS && temp_bytes > 0,
          "report's size query with NULL pointers: %s", msplit_last_error_message());
  }

  // a small tree for the errors
  const std::vector<uint32_t> x = {3, 1, 2, 2}, y = {1, 5, 2, 9};
  const std::vector<box<uint32_t>> boxes = {{0, 9, 0, 9}, {2, 2, 0, 9}};
  dev d;
  const uint32_t *d_x = d.upload(x), *d_y = d.upload(y);
  const box<uint32_t> *d_boxes = d.upload(boxes);
  msplit_range_tree tree;
  CHECK_MSPLIT(msplit_range_tree_storage_bytes(x.size(), MSPLIT_TYPE_U32, &bytes));
  CHECK_MSPLIT(msplit_range_tree_build(nullptr, &temp_bytes, nullptr, nullptr, 0, nullptr, nullptr, x.size(),
                                       MSPLIT_TYPE_U32, nullptr));
  void *d_storage = d.alloc<unsigned char>(bytes), *d_temp = d.alloc<unsigned char>(temp_bytes);
  size_t small = temp_bytes - 1;
  CHECK(msplit_range_tree_build(d_temp, &small, &tree, d_storage, bytes, d_x, d_y, x.size(), MSPLIT_TYPE_U32,
                                nullptr) == MSPLIT_ERROR_TEMP_STORAGE,
        "build with too little temporary storage");
  CHECK(msplit_range_tree_build(d_temp, &temp_bytes, &tree, d_storage, bytes - 1, d_x, d_y, x.size(), MSPLIT_TYPE_U32,
                                nullptr) == MSPLIT_ERROR_TEMP_STORAGE,
        "build with too little storage");
  CHECK(msplit_range_tree_build(d_temp, &temp_bytes, &tree, d_storage, bytes, nullptr, d_y, x.size(), MSPLIT_TYPE_U32,
                                nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "build with d_x NULL");
  CHECK_MSPLIT(msplit_range_tree_build(d_temp, &temp_bytes, &tree, d_storage, bytes, d_x, d_y, x.size(),
                                       MSPLIT_TYPE_U32, nullptr));
  uint32_t *d_counts = d.alloc<uint32_t>(2), *d_out = d.alloc<uint32_t>(8);
  uint64_t *d_offsets = d.alloc<uint64_t>(3);
  size_t count_bytes = 0;
  CHECK_MSPLIT(msplit_range_tree_count(nullptr, &count_bytes, nullptr, nullptr, 2, nullptr, nullptr, nullptr));
  void *d_ctemp = d.alloc<unsigned char>(count_bytes);
  CHECK(msplit_range_tree_count(d_ctemp, &count_bytes, &tree, d_boxes, 2, nullptr, nullptr, nullptr) ==
            MSPLIT_ERROR_INVALID_ARGUMENT,
        "count with both outputs NULL");
  CHECK(msplit_range_tree_count(d_ctemp, &count_bytes, nullptr, d_boxes, 2, d_counts, nullptr, nullptr) ==
            MSPLIT_ERROR_INVALID_ARGUMENT,
        "count with the tree NULL");
  msplit::range_tree<float> typed;
  CHECK(msplit::detail::rt_count_run<float>("test", msplit::detail::rt_query::RANGE, d_ctemp, &count_bytes, &tree,
                                            nullptr, 0, d_counts, nullptr, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "a U32 tree queried as float");
  CHECK(typed.count(d_ctemp, &count_bytes, nullptr, 0, d_counts, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "an unbuilt tree queried");
  // offsets that give box 0 (4 points) a slice of 1: the device records the error, writes 1
  const std::vector<uint64_t> offsets = {0, 1, 2};
  CHECK_CUDA(cudaMemcpy(d_offsets, offsets.data(), 3 * sizeof(uint64_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0xA5, 8 * sizeof(uint32_t)));
  CHECK_MSPLIT(msplit_range_tree_report(d_ctemp, &count_bytes, &tree, d_boxes, 2, d_offsets, d_out, nullptr));
  CHECK(msplit_check_sync(d_ctemp, count_bytes, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "a slice too small is found on the device");
  // (both boxes overflow their slices: either may be the one recorded)
  const char *said = msplit_last_error_message();
  CHECK(std::strstr(said, "msplit: range_tree: query ") != nullptr &&
            std::strstr(said, " but its slice of the output holds 1 ") != nullptr,
        "the slice error names the range tree, the box and the sizes: %s", said);
  const std::vector<uint32_t> out = download(d_out, 8);
  CHECK(out[2] == POISON, "a slice too small: nothing written past the slices");
  CHECK_MSPLIT(msplit_range_tree_skyline_report(d_ctemp, &count_bytes, &tree, d_boxes, 2, d_offsets, d_out, nullptr));
  CHECK(msplit_check_sync(d_ctemp, count_bytes, nullptr) == MSPLIT_ERROR_INVALID_ARGUMENT,
        "a skyline slice too small (box 0 has 3 maximal points) is found on the device");
  CHECK(download(d_out, 8)[2] == POISON, "a skyline slice too small: nothing written past the slices");
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  run_api();
  run_shapes<uint32_t>(quick);
  run_shapes<float>(quick);
  return msplit_test_finish("range_tree%s", quick ? " (quick)" : "");
}
