// The slab hash's bulk operations: one resident grid whose warps loop over the operations 32 at a
// time, each round served by warp_ops::apply, and the host launcher that checks the arguments.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <algorithm>

#include "msplit/detail/error.cuh"
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/detail/slab_hash/warp_ops.cuh"
#include "msplit/detail/slab_hash/tuning.h"

namespace msplit {
namespace detail {
namespace slab {

inline bool is_insert_host(uint32_t op) { return op <= MSPLIT_HASH_OP_INSERT_DUP; }

// What one bulk launch does on a table of format F: a fixed operation (`op`) or one per element
// (`ops`), and where its results go (every output may be NULL).
template <class F>
struct bulk_args {
  const uint8_t *ops;
  uint32_t op;
  const typename F::key_t *keys;
  const typename F::value_t *values;
  size_t n;
  typename F::value_t *values_out;  // find's values; apply's counts too
  uint32_t *counts;                 // count
  uint8_t *results;
  uint8_t *found;           // contains: 1 if found
  const uint32_t *offsets;  // find-all: n + 1 output offsets (values_out is then the output)
};

template <class F, int PROBE_GROUP, int THREADS>
__global__ void __launch_bounds__(THREADS) bulk_kernel(view v, bulk_args<F> a) {
  using key_t = typename F::key_t;
  using value_t = typename F::value_t;
  warp_ops<F, PROBE_GROUP> w{};
  w.v = v;
  const int lane = lane_id();
  const size_t warp = (blockIdx.x * size_t(THREADS) + threadIdx.x) / WARP;
  const size_t warps = size_t(gridDim.x) * (THREADS / WARP);
  for (size_t base = warp * WARP; base < a.n; base += warps * WARP) {
    const size_t i = base + lane;
    const bool active = i < a.n;
    const key_t key = active ? a.keys[i] : 0;
    if (a.offsets) {
      w.find_all(active, key, a.values_out, active ? a.offsets[i] : 0,
                 active ? a.offsets[i + 1] : 0);
      continue;
    }
    const uint32_t op = a.ops ? (active ? a.ops[i] : uint32_t(MSPLIT_HASH_OP_NOP)) : a.op;
    const value_t value = active && a.values && is_insert(op) ? a.values[i] : 0;
    value_t out = 0;
    const uint32_t r = w.apply(active, op, key, value, out);
    if (!active) continue;
    if (a.results) a.results[i] = uint8_t(r);
    if (a.found) a.found[i] = r == MSPLIT_HASH_DONE;
    if (a.counts) a.counts[i] = uint32_t(out);
    if (a.values_out &&
        (op == MSPLIT_HASH_OP_FIND || op == MSPLIT_HASH_OP_COUNT || op == MSPLIT_HASH_OP_ERASE_ALL))
      a.values_out[i] = out;
  }
  w.commit();
}

inline const char *type_name(msplit_type t) {
  return t == MSPLIT_TYPE_U32 ? "uint32" : t == MSPLIT_TYPE_U64 ? "uint64" : "none";
}

// Checks that `t` is an initialised table of format F and that the arrays an operation needs are
// there.
template <class F>
msplit_status check_bulk(const char *fn, const msplit_slab_hash *t, const bulk_args<F> &a) {
  if (!t) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: table is NULL", fn);
  if (!t->d_storage || t->num_buckets == 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: the table is not initialised (msplit_slab_hash_init)", fn);
  if (t->key_type != F::KEY_TYPE || t->value_type != F::VALUE_TYPE)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: the table holds %s keys and %s values, this call takes %s keys and %s "
                     "values",
                     fn, type_name(t->key_type), type_name(t->value_type), type_name(F::KEY_TYPE),
                     type_name(F::VALUE_TYPE));
  if (a.n == 0) return MSPLIT_SUCCESS;
  if (!a.keys)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_keys is NULL with n = %zu", fn, a.n);
  if (a.ops == nullptr && is_insert_host(a.op) && t->has_values && !a.values)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_values is NULL for an insert into a map",
                     fn);
  if (a.offsets && !a.values_out)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_values_out is NULL with n = %zu", fn,
                     a.n);
  return MSPLIT_SUCCESS;
}

// Launches the bulk kernel over a.n operations: one resident grid, at most one thread per
// operation.
template <class F, int PROBE_GROUP = tuning::HASH_PROBE_GROUP>
msplit_status bulk_run(const msplit_slab_hash &t, const bulk_args<F> &a, cudaStream_t stream) {
  if (a.n == 0) return MSPLIT_SUCCESS;
  constexpr int THREADS = tuning::HASH_BLOCK_THREADS;
  const auto kernel = bulk_kernel<F, PROBE_GROUP, THREADS>;
  // Blocks per SM and the code's architecture depend only on the kernel: asked once (a benign
  // race writes the same values).
  static int per_sm = 0, ptx = 0;
  if (per_sm == 0) {
    cudaFuncAttributes attr{};
    MSPLIT_CUDA_TRY(cudaFuncGetAttributes(&attr, kernel));
    ptx = attr.ptxVersion;
    MSPLIT_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
  }
  if (F::STRIDE == 4 && ptx < 90)
    return set_error(MSPLIT_ERROR_UNSUPPORTED,
                     "slab hash: %zu-byte entries need the 128-bit CAS of sm_90, and this code was "
                     "built for sm_%d",
                     F::ENTRY_BYTES, ptx);
  int device = 0, sms = 0;
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const size_t wanted = (a.n + THREADS - 1) / THREADS;
  const size_t grid = std::min(wanted, size_t(sms) * size_t(std::max(per_sm, 1)));
  kernel<<<unsigned(grid), THREADS, 0, stream>>>(make_view(t), a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

// check_bulk, then bulk_run.
template <class F>
msplit_status bulk(const char *fn, const msplit_slab_hash *t, const bulk_args<F> &a,
                   cudaStream_t stream) {
  MSPLIT_TRY(check_bulk(fn, t, a));
  return bulk_run<F>(*t, a, stream);
}
}  // namespace slab
}  // namespace detail
}  // namespace msplit
