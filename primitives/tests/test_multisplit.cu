// Multisplit against a CPU oracle (stable counting sort by bucket), element for element.
//
// A table of cases: m x n x distribution x bucket function x key/value types x variant. The
// oracle computes buckets with its own host code (not the library's functors). Outputs are
// poisoned before each run; keys, values (which carry the input index, so stability is checked)
// and offsets are compared. Argument errors are checked to return the right status and to
// leave the outputs untouched.
//
//   test_multisplit [--quick]    (or MSPLIT_TEST_QUICK=1): small sizes only, for compute-sanitizer
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
#include "msplit/multisplit.cuh"
#include "msplit_test.h"
#include "msplit/detail/multisplit/tuning.h"

namespace {

long g_runs = 0;

enum dist_kind { UNIFORM, ONE_BUCKET, BINOMIAL, QUARTER_UNIFORM, SORTED, REVERSE_SORTED, NUM_DISTS };
const char *dist_name[] = {"uniform", "one-bucket", "binomial", "25%+rest", "sorted", "reverse"};
const char *kind_name[] = {"delta", "splitters", "bitfield", "identity"};
const char *type_name[] = {"none", "u32", "i32", "f32", "u64"};

size_t type_size(msplit_type t) { return t == MSPLIT_TYPE_U64 ? 8 : t == MSPLIT_TYPE_NONE ? 0 : 4; }

// Host reference of a bucket function (independent of the library's functors).
struct host_bucket {
  msplit_bucket_kind kind;
  msplit_type key_type;
  msplit_bucket_desc desc;
  std::vector<double> splitters;  // as doubles: every key type converts exactly except u64 > 2^53
  std::vector<uint64_t> splitters_u64;
  uint32_t m;

