// Radix sort tests: every key type (u32, i32, f32, u64, i64, f64), keys only and with 32-bit or
// 64-bit values, ascending and descending, plain and double-buffer forms, full and partial bit
// ranges, against a CPU oracle: std::stable_sort of the input positions by the key's order code
// restricted to the bit range, compared element for element (keys bit for bit, values too; the
// values are the input positions, so stability is checked with them). Outputs are poisoned
// before each run; argument errors must return their status, name the argument and write nothing.
// Full-range floating-point results are also checked against IEEE comparisons directly.
//   test_radix_sort [--quick]   (--quick: small sizes, for compute-sanitizer)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "msplit/radix_sort.cuh"
#include "msplit/radix_sort.h"
#include "msplit_test.h"

namespace {

int g_cases = 0;

constexpr unsigned char POISON = 0xAB;


enum dist { UNIFORM, EQUAL, SORTED, REVERSE, FEW, ZIPF, SPECIAL, NUM_DISTS };
const char *dist_name[] = {"uniform", "equal", "sorted", "reverse", "few", "zipf", "special"};

template <typename T>
const char *type_name() {
  if (std::is_same_v<T, uint32_t>) return "u32";
  if (std::is_same_v<T, int32_t>) return "i32";
  if (std::is_same_v<T, float>) return "f32";
  if (std::is_same_v<T, uint64_t>) return "u64";
  if (std::is_same_v<T, int64_t>) return "i64";
  if (std::is_same_v<T, double>) return "f64";
  return "none";
}

template <typename T>
using bits_of = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

template <typename T>
bits_of<T> to_bits(T v) {
  bits_of<T> b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
template <typename T>
T from_bits(bits_of<T> b) {
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// The order code the sort promises (msplit/radix_sort.cuh), written from its description: the
// unsigned key; the signed key with its sign bit flipped; for floating point the IEEE order code
// (negatives inverted, positives with the sign bit set) minus the mantissa mask, modulo 2^bits.
template <typename Key>
uint64_t order_code(Key k) {
  using B = bits_of<Key>;
  const B b = to_bits(k);
  const B sign = B(1) << (sizeof(B) * 8 - 1);
  if constexpr (std::is_floating_point_v<Key>) {
    const B mantissa = B((B(1) << std::numeric_limits<Key>::digits - 1) - 1);
    const B ieee = (b & sign) ? B(~b) : B(b | sign);
    return B(ieee - mantissa);
  } else if constexpr (std::is_signed_v<Key>) {
    return B(b ^ sign);
  } else {
    return b;
  }
}

// IEEE order with -0 before +0 and NaNs last (the independent check of full-range float sorts).
template <typename Key>
bool ieee_less(Key a, Key b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  if (a == b) return std::signbit(a) && !std::signbit(b);
  return a < b;
}

template <typename Key>
std::vector<Key> specials() {
  if constexpr (std::is_floating_point_v<Key>) {
    const Key inf = std::numeric_limits<Key>::infinity();
    return {Key(0), -Key(0), inf, -inf, std::numeric_limits<Key>::quiet_NaN(), -std::numeric_limits<Key>::quiet_NaN(),
            from_bits<Key>(to_bits(std::numeric_limits<Key>::quiet_NaN()) | 5), std::numeric_limits<Key>::max(),
            std::numeric_limits<Key>::lowest(), std::numeric_limits<Key>::denorm_min(),
            -std::numeric_limits<Key>::denorm_min(), Key(1), Key(-1)};
  } else {
    return {std::numeric_limits<Key>::min(), std::numeric_limits<Key>::max(), Key(0), Key(1), Key(Key(0) - 1),
            Key(std::numeric_limits<Key>::min() + 1), Key(std::numeric_limits<Key>::max() - 1)};
  }
}

template <typename Key>
std::vector<Key> make_keys(size_t n, dist d, std::mt19937_64 &rng) {
  using B = bits_of<Key>;
  std::vector<Key> k(n);
  auto random_key = [&] { return from_bits<Key>(B(rng())); };
  switch (d) {
    case UNIFORM:
      for (auto &x : k) x = random_key();
      break;
    case EQUAL: {
      const Key v = random_key();
      for (auto &x : k) x = v;
      break;
    }
    case SORTED:
    case REVERSE: {
      for (auto &x : k) x = random_key();
      std::sort(k.begin(), k.end(), [](Key a, Key b) { return order_code(a) < order_code(b); });
      if (d == REVERSE) std::reverse(k.begin(), k.end());
      break;
    }
    case FEW: {
      Key few[5];
      for (auto &f : few) f = random_key();
      for (auto &x : k) x = few[rng() % 5];
      break;
    }
    case ZIPF: {  // P(rank r) ~ 1 / r over 1,000 distinct keys
      std::vector<Key> vals(1000);
      std::vector<double> cdf(1000);
      double s = 0;
      for (size_t r = 0; r < vals.size(); ++r) {
        vals[r] = random_key();
        s += 1.0 / double(r + 1);
        cdf[r] = s;
      }
      std::uniform_real_distribution<double> u(0, s);
      for (auto &x : k) x = vals[std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin()];
      break;
    }
    default: {
      const std::vector<Key> sp = specials<Key>();
      for (auto &x : k) x = rng() % 2 ? sp[rng() % sp.size()] : random_key();
      break;
    }
  }
  return k;
}

struct sort_case {
  size_t n;
  dist d;
  bool descending;
  int begin_bit, end_bit;  // end_bit 0: the key's width
  bool double_buffer;
  bool unaligned;  // data pointers one element past an allocation's start
};

template <typename T>
struct dev_array {  // n elements, optionally one element past the allocation's start
  T *base = nullptr, *p = nullptr;
  size_t n = 0;
  dev_array(size_t n_, bool unaligned) : n(n_) {
    CHECK_CUDA(cudaMalloc(&base, (n + 1) * sizeof(T)));
    p = base + (unaligned ? 1 : 0);
  }
  ~dev_array() { cudaFree(base); }
  void poison() { CHECK_CUDA(cudaMemset(p, POISON, n * sizeof(T))); }
  void put(const std::vector<T> &h) { CHECK_CUDA(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> get(const T *from) const {
    std::vector<T> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), from, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// The positions 0..n-1 in stable order of digit (ascending, or descending), by a counting sort of
// 8-bit digits, least significant first: each pass is stable, so ties keep their input order.
// The digits travel with their positions, so that each pass reads in order. (std::stable_sort of
// the positions by an indirect comparison took about a minute at 2^26, most of the suite's time.)
std::vector<size_t> stable_order(const std::vector<uint64_t> &digit, int bits, bool descending) {
  struct item {
    uint64_t digit;
    size_t pos;
  };
  const size_t n = digit.size();
  std::vector<item> cur(n), next(n);
  for (size_t i = 0; i < n; ++i) cur[i] = {descending ? ~digit[i] : digit[i], i};
  for (int shift = 0; shift < bits; shift += 8) {
    std::vector<size_t> start(257, 0);
    for (const item &x : cur) ++start[((x.digit >> shift) & 0xFFu) + 1];
    for (int b = 0; b < 256; ++b) start[b + 1] += start[b];
    for (const item &x : cur) next[start[(x.digit >> shift) & 0xFFu]++] = x;
    cur.swap(next);
  }
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = cur[i].pos;
  return order;
}

// Runs one case through the C++ API; Value = void: keys only.
template <typename Key, typename Value>
void run_case(const sort_case &c, std::mt19937_64 &rng) {
  constexpr bool PAIRS = !std::is_void_v<Value>;
  using V = std::conditional_t<PAIRS, Value, uint32_t>;
  const int width = int(sizeof(Key) * 8);
  const int begin_bit = c.begin_bit, end_bit = c.end_bit ? c.end_bit : width;
  const size_t n = c.n;
  ++g_cases;
  char what[200];
  std::snprintf(what, sizeof what, "%s%s%s n=%zu %s %s bits [%d,%d) %s%s", type_name<Key>(), PAIRS ? "+" : "",
                PAIRS ? type_name<V>() : "", n, dist_name[c.d], c.descending ? "desc" : "asc", begin_bit, end_bit,
                c.double_buffer ? "double-buffer" : "plain", c.unaligned ? " unaligned" : "");

  const std::vector<Key> keys = make_keys<Key>(n, c.d, rng);
  std::vector<V> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = V(i * (sizeof(V) == 8 ? 0x100000001ull : 1ull));

  // oracle: the positions in stable order of the code's bits [begin_bit, end_bit)
  const uint64_t mask = end_bit - begin_bit == 64 ? ~0ull : ((1ull << (end_bit - begin_bit)) - 1);
  std::vector<uint64_t> digit(n);
  for (size_t i = 0; i < n; ++i) digit[i] = (order_code(keys[i]) >> begin_bit) & mask;
  const std::vector<size_t> order = stable_order(digit, end_bit - begin_bit, c.descending);

  dev_array<Key> kin(n, c.unaligned), kout(n, c.unaligned);
  dev_array<V> vin(n, c.unaligned), vout(n, c.unaligned);
  kin.put(keys);
  vin.put(values);
  kout.poison();
  vout.poison();
  size_t temp_bytes = 0;
  msplit_status st;
  msplit::double_buffer<Key> kdb(kin.p, kout.p);
  msplit::double_buffer<V> vdb(vin.p, vout.p);
  auto call = [&](void *temp) {
    if (c.double_buffer) {
      if constexpr (PAIRS)
        return c.descending ? msplit::radix_sort_pairs_descending(temp, &temp_bytes, kdb, vdb, n, begin_bit, end_bit)
                            : msplit::radix_sort_pairs(temp, &temp_bytes, kdb, vdb, n, begin_bit, end_bit);
      else
        return c.descending ? msplit::radix_sort_keys_descending(temp, &temp_bytes, kdb, n, begin_bit, end_bit)
                            : msplit::radix_sort_keys(temp, &temp_bytes, kdb, n, begin_bit, end_bit);
    } else {
      if constexpr (PAIRS)
        return c.descending ? msplit::radix_sort_pairs_descending(temp, &temp_bytes, kin.p, kout.p, vin.p, vout.p, n,
                                                                  begin_bit, end_bit)
                            : msplit::radix_sort_pairs(temp, &temp_bytes, kin.p, kout.p, vin.p, vout.p, n, begin_bit,
                                                       end_bit);
      else
        return c.descending ? msplit::radix_sort_keys_descending(temp, &temp_bytes, kin.p, kout.p, n, begin_bit,
                                                                 end_bit)
                            : msplit::radix_sort_keys(temp, &temp_bytes, kin.p, kout.p, n, begin_bit, end_bit);
    }
  };
  st = call(nullptr);
  REQUIRE(st == MSPLIT_SUCCESS, "%s: size query: %s", what, msplit_last_error_message());
  void *temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, temp_bytes));
  CHECK_CUDA(cudaMemset(temp, POISON, temp_bytes));  // the sort must not rely on zeroed storage
  st = call(temp);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(temp));
  REQUIRE(st == MSPLIT_SUCCESS, "%s: %s", what, msplit_last_error_message());

  const Key *kres = c.double_buffer ? kdb.current() : kout.p;
  const V *vres = c.double_buffer ? vdb.current() : vout.p;
  if (c.double_buffer && PAIRS) REQUIRE(kdb.selector == vdb.selector, "%s: selectors differ", what);
  const std::vector<Key> got = kin.get(kres);
  for (size_t i = 0; i < n; ++i)
    REQUIRE(to_bits(got[i]) == to_bits(keys[order[i]]), "%s: key %zu is %#llx, expected %#llx (input %zu)", what, i,
           (unsigned long long)to_bits(got[i]), (unsigned long long)to_bits(keys[order[i]]), order[i]);
  if (PAIRS) {
    const std::vector<V> gv = vin.get(vres);
    for (size_t i = 0; i < n; ++i)
      REQUIRE(gv[i] == values[order[i]], "%s: value %zu is %llu, expected %llu", what, i, (unsigned long long)gv[i],
             (unsigned long long)values[order[i]]);
  }
  if (!c.double_buffer) {  // the plain form leaves its inputs alone
    const std::vector<Key> kback = kin.get(kin.p);
    for (size_t i = 0; i < n; ++i) REQUIRE(to_bits(kback[i]) == to_bits(keys[i]), "%s: input key %zu changed", what, i);
  }
  if constexpr (std::is_floating_point_v<Key>) {
    if (begin_bit == 0 && end_bit == width)
      for (size_t i = 1; i < n; ++i)
        REQUIRE(c.descending ? !ieee_less(got[i - 1], got[i]) : !ieee_less(got[i], got[i - 1]),
               "%s: keys %zu and %zu out of IEEE order (%g, %g)", what, i - 1, i, double(got[i - 1]), double(got[i]));
  }
}

template <typename Key>
void run_for_values(int value_kind, const sort_case &c, std::mt19937_64 &rng) {
  if (value_kind == 0) run_case<Key, void>(c, rng);
  else if (value_kind == 1) run_case<Key, uint32_t>(c, rng);
  else run_case<Key, uint64_t>(c, rng);
}

// Every key type through the same cases.
void run_all_types(int value_kind, const sort_case &c, std::mt19937_64 &rng) {
  run_for_values<uint32_t>(value_kind, c, rng);
  run_for_values<int32_t>(value_kind, c, rng);
  run_for_values<float>(value_kind, c, rng);
  run_for_values<uint64_t>(value_kind, c, rng);
  run_for_values<int64_t>(value_kind, c, rng);
  run_for_values<double>(value_kind, c, rng);
}

// ---- argument errors: the status, the argument named, nothing written -----------------------
void expect_error(const char *what, msplit_status st, msplit_status want, const char *name,
                  const dev_array<uint32_t> &watched) {
  ++g_cases;
  REQUIRE(st == want, "%s: status %d, expected %d (%s)", what, int(st), int(want), msplit_last_error_message());
  REQUIRE(std::strstr(msplit_last_error_message(), name), "%s: message \"%s\" does not name %s", what,
         msplit_last_error_message(), name);
  const std::vector<uint32_t> h = watched.get(watched.p);
  for (size_t i = 0; i < h.size(); ++i) REQUIRE(h[i] == 0xABABABABu, "%s: output %zu written", what, i);
}

void argument_errors() {
  const size_t n = 1000;
  dev_array<uint32_t> kin(n, false), kout(n, false), vin(n, false), vout(n, false);
  CHECK_CUDA(cudaMemset(kin.p, 0, n * 4));
  CHECK_CUDA(cudaMemset(vin.p, 0, n * 4));
  kout.poison();
  vout.poison();
  size_t bytes = 0;
  CHECK_MSPLIT(msplit::radix_sort_pairs(nullptr, &bytes, kin.p, kout.p, vin.p, vout.p, n));
  void *temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  using msplit::radix_sort_keys;
  using msplit::radix_sort_pairs;
  const msplit_status BAD = MSPLIT_ERROR_INVALID_ARGUMENT;
  expect_error("temp_bytes NULL", radix_sort_keys(temp, nullptr, kin.p, kout.p, n), BAD, "temp_bytes", kout);
  expect_error("begin_bit -1", radix_sort_keys(temp, &bytes, kin.p, kout.p, n, -1, 32), BAD, "begin_bit", kout);
  expect_error("begin_bit 32", radix_sort_keys(temp, &bytes, kin.p, kout.p, n, 32, 32), BAD, "begin_bit", kout);
  expect_error("end_bit 33", radix_sort_keys(temp, &bytes, kin.p, kout.p, n, 0, 33), BAD, "end_bit", kout);
  expect_error("end_bit == begin_bit", radix_sort_keys(temp, &bytes, kin.p, kout.p, n, 5, 5), BAD, "end_bit", kout);
  expect_error("end_bit < begin_bit", radix_sort_keys(temp, &bytes, kin.p, kout.p, n, 9, 4), BAD, "end_bit", kout);
  expect_error("query, end_bit 33", radix_sort_keys(nullptr, &bytes, kin.p, kout.p, n, 0, 33), BAD, "end_bit", kout);
  expect_error("keys_in NULL", radix_sort_keys(temp, &bytes, (const uint32_t *)nullptr, kout.p, n), BAD, "d_keys_in",
               kout);
  expect_error("keys_out NULL", radix_sort_pairs(temp, &bytes, kin.p, (uint32_t *)nullptr, vin.p, vout.p, n), BAD,
               "d_keys_out", vout);
  expect_error("values_in NULL", radix_sort_pairs(temp, &bytes, kin.p, kout.p, (const uint32_t *)nullptr, vout.p, n),
               BAD, "d_values_in", kout);
  expect_error("values_out NULL", radix_sort_pairs(temp, &bytes, kin.p, kout.p, vin.p, (uint32_t *)nullptr, n), BAD,
               "d_values_out", kout);
  expect_error("keys overlap", radix_sort_keys(temp, &bytes, kout.p, kout.p + 1, n - 1), BAD, "d_keys_in", kout);
  expect_error("values overlap", radix_sort_pairs(temp, &bytes, kin.p, kout.p, vout.p + 1, vout.p, n - 1), BAD,
               "d_values_in", kout);
  expect_error("key/value overlap", radix_sort_pairs(temp, &bytes, kin.p, kout.p, vin.p, kout.p, n), BAD, "overlap",
               vout);
  size_t small = bytes - 1;
  expect_error("temp too small", radix_sort_pairs(temp, &small, kin.p, kout.p, vin.p, vout.p, n),
               MSPLIT_ERROR_TEMP_STORAGE, "temp_bytes", kout);
  msplit::double_buffer<uint32_t> kdb(kout.p, vout.p), vdb(kin.p, vin.p);
  kdb.selector = 2;
  expect_error("selector 2", radix_sort_keys(temp, &bytes, kdb, n), BAD, "selector", kout);
  kdb.selector = 0;
  kdb.buffers[1] = nullptr;
  expect_error("buffers[1] NULL", radix_sort_keys(temp, &bytes, kdb, n), BAD, "buffers[1]", kout);
  kdb.buffers[1] = kout.p + 1;
  expect_error("buffers overlap", radix_sort_keys(temp, &bytes, kdb, n - 1), BAD, "buffers", kout);
  kdb.buffers[1] = vout.p;
  vdb.selector = 1;
  expect_error("selectors differ", radix_sort_pairs(temp, &bytes, kdb, vdb, n), BAD, "selector", kout);
  expect_error("C: key type U8", msplit_radix_sort(temp, &bytes, kin.p, kout.p, nullptr, nullptr, n, MSPLIT_TYPE_U8,
                                                   MSPLIT_TYPE_NONE, 0, 0, 8, nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "key type", kout);
  expect_error("C: value type 99", msplit_radix_sort(temp, &bytes, kin.p, kout.p, vin.p, vout.p, n, MSPLIT_TYPE_U32,
                                                     msplit_type(99), 0, 0, 32, nullptr),
               MSPLIT_ERROR_UNSUPPORTED, "value type", kout);
  expect_error("C: end_bit 65 for u64", msplit_radix_sort(temp, &bytes, kin.p, kout.p, nullptr, nullptr, n / 2,
                                                          MSPLIT_TYPE_U64, MSPLIT_TYPE_NONE, 0, 0, 65, nullptr),
               BAD, "end_bit", kout);
  CHECK_CUDA(cudaFree(temp));
}

// The C API sorts as the templates do (one case per key type, with values).
void c_api_cases(std::mt19937_64 &rng) {
  const size_t n = 5000;
  const std::vector<float> keys = make_keys<float>(n, SPECIAL, rng);
  dev_array<float> kin(n, false), kout(n, false), kref(n, false);
  dev_array<uint64_t> vin(n, false), vout(n, false), vref(n, false);
  std::vector<uint64_t> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = i;
  kin.put(keys);
  vin.put(values);
  size_t bytes = 0, bytes_c = 0;
  CHECK_MSPLIT(msplit::radix_sort_pairs_descending(nullptr, &bytes, kin.p, kref.p, vin.p, vref.p, n));
  CHECK_MSPLIT(msplit_radix_sort(nullptr, &bytes_c, kin.p, kout.p, vin.p, vout.p, n, MSPLIT_TYPE_F32, MSPLIT_TYPE_F64, 1, 0,
                          32, nullptr));
  ++g_cases;
  REQUIRE(bytes == bytes_c, "C API temp_bytes %zu, templates %zu", bytes_c, bytes);
  void *temp = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  CHECK_MSPLIT(msplit::radix_sort_pairs_descending(temp, &bytes, kin.p, kref.p, vin.p, vref.p, n));
  CHECK_MSPLIT(msplit_radix_sort(temp, &bytes, kin.p, kout.p, vin.p, vout.p, n, MSPLIT_TYPE_F32, MSPLIT_TYPE_F64, 1, 0, 32,
                          nullptr));
  const std::vector<float> a = kout.get(kout.p), b = kref.get(kref.p);
  const std::vector<uint64_t> va = vout.get(vout.p), vb = vref.get(vref.p);
  CHECK_CUDA(cudaFree(temp));
  REQUIRE(std::memcmp(a.data(), b.data(), n * 4) == 0 && va == vb, "C API and templates sort differently");
}

// More than one look-back portion (n above 2^30 - 1): u32 keys with their positions as values,
// n = 2^31 + 4,097, checked on the device (sorted, stable, each key with its value).
__global__ void fill_big(uint32_t *keys, uint32_t *values, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t x = i * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    keys[i] = uint32_t(x) & 0xFFF0FFFFu;  // repeats, so that stability is tested
    values[i] = uint32_t(i);
  }
}
__global__ void check_big(const uint32_t *keys_in, const uint32_t *keys, const uint32_t *values, size_t n,
                          uint32_t mask, unsigned long long *bad) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t a = i ? keys[i - 1] & mask : 0, b = keys[i] & mask;
    const bool ok = keys_in[values[i]] == keys[i] && (i == 0 || a < b || (a == b && values[i - 1] < values[i]));
    if (!ok) atomicAdd(bad, 1ull);
  }
}
void big_case() {
  const size_t n = (size_t(1) << 31) + 4097;
  size_t free_bytes = 0, total = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  size_t bytes = 0;
  CHECK_MSPLIT(msplit::radix_sort_pairs(nullptr, &bytes, (const uint32_t *)nullptr, (uint32_t *)nullptr,
                                 (const uint32_t *)nullptr, (uint32_t *)nullptr, n));
  if (free_bytes < 16 * n + bytes + (size_t(1) << 30)) {
    std::printf("skipped the n = 2^31 + 4097 case: %zu bytes free\n", free_bytes);
    return;
  }
  ++g_cases;
  uint32_t *kin, *kout, *vin, *vout;
  void *temp;
  unsigned long long *bad, h_bad = 0;
  CHECK_CUDA(cudaMalloc(&kin, n * 4));
  CHECK_CUDA(cudaMalloc(&kout, n * 4));
  CHECK_CUDA(cudaMalloc(&vin, n * 4));
  CHECK_CUDA(cudaMalloc(&vout, n * 4));
  CHECK_CUDA(cudaMalloc(&temp, bytes));
  CHECK_CUDA(cudaMalloc(&bad, sizeof *bad));
  CHECK_CUDA(cudaMemset(bad, 0, sizeof *bad));
  fill_big<<<4096, 256>>>(kin, vin, n);
  // all 32 bits (the 256-digit sweeps), then the low 6 bits (the one-pass multisplit)
  msplit_status st = msplit::radix_sort_pairs(temp, &bytes, kin, kout, vin, vout, n);
  check_big<<<4096, 256>>>(kin, kout, vout, n, ~0u, bad);
  if (st == MSPLIT_SUCCESS) st = msplit::radix_sort_pairs(temp, &bytes, kin, kout, vin, vout, n, 0, 6);
  check_big<<<4096, 256>>>(kin, kout, vout, n, 0x3Fu, bad);
  CHECK_CUDA(cudaMemcpy(&h_bad, bad, sizeof h_bad, cudaMemcpyDeviceToHost));
  cudaFree(kin);
  cudaFree(kout);
  cudaFree(vin);
  cudaFree(vout);
  cudaFree(temp);
  cudaFree(bad);
  REQUIRE(st == MSPLIT_SUCCESS, "n = 2^31 + 4097: %s", msplit_last_error_message());
  REQUIRE(h_bad == 0, "n = 2^31 + 4097: %llu elements out of place", h_bad);
  std::printf("n = 2^31 + 4097 u32 pairs, bits [0, 32) and [0, 6): sorted, stable\n");
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);
  std::mt19937_64 rng(20261125);
  using msplit::detail::radix_sort_tile_items;
  using msplit::detail::no_value;
  const size_t t32 = radix_sort_tile_items<uint32_t, no_value>();

