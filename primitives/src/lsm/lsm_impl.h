// What the GPU LSM's sources share: the check of a handle against the instantiation's types, the
// layout of temporary storage, and the launch of a merge of two runs (update and cleanup both
// merge). msplit/lsm.h describes the structure; msplit/detail/lsm/layout.cuh its storage.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/core.h"
#include "msplit/detail/error.cuh"
#include "msplit/detail/lsm/dispatch.h"
#include "msplit/detail/lsm/layout.cuh"
#include "msplit/detail/lsm/merge.cuh"
#include "msplit/detail/lsm/scan.cuh"
#include "msplit/detail/util.cuh"

namespace msplit {
namespace detail {

template <typename T>
constexpr msplit_type lsm_type_tag() {
  return sizeof(T) == 4 ? MSPLIT_TYPE_U32 : MSPLIT_TYPE_U64;
}

// The handle exists, was made by msplit_lsm_init for these types, and (unless only the size is
// asked) has its storage.
template <typename K, typename V>
msplit_status lsm_check_handle(const char *fn, const msplit_lsm *h, bool need_storage) {
  if (!h) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lsm is NULL", fn);
  if (h->key_type != lsm_type_tag<K>() || h->value_type != lsm_type_tag<V>())
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                     "%s: the structure holds key type %d and value type %d, the call was made for %d and %d", fn,
                     int(h->key_type), int(h->value_type), int(lsm_type_tag<K>()), int(lsm_type_tag<V>()));
  if (h->batch_size == 0 || h->num_levels == 0 || h->num_levels > MSPLIT_LSM_MAX_LEVELS)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lsm is not initialised (msplit_lsm_init)", fn);
  if (need_storage && !h->d_storage)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: lsm->d_storage is NULL", fn);
  return MSPLIT_SUCCESS;
}

// Pieces of temporary storage laid out one after the other, each at a TEMP_ALIGN boundary; piece 0
// is the error record's slot.
struct lsm_temp {
  size_t total = RECORD_BYTES;
  size_t add(size_t bytes) {
    const size_t at = total;
    total += align_up(bytes, TEMP_ALIGN);
    return at;
  }
};

// The sizes of temporary storage checked, after a size query has been answered.
inline msplit_status lsm_check_temp(const char *fn, size_t have, size_t need) {
  if (have < need) return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", fn, have, need);
  return MSPLIT_SUCCESS;
}

// Tiles of a merge whose output holds at most `bound` entries.
inline uint64_t lsm_merge_tiles(uint64_t bound) { return (bound + LSM_MERGE_TILE - 1) / LSM_MERGE_TILE; }

// Queues the stable merge of run a (newer: first among equal keys) and run b into out, the runs'
// lengths read on the device (*na, *nb) and the output's written to *n_out; bound: the most
// entries the output can hold; splits: lsm_merge_tiles(bound) + 1 words of temporary storage.
template <typename K, typename V>
msplit_status lsm_merge_launch(const K *a, const V *av, const uint64_t *na, const K *b, const V *bv,
                               const uint64_t *nb, K *out, V *out_v, uint64_t *n_out, uint64_t bound,
                               uint64_t *splits, cudaStream_t stream) {
  constexpr int PART_THREADS = 256;
  const uint64_t tiles = lsm_merge_tiles(bound);
  lsm_merge_partition_kernel<K><<<unsigned((tiles + PART_THREADS) / PART_THREADS), PART_THREADS, 0, stream>>>(
      a, na, b, nb, splits, tiles, n_out);
  MSPLIT_LAUNCH_CHECK();
  if (tiles == 0) return MSPLIT_SUCCESS;
  lsm_merge_kernel<K, V><<<unsigned(tiles), tuning::LSM_MERGE_THREADS, 0, stream>>>(a, av, na, b, bv, nb, splits,
                                                                                    out, out_v);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

// Words of tile sums the scan of at most `bound` elements needs.
inline uint64_t lsm_scan_tiles(uint64_t bound) { return (bound + LSM_SCAN_TILE - 1) / LSM_SCAN_TILE; }

// Queues the scan of count(i) over the elements (at most `bound`): apply(i, offset, count(i)) for
// each, and the sum into *total; tile_sums: lsm_scan_tiles(bound) words of temporary storage.
template <typename Count, typename Apply>
msplit_status lsm_scan_launch(Count count, Apply apply, lsm_length length, uint64_t bound, uint64_t *tile_sums,
                              uint64_t *total, cudaStream_t stream) {
  constexpr int THREADS = tuning::LSM_SCAN_THREADS;
  const uint64_t tiles = lsm_scan_tiles(bound);
  if (tiles > 0) {
    lsm_tile_sums_kernel<<<unsigned(tiles), THREADS, 0, stream>>>(count, length, tile_sums);
    MSPLIT_LAUNCH_CHECK();
  }
  lsm_scan_tiles_kernel<THREADS><<<1, THREADS, 0, stream>>>(tile_sums, length, total);
  MSPLIT_LAUNCH_CHECK();
  if (tiles > 0) {
    lsm_tile_apply_kernel<<<unsigned(tiles), THREADS, 0, stream>>>(count, apply, length, tile_sums);
    MSPLIT_LAUNCH_CHECK();
  }
  return MSPLIT_SUCCESS;
}

inline unsigned lsm_blocks(uint64_t n, int threads) { return unsigned((n + threads - 1) / threads); }

}  // namespace detail
}  // namespace msplit