  uint32_t clamp(uint64_t b) const { return b >= m ? m - 1 : uint32_t(b); }
  uint32_t operator()(const void *keys, size_t i) const {
    uint64_t bits = 0;
    int64_t si = 0;
    float f = 0;
    uint64_t u = 0;
    switch (key_type) {
      case MSPLIT_TYPE_U32: u = static_cast<const uint32_t *>(keys)[i]; bits = u; break;
      case MSPLIT_TYPE_I32: si = static_cast<const int32_t *>(keys)[i]; bits = uint32_t(int32_t(si)); break;
      case MSPLIT_TYPE_F32: {
        f = static_cast<const float *>(keys)[i];
        uint32_t b32;
        std::memcpy(&b32, &f, 4);
        bits = b32;
        break;
      }
      default: u = static_cast<const uint64_t *>(keys)[i]; bits = u; break;
    }
    switch (kind) {
      case MSPLIT_BUCKET_DELTA:
        if (key_type == MSPLIT_TYPE_F32) {
          const float base = float(desc.base.f), delta = float(desc.delta.f);
          if (!(f >= base)) return 0;
          const float q = (f - base) / delta;
          return q >= float(m - 1) ? m - 1 : uint32_t(q);
        } else if (key_type == MSPLIT_TYPE_I32) {
          if (si < desc.base.i) return 0;
          return clamp(uint64_t(si - desc.base.i) / uint64_t(desc.delta.i));
        } else {
          if (u < desc.base.u) return 0;
          return clamp((u - desc.base.u) / desc.delta.u);
        }
      case MSPLIT_BUCKET_SPLITTERS: {
        if (key_type == MSPLIT_TYPE_U64)
          return clamp(std::upper_bound(splitters_u64.begin(), splitters_u64.end(), u) - splitters_u64.begin());
        const double k = key_type == MSPLIT_TYPE_F32 ? double(f) : key_type == MSPLIT_TYPE_I32 ? double(si) : double(u);
        return clamp(std::upper_bound(splitters.begin(), splitters.end(), k) - splitters.begin());
      }
      case MSPLIT_BUCKET_BITFIELD:
        return clamp((bits >> desc.shift) & ((uint64_t(1) << desc.bits) - 1));
      default:
        if (key_type == MSPLIT_TYPE_F32) return f > 0 ? clamp(uint64_t(f)) : 0;
        if (key_type == MSPLIT_TYPE_I32) return si < 0 ? 0 : clamp(uint64_t(si));
        return clamp(u);
    }
  }
};

struct rng {
  std::mt19937_64 g;
  explicit rng(uint64_t seed) : g(seed) {}
  uint64_t next() { return g(); }
  uint32_t below(uint32_t n) { return n ? uint32_t(g() % n) : 0; }
};

// Target bucket sequence for a distribution (the keys are then drawn inside those buckets).
std::vector<uint32_t> target_buckets(dist_kind d, size_t n, uint32_t m, rng &r) {
  std::vector<uint32_t> t(n);
  const uint32_t heavy = m / 2;
  for (size_t i = 0; i < n; ++i) {
    switch (d) {
      case ONE_BUCKET: t[i] = heavy; break;
      case BINOMIAL: {
        uint32_t c = 0;
        for (uint32_t j = 0; j + 1 < m; j += 64) {
          const uint32_t bits = std::min<uint32_t>(64, m - 1 - j);
          const uint64_t v = r.next();
          c += __builtin_popcountll(bits == 64 ? v : v & ((uint64_t(1) << bits) - 1));
        }
        t[i] = c;
        break;
      }
      case QUARTER_UNIFORM: t[i] = r.below(4) == 0 ? r.below(m) : heavy; break;
      default: t[i] = r.below(m); break;
    }
  }
  if (d == SORTED) std::sort(t.begin(), t.end());
  if (d == REVERSE_SORTED) std::sort(t.begin(), t.end(), [](uint32_t a, uint32_t b) { return a > b; });
  return t;
}

// Builds the bucket function for a case and keys that fall into the target buckets (with some
// keys outside [0, m) territory for clamping: below base, beyond the last bucket).
void make_keys(msplit_bucket_kind kind, msplit_type kt, uint32_t m, const std::vector<uint32_t> &target, rng &r,
               std::vector<unsigned char> &keys, host_bucket &hb, std::vector<unsigned char> &splitter_bytes) {
  const size_t n = target.size(), ks = type_size(kt);
  keys.assign(n * ks, 0);
  hb = host_bucket{};
  hb.kind = kind;
  hb.key_type = kt;
  hb.m = m;
  hb.desc.kind = kind;
  const uint64_t width = 1 + r.below(1000);  // delta / splitter spacing
  auto put = [&](size_t i, uint64_t bucket_low, uint64_t span) {
    // a key in [bucket_low, bucket_low + span) in the key type's "index" space
    const uint64_t v = bucket_low + (span ? r.next() % span : 0);
    switch (kt) {
      case MSPLIT_TYPE_U32: reinterpret_cast<uint32_t *>(keys.data())[i] = uint32_t(v); break;
      case MSPLIT_TYPE_I32: reinterpret_cast<int32_t *>(keys.data())[i] = int32_t(int64_t(v) - 1000000); break;
      case MSPLIT_TYPE_F32: reinterpret_cast<float *>(keys.data())[i] = float(v) + 0.25f; break;
      default: reinterpret_cast<uint64_t *>(keys.data())[i] = v + (uint64_t(1) << 40); break;
    }
  };
  // "index space" offsets: i32 keys are shifted by -1e6, u64 keys by 2^40, floats by +0.25
  const uint64_t base_idx = 5000;
  switch (kind) {
    case MSPLIT_BUCKET_DELTA:
    case MSPLIT_BUCKET_SPLITTERS: {
      if (kind == MSPLIT_BUCKET_DELTA) {
        if (kt == MSPLIT_TYPE_F32) {
          hb.desc.base.f = double(base_idx);
          hb.desc.delta.f = double(width);
        } else if (kt == MSPLIT_TYPE_I32) {
          hb.desc.base.i = int64_t(base_idx) - 1000000;
          hb.desc.delta.i = int64_t(width);
        } else {
          hb.desc.base.u = base_idx + (kt == MSPLIT_TYPE_U64 ? (uint64_t(1) << 40) : 0);
          hb.desc.delta.u = width;
        }
      } else {
        // splitters at base + (b + 1) * width, b = 0..m-2, as the key type
        hb.splitters.clear();
        hb.splitters_u64.clear();
        splitter_bytes.assign(size_t(m > 0 ? m - 1 : 0) * ks, 0);
        for (uint32_t b = 0; b + 1 < m; ++b) {
          const uint64_t v = base_idx + uint64_t(b + 1) * width;
          switch (kt) {
            case MSPLIT_TYPE_U32:
              reinterpret_cast<uint32_t *>(splitter_bytes.data())[b] = uint32_t(v);
              hb.splitters.push_back(double(uint32_t(v)));
              break;
            case MSPLIT_TYPE_I32:
              reinterpret_cast<int32_t *>(splitter_bytes.data())[b] = int32_t(int64_t(v) - 1000000);
              hb.splitters.push_back(double(int64_t(v) - 1000000));
              break;
            case MSPLIT_TYPE_F32:
              reinterpret_cast<float *>(splitter_bytes.data())[b] = float(v);
              hb.splitters.push_back(double(float(v)));
              break;
            default:
              reinterpret_cast<uint64_t *>(splitter_bytes.data())[b] = v + (uint64_t(1) << 40);
              hb.splitters_u64.push_back(v + (uint64_t(1) << 40));
              break;
          }
        }
      }
      for (size_t i = 0; i < n; ++i) {
        const uint32_t b = target[i];
        if (b == 0 && r.below(8) == 0)
          put(i, 0, base_idx);  // below base: bucket 0
        else if (b + 1 == m && r.below(4) == 0)
          put(i, base_idx + uint64_t(m) * width, 1u << 20);  // far beyond: clamped into the last
        else
          put(i, base_idx + uint64_t(b) * width, width);
      }
      break;
    }
    case MSPLIT_BUCKET_BITFIELD: {
      // integer key types only (the driver does not use floats here)
      uint32_t bits = 1;
      while ((1u << bits) < m) ++bits;
      hb.desc.bits = bits;
      hb.desc.shift = 3;
      for (size_t i = 0; i < n; ++i) {
        const uint64_t v = (uint64_t(target[i]) << 3) | r.below(8) | (uint64_t(r.below(4)) << (3 + bits));
        switch (kt) {
          case MSPLIT_TYPE_U32: reinterpret_cast<uint32_t *>(keys.data())[i] = uint32_t(v); break;
          case MSPLIT_TYPE_I32: reinterpret_cast<int32_t *>(keys.data())[i] = int32_t(v); break;
          default: reinterpret_cast<uint64_t *>(keys.data())[i] = v | (uint64_t(r.below(2)) << 63); break;
        }
      }
      break;
    }
    default:  // identity: the target itself, some beyond m (clamped)
      for (size_t i = 0; i < n; ++i) {
        const uint64_t v = (target[i] + 1 == m && r.below(4) == 0) ? uint64_t(m) + r.below(1000) : target[i];
        switch (kt) {
          case MSPLIT_TYPE_U32: reinterpret_cast<uint32_t *>(keys.data())[i] = uint32_t(v); break;
          case MSPLIT_TYPE_I32: reinterpret_cast<int32_t *>(keys.data())[i] = int32_t(v); break;
          case MSPLIT_TYPE_F32: reinterpret_cast<float *>(keys.data())[i] = float(v) + 0.5f; break;
          default: reinterpret_cast<uint64_t *>(keys.data())[i] = v; break;
        }
      }
      break;
  }
}

// Device buffers reused across cases (grown on demand).
struct dbuf {
  void *p = nullptr;
  size_t cap = 0;
  void *get(size_t bytes) {
    if (bytes > cap) {
      if (p) CHECK_CUDA(cudaFree(p));
      cap = std::max<size_t>(bytes, 256);
      CHECK_CUDA(cudaMalloc(&p, cap));
    }
    return p;
  }
};
dbuf d_keys_in, d_keys_out, d_vals_in, d_vals_out, d_temp, d_offsets, d_split;

struct test_case {
  uint32_t m;
  size_t n;
  dist_kind dist;
  msplit_bucket_kind kind;
  msplit_type key_type, value_type;
  msplit_variant variant;
  size_t in_shift = 0, out_shift = 0;  // elements by which the inputs / outputs start past an aligned address
};

std::string describe(const test_case &c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "m=%u n=%zu dist=%s bucket=%s key=%s value=%s variant=%s shift=%zu/%zu", c.m,
                c.n, dist_name[c.dist], kind_name[c.kind], type_name[c.key_type], type_name[c.value_type],
                msplit_variant_name(c.variant), c.in_shift, c.out_shift);
  return buf;
}

