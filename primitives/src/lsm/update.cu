// The GPU LSM's update (Ashkiani et al., IPDPS 2018, section on insertion): each batch of b
// entries is staged (reversed, so that the later entry of a key comes first after the stable
// sort, and deletes written as tombstones), sorted by msplit's radix sort, and merged with the
// occupied levels 0, 1, ..., j - 1 in turn, newer first, until it lands in the first empty level
// j: the binary counter's increment. The merges between levels go through two buffers of
// temporary storage; the last one writes level j.
//
// Invariants: an occupied level i holds at most b 2^i entries, sorted, equal keys newest first;
// lower levels are newer. The host knows which levels are occupied, the device how many entries
// each holds (after a cleanup a level may hold fewer than its capacity).
//
// Temporary storage, in order: the error record, the radix sort's storage for b pairs (its own
// record at its start, adopted into the call's at the end), the staged batch and the sorted batch
// (b keys and values each), two merge buffers of b 2^(L-2) keys and values (none for L < 3), the
// runs' counts, and the merge's tile splits.
#include "lsm_impl.h"
#include "msplit/detail/lsm/tuning.h"
#include "msplit/detail/radix_sort/dispatch.cuh"

namespace msplit {
namespace detail {
namespace {

constexpr int THREADS = tuning::LSM_THREADS;

// Staged position i of a batch of `len` entries from `first`, padded to b: the entries in reverse,
// then copies of the last entry. The stable sort keeps staged order among equal keys, so a copy
// comes after the entry it copies, as an older entry of its key: it never decides anything.
template <typename K, typename V>
__global__ void __launch_bounds__(THREADS)
    lsm_stage_kernel(const K *keys, const V *values, const uint8_t *ops, uint64_t first, uint64_t len, uint64_t b,
                     K *staged_keys, V *staged_values, uint64_t *batch_count, error_record *record) {
  const uint64_t i = uint64_t(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= b) return;
  if (i == 0) *batch_count = b;
  const uint64_t src = first + (i < len ? len - 1 - i : len - 1);
  const uint8_t op = ops ? ops[src] : uint8_t(MSPLIT_LSM_INSERT);
  const V v = op == MSPLIT_LSM_INSERT ? values[src] : lsm_deleted<V>();
  if (i < len && (op > MSPLIT_LSM_DELETE || (op == MSPLIT_LSM_INSERT && v == lsm_deleted<V>())))
    record_error(record, MSPLIT_ERROR_INVALID_ARGUMENT, MSPLIT_PRIMITIVE_LSM, MSPLIT_SITE_LSM_UPDATE, src, op,
                 uint64_t(v));
  staged_keys[i] = keys[src];
  staged_values[i] = op == MSPLIT_LSM_INSERT ? v : lsm_deleted<V>();
}

// The sort's error (a look-back that gave up) becomes the call's, unless the call has one.
__global__ void lsm_adopt_record_kernel(error_record *record, const error_record *sort_record) {
  if (sort_record->code != MSPLIT_SUCCESS && record->code == MSPLIT_SUCCESS) *record = *sort_record;
}

}  // namespace

template <typename K, typename V>
msplit_status lsm_update_run(const char *fn, void *d_temp, size_t *temp_bytes, msplit_lsm *h, const K *keys,
                             const V *values, const uint8_t *ops, size_t n, cudaStream_t stream) {
  // 1. check arguments; lay out the temporary storage
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  MSPLIT_TRY((lsm_check_handle<K, V>(fn, h, d_temp != nullptr)));
  const uint64_t b = h->batch_size;
  const int levels = int(h->num_levels);
  const uint64_t half = levels >= 3 ? b << (levels - 2) : 0;
  size_t sort_bytes = 0;
  const key_codec<K> codec = make_key_codec<K>(false);
  MSPLIT_TRY((radix_sort_run<K, V>(fn, nullptr, &sort_bytes, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, b,
                                   0, int(sizeof(K) * 8), codec, stream)));
  lsm_temp t;
  const size_t o_sort = t.add(sort_bytes), o_sk = t.add(b * sizeof(K)), o_sv = t.add(b * sizeof(V));
  const size_t o_bk = t.add(b * sizeof(K)), o_bv = t.add(b * sizeof(V));
  size_t o_pk[2], o_pv[2];
  for (int p = 0; p < 2; ++p) {
    o_pk[p] = t.add(half * sizeof(K));
    o_pv[p] = t.add(half * sizeof(V));
  }
  const size_t o_counts = t.add(3 * sizeof(uint64_t));
  const size_t o_splits = t.add((lsm_merge_tiles(b << (levels - 1)) + 1) * sizeof(uint64_t));
  if (!d_temp) {
    *temp_bytes = t.total;
    return MSPLIT_SUCCESS;
  }
  MSPLIT_TRY(lsm_check_temp(fn, *temp_bytes, t.total));
  if (n > 0 && (!keys || !values))
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with n = %zu", fn, keys ? "d_values" : "d_keys", n);
  const uint64_t slots = (uint64_t(1) << levels) - 1, batches = (n + b - 1) / b;
  if (batches > slots - h->occupied)
    return set_error(MSPLIT_ERROR_OUT_OF_CAPACITY,
                     "%s: the update needs %llu more batches of %llu entries but only %llu slots of batches are free "
                     "(capacity %llu entries in %d levels)",
                     fn, (unsigned long long)batches, (unsigned long long)b,
                     (unsigned long long)(slots - h->occupied), (unsigned long long)(slots * b), levels);
  MSPLIT_TRY(clear_record(d_temp, stream));
  if (n == 0) return MSPLIT_SUCCESS;

  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  const lsm_view<K, V> s = make_lsm_view<K, V>(*h);
  K *sk = reinterpret_cast<K *>(temp + o_sk), *bk = reinterpret_cast<K *>(temp + o_bk);
  V *sv = reinterpret_cast<V *>(temp + o_sv), *bv = reinterpret_cast<V *>(temp + o_bv);
  uint64_t *counts = reinterpret_cast<uint64_t *>(temp + o_counts);
  uint64_t *splits = reinterpret_cast<uint64_t *>(temp + o_splits);
  uint64_t occupied = h->occupied;
  for (uint64_t c = 0; c < batches; ++c) {
    // 2. stage and sort the batch: into level 0 if it is empty, else into the sorted buffers
    const uint64_t first = c * b, len = n - first < b ? n - first : b;
    int j = 0;
    while ((occupied >> j) & 1) ++j;
    K *sorted_k = j == 0 ? s.keys : bk;
    V *sorted_v = j == 0 ? s.values : bv;
    uint64_t *sorted_n = j == 0 ? &s.counts[0] : &counts[0];
    lsm_stage_kernel<K, V><<<lsm_blocks(b, THREADS), THREADS, 0, stream>>>(keys, values, ops, first, len, b, sk, sv,
                                                                          sorted_n, temp_record(temp));
    MSPLIT_LAUNCH_CHECK();
    size_t sb = sort_bytes;
    MSPLIT_TRY((radix_sort_run<K, V>(fn, temp + o_sort, &sb, sk, sorted_k, sv, sorted_v, nullptr, nullptr, b, 0,
                                     int(sizeof(K) * 8), codec, stream)));
    // 3. merge down the occupied levels below j, the newer run first; the last merge writes level j
    const K *run_k = sorted_k;
    const V *run_v = sorted_v;
    const uint64_t *run_n = sorted_n;
    for (int k = 0; k < j; ++k) {
      const bool last = k == j - 1;
      K *out_k = last ? s.keys + lsm_level_start(b, j) : reinterpret_cast<K *>(temp + o_pk[k & 1]);
      V *out_v = last ? s.values + lsm_level_start(b, j) : reinterpret_cast<V *>(temp + o_pv[k & 1]);
      uint64_t *out_n = last ? &s.counts[j] : &counts[1 + (k & 1)];
      MSPLIT_TRY((lsm_merge_launch<K, V>(run_k, run_v, run_n, s.keys + lsm_level_start(b, k),
                                         s.values + lsm_level_start(b, k), &s.counts[k], out_k, out_v, out_n,
                                         b << (k + 1), splits, stream)));
      run_k = out_k;
      run_v = out_v;
      run_n = out_n;
    }
    occupied += 1;
  }
  lsm_adopt_record_kernel<<<1, 1, 0, stream>>>(temp_record(temp), temp_record(temp + o_sort));
  MSPLIT_LAUNCH_CHECK();
  h->occupied = occupied;
  h->clean = 0;
  return MSPLIT_SUCCESS;
}

#define MSPLIT_LSM_UPDATE_INST(K, V, KT, VT)                                                                 \
  template msplit_status lsm_update_run<K, V>(const char *, void *, size_t *, msplit_lsm *, const K *, const V *, \
                                              const uint8_t *, size_t, cudaStream_t);
MSPLIT_LSM_TYPE_PAIRS(MSPLIT_LSM_UPDATE_INST)

}  // namespace detail
}  // namespace msplit
