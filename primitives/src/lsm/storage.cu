// The GPU LSM's shape and storage: how many levels a capacity needs, the bytes of the structure,
// its initialisation (an empty structure: every level's count zero, none occupied), and the
// reclaim of the slots a cleanup freed (the one call that reads the device's counts back).
#include "lsm_impl.h"

namespace msplit {
namespace detail {

// Slots are counted in 32-bit range results (a query's count is a uint32_t) and positions: the
// structure holds fewer than 2^32 slots.
constexpr uint64_t LSM_MAX_SLOTS = (uint64_t(1) << 32) - 1;

msplit_status lsm_levels(const char *fn, size_t max_elements, size_t b, int *levels) {
  if (b == 0) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: batch_size is 0", fn);
  if (max_elements == 0) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: max_elements is 0", fn);
  int l = 1;
  while (l < MSPLIT_LSM_MAX_LEVELS && lsm_level_start(b, l) < max_elements && lsm_level_start(b, l) <= LSM_MAX_SLOTS)
    ++l;
  if (lsm_level_start(b, l) < max_elements || lsm_level_start(b, l) > LSM_MAX_SLOTS)
    return set_error(MSPLIT_ERROR_UNSUPPORTED,
                     "%s: max_elements %zu in batches of %zu needs %llu slots or more; at most %llu are supported", fn,
                     max_elements, b, (unsigned long long)lsm_level_start(b, l), (unsigned long long)LSM_MAX_SLOTS);
  *levels = l;
  return MSPLIT_SUCCESS;
}

template <typename K, typename V>
msplit_status lsm_storage_bytes_run(const char *fn, size_t max_elements, size_t b, size_t *bytes) {
  if (!bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: bytes is NULL", fn);
  int levels = 0;
  MSPLIT_TRY(lsm_levels(fn, max_elements, b, &levels));
  size_t ko, vo;
  lsm_storage_layout<K, V>(b, levels, &ko, &vo, bytes);
  return MSPLIT_SUCCESS;
}

template <typename K, typename V>
msplit_status lsm_plan_run(const char *fn, msplit_lsm *h, size_t max_elements, size_t b) {
  if (!h) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lsm is NULL", fn);
  int levels = 0;
  MSPLIT_TRY(lsm_levels(fn, max_elements, b, &levels));
  h->d_storage = nullptr;
  h->batch_size = b;
  h->num_levels = uint32_t(levels);
  h->occupied = 0;
  h->clean = 1;
  h->key_type = lsm_type_tag<K>();
  h->value_type = lsm_type_tag<V>();
  return MSPLIT_SUCCESS;
}

template <typename K, typename V>
msplit_status lsm_init_run(const char *fn, msplit_lsm *h, void *d_storage, size_t bytes, size_t max_elements,
                           size_t b, cudaStream_t stream) {
  // 1. check arguments
  if (!h) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lsm is NULL", fn);
  if (!d_storage) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is NULL", fn);
  if (reinterpret_cast<uintptr_t>(d_storage) % TEMP_ALIGN != 0)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_storage is not %zu-byte aligned", fn, TEMP_ALIGN);
  size_t need = 0;
  MSPLIT_TRY((lsm_storage_bytes_run<K, V>(fn, max_elements, b, &need)));
  if (bytes < need) return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: bytes is %zu, %zu needed", fn, bytes, need);
  // 2. the counts cleared; the levels' entries are only read below their counts
  MSPLIT_CUDA_TRY(cudaMemsetAsync(d_storage, 0, LSM_COUNTS_BYTES, stream));
  MSPLIT_TRY((lsm_plan_run<K, V>(fn, h, max_elements, b)));
  h->d_storage = d_storage;
  return MSPLIT_SUCCESS;
}

template <typename K, typename V>
msplit_status lsm_reclaim_run(const char *fn, msplit_lsm *h, uint64_t *size, cudaStream_t stream) {
  // 1. check arguments; read the counts
  MSPLIT_TRY((lsm_check_handle<K, V>(fn, h, true)));
  if (!h->clean)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: the structure is not clean (an update came after the cleanup)",
                     fn);
  const lsm_view<K, V> s = make_lsm_view<K, V>(*h);
  const int levels = int(h->num_levels);
  uint64_t counts[MSPLIT_LSM_MAX_LEVELS] = {};
  MSPLIT_CUDA_TRY(cudaMemcpyAsync(counts, s.counts, levels * sizeof(uint64_t), cudaMemcpyDeviceToHost, stream));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(stream));
  uint64_t c = 0;
  for (int l = 0; l < levels; ++l) c += (h->occupied >> l) & 1 ? counts[l] : 0;
  if (size) *size = c;
  // 2. a run in one level j moves into the levels of ceil(c / b), all below j unless that is j
  const uint64_t b = h->batch_size, want = (c + b - 1) / b;
  if ((h->occupied & (h->occupied - 1)) != 0 || want == h->occupied) return MSPLIT_SUCCESS;
  int j = 0;
  while (!((h->occupied >> j) & 1)) ++j;
  const K *src_k = s.keys + lsm_level_start(b, j);
  const V *src_v = s.values + lsm_level_start(b, j);
  uint64_t at = 0, next[MSPLIT_LSM_MAX_LEVELS] = {};
  for (int l = levels - 1; l >= 0; --l) {
    if (!((want >> l) & 1)) continue;
    const uint64_t m = c - at < lsm_level_capacity(b, l) ? c - at : lsm_level_capacity(b, l);
    MSPLIT_CUDA_TRY(cudaMemcpyAsync(s.keys + lsm_level_start(b, l), src_k + at, m * sizeof(K),
                                    cudaMemcpyDeviceToDevice, stream));
    MSPLIT_CUDA_TRY(cudaMemcpyAsync(s.values + lsm_level_start(b, l), src_v + at, m * sizeof(V),
                                    cudaMemcpyDeviceToDevice, stream));
    next[l] = m;
    at += m;
  }
  MSPLIT_CUDA_TRY(cudaMemcpyAsync(s.counts, next, levels * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
  MSPLIT_CUDA_TRY(cudaStreamSynchronize(stream));  // `next` is read by the copy
  h->occupied = want;
  return MSPLIT_SUCCESS;
}

#define MSPLIT_LSM_STORAGE_INST(K, V, KT, VT)                                                          \
  template msplit_status lsm_storage_bytes_run<K, V>(const char *, size_t, size_t, size_t *);          \
  template msplit_status lsm_plan_run<K, V>(const char *, msplit_lsm *, size_t, size_t);                  \
  template msplit_status lsm_reclaim_run<K, V>(const char *, msplit_lsm *, uint64_t *, cudaStream_t);     \
  template msplit_status lsm_init_run<K, V>(const char *, msplit_lsm *, void *, size_t, size_t, size_t, \
                                            cudaStream_t);
MSPLIT_LSM_TYPE_PAIRS(MSPLIT_LSM_STORAGE_INST)

}  // namespace detail
}  // namespace msplit