  argument_errors();
  c_api_cases(rng);

  // 1. sizes around the tile, every key type, keys and pairs, both directions and both forms
  // (--quick: two key types, so that compute-sanitizer finishes in well under a minute)
  const std::vector<size_t> small =
      quick ? std::vector<size_t>{0, 1, 33, t32 + 1} : std::vector<size_t>{0, 1, 31, 32, 33, t32 - 1, t32, t32 + 1};
  for (int vk = 0; vk < 3; ++vk)
    for (size_t n : small)
      for (int desc = 0; desc < 2; ++desc) {
        const sort_case c{n, UNIFORM, desc == 1, 0, 0, (n + vk) % 2 == 1, n == 33};
        if (!quick) run_all_types(vk, c, rng);
        else if (vk == int(n % 3)) {
          run_for_values<uint32_t>(vk, c, rng);
          run_for_values<int64_t>(2 - vk, c, rng);
        }
      }
  // the tile of each value width, around its edges
  for (size_t n : {radix_sort_tile_items<uint32_t, uint32_t>(), radix_sort_tile_items<uint64_t, uint64_t>() + 1}) {
    run_for_values<uint32_t>(1, sort_case{n, FEW, false, 0, 0, false, false}, rng);
    run_for_values<double>(2, sort_case{n, SPECIAL, true, 0, 0, true, false}, rng);
  }