// Elements per tile of the fast path for these element sizes (the sizes around it are the edges).
size_t tile_of(size_t ks, size_t vs) {
  using msplit::tuning::multisplit_items_per_thread;
  int items = 0;
  if (ks == 4)
    items = vs == 0   ? multisplit_items_per_thread<4, 0>::value
            : vs == 4 ? multisplit_items_per_thread<4, 4>::value
                      : multisplit_items_per_thread<4, 8>::value;
  else
    items = vs == 0   ? multisplit_items_per_thread<8, 0>::value
            : vs == 4 ? multisplit_items_per_thread<8, 4>::value
                      : multisplit_items_per_thread<8, 8>::value;
  return size_t(msplit::tuning::MULTISPLIT_BLOCK_THREADS) * items;
}

// A failed case, described for the reader: the harness counts it and prints the first ones.
void fail(const test_case &c, const char *what) { FAIL("[%s]: %s", describe(c).c_str(), what); }

void run_case(const test_case &c, uint64_t seed) {
  ++g_runs;
  rng r(seed);
  const size_t ks = type_size(c.key_type), vs = type_size(c.value_type), n = c.n;
  std::vector<uint32_t> target = target_buckets(c.dist, n, c.m, r);
  std::vector<unsigned char> keys, splitters;
  host_bucket hb;
  make_keys(c.kind, c.key_type, c.m, target, r, keys, hb, splitters);
  std::vector<unsigned char> vals(n * vs);
  for (size_t i = 0; i < n; ++i) {
    if (vs == 4) reinterpret_cast<uint32_t *>(vals.data())[i] = uint32_t(i * 2654435761u);
    if (vs == 8) reinterpret_cast<uint64_t *>(vals.data())[i] = (uint64_t(i) << 32) | 0xABCDu;
  }

  // oracle: stable counting sort
  std::vector<uint32_t> bucket(n);
  std::vector<size_t> offsets(size_t(c.m) + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    bucket[i] = hb(keys.data(), i);
    ++offsets[bucket[i] + 1];
  }
  for (uint32_t b = 0; b < c.m; ++b) offsets[b + 1] += offsets[b];
  std::vector<unsigned char> exp_keys(n * ks), exp_vals(n * vs);
  {
    std::vector<size_t> pos(offsets.begin(), offsets.end() - 1);
    for (size_t i = 0; i < n; ++i) {
      const size_t p = pos[bucket[i]]++;
      std::memcpy(&exp_keys[p * ks], &keys[i * ks], ks);
      if (vs) std::memcpy(&exp_vals[p * vs], &vals[i * vs], vs);
    }
  }

  // device run
  // (shifted: the arrays start that many elements past cudaMalloc's alignment)
  const size_t si = c.in_shift, so = c.out_shift;
  void *kin = static_cast<char *>(d_keys_in.get((n + si) * ks)) + si * ks;
  void *kout = static_cast<char *>(d_keys_out.get((n + so) * ks)) + so * ks;
  void *vin = vs ? static_cast<char *>(d_vals_in.get((n + si) * vs)) + si * vs : nullptr;
  void *vout = vs ? static_cast<char *>(d_vals_out.get((n + so) * vs)) + so * vs : nullptr;
  size_t *doff = static_cast<size_t *>(d_offsets.get((size_t(c.m) + 1) * sizeof(size_t)));
  if (n) CHECK_CUDA(cudaMemcpy(kin, keys.data(), n * ks, cudaMemcpyHostToDevice));
  if (n && vs) CHECK_CUDA(cudaMemcpy(vin, vals.data(), n * vs, cudaMemcpyHostToDevice));
  if (n) CHECK_CUDA(cudaMemset(static_cast<char *>(kout) - so * ks, 0xAB, (n + so) * ks));
  if (n && vs) CHECK_CUDA(cudaMemset(static_cast<char *>(vout) - so * vs, 0xAB, (n + so) * vs));
  CHECK_CUDA(cudaMemset(doff, 0xCD, (size_t(c.m) + 1) * sizeof(size_t)));
  msplit_bucket_desc desc = hb.desc;
  if (c.kind == MSPLIT_BUCKET_SPLITTERS && !splitters.empty()) {
    desc.d_splitters = d_split.get(splitters.size());
    CHECK_CUDA(cudaMemcpy(const_cast<void *>(desc.d_splitters), splitters.data(), splitters.size(),
                          cudaMemcpyHostToDevice));
  }
  size_t bytes = 0;
  msplit_status st = msplit_multisplit(nullptr, &bytes, kin, kout, vin, vout, n, c.m, desc, doff,
                                       c.key_type, c.value_type, c.variant, nullptr);
  if (st != MSPLIT_SUCCESS) return fail(c, msplit_last_error_message());
  void *temp = d_temp.get(bytes);
  CHECK_CUDA(cudaMemset(temp, 0x5A, bytes));  // the library must not rely on zeroed temp
  st = msplit_multisplit(temp, &bytes, kin, kout, vin, vout, n, c.m, desc, doff, c.key_type, c.value_type,
                         c.variant, nullptr);
  if (st != MSPLIT_SUCCESS) return fail(c, msplit_last_error_message());
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error after [%s]: %s\n", describe(c).c_str(), cudaGetErrorString(e));
    std::exit(1);
  }
  if (n && so) {  // nothing written before the outputs' start (shifts of at most 3 elements)
    unsigned char pre[3 * 16];
    const size_t kb = so * ks, vb = so * vs;
    CHECK_CUDA(cudaMemcpy(pre, static_cast<char *>(kout) - kb, kb, cudaMemcpyDeviceToHost));
    if (vs) CHECK_CUDA(cudaMemcpy(pre + kb, static_cast<char *>(vout) - vb, vb, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < kb + vb; ++i)
      if (pre[i] != 0xAB) return fail(c, "an output was written before its start");
  }
  std::vector<unsigned char> got_keys(n * ks), got_vals(n * vs);
  std::vector<size_t> got_off(size_t(c.m) + 1);
  if (n) CHECK_CUDA(cudaMemcpy(got_keys.data(), kout, n * ks, cudaMemcpyDeviceToHost));
  if (n && vs) CHECK_CUDA(cudaMemcpy(got_vals.data(), vout, n * vs, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(got_off.data(), doff, got_off.size() * sizeof(size_t), cudaMemcpyDeviceToHost));
  if (got_off != offsets) {
    char msg[160];
    size_t b = 0;
    while (got_off[b] == offsets[b]) ++b;
    std::snprintf(msg, sizeof msg, "offsets[%zu] = %zu, expected %zu", b, got_off[b], offsets[b]);
    return fail(c, msg);
  }
  if (std::memcmp(got_keys.data(), exp_keys.data(), n * ks) != 0) {
    size_t i = 0;
    while (std::memcmp(&got_keys[i * ks], &exp_keys[i * ks], ks) == 0) ++i;
    char msg[160];
    std::snprintf(msg, sizeof msg, "keys differ first at output %zu", i);
    return fail(c, msg);
  }
  if (vs && std::memcmp(got_vals.data(), exp_vals.data(), n * vs) != 0) {
    size_t i = 0;
    while (std::memcmp(&got_vals[i * vs], &exp_vals[i * vs], vs) == 0) ++i;
    char msg[160];
    std::snprintf(msg, sizeof msg, "values differ first at output %zu (stability)", i);
    return fail(c, msg);
  }
  msplit_test::pass();
}

// A custom functor through the template API, as SSSP uses it: bucket of a vertex from dist[v].
struct dist_bucket {
  const uint32_t *dist;
  uint32_t base, delta;
  __device__ uint32_t operator()(const uint32_t &v) const {
    const uint32_t d = dist[v];
    return d < base ? 0 : (d - base) / delta;  // >= m is clamped by the library
  }
};

void test_custom_functor(size_t n, uint32_t m, msplit_variant variant) {
  ++g_runs;
  rng r(n * 7 + m);
  std::vector<uint32_t> dist(n), verts(n);
  for (size_t i = 0; i < n; ++i) {
    dist[i] = r.below(100000);
    verts[i] = uint32_t((i * 40503u) % n);
  }
  uint32_t *d_dist, *d_in, *d_out;
  size_t *d_off;
  CHECK_CUDA(cudaMalloc(&d_dist, n * 4));
  CHECK_CUDA(cudaMalloc(&d_in, n * 4));
  CHECK_CUDA(cudaMalloc(&d_out, n * 4));
  CHECK_CUDA(cudaMalloc(&d_off, (m + 1) * 8));
  CHECK_CUDA(cudaMemcpy(d_dist, dist.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_in, verts.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0xAB, n * 4));
  dist_bucket op{d_dist, 1000, 997};
  size_t bytes = 0;
  test_case c{m, n, UNIFORM, MSPLIT_BUCKET_DELTA, MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, variant};
  if (msplit::multisplit_keys(nullptr, &bytes, d_in, d_out, n, m, op, d_off, 0, variant) != MSPLIT_SUCCESS)
    return fail(c, msplit_last_error_message());
  void *temp = d_temp.get(bytes);
  if (msplit::multisplit_keys(temp, &bytes, d_in, d_out, n, m, op, d_off, 0, variant) != MSPLIT_SUCCESS)
    return fail(c, msplit_last_error_message());
  std::vector<size_t> h_off(m + 1);
  if (msplit_copy_offsets_sync(h_off.data(), d_off, m, nullptr) != MSPLIT_SUCCESS)
    return fail(c, msplit_last_error_message());
  std::vector<uint32_t> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
  std::vector<std::vector<uint32_t>> buckets(m);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t d = dist[verts[i]];
    uint32_t b = d < 1000 ? 0 : (d - 1000) / 997;
    buckets[b >= m ? m - 1 : b].push_back(verts[i]);
  }
  std::vector<uint32_t> expect;
  for (uint32_t b = 0; b < m; ++b) {
    if (h_off[b] != expect.size()) return fail(c, "custom functor: offsets differ");
    expect.insert(expect.end(), buckets[b].begin(), buckets[b].end());
  }
  if (got != expect || h_off[m] != n) fail(c, "custom functor: output differs");
  cudaFree(d_dist);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_off);
}

