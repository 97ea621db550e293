// Histogram against a CPU oracle, element for element.
//
// A table of cases: sample type x even or range bins x m x n x distribution x counter width x
// accumulate x pointer alignment, through the C API; then the C++ API with functors of its own
// (bins >= m not counted, the sliced and the global-atomic paths, a staged functor). The oracle
// computes each bin with its own host code. Histograms are poisoned (or, when accumulating,
// filled with known counts) before each run, with a guard counter on each side; argument errors
// are checked to return the right status, name the argument, and leave the histogram untouched.
//
//   test_histogram [--quick]    (or MSPLIT_TEST_QUICK=1): small sizes only, for compute-sanitizer
// Exit: 0 pass, 1 fail, 77 no CUDA device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "msplit/histogram.cuh"
#include "msplit/histogram.h"
#include "msplit/detail/histogram/tuning.h"
#include "msplit_test.h"
#include "../bench/bench_util.h"

namespace {

long g_runs = 0;

enum dist_kind { UNIFORM, ALL_EQUAL, SORTED, REVERSE, FEW, ZIPF, NUM_DISTS };
const char *dist_name[] = {"uniform", "all-equal", "sorted", "reverse", "few-distinct", "zipf"};
enum bin_kind { EVEN, RANGE };

// A failure, described for the reader: the harness counts it and prints the first ones.
void fail(const std::string &what) { FAIL("%s", what.c_str()); }

// device buffers that only grow, reused across cases
bench::dev_pool g_samples, g_hist, g_levels, g_temp;

template <typename T> msplit_type tag_of();
template <> msplit_type tag_of<uint8_t>() { return MSPLIT_TYPE_U8; }
template <> msplit_type tag_of<int8_t>() { return MSPLIT_TYPE_I8; }
template <> msplit_type tag_of<uint16_t>() { return MSPLIT_TYPE_U16; }
template <> msplit_type tag_of<int16_t>() { return MSPLIT_TYPE_I16; }
template <> msplit_type tag_of<uint32_t>() { return MSPLIT_TYPE_U32; }
template <> msplit_type tag_of<int32_t>() { return MSPLIT_TYPE_I32; }
template <> msplit_type tag_of<float>() { return MSPLIT_TYPE_F32; }
template <> msplit_type tag_of<double>() { return MSPLIT_TYPE_F64; }
template <typename T> const char *name_of() {
  switch (tag_of<T>()) {
    case MSPLIT_TYPE_U8: return "u8";
    case MSPLIT_TYPE_I8: return "i8";
    case MSPLIT_TYPE_U16: return "u16";
    case MSPLIT_TYPE_I16: return "i16";
    case MSPLIT_TYPE_U32: return "u32";
    case MSPLIT_TYPE_I32: return "i32";
    case MSPLIT_TYPE_F32: return "f32";
    default: return "f64";
  }
}

// The sample values drawn: the whole type for integers, [-1000, 1000] for floats (plus NaN and
// infinities among the extremes).
template <typename T> double dom_lo() { return std::is_floating_point_v<T> ? -1000.0 : double(std::numeric_limits<T>::min()); }
template <typename T> double dom_hi() { return std::is_floating_point_v<T> ? 1000.0 : double(std::numeric_limits<T>::max()); }
template <typename T> T to_type(double v) {
  if constexpr (std::is_floating_point_v<T>) return T(v);
  else return T(std::min(std::max(std::floor(v), dom_lo<T>()), dom_hi<T>()));
}

template <typename T>
T extreme(std::mt19937_64 &g) {
  const int k = int(g() % 5);
  if constexpr (std::is_floating_point_v<T>) {
    const T v[] = {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                   -std::numeric_limits<T>::infinity(), T(-0.0), std::numeric_limits<T>::max()};
    return v[k];
  } else {
    const T v[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1),
                   T(std::numeric_limits<T>::max() - 1)};
    return v[k];
  }
}

