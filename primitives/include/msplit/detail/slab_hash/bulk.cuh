// The slab hash's bulk operations: one resident grid whose warps loop over the operations 32 at a
// time, each round served by warp_ops::apply, and the host launcher that checks the arguments.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include <algorithm>

#include "msplit/detail/error.cuh"
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/detail/slab_hash/warp_ops.cuh"
#include "msplit/slab_hash_tuning.h"

namespace msplit {
namespace detail {
namespace slab {

inline bool is_insert_host(uint32_t op) { return op <= MSPLIT_HASH_OP_INSERT_DUP; }

// What one bulk launch does: a fixed operation (`op`) or one per element (`ops`), and where its
// results go (every output may be NULL).
struct bulk_args {
  const uint8_t *ops;
  uint32_t op;
  const uint32_t *keys;
  const uint32_t *values;
  size_t n;
  uint32_t *values_out;
  uint8_t *results;
  uint8_t *found;           // contains: 1 if found
  const uint32_t *offsets;  // find-all: n + 1 output offsets (values_out is then the output)
};

template <bool HAS_VALUES, int PROBE_GROUP, int THREADS>
__global__ void __launch_bounds__(THREADS) bulk_kernel(view v, bulk_args a) {
  warp_ops<HAS_VALUES, PROBE_GROUP> w{};
  w.v = v;
  const int lane = lane_id();
  const size_t warp = (blockIdx.x * size_t(THREADS) + threadIdx.x) / WARP;
  const size_t warps = size_t(gridDim.x) * (THREADS / WARP);
  for (size_t base = warp * WARP; base < a.n; base += warps * WARP) {
    const size_t i = base + lane;
    const bool active = i < a.n;
    const uint32_t key = active ? a.keys[i] : 0;
    if (a.offsets) {
      w.find_all(active, key, a.values_out, active ? a.offsets[i] : 0,
                 active ? a.offsets[i + 1] : 0);
      continue;
    }
    const uint32_t op = a.ops ? (active ? a.ops[i] : uint32_t(MSPLIT_HASH_OP_NOP)) : a.op;
    const uint32_t value = active && a.values && is_insert(op) ? a.values[i] : 0;
    uint32_t out = 0;
    const uint32_t r = w.apply(active, op, key, value, out);
    if (!active) continue;
    if (a.results) a.results[i] = uint8_t(r);
    if (a.found) a.found[i] = r == MSPLIT_HASH_DONE;
    if (a.values_out &&
        (op == MSPLIT_HASH_OP_FIND || op == MSPLIT_HASH_OP_COUNT || op == MSPLIT_HASH_OP_ERASE_ALL))
      a.values_out[i] = out;
  }
  w.commit();
}

// Checks that `t` is an initialised table and that the arrays an operation needs are there.
inline msplit_status check_bulk(const char *fn, const msplit_slab_hash *t, const bulk_args &a) {
  if (!t) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: table is NULL", fn);
  if (!t->d_storage || t->num_buckets == 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: the table is not initialised (msplit_slab_hash_init)", fn);
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
template <bool HAS_VALUES, int PROBE_GROUP = tuning::HASH_PROBE_GROUP>
msplit_status bulk_run(const msplit_slab_hash &t, const bulk_args &a, cudaStream_t stream) {
  if (a.n == 0) return MSPLIT_SUCCESS;
  constexpr int THREADS = tuning::HASH_BLOCK_THREADS;
  const auto kernel = bulk_kernel<HAS_VALUES, PROBE_GROUP, THREADS>;
  // Blocks per SM depend only on the kernel: asked once (a benign race writes the same value).
  static int per_sm = 0;
  if (per_sm == 0)
    MSPLIT_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
  int device = 0, sms = 0;
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const size_t wanted = (a.n + THREADS - 1) / THREADS;
  const size_t grid = std::min(wanted, size_t(sms) * size_t(std::max(per_sm, 1)));
  kernel<<<unsigned(grid), THREADS, 0, stream>>>(make_view(t), a);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

// check_bulk, then bulk_run for the table's kind.
template <int PROBE_GROUP = tuning::HASH_PROBE_GROUP>
msplit_status bulk(const char *fn, const msplit_slab_hash *t, const bulk_args &a,
                   cudaStream_t stream) {
  MSPLIT_TRY(check_bulk(fn, t, a));
  return t->has_values ? bulk_run<true, PROBE_GROUP>(*t, a, stream)
                       : bulk_run<false, PROBE_GROUP>(*t, a, stream);
}
}  // namespace slab
}  // namespace detail
}  // namespace msplit
