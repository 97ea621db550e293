// The GPU LSM's cleanup: the occupied levels merged into one run, smallest (newest) first, each
// merge stable with the newer run first, so that each key's entries end up newest first; a scan of
// keep flags (a key's first entry, unless it is a tombstone) compacts the run into its target:
// the single level j with 2^j >= (occupied slots) / b when there is one, else the occupied levels
// themselves, laid out as consecutive slices of the run, largest level first. Either way every
// level of the target holds unique keys without tombstones and the levels' key ranges are
// disjoint, which lets a count add up the levels' searches (lsm->clean).
//
// Temporary storage: the error record, two buffers of b (2^L - 1) keys and values (the merges'
// ping-pong; a lone level is copied into one, since the compaction may write where it reads),
// three counts, the merge's tile splits and the scan's tile sums.
#include "lsm_impl.h"

namespace msplit {
namespace detail {
namespace {

template <typename K, typename V>
struct lsm_keep {
  const K *keys;
  const V *values;
  __device__ uint64_t operator()(uint64_t i) const {
    return (i == 0 || keys[i] != keys[i - 1]) && values[i] != lsm_deleted<V>();
  }
};

// Writes kept entry i of the run to position `at` of the target, the target's levels (a bit mask)
// filled largest first.
template <typename K, typename V>
struct lsm_place {
  const K *keys;
  const V *values;
  lsm_view<K, V> s;
  uint64_t target;
  __device__ void operator()(uint64_t i, uint64_t at, uint64_t keep) const {
    if (!keep) return;
    for (int l = s.num_levels - 1; l >= 0; --l) {
      if (!((target >> l) & 1)) continue;
      const uint64_t cap = lsm_level_capacity(s.b, l);
      if (at < cap) {
        s.level_keys(l)[at] = keys[i];
        s.level_values(l)[at] = values[i];
        return;
      }
      at -= cap;
    }
  }
};

// A lone level's run copied out: its length read on the device, so only the entries are read.
template <typename K, typename V>
__global__ void lsm_copy_run_kernel(const K *keys, const V *values, const uint64_t *n, K *keys_out, V *values_out,
                                    uint64_t *n_out) {
  const uint64_t len = *n, i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i == 0) *n_out = len;
  if (i >= len) return;
  keys_out[i] = keys[i];
  values_out[i] = values[i];
}

// Each level's count after the placement of `*total` entries.
__global__ void lsm_set_counts_kernel(uint64_t *counts, int levels, uint64_t b, uint64_t target,
                                      const uint64_t *total) {
  uint64_t left = *total;
  for (int l = levels - 1; l >= 0; --l) {
    uint64_t c = 0;
    if ((target >> l) & 1) {
      c = left < lsm_level_capacity(b, l) ? left : lsm_level_capacity(b, l);
      left -= c;
    }
    counts[l] = c;
  }
}

}  // namespace

template <typename K, typename V>
msplit_status lsm_cleanup_run(const char *fn, void *d_temp, size_t *temp_bytes, msplit_lsm *h, cudaStream_t stream) {
  // 1. check arguments; lay out the temporary storage
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  MSPLIT_TRY((lsm_check_handle<K, V>(fn, h, d_temp != nullptr)));
  const uint64_t b = h->batch_size;
  const int levels = int(h->num_levels);
  const uint64_t cap = lsm_level_start(b, levels);
  lsm_temp t;
  size_t o_k[2], o_v[2];
  for (int p = 0; p < 2; ++p) {
    o_k[p] = t.add(cap * sizeof(K));
    o_v[p] = t.add(cap * sizeof(V));
  }
  const size_t o_counts = t.add(3 * sizeof(uint64_t));
  const size_t o_splits = t.add((lsm_merge_tiles(cap) + 1) * sizeof(uint64_t));
  const size_t o_tiles = t.add(lsm_scan_tiles(cap) * sizeof(uint64_t));
  if (!d_temp) {
    *temp_bytes = t.total;
    return MSPLIT_SUCCESS;
  }
  MSPLIT_TRY(lsm_check_temp(fn, *temp_bytes, t.total));
  MSPLIT_TRY(clear_record(d_temp, stream));
  if (h->occupied == 0) {
    h->clean = 1;
    return MSPLIT_SUCCESS;
  }

  // 2. one run of every occupied level, lowest (newest) first
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  const lsm_view<K, V> s = make_lsm_view<K, V>(*h);
  uint64_t *counts = reinterpret_cast<uint64_t *>(temp + o_counts);
  K *buf_k[2] = {reinterpret_cast<K *>(temp + o_k[0]), reinterpret_cast<K *>(temp + o_k[1])};
  V *buf_v[2] = {reinterpret_cast<V *>(temp + o_v[0]), reinterpret_cast<V *>(temp + o_v[1])};
  const K *run_k = nullptr;
  const V *run_v = nullptr;
  const uint64_t *run_n = nullptr;
  uint64_t run_bound = 0;
  int p = 0, first_level = -1;
  for (int l = 0; l < levels; ++l) {
    if (!((h->occupied >> l) & 1)) continue;
    const K *lk = s.keys + lsm_level_start(b, l);
    const V *lv = s.values + lsm_level_start(b, l);
    run_bound += lsm_level_capacity(b, l);
    if (first_level < 0) {
      first_level = l;
      run_k = lk;
      run_v = lv;
      run_n = &s.counts[l];
      continue;
    }
    MSPLIT_TRY((lsm_merge_launch<K, V>(run_k, run_v, run_n, lk, lv, &s.counts[l], buf_k[p], buf_v[p], &counts[p],
                                       run_bound, reinterpret_cast<uint64_t *>(temp + o_splits), stream)));
    run_k = buf_k[p];
    run_v = buf_v[p];
    run_n = &counts[p];
    p ^= 1;
  }
  if (run_bound == lsm_level_capacity(b, first_level)) {
    // a lone level: copied out, since the compaction may write into it
    constexpr int THREADS = 256;
    lsm_copy_run_kernel<K, V><<<lsm_blocks(run_bound, THREADS), THREADS, 0, stream>>>(run_k, run_v, run_n, buf_k[0],
                                                                                       buf_v[0], &counts[0]);
    MSPLIT_LAUNCH_CHECK();
    run_k = buf_k[0];
    run_v = buf_v[0];
    run_n = &counts[0];
  }

  // 3. the target, then the kept entries placed there and the levels' counts
  int j = 0;
  while ((uint64_t(1) << j) < h->occupied) ++j;
  const uint64_t target = j < levels ? uint64_t(1) << j : h->occupied;
  MSPLIT_TRY(lsm_scan_launch(lsm_keep<K, V>{run_k, run_v}, lsm_place<K, V>{run_k, run_v, s, target},
                             lsm_length{0, run_n}, run_bound, reinterpret_cast<uint64_t *>(temp + o_tiles),
                             &counts[2], stream));
  lsm_set_counts_kernel<<<1, 1, 0, stream>>>(s.counts, levels, b, target, &counts[2]);
  MSPLIT_LAUNCH_CHECK();
  h->occupied = target;
  h->clean = 1;
  return MSPLIT_SUCCESS;
}

#define MSPLIT_LSM_CLEANUP_INST(K, V, KT, VT) \
  template msplit_status lsm_cleanup_run<K, V>(const char *, void *, size_t *, msplit_lsm *, cudaStream_t);
MSPLIT_LSM_TYPE_PAIRS(MSPLIT_LSM_CLEANUP_INST)

}  // namespace detail
}  // namespace msplit