template <typename T>
std::vector<T> make_samples(dist_kind d, size_t n, std::mt19937_64 &g) {
  std::uniform_real_distribution<double> u(dom_lo<T>(), dom_hi<T>());
  std::vector<T> s(n);
  const double span = dom_hi<T>() - dom_lo<T>();
  std::vector<T> few(5);
  for (T &f : few) f = to_type<T>(u(g));
  std::vector<double> cdf;
  std::vector<T> ranked;
  if (d == ZIPF) {  // 1000 values, the r-th drawn with weight 1 / r^1.2
    double c = 0;
    for (int r = 1; r <= 1000; ++r) {
      c += 1.0 / std::pow(r, 1.2);
      cdf.push_back(c);
      ranked.push_back(to_type<T>(u(g)));
    }
  }
  std::uniform_real_distribution<double> unit(0, 1);
  const T one = to_type<T>(dom_lo<T>() + 0.45 * span);
  for (size_t i = 0; i < n; ++i) {
    switch (d) {
      case ALL_EQUAL: s[i] = one; break;
      case FEW: s[i] = few[g() % 5]; break;
      case ZIPF: {
        const size_t r = std::lower_bound(cdf.begin(), cdf.end(), unit(g) * cdf.back()) - cdf.begin();
        s[i] = ranked[std::min<size_t>(r, ranked.size() - 1)];
        break;
      }
      default: s[i] = to_type<T>(u(g)); break;
    }
    if ((d == UNIFORM || d == ZIPF || d == FEW) && g() % 64 == 0) s[i] = extreme<T>(g);
  }
  if (d == SORTED) std::sort(s.begin(), s.end());
  if (d == REVERSE) std::sort(s.begin(), s.end(), [](T a, T b) { return b < a; });
  return s;
}

template <typename T>
using level_t = msplit::histogram_level_t<T>;

// The bins: even ones cover the middle 80% of the drawn values, range boundaries are drawn
// from the same stretch (equal neighbours included, for integers), so that samples fall
// below, inside and above.
template <typename T>
struct bins_case {
  uint32_t m;
  double lower = 0, width = 1;  // even
  std::vector<level_t<T>> levels;  // range: m + 1
};

template <typename T>
bins_case<T> make_bins(bin_kind kind, uint32_t m, std::mt19937_64 &g) {
  using L = level_t<T>;
  bins_case<T> b;
  b.m = m;
  const double span = dom_hi<T>() - dom_lo<T>(), a = dom_lo<T>() + 0.1 * span, z = dom_hi<T>() - 0.1 * span;
  if (kind == EVEN) {
    if constexpr (std::is_floating_point_v<T>) {
      b.lower = double(T(a));
      b.width = double(T((z - a) / m));
    } else {
      b.lower = std::floor(a);
      b.width = std::min(std::max(1.0, std::floor((z - a) / m)), double(std::numeric_limits<L>::max()));
    }
  } else {
    std::uniform_real_distribution<double> u(a, z);
    b.levels.resize(size_t(m) + 1);
    for (L &l : b.levels) l = std::is_floating_point_v<L> ? L(u(g)) : L(std::floor(u(g)));
    std::sort(b.levels.begin(), b.levels.end());
  }
  return b;
}

// The oracle: the bin of one sample, or m for none.
template <typename T>
uint32_t oracle_bin(bin_kind kind, const bins_case<T> &b, T x) {
  using L = level_t<T>;
  const L v = L(x);
  if (kind == RANGE) {
    const size_t c = std::upper_bound(b.levels.begin(), b.levels.end(), v) - b.levels.begin();
    return c >= 1 && c <= b.m ? uint32_t(c - 1) : b.m;
  }
  if constexpr (std::is_floating_point_v<L>) {
    const L lo = L(b.lower), w = L(b.width);
    if (!(v >= lo)) return b.m;
    const L q = (v - lo) / w;
    return q < L(b.m) ? uint32_t(q) : b.m;
  } else {
    const int64_t lo = int64_t(b.lower), w = int64_t(b.width), xv = int64_t(v);
    if (xv < lo) return b.m;
    const int64_t q = (xv - lo) / w;
    return q < int64_t(b.m) ? uint32_t(q) : b.m;
  }
}

struct run_opts {
  bool wide = false, accumulate = false, shift_in = false, shift_out = false;
};

// Reads back m counters (plus the guard on each side) and compares with `want`.
bool check_hist(const std::string &label, const unsigned char *d_base, uint32_t m, bool wide,
                const std::vector<uint64_t> &want, const std::vector<uint64_t> &guards) {
  const size_t cb = wide ? 8 : 4;
  std::vector<unsigned char> raw((size_t(m) + 2) * cb);
  CHECK_CUDA(cudaMemcpy(raw.data(), d_base, raw.size(), cudaMemcpyDeviceToHost));
  auto at = [&](size_t i) -> uint64_t {
    if (wide) {
      uint64_t v;
      std::memcpy(&v, &raw[i * 8], 8);
      return v;
    }
    uint32_t v;
    std::memcpy(&v, &raw[i * 4], 4);
    return v;
  };
  if (at(0) != guards[0] || at(size_t(m) + 1) != guards[1]) {
    fail(label + ": a guard counter next to the histogram was written");
    return false;
  }
  for (uint32_t i = 0; i < m; ++i) {
    if (at(size_t(i) + 1) != want[i]) {
      fail(label + ": bin " + std::to_string(i) + " is " + std::to_string(at(size_t(i) + 1)) + ", expected " +
           std::to_string(want[i]));
      return false;
    }
  }
  return msplit_test::pass();
}

