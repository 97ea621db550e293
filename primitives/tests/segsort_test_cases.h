// The segmented sort test's cases and its CPU oracle's key order: the segment-length
// distributions (empty, length 1, uniform, power law, one huge segment, many short ones with one
// big one, every bin with gaps and out of order, one segment, segments long enough for radix
// halves among merged and short ones), the key distributions (random, all equal, few distinct,
// float specials) and the host order (floats: -0.0 equal to +0.0, NaNs beyond the infinities by
// sign). Included by test_segmented_sort.cu alone (its anonymous namespace).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "msplit/msplit.h"

namespace {

constexpr size_t TILE = 4096;

struct rng {
  std::mt19937_64 g;
  explicit rng(uint64_t seed) : g(seed) {}
  uint64_t next() { return g(); }
  uint64_t below(uint64_t m) { return m ? next() % m : 0; }
  double unit() { return double(next() >> 11) / double(1ull << 53); }
};

size_t type_size(msplit_type t) {
  return t == MSPLIT_TYPE_NONE ? 0 : (t == MSPLIT_TYPE_U64 || t == MSPLIT_TYPE_I64) ? 8 : 4;
}
const char *type_name(msplit_type t) {
  switch (t) {
    case MSPLIT_TYPE_NONE: return "none";
    case MSPLIT_TYPE_U32: return "u32";
    case MSPLIT_TYPE_I32: return "i32";
    case MSPLIT_TYPE_F32: return "f32";
    case MSPLIT_TYPE_U64: return "u64";
    case MSPLIT_TYPE_I64: return "i64";
    default: return "?";
  }
}

// The oracle's key order: a rank class and a value per class, compared lexicographically.
struct host_key {
  int cls;  // 0: NaN with the sign bit, 1: a number, 2: NaN without it
  double num;
  uint64_t bits;  // NaNs: ordered by these (negative NaNs by the complement); u64 keys: the key
};
host_key host_key_of(const void *keys, size_t i, msplit_type t) {
  switch (t) {
    case MSPLIT_TYPE_U32: return {1, double(static_cast<const uint32_t *>(keys)[i]), 0};
    case MSPLIT_TYPE_I32: return {1, double(static_cast<const int32_t *>(keys)[i]), 0};
    case MSPLIT_TYPE_F32: {
      const float f = static_cast<const float *>(keys)[i];
      uint32_t b;
      std::memcpy(&b, &f, 4);
      if (std::isnan(f)) return (b >> 31) ? host_key{0, 0, uint64_t(~b)} : host_key{2, 0, uint64_t(b)};
      return {1, double(f), 0};  // -0.0 == +0.0 as doubles
    }
    default: return {1, 0, static_cast<const uint64_t *>(keys)[i]};
  }
}
bool host_less(const host_key &a, const host_key &b) {
  if (a.cls != b.cls) return a.cls < b.cls;
  if (a.cls == 1 && a.num != b.num) return a.num < b.num;
  return a.bits < b.bits;
}

enum len_kind {
  ALL_EMPTY, ALL_ONE, UNIFORM_32, UNIFORM_4096, POWER_LAW, ONE_HUGE, MANY_PLUS_ONE_BIG, MIXED_GAPS, ONE_SEGMENT,
  RADIX_MIX
};
const char *len_name[] = {"all-empty", "all-1", "uniform-1..32", "uniform-1..4096", "power-law", "one-huge",
                          "many+one-big", "mixed+gaps", "one-segment", "radix-mix"};
enum key_kind { KEYS_RANDOM, KEYS_EQUAL, KEYS_FEW, KEYS_FLOAT_SPECIAL };
const char *key_name[] = {"random", "all-equal", "few-distinct", "float-special"};

struct test_case {
  len_kind lens;
  size_t size;  // total items (or the huge segment's length)
  key_kind keys;
  msplit_type key_type, value_type, offset_type;
  bool descending, unaligned;
};

// Segment begin/end offsets (host) and n for a case.
void make_segments(const test_case &c, rng &r, std::vector<uint64_t> &begin, std::vector<uint64_t> &end, size_t &n) {
  begin.clear();
  end.clear();
  size_t pos = 0;
  auto add = [&](size_t len) {
    begin.push_back(pos);
    end.push_back(pos + len);
    pos += len;
  };
  switch (c.lens) {
    case ALL_EMPTY:  // items exist, every segment is empty (at various places)
      for (size_t i = 0; i < c.size; ++i) {
        const size_t at = r.below(c.size + 1);
        begin.push_back(at);
        end.push_back(at);
      }
      pos = c.size;
      break;
    case ALL_ONE:
      for (size_t i = 0; i < c.size; ++i) add(1);
      break;
    case UNIFORM_32:
      while (pos < c.size) add(std::min<size_t>(1 + r.below(32), c.size - pos));
      break;
    case UNIFORM_4096:
      while (pos < c.size) add(std::min<size_t>(1 + r.below(4096), c.size - pos));
      break;
    case POWER_LAW:  // P(len >= x) ~ x^-0.5 on 1 .. 2^16 (Pareto, alpha 1.5), with empty ones
      while (pos < c.size) {
        const double x = std::pow(1.0 - r.unit() * (1.0 - std::pow(65536.0, -0.5)), -2.0);
        add(std::min<size_t>(r.below(8) == 0 ? 0 : size_t(x), c.size - pos));
      }
      break;
    case ONE_HUGE:
      add(c.size);
      break;
    case MANY_PLUS_ONE_BIG: {  // many short segments with one big one in the middle
      const size_t big = c.size / 8, count = c.size / 8;
      for (size_t i = 0; i < count; ++i) {
        if (i == count / 2) add(big);
        add(r.below(6));
      }
      break;
    }
    case MIXED_GAPS:  // every bin, with gaps between segments and out of order
      while (pos < c.size) {
        const int bin = int(r.below(14));
        const size_t len = bin == 0 ? 0 : bin == 13 ? TILE + 1 + r.below(3 * TILE) : 1 + r.below(size_t(2) << bin);
        pos += r.below(3);  // a gap
        if (pos >= c.size) break;
        add(std::min(len, c.size - pos));
      }
      pos = std::max(pos, c.size);
      for (size_t i = 0; i + 1 < begin.size(); i += 2) {  // swap neighbours: segments need not be in order
        std::swap(begin[i], begin[i + 1]);
        std::swap(end[i], end[i + 1]);
      }
      break;
    case ONE_SEGMENT:
      add(c.size);
      break;
    case RADIX_MIX:  // segments long enough for radix halves (of odd lengths and either parity of
                     // chunk tiles) among merged long ones and short ones, with gaps, out of order
      add(c.size / 3 + 1);
      while (pos < c.size) {
        const int kind = int(r.below(4));
        const size_t len = kind == 0 ? r.below(64) : kind == 1 ? TILE + 1 + r.below(4 * TILE)
                                                               : 32 * TILE + 1 + r.below(32 * TILE);
        pos += r.below(3);
        if (pos >= c.size) break;
        add(std::min(len, c.size - pos));
      }
      pos = std::max(pos, c.size);
      for (size_t i = 1; i + 1 < begin.size(); i += 2) {
        std::swap(begin[i], begin[i + 1]);
        std::swap(end[i], end[i + 1]);
      }
      break;
  }
  n = pos;
}

void fill_keys(const test_case &c, rng &r, std::vector<unsigned char> &keys, size_t n) {
  const size_t kb = type_size(c.key_type);
  keys.assign(n * kb, 0);
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.5f, -1.5f, 1e-40f, -1e-40f};
  for (size_t i = 0; i < n; ++i) {
    uint64_t v;
    switch (c.keys) {
      case KEYS_EQUAL: v = 0x5A5A5A5A5A5A5A5Aull; break;
      case KEYS_FEW: v = r.below(4) * 0x4000000040000000ull + 7; break;
      case KEYS_FLOAT_SPECIAL: {
        const float f = r.below(3) == 0 ? float(int(r.below(21)) - 10) : specials[r.below(10)];
        uint32_t b;
        std::memcpy(&b, &f, 4);
        v = b;
        break;
      }
      default: v = r.next(); break;
    }
    if (c.key_type == MSPLIT_TYPE_F32 && c.keys == KEYS_RANDOM) {  // finite floats of both signs
      const float f = float((double(int64_t(v >> 11) - (int64_t(1) << 52))) / double(1ull << 40));
      std::memcpy(&v, &f, 4);
    }
    std::memcpy(&keys[i * kb], &v, kb);
  }
}

}  // namespace