  // 2. distributions, every key type (--quick: one per distribution), a size of many tiles
  const size_t mid = quick ? 20000 : 1000007;
  for (int d = 0; d < NUM_DISTS; ++d) {
    const sort_case c{mid, dist(d), d % 2 == 1, 0, 0, d == 3, d == 5};
    if (!quick) {
      run_all_types(d % 3, c, rng);
    } else {
      switch (d % 6) {
        case 0: run_for_values<uint32_t>(d % 3, c, rng); break;
        case 1: run_for_values<int32_t>(d % 3, c, rng); break;
        case 2: run_for_values<float>(d % 3, c, rng); break;
        case 3: run_for_values<uint64_t>(d % 3, c, rng); break;
        case 4: run_for_values<int64_t>(d % 3, c, rng); break;
        default: run_for_values<double>(d % 3, c, rng); break;
      }
    }
  }

  // 3. partial bit ranges (1..6-bit ranges, ranges not starting at 0), stability through values
  const size_t rn = quick ? 9000 : 100003;
  const int ranges32[][2] = {{0, 1}, {0, 6}, {3, 9}, {12, 31}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {5, 6},
                             {7, 13}, {8, 16}, {0, 16}, {1, 32}, {24, 32}, {31, 32}};
  const int ranges64[][2] = {{0, 6}, {30, 64}, {0, 1}, {13, 19}, {0, 40}, {60, 64}, {0, 63}, {63, 64}};
  const size_t quick_ranges = 4;  // the first ones of each list
  for (size_t i = 0; i < sizeof ranges32 / sizeof ranges32[0] && (!quick || i < quick_ranges); ++i) {
    const int *r = ranges32[i];
    run_case<uint32_t, uint32_t>(sort_case{rn, FEW, false, r[0], r[1], false, false}, rng);
    run_case<int32_t, uint64_t>(sort_case{rn, UNIFORM, true, r[0], r[1], true, false}, rng);
    if (!quick) run_case<float, void>(sort_case{rn, SPECIAL, r[0] % 2 == 1, r[0], r[1], false, true}, rng);
  }
  for (size_t i = 0; i < sizeof ranges64 / sizeof ranges64[0] && (!quick || i < quick_ranges / 2); ++i) {
    const int *r = ranges64[i];
    run_case<uint64_t, uint32_t>(sort_case{rn, UNIFORM, false, r[0], r[1], r[0] % 2 == 1, false}, rng);
    if (!quick) run_case<int64_t, void>(sort_case{rn, ZIPF, true, r[0], r[1], false, false}, rng);
    if (!quick) run_case<double, uint64_t>(sort_case{rn, SPECIAL, false, r[0], r[1], true, false}, rng);
  }

  if (!quick) {
    // 4. large: 2^26 (many tiles per pass, look-back over long distances), then several portions
    const size_t big = size_t(1) << 26;
    run_case<uint32_t, void>(sort_case{big, UNIFORM, false, 0, 0, false, false}, rng);
    run_case<uint32_t, uint32_t>(sort_case{big, ZIPF, true, 0, 0, true, false}, rng);
    run_case<uint64_t, uint32_t>(sort_case{big, UNIFORM, false, 0, 0, false, true}, rng);
    run_case<uint32_t, uint32_t>(sort_case{big, UNIFORM, true, 0, 4, true, false}, rng);
    big_case();
  }

  return msplit_test_finish("radix sort: %d cases", g_cases);
}