// Fills counters 0..m+1 of the histogram buffer: guards and poison (or initial counts when
// accumulating). Returns the values written.
std::vector<uint64_t> fill_hist(unsigned char *d_base, uint32_t m, bool wide, bool accumulate, std::mt19937_64 &g) {
  std::vector<uint64_t> v(size_t(m) + 2);
  const uint64_t poison = wide ? 0xA5A5A5A5A5A5A5A5ull : 0xA5A5A5A5ull;
  for (size_t i = 0; i < v.size(); ++i) {
    const bool guard = i == 0 || i == v.size() - 1;
    v[i] = guard || !accumulate ? poison : (wide ? (g() >> 20) : (g() >> 34));  // u64: above 2^32 too
  }
  std::vector<unsigned char> raw(v.size() * (wide ? 8 : 4));
  for (size_t i = 0; i < v.size(); ++i) {
    if (wide) std::memcpy(&raw[i * 8], &v[i], 8);
    else {
      const uint32_t w = uint32_t(v[i]);
      std::memcpy(&raw[i * 4], &w, 4);
    }
  }
  CHECK_CUDA(cudaMemcpy(d_base, raw.data(), raw.size(), cudaMemcpyHostToDevice));
  return v;
}

// One case through the C API.
template <typename T>
void run_case(bin_kind kind, uint32_t m, size_t n, dist_kind dist, run_opts o, uint64_t seed) {
  ++g_runs;
  std::mt19937_64 g(seed);
  const bins_case<T> b = make_bins<T>(kind, m, g);
  const std::vector<T> s = make_samples<T>(dist, n, g);
  char label[256];
  std::snprintf(label, sizeof label, "%s %s m=%u n=%zu %s%s%s%s%s", name_of<T>(), kind == EVEN ? "even" : "range", m, n,
                dist_name[dist], o.wide ? " u64" : " u32", o.accumulate ? " accumulate" : "",
                o.shift_in ? " samples+1" : "", o.shift_out ? " histogram+1" : "");
  // 1. device inputs: samples (shifted by one element), boundaries, histogram with guards
  unsigned char *d_s = static_cast<unsigned char *>(g_samples.get((n + 1) * sizeof(T) + 16));
  T *d_samples = reinterpret_cast<T *>(d_s) + (o.shift_in ? 1 : 0);
  if (n) CHECK_CUDA(cudaMemcpy(d_samples, s.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  const size_t cb = o.wide ? 8 : 4;
  // the histogram starts one counter into the buffer (the guard); shift_out moves the whole
  // buffer by one more counter, so that the histogram is not 16-byte aligned
  unsigned char *d_hb = static_cast<unsigned char *>(g_hist.get((size_t(m) + 3) * cb)) + (o.shift_out ? cb : 0);
  void *d_hist = d_hb + cb;
  void *d_levels = nullptr;
  if (kind == RANGE) {
    d_levels = g_levels.get(b.levels.size() * sizeof(level_t<T>));
    CHECK_CUDA(cudaMemcpy(d_levels, b.levels.data(), b.levels.size() * sizeof(level_t<T>), cudaMemcpyHostToDevice));
  }
  const std::vector<uint64_t> init = fill_hist(d_hb, m, o.wide, o.accumulate, g);
  // 2. oracle
  std::vector<uint64_t> want(m, 0);
  if (o.accumulate)
    for (uint32_t i = 0; i < m; ++i) want[i] = init[size_t(i) + 1];
  for (size_t i = 0; i < n; ++i) {
    const uint32_t bin = oracle_bin(kind, b, s[i]);
    if (bin < m) ++want[bin];
  }
  if (!o.wide)
    for (uint64_t &w : want) w &= 0xFFFFFFFFull;
  // 3. run: size query, then the call
  size_t temp_bytes = 0;
  const msplit_type ct = o.wide ? MSPLIT_TYPE_U64 : MSPLIT_TYPE_U32;
  msplit_status st =
      kind == EVEN ? msplit_histogram_even(nullptr, &temp_bytes, d_samples, d_hist, n, m, b.lower, b.width,
                                           tag_of<T>(), ct, o.accumulate, nullptr)
                   : msplit_histogram_range(nullptr, &temp_bytes, d_samples, d_hist, n, m, d_levels,
                                            tag_of<T>(), ct, o.accumulate, nullptr);
  if (st != MSPLIT_SUCCESS) {
    fail(std::string(label) + ": size query: " + msplit_last_error_message());
    return;
  }
  if (temp_bytes != sizeof(msplit_error_record)) {  // the error record alone, as histogram.h says
    fail(std::string(label) + ": size query: " + std::to_string(temp_bytes) + " bytes, not the record's " +
         std::to_string(sizeof(msplit_error_record)));
    return;
  }
  void *d_temp = g_temp.get(temp_bytes);
  st = kind == EVEN ? msplit_histogram_even(d_temp, &temp_bytes, d_samples, d_hist, n, m, b.lower, b.width,
                                            tag_of<T>(), ct, o.accumulate, nullptr)
                    : msplit_histogram_range(d_temp, &temp_bytes, d_samples, d_hist, n, m, d_levels,
                                             tag_of<T>(), ct, o.accumulate, nullptr);
  if (st != MSPLIT_SUCCESS) {
    fail(std::string(label) + ": " + msplit_last_error_message());
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  check_hist(label, d_hb, m, o.wide, want, {init[0], init[size_t(m) + 1]});
}

template <typename T>
size_t tile_of() {
  return size_t(msplit::tuning::HIST_BLOCK_THREADS) * msplit::tuning::HIST_LOADS_PER_THREAD * (16 / sizeof(T));
}

// Every case of one sample type.
template <typename T>
void run_type(bool quick, uint64_t &seed) {
  const uint32_t ms_full[] = {1, 2, 31, 256, 257, 4096, 65536};
  const uint32_t ms_quick[] = {1, 2, 31, 257, 65536};
  const size_t tile = tile_of<T>();
  for (int kind = EVEN; kind <= RANGE; ++kind) {
    const bin_kind k = bin_kind(kind);
    // 1. every m with every distribution, options varied across the cases
    int c = 0;
    for (uint32_t m : quick ? std::vector<uint32_t>(std::begin(ms_quick), std::end(ms_quick))
                            : std::vector<uint32_t>(std::begin(ms_full), std::end(ms_full))) {
      for (int d = 0; d < NUM_DISTS; ++d) {
        if (quick && d != UNIFORM && d != ZIPF) continue;
        run_opts o;
        o.wide = c & 1;
        o.accumulate = (c >> 1) & 1;
        o.shift_in = (c % 3) == 0;
        o.shift_out = (c % 5) == 0;
        ++c;
        run_case<T>(k, m, quick ? 3001 : 100003, dist_kind(d), o, ++seed);
      }
    }
    // 2. the sizes around a warp and a tile
    std::vector<size_t> ns = {0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 1000007};
    if (quick) ns = {0, 1, 33, tile + 1};
    for (uint32_t m : {31u, 257u}) {
      for (size_t n : ns) {
        for (int shift = quick ? 1 : 0; shift < 2; ++shift) {
          run_opts o;
          o.shift_in = shift;
          o.shift_out = shift;
          o.wide = n & 1;
          o.accumulate = n % 3 == 1;
          run_case<T>(k, m, n, UNIFORM, o, ++seed);
        }
      }
    }
  }
}

// ---- the C++ API with functors of its own ----------------------------------------------------

// Bins from a hash, some of them >= m (not counted): no bin(), so operator() is used unclamped.
struct hashed_bins {
  uint32_t range;  // results in [0, range)
  __host__ __device__ uint32_t operator()(uint32_t x) const { return uint32_t((uint64_t(x * 2654435761u) * range) >> 32); }
};

template <typename Counter, typename Op, typename T, typename HostBin>
void run_functor(const char *what, const std::vector<T> &s, uint32_t m, Op op, HostBin host_bin, bool accumulate,
                 uint64_t seed) {
  ++g_runs;
  std::mt19937_64 g(seed);
  const bool wide = sizeof(Counter) == 8;
  const size_t n = s.size(), cb = sizeof(Counter);
  T *d_samples = static_cast<T *>(g_samples.get(n * sizeof(T) + 16));
  if (n) CHECK_CUDA(cudaMemcpy(d_samples, s.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  unsigned char *d_hb = static_cast<unsigned char *>(g_hist.get((size_t(m) + 2) * cb));
  const std::vector<uint64_t> init = fill_hist(d_hb, m, wide, accumulate, g);
  std::vector<uint64_t> want(m, 0);
  if (accumulate)
    for (uint32_t i = 0; i < m; ++i) want[i] = init[size_t(i) + 1];
  for (const T &x : s) {
    const uint32_t b = host_bin(x);
    if (b < m) ++want[b];
  }
  if (!wide)
    for (uint64_t &w : want) w &= 0xFFFFFFFFull;
  size_t temp_bytes = 0;
  Counter *d_hist = reinterpret_cast<Counter *>(d_hb + cb);
  msplit_status st = msplit::histogram(nullptr, &temp_bytes, d_samples, n, m, op, d_hist);
  void *d_temp = g_temp.get(temp_bytes);
  if (st == MSPLIT_SUCCESS) st = msplit::histogram(d_temp, &temp_bytes, d_samples, n, m, op, d_hist, 0, accumulate);
  char label[200];
  std::snprintf(label, sizeof label, "C++ histogram, %s, m=%u n=%zu %s%s", what, m, n, wide ? "u64" : "u32",
                accumulate ? " accumulate" : "");
  if (st != MSPLIT_SUCCESS) {
    fail(std::string(label) + ": " + msplit_last_error_message());
    return;
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  check_hist(label, d_hb, m, wide, want, {init[0], init[size_t(m) + 1]});
}

void run_functors(bool quick, uint64_t &seed) {
  std::mt19937_64 g(++seed);
  const size_t n = quick ? 5003 : 2000003;
  std::vector<uint32_t> s(n);
  for (uint32_t &x : s) x = uint32_t(g());
  // 1. a functor without bin(): results >= m are dropped, through every path (shared, sliced
  // shared, global atomics)
  for (uint32_t m : {5u, 1000u, 40000u, 300000u}) {
    const hashed_bins op{m + m / 4 + 1};
    auto host = [op](uint32_t x) { return op(x); };
    run_functor<uint32_t>("hashed", s, m, op, host, false, ++seed);
    run_functor<unsigned long long>("hashed", s, m, op, host, true, ++seed);
  }
  // 2. identity_bucket::bin on i32: negatives in no bin
  std::vector<int32_t> si(n);
  for (int32_t &x : si) x = int32_t(g() % 3000) - 1000;
  auto host_id = [](int32_t x) { return x < 0 ? msplit::OUT_OF_RANGE : uint32_t(x); };
  run_functor<uint32_t>("identity", si, 1500, msplit::identity_bucket{}, host_id, false, ++seed);
  // 3. splitter_bucket as a staged functor (its bin(): the boundaries' bins) on floats, and a
  // table too large to stage
  std::vector<float> sf(n);
  for (float &x : sf) x = float(int64_t(g() % 2000001) - 1000000) / 1000.0f;
  for (uint32_t m : {20u, 12000u}) {
    std::vector<float> lv(m + 1);
    for (float &l : lv) l = float(int64_t(g() % 1600001) - 800000) / 1000.0f;
    std::sort(lv.begin(), lv.end());
    float *d_lv = static_cast<float *>(g_levels.get(lv.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_lv, lv.data(), lv.size() * sizeof(float), cudaMemcpyHostToDevice));
    msplit::splitter_bucket<float> op;
    op.splitters = d_lv;
    op.num_splitters = m + 1;
    auto host = [&lv, m](float x) {
      const size_t c = std::upper_bound(lv.begin(), lv.end(), x) - lv.begin();
      return c >= 1 && c <= m ? uint32_t(c - 1) : m;
    };
    run_functor<uint32_t>("splitters", sf, m, op, host, m == 20, ++seed);
  }
}

// ---- every way of counting, forced (the library picks one from m; here each runs on any m) ----

void run_forced(bool quick, uint64_t &seed) {
  using msplit::detail::hist_mode;
  struct forced {
    hist_mode mode;
    uint32_t max_slice;  // 0: one slice
    size_t max_stage;    // bytes of boundaries staged at most
    std::vector<uint32_t> ms;
    const char *name;
  };
  const std::vector<forced> runs = {
      {hist_mode::SHARED, 0, 32768, {1, 2, 32, 33}, "shared"},
      {hist_mode::SHARED, 1000, 32768, {5000}, "shared, slices of 1000"},
      {hist_mode::SHARED, 0, 64, {5000}, "shared, 4 tree levels staged"},
      {hist_mode::SHARED, 0, 0, {300}, "shared, nothing staged"},
      {hist_mode::GLOBAL, 0, 32768, {7, 5000}, "global"},
  };
  const size_t n = quick ? 4099 : 300007;
  for (const forced &f : runs) {
    for (uint32_t m : f.ms) {
      for (int kind = EVEN; kind <= RANGE; ++kind) {
        ++g_runs;
        std::mt19937_64 g(++seed);
        const bins_case<float> b = make_bins<float>(bin_kind(kind), m, g);
        const std::vector<float> s = make_samples<float>(UNIFORM, n, g);
        float *d_samples = static_cast<float *>(g_samples.get((n + 1) * sizeof(float))) + 1;  // not 16-byte aligned
        CHECK_CUDA(cudaMemcpy(d_samples, s.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        unsigned char *d_hb = static_cast<unsigned char *>(g_hist.get((size_t(m) + 2) * 4));
        const std::vector<uint64_t> init = fill_hist(d_hb, m, false, true, g);
        std::vector<uint64_t> want(init.begin() + 1, init.end() - 1);
        for (const float &x : s) {
          const uint32_t bin = oracle_bin(bin_kind(kind), b, x);
          if (bin < m) want[bin] = (want[bin] + 1) & 0xFFFFFFFFull;
        }
        auto run = [&](const auto &op) {
          const size_t stage = msplit::detail::histogram_stage_bytes(op, f.max_stage);
          const msplit::detail::hist_plan p =
              msplit::detail::plan_for_mode(f.mode, m, f.max_slice ? f.max_slice : m, stage);
          return msplit::detail::histogram_run_plan<float, float>(p, d_samples, n, m, op, d_hb + 4, false, nullptr, false, 0);
        };
        msplit_status st;
        if (kind == EVEN) {
          st = run(msplit::delta_bucket<float>(float(b.lower), float(b.width), m));
        } else {
          float *d_lv = static_cast<float *>(g_levels.get(b.levels.size() * sizeof(float)));
          CHECK_CUDA(cudaMemcpy(d_lv, b.levels.data(), b.levels.size() * sizeof(float), cudaMemcpyHostToDevice));
          msplit::splitter_bucket<float> op;
          op.splitters = d_lv;
          op.num_splitters = m + 1;
          st = run(op);
        }
        const std::string label = std::string("forced ") + f.name + (kind == EVEN ? " even" : " range") +
                                  " m=" + std::to_string(m) + " n=" + std::to_string(n);
        if (st != MSPLIT_SUCCESS) {
          fail(label + ": " + msplit_last_error_message());
          continue;
        }
        CHECK_CUDA(cudaDeviceSynchronize());
        check_hist(label, d_hb, m, false, want, {init[0], init.back()});
      }
    }
  }
}

// ---- argument errors -------------------------------------------------------------------------

void expect_error(const char *what, msplit_status got, msplit_status expected, const char *arg,
                  const unsigned char *d_hb, uint32_t m, const std::vector<uint64_t> &init) {
  ++g_runs;
  const std::string msg = msplit_last_error_message();
  if (got != expected) fail(std::string(what) + ": status " + msplit_status_string(got) + " (" + msg + ")");
  else if (arg && msg.find(arg) == std::string::npos)
    fail(std::string(what) + ": message \"" + msg + "\" does not name " + arg);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint64_t> want(init.begin() + 1, init.end() - 1);
  check_hist(std::string(what) + " (histogram untouched)", d_hb, m, false, want, {init[0], init.back()});
}

void run_errors(uint64_t &seed) {
  std::mt19937_64 g(++seed);
  const uint32_t m = 8;
  const size_t n = 1000;
  std::vector<uint32_t> s(n);
  for (uint32_t &x : s) x = uint32_t(g() % 100);
  unsigned char *d_s = static_cast<unsigned char *>(g_samples.get(n * 4 + 16));
  uint32_t *d_samples = reinterpret_cast<uint32_t *>(d_s);
  CHECK_CUDA(cudaMemcpy(d_samples, s.data(), n * 4, cudaMemcpyHostToDevice));
  unsigned char *d_hb = static_cast<unsigned char *>(g_hist.get((m + 2) * 8));
  uint32_t *d_hist = reinterpret_cast<uint32_t *>(d_hb + 4);
  uint32_t *d_lv = static_cast<uint32_t *>(g_levels.get(64 * 4));
  void *d_temp = g_temp.get(64);
  size_t tb = 64, small = 0;
  const uint32_t sorted[] = {0, 10, 20, 30, 40, 50, 60, 70, 80};
  CHECK_CUDA(cudaMemcpy(d_lv, sorted, sizeof sorted, cudaMemcpyHostToDevice));
  const msplit_type U32 = MSPLIT_TYPE_U32;
  // poison the histogram in accumulate mode (the poison is the initial count)
  std::vector<uint64_t> init = fill_hist(d_hb, m, false, true, g);
  const msplit_status INV = MSPLIT_ERROR_INVALID_ARGUMENT;

  // 1. the size query reads nothing else
  size_t q = 0;
  ++g_runs;
  if (msplit_histogram_even(nullptr, &q, nullptr, nullptr, n, 0, 0, 0, U32, U32, 0, nullptr) != MSPLIT_SUCCESS ||
      q != msplit::HISTOGRAM_TEMP_BYTES)
    fail("size query with other arguments invalid");
  // 2. each bad argument
  expect_error("temp_bytes NULL", msplit_histogram_even(d_temp, nullptr, d_samples, d_hist, n, m, 0, 10,
                                                        U32, U32, 0, nullptr),
               INV, "temp_bytes", d_hb, m, init);
  expect_error("0 bins", msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, 0, 0, 10, U32, U32, 0,
                                               nullptr), INV,
               "num_bins", d_hb, m, init);
  expect_error("2^30 + 1 bins",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, (1u << 30) + 1, 0, 10, U32, U32, 0,
                                     nullptr), INV,
               "num_bins", d_hb, m, init);
  expect_error("samples NULL", msplit_histogram_even(d_temp, &tb, nullptr, d_hist, n, m, 0, 10, U32, U32, 0,
                                                     nullptr), INV,
               "d_samples", d_hb, m, init);
  expect_error("histogram NULL", msplit_histogram_even(d_temp, &tb, d_samples, nullptr, n, m, 0, 10, U32,
                                                       U32, 0, nullptr),
               INV, "d_histogram", d_hb, m, init);
  expect_error("levels NULL", msplit_histogram_range(d_temp, &tb, d_samples, d_hist, n, m, nullptr, U32,
                                                     U32, 0, nullptr),
               INV, "d_levels", d_hb, m, init);
  expect_error("width 0", msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 0, 0, U32, U32, 0,
                                                nullptr), INV,
               "width", d_hb, m, init);
  expect_error("width -1 (f32)",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 0, -1, MSPLIT_TYPE_F32, U32, 0,
                                     nullptr), INV,
               "width", d_hb, m, init);
  expect_error("lower NaN (f32)",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, std::nan(""), 1, MSPLIT_TYPE_F32,
                                     U32, 0, nullptr),
               INV, "lower", d_hb, m, init);
  expect_error("lower 2.5 (i8)",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 2.5, 1, MSPLIT_TYPE_I8, U32, 0,
                                     nullptr), INV,
               "lower", d_hb, m, init);
  expect_error("width 2^32 (u32)",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 0, 4294967296.0, U32, U32, 0,
                                     nullptr), INV,
               "width", d_hb, m, init);
  expect_error("temp too small", msplit_histogram_even(d_temp, &small, d_samples, d_hist, n, m, 0, 10, U32,
                                                       U32, 0, nullptr),
               MSPLIT_ERROR_TEMP_STORAGE, "temp_bytes", d_hb, m, init);
  expect_error("samples misaligned",
               msplit_histogram_even(d_temp, &tb, d_s + 1, d_hist, n - 1, m, 0, 10, U32, U32, 0, nullptr), INV, "d_samples",
               d_hb, m, init);
  expect_error("histogram misaligned",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hb + 2, n, m, 0, 10, U32, U32, 0, nullptr), INV,
               "d_histogram", d_hb, m, init);
  expect_error("u64 counters misaligned",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 0, 10, U32, MSPLIT_TYPE_U64, 0,
                                     nullptr), INV,
               "d_histogram", d_hb, m, init);
  expect_error("histogram overlaps samples",
               msplit_histogram_even(d_temp, &tb, d_samples, d_samples + 4, n, m, 0, 10, U32, U32, 0,
                                     nullptr), INV,
               "overlaps", d_hb, m, init);
  expect_error("histogram overlaps levels",
               msplit_histogram_range(d_temp, &tb, d_samples, d_hist, n, m, d_hist - 2, U32, U32, 0, nullptr), INV,
               "overlaps", d_hb, m, init);
  expect_error("sample type u64",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 0, 10, MSPLIT_TYPE_U64, U32, 0,
                                     nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "sample type", d_hb, m, init);
  expect_error("counter type f32",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, n, m, 0, 10, U32, MSPLIT_TYPE_F32, 0,
                                     nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "counter type", d_hb, m, init);
  // 3. unsorted boundaries (and a NaN one): the call returns, the histogram stays as it was,
  // overwriting or accumulating, and the check of the error record (msplit_check_sync) names them
  const uint32_t unsorted[] = {0, 10, 20, 30, 25, 50, 60, 70, 80};
  CHECK_CUDA(cudaMemcpy(d_lv, unsorted, sizeof unsorted, cudaMemcpyHostToDevice));
  for (int acc = 0; acc < 2; ++acc)
    expect_error("unsorted levels",
                 msplit_histogram_range(d_temp, &tb, d_samples, d_hist, n, m, d_lv, U32, U32, acc, nullptr), MSPLIT_SUCCESS,
                 nullptr, d_hb, m, init);
  expect_error("unsorted levels, checked", msplit_check_sync(d_temp, tb, nullptr), INV,
               "d_levels[3] = 30, d_levels[4] = 25", d_hb, m, init);
  // a later call on the same storage clears the record (even bins: the counting kernel does)
  expect_error("even bins after them",
               msplit_histogram_even(d_temp, &tb, d_samples, d_hist, 0, m, 0, 10, U32, U32, 1, nullptr), MSPLIT_SUCCESS,
               nullptr, d_hb, m, init);
  expect_error("even bins after them, checked", msplit_check_sync(d_temp, tb, nullptr), MSPLIT_SUCCESS, nullptr, d_hb,
               m, init);
  const float nan_levels[] = {0, 1, 2, std::nanf(""), 4, 5, 6, 7, 8};
  CHECK_CUDA(cudaMemcpy(d_lv, nan_levels, sizeof nan_levels, cudaMemcpyHostToDevice));
  expect_error("NaN level", msplit_histogram_range(d_temp, &tb, d_samples, d_hist, n, m, d_lv,
                                                   MSPLIT_TYPE_F32, U32, 0, nullptr),
               MSPLIT_SUCCESS, nullptr, d_hb, m, init);
  expect_error("NaN level, checked", msplit_check_sync(d_temp, tb, nullptr), INV, "d_levels[3] = nan", d_hb, m, init);
  CHECK_CUDA(cudaMemcpy(d_lv, sorted, sizeof sorted, cudaMemcpyHostToDevice));
  expect_error("sorted levels", msplit_histogram_range(d_temp, &tb, d_samples, d_hist, 0, m, d_lv, U32, U32,
                                                       1, nullptr),
               MSPLIT_SUCCESS, nullptr, d_hb, m, init);
  expect_error("sorted levels, checked", msplit_check_sync(d_temp, tb, nullptr), MSPLIT_SUCCESS, nullptr, d_hb, m, init);
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  uint64_t seed = 20261125;
  run_errors(seed);
  run_type<uint8_t>(quick, seed);
  run_type<int8_t>(quick, seed);
  run_type<uint16_t>(quick, seed);
  run_type<int16_t>(quick, seed);
  run_type<uint32_t>(quick, seed);
  run_type<int32_t>(quick, seed);
  run_type<float>(quick, seed);
  run_type<double>(quick, seed);
  run_functors(quick, seed);
  run_forced(quick, seed);
  if (!quick) {  // 2^26 samples: the grid-stride loop over many rounds, every path once
    const size_t big = size_t(1) << 26;
    run_case<float>(EVEN, 256, big, UNIFORM, run_opts{false, false, true, false}, ++seed);
    run_case<float>(RANGE, 4096, big, ZIPF, run_opts{true, true, false, true}, ++seed);
    run_case<uint8_t>(EVEN, 2, big, UNIFORM, run_opts{false, true, true, true}, ++seed);
    run_case<int16_t>(RANGE, 65536, big, SORTED, run_opts{true, false, false, false}, ++seed);
  }
  return msplit_test_finish("histogram: %ld runs%s", g_runs, quick ? " (quick)" : "");
}