// Argument errors: the right status, a message, and nothing written.
void test_errors() {
  const size_t n = 1000;
  uint32_t *a, *b;
  size_t *off;
  CHECK_CUDA(cudaMalloc(&a, 2 * n * 4));
  CHECK_CUDA(cudaMalloc(&b, n * 4));
  CHECK_CUDA(cudaMalloc(&off, 17 * 8));
  CHECK_CUDA(cudaMemset(b, 0xAB, n * 4));
  msplit_bucket_desc desc{};
  desc.kind = MSPLIT_BUCKET_IDENTITY;
  size_t bytes = 0;
  test_case c{16, n, UNIFORM, MSPLIT_BUCKET_IDENTITY, MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO};
  auto expect = [&](msplit_status got, msplit_status want, const char *what) {
    ++g_runs;
    if (got != want || (want != MSPLIT_SUCCESS && msplit_last_error_message()[0] == 0)) {
      char msg[200];
      std::snprintf(msg, sizeof msg, "%s: status %s, expected %s", what, msplit_status_string(got),
                    msplit_status_string(want));
      fail(c, msg);
    } else {
      msplit_test::pass();
    }
  };
  expect(msplit_multisplit(nullptr, &bytes, a, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_SUCCESS, "size query");
  void *temp = d_temp.get(bytes);
  expect(msplit_multisplit(temp, &bytes, nullptr, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_INVALID_ARGUMENT, "NULL keys_in");
  expect(msplit_multisplit(temp, &bytes, a, b, nullptr, nullptr, n, 0, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_INVALID_ARGUMENT, "m = 0");
  expect(msplit_multisplit(temp, &bytes, a, a + 10, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_INVALID_ARGUMENT, "overlapping in/out");
  expect(msplit_multisplit(temp, &bytes, a, b, a + n, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_U32, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_INVALID_ARGUMENT, "NULL values_out");
  size_t small = bytes - 1;
  expect(msplit_multisplit(temp, &small, a, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_TEMP_STORAGE, "temp too small");
  expect(msplit_multisplit(temp, &bytes, a, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_NONE,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_UNSUPPORTED, "key type none");
  expect(msplit_multisplit(temp, &bytes, a, b, a + n, b, n, 16, desc, off, MSPLIT_TYPE_U32, MSPLIT_TYPE_F32,
                           MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_UNSUPPORTED, "value type f32");
  desc.kind = MSPLIT_BUCKET_DELTA;
  desc.delta.u = 0;
  expect(msplit_multisplit(temp, &bytes, a, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_ERROR_INVALID_ARGUMENT, "delta = 0");
  desc.kind = MSPLIT_BUCKET_IDENTITY;
  expect(msplit_multisplit(temp, &bytes, a, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                           MSPLIT_TYPE_NONE, msplit_variant(42), nullptr),
         MSPLIT_ERROR_INVALID_ARGUMENT, "unknown variant");
  // 2 and 3 named the paper's WMS and BMS, which are not in the library
  for (int v : {2, 3})
    expect(msplit_multisplit(temp, &bytes, a, b, nullptr, nullptr, n, 16, desc, off, MSPLIT_TYPE_U32,
                             MSPLIT_TYPE_NONE, msplit_variant(v), nullptr),
           MSPLIT_ERROR_INVALID_ARGUMENT, "variant 2 or 3");
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint32_t> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), b, n * 4, cudaMemcpyDeviceToHost));
  for (uint32_t v : out)
    if (v != 0xABABABABu) {
      fail(c, "an argument error wrote to the output");
      break;
    }
  // n == 0: success, offsets zeroed
  CHECK_CUDA(cudaMemset(off, 0xCD, 17 * 8));
  expect(msplit_multisplit(temp, &bytes, nullptr, nullptr, nullptr, nullptr, 0, 16, desc, off,
                           MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, MSPLIT_VARIANT_AUTO, nullptr),
         MSPLIT_SUCCESS, "n = 0");
  std::vector<size_t> h(17);
  expect(msplit_copy_offsets_sync(h.data(), off, 16, nullptr), MSPLIT_SUCCESS, "copy offsets");
  for (size_t v : h)
    if (v != 0) {
      fail(c, "n = 0: offsets not zero");
      break;
    }
  cudaFree(a);
  cudaFree(b);
  cudaFree(off);
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = msplit_test_gpu_start(argc, argv);

  // host-side check of the multiply-high division used by delta_bucket
  {
    rng r(1);
    for (int t = 0; t < 200000; ++t) {
      const uint32_t d = t < 1000 ? uint32_t(t + 1) : uint32_t(r.next() >> (r.below(32) + 32));
      if (d == 0) continue;
      const msplit::detail::fast_div_u32 fd(d);
      const uint32_t xs[] = {0u, 1u, d - 1, d, d + 1, 0xFFFFFFFFu, 0xFFFFFFFEu, uint32_t(r.next())};
      for (uint32_t x : xs)
        CHECK(fd.div(x) == x / d, "fast_div_u32(%u) of %u = %u", d, x, fd.div(x));
    }
  }

  test_errors();

  const uint32_t ms[] = {2, 3, 5, 8, 10, 16, 31, 32, 33, 64, 100, 255, 256, 257, 1000};
  const msplit_variant variants[] = {MSPLIT_VARIANT_AUTO, MSPLIT_VARIANT_DIRECT, MSPLIT_VARIANT_ONEPASS,
                                     MSPLIT_VARIANT_SORT};
  const msplit_type key_types[] = {MSPLIT_TYPE_U32, MSPLIT_TYPE_I32, MSPLIT_TYPE_F32, MSPLIT_TYPE_U64};
  const msplit_type value_types[] = {MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32, MSPLIT_TYPE_U64};
  uint64_t seed = 12345;
  long index = 0;

  // 1. small sizes around the tile: the cross product of m, n, variant and value type, two
  //    distributions each; the distribution, bucket function and key type rotate with the index.
  for (uint32_t m : ms)
    for (msplit_variant v : variants)
      for (int vt = 0; vt < 3; ++vt)
        for (int rep = 0; rep < 2; ++rep) {
          const int d = int((index + rep) % NUM_DISTS);
          const msplit_type value_type = value_types[vt];
          const msplit_type key_type = key_types[(index / 3) % 4];
          msplit_bucket_kind kind = msplit_bucket_kind(index % 4);
          if (kind == MSPLIT_BUCKET_BITFIELD && key_type == MSPLIT_TYPE_F32) kind = MSPLIT_BUCKET_DELTA;
          const size_t tile = tile_of(type_size(key_type), type_size(value_type));
          const size_t ns_full[] = {0, 1, 31, 32, 33, tile - 1, tile, tile + 1, 3 * tile + 77};
          const size_t ns_quick[] = {0, 1, 33, tile + 1};
          const size_t *ns = quick ? ns_quick : ns_full;
          const int nn = quick ? 4 : 9;
          ++index;
          if (quick && (rep == 1 || (m > 64 && m != 257))) continue;
          for (int i = 0; i < nn; ++i) {
            test_case c{m, ns[i], dist_kind(d), kind, key_type, value_type, v};
            run_case(c, seed++);
          }
        }
  std::printf("small sizes: %ld runs, %ld failures\n", g_runs, msplit_test_failures());

  // 2. n = 10^6 + 7 (10^5 + 7 in quick mode): each m and variant, rotating distributions
  const size_t mid = quick ? 100007 : 1000007;
  index = 0;
  for (uint32_t m : ms)
    for (msplit_variant v : variants)
      for (int d = 0; d < NUM_DISTS; ++d) {
        // two distributions per (m, variant), rotating; quick mode: binomial at three m
        if (quick ? (d != BINOMIAL || (m != 5 && m != 100 && m != 1000)) : ((d + int(index / 2)) % 3 != 0)) {
          ++index;
          continue;
        }
        const msplit_type value_type = value_types[index % 3];
        const msplit_type key_type = key_types[(index / 3) % 4];
        msplit_bucket_kind kind = msplit_bucket_kind((index / 2) % 4);
        if (kind == MSPLIT_BUCKET_BITFIELD && key_type == MSPLIT_TYPE_F32) kind = MSPLIT_BUCKET_SPLITTERS;
        ++index;
        test_case c{m, mid, dist_kind(d), kind, key_type, value_type, v};
        run_case(c, seed++);
      }
  std::printf("after n = %zu: %ld runs, %ld failures\n", mid, g_runs, msplit_test_failures());

  // 3. the template API with a functor that reads device memory (SSSP's use)
  for (msplit_variant v : variants) test_custom_functor(quick ? 5000 : 300000, 40, v);

  // 4. inputs and outputs that do not start on a 16-byte boundary (the fast paths load 16 bytes
  //    at a time where they can): sub-arrays, as SSSP passes them
  {
    const long before = g_runs;
    const uint32_t mis_ms[] = {3, 8, 32, 64, 256};
    const msplit_variant mis_vs[] = {MSPLIT_VARIANT_AUTO, MSPLIT_VARIANT_DIRECT, MSPLIT_VARIANT_ONEPASS};
    const size_t shifts[][2] = {{1, 0}, {0, 3}, {2, 1}};
    for (uint32_t m : mis_ms)
      for (msplit_variant v : mis_vs)
        for (int vt = 0; vt < 2; ++vt)
          for (const auto &sh : shifts) {
            const msplit_type value_type = vt ? MSPLIT_TYPE_U32 : MSPLIT_TYPE_NONE;
            const size_t n = 3 * tile_of(4, vt ? 4 : 0) + 77;
            test_case c{m, n, UNIFORM, MSPLIT_BUCKET_DELTA, MSPLIT_TYPE_U32, value_type, v, sh[0], sh[1]};
            run_case(c, seed++);
          }
    std::printf("misaligned arrays: %ld runs, %ld failures\n", g_runs - before, msplit_test_failures());
  }

  // 5. n = 2^26 on the variants that matter at scale
  if (!quick) {
    const size_t big = size_t(1) << 26;
    const struct {
      uint32_t m;
      msplit_variant v;
      dist_kind d;
      msplit_type vt;
    } bigs[] = {{2, MSPLIT_VARIANT_AUTO, UNIFORM, MSPLIT_TYPE_NONE},
                {32, MSPLIT_VARIANT_AUTO, QUARTER_UNIFORM, MSPLIT_TYPE_U32},
                {256, MSPLIT_VARIANT_AUTO, BINOMIAL, MSPLIT_TYPE_NONE},
                {1000, MSPLIT_VARIANT_AUTO, UNIFORM, MSPLIT_TYPE_U32},
                {16, MSPLIT_VARIANT_DIRECT, UNIFORM, MSPLIT_TYPE_NONE},
                {64, MSPLIT_VARIANT_DIRECT, ONE_BUCKET, MSPLIT_TYPE_U64},
                {100, MSPLIT_VARIANT_DIRECT, REVERSE_SORTED, MSPLIT_TYPE_NONE},
                {10, MSPLIT_VARIANT_ONEPASS, SORTED, MSPLIT_TYPE_U64}};
    for (const auto &b : bigs) {
      test_case c{b.m, big, b.d, MSPLIT_BUCKET_DELTA, MSPLIT_TYPE_U32, b.vt, b.v};
      run_case(c, seed++);
    }
  }
  return msplit_test_finish("multisplit: %ld runs", g_runs);
}
