// Segmented sort dispatch (the "device" level): checks arguments, lays out temporary storage, and
// queues the steps:
//   1. classify: check each segment's offsets (flagging the first bad one in segsort_words::bad)
//      and write its id and length bin;
//   2. multisplit the segment ids by bin (msplit::multisplit_keys), which groups each bin's
//      segments, in segment order, and gives the bins' offsets;
//   3. gather the long segments (long_merge.cuh, one block), or record a bad offset's details in
//      the error record;
//   4. the tile kernels (tile_kernel.cuh): lengths 1..4 and 5..8 one segment per thread, lengths
//      9..4,096 by groups of 1..256 threads, and the long segments' chunks of 4,096;
//   5. the longest segments by radix halves (long_radix.cuh, one cooperative launch);
//   6. the long segments' merge passes (long_merge.cuh, one cooperative launch).
// The host never waits: every grid is sized from n and the number of segments, and each kernel
// reads the device-side counts. After a bad offset every kernel from step 3 on returns without
// writing (msplit_check_sync tells the caller).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "msplit/detail/error.cuh"
#include "msplit/detail/segmented_sort/long_merge.cuh"
#include "msplit/detail/segmented_sort/long_radix.cuh"
#include "msplit/detail/segmented_sort/tile_kernel.cuh"
#include "msplit/detail/util.cuh"
#include "msplit/detail/segmented_sort/tuning.h"

namespace msplit {
namespace detail {

// Bin of a segment of `len` items (detail/segmented_sort/tuning.h).
__device__ __forceinline__ uint8_t segsort_bin_of_length(size_t len) {
  if (len == 0) return 0;
  if (len > tuning::SEGSORT_MAX_TILE_LENGTH) return uint8_t(SEGSORT_LONG_BIN);
  if (len <= 4) return 1;
  return uint8_t(32 - __clz(uint32_t(len - 1)) - 1);  // ceil(log2 len) - 1
}

template <typename Offset>
__global__ void segsort_classify_kernel(const Offset *begin, const Offset *end, size_t num_segments, size_t n,
                                        uint32_t *ids, uint8_t *bins, segsort_words *words) {
  for (size_t s = size_t(blockIdx.x) * blockDim.x + threadIdx.x; s < num_segments; s += size_t(gridDim.x) * blockDim.x) {
    // signed offsets convert to unsigned, so that a negative one is beyond n
    const unsigned long long b = (unsigned long long)begin[s], e = (unsigned long long)end[s];
    uint8_t bin = 0;
    if (b > e || e > n) atomicMax(&words->bad, ~(unsigned long long)s);  // the first bad segment wins
    else bin = segsort_bin_of_length(size_t(e - b));
    ids[s] = uint32_t(s);
    bins[s] = bin;
  }
}

// Step 2: the stable multisplit of the segment ids `ids` (0..S-1) by their bins into `bin_ids`,
// with the SEGSORT_NUM_BINS + 1 bin offsets. Compiled once, in the library (src/segmented_sort/),
// for every key type. Two-phase temporary storage, as multisplit_keys; a look-back that waits too
// long records it in `record` (the segmented sort's).
msplit_status segsort_group_by_bin(void *d_temp, size_t *temp_bytes, const uint32_t *ids, uint32_t *bin_ids,
                                   size_t num_segments, const uint8_t *bins, size_t *bin_offsets, error_record *record,
                                   cudaStream_t stream);

// The temporary storage: a head of small arrays packed one after another (8-byte aligned: the
// error record and the sort's own words first (segsort_head), since the check reads the record
// at the start; the bins' offsets; the long segments' totals and first chunk tiles; the binned
// segment ids), then, from a 16-byte boundary, a shared piece: the segment ids, bins and the
// multisplit's own storage (steps 1-2) and the long path's second buffer (steps 4-5) are never
// alive at once, so they share it (its size is the larger of the two; nothing in it needs more
// than 16-byte alignment). Beyond the second buffer that is 4 bytes per segment, 4 per possible
// long segment and 216 bytes; CUB's DeviceSegmentedSort keeps 8 bytes per segment (none for a
// few) and 255 bytes of alignment, and no error record.
struct segsort_plan {
  size_t bin_offsets_at, meta_at, tile_start_at, bin_ids_at, shared_at;  // in the temporary storage
  size_t ids_off, bins_off, ms_off;       // within the shared piece: the ids, the bins, the multisplit's
  size_t tmp_keys_off, tmp_values_off;    // within the shared piece: the second buffer
  size_t multisplit_bytes;
  size_t max_long;  // long segments there can be: min(segments, n / (SEGSORT_MAX_TILE_LENGTH + 1))
  size_t total;
};

template <typename Key, typename Value>
inline msplit_status segsort_make_plan(segsort_plan &p, size_t n, size_t num_segments, cudaStream_t stream) {
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  constexpr size_t VALUE_BYTES = std::is_same<Value, no_value>::value ? 0 : sizeof(Value);
  p = segsort_plan{};
  const size_t S = num_segments;
  p.max_long = n / (T + 1) < S ? n / (T + 1) : S;
  const bool has_long = p.max_long > 0;
  // the multisplit's storage for S ids
  MSPLIT_TRY(segsort_group_by_bin(nullptr, &p.multisplit_bytes, nullptr, nullptr, S, nullptr, nullptr, nullptr, stream));
  // the head
  static_assert(sizeof(segsort_head) % 8 == 0, "the head keeps 8-byte alignment");
  p.bin_offsets_at = sizeof(segsort_head);
  p.meta_at = p.bin_offsets_at + (tuning::SEGSORT_NUM_BINS + 1) * sizeof(size_t);
  p.tile_start_at = p.meta_at + LONG_META_WORDS * sizeof(size_t);
  p.bin_ids_at = align_up(p.tile_start_at + (p.max_long + 1) * sizeof(uint32_t), 8);  // the total's slot too
  p.shared_at = align_up(p.bin_ids_at + S * sizeof(uint32_t), 16);
  // the shared piece
  p.ids_off = 0;
  p.bins_off = align_up(S * sizeof(uint32_t), TEMP_ALIGN);
  p.ms_off = p.bins_off + align_up(S, TEMP_ALIGN);
  const size_t classify_bytes = p.ms_off + p.multisplit_bytes;
  p.tmp_keys_off = 0;
  p.tmp_values_off = has_long ? align_up(n * sizeof(Key), TEMP_ALIGN) : 0;
  const size_t tmp_bytes = has_long ? p.tmp_values_off + n * VALUE_BYTES : 0;
  p.total = p.shared_at + (classify_bytes > tmp_bytes ? classify_bytes : tmp_bytes);
  return MSPLIT_SUCCESS;
}

// Blocks for a grid-stride kernel: at most `bound` work items, at most what is resident at once.
template <typename Kernel>
inline msplit_status segsort_grid(Kernel kernel, size_t smem, size_t bound, unsigned *grid) {
  int device = 0, sms = 1, per_sm = 1;
  MSPLIT_TRY(prepare_kernel(kernel, smem));
  MSPLIT_CUDA_TRY(cudaGetDevice(&device));
  MSPLIT_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MSPLIT_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, tuning::SEGSORT_BLOCK_THREADS, smem));
  const size_t resident = size_t(sms) * size_t(per_sm > 0 ? per_sm : 1);
  *grid = unsigned(bound < resident ? bound : resident);
  return MSPLIT_SUCCESS;
}

template <int ITEMS, typename Key, typename Value, typename Offset>
inline msplit_status segsort_launch_tiles(const segsort_args<Key, Value, Offset> &a, int bin_lo, int bin_hi, bool chunks,
                                          size_t bound, cudaStream_t stream) {
  if (bound == 0) return MSPLIT_SUCCESS;
  auto kernel = segsort_tile_kernel<ITEMS, Key, Value, Offset>;
  const size_t smem = segsort_tile_layout<ITEMS, Key, Value>::BYTES;
  unsigned grid = 0;
  MSPLIT_TRY(segsort_grid(kernel, smem, bound, &grid));
  kernel<<<grid, tuning::SEGSORT_BLOCK_THREADS, smem, stream>>>(a, bin_lo, bin_hi, chunks);
  MSPLIT_LAUNCH_CHECK();
  return MSPLIT_SUCCESS;
}

template <typename Key, typename Value, typename Offset>
msplit_status segmented_sort_dispatch(void *d_temp, size_t *temp_bytes, const Key *keys_in, Key *keys_out,
                                      const Value *values_in, Value *values_out, size_t n, size_t num_segments,
                                      const Offset *begin, const Offset *end, bool descending, cudaStream_t stream) {
  constexpr bool HAS_VALUES = !std::is_same<Value, no_value>::value;
  constexpr size_t T = tuning::SEGSORT_MAX_TILE_LENGTH;
  constexpr int BT = tuning::SEGSORT_BLOCK_THREADS;
  static_assert(std::is_integral<Offset>::value, "segment offsets are integers");

  // 1. check the arguments that size the storage (nothing is written before every check passes)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: temp_bytes is NULL");
  if (num_segments > 0xFFFFFFFFull)
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "segmented_sort: num_segments is %zu (at most 2^32 - 1)", num_segments);
  if (n > (size_t(1) << 43))  // the long segments' chunk tiles are counted in 32 bits
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "segmented_sort: n is %zu (at most 2^43)", n);
  // 2. plan the temporary storage
  segsort_plan plan;
  MSPLIT_TRY((segsort_make_plan<Key, Value>(plan, n, num_segments, stream)));
  if (!d_temp) {
    *temp_bytes = plan.total;  // a size query: the data pointers are not looked at
    return MSPLIT_SUCCESS;
  }
  // 3. check the data pointers
  if (n > 0 && !keys_in) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_keys_in is NULL with n = %zu", n);
  if (n > 0 && !keys_out) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_keys_out is NULL with n = %zu", n);
  if (HAS_VALUES && n > 0 && !values_in)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_values_in is NULL with n = %zu", n);
  if (HAS_VALUES && n > 0 && !values_out)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_values_out is NULL with n = %zu", n);
  if (num_segments > 0 && !begin)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_begin_offsets is NULL with %zu segments", num_segments);
  if (num_segments > 0 && !end)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_end_offsets is NULL with %zu segments", num_segments);
  if (n > 0) {
    const size_t kb = n * sizeof(Key), vb = n * (HAS_VALUES ? sizeof(Value) : 0);
    if (ranges_overlap(keys_in, kb, keys_out, kb))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_keys_out overlaps d_keys_in (not in place)");
    if (HAS_VALUES) {
      if (ranges_overlap(values_in, vb, values_out, vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: d_values_out overlaps d_values_in (not in place)");
      if (ranges_overlap(keys_in, kb, values_out, vb) || ranges_overlap(values_in, vb, keys_out, kb) ||
          ranges_overlap(keys_out, kb, values_out, vb))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "segmented_sort: key and value buffers overlap");
    }
  }
  if (*temp_bytes < plan.total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "segmented_sort: temp_bytes is %zu, %zu needed", *temp_bytes, plan.total);
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  segsort_head *head = reinterpret_cast<segsort_head *>(temp);
  MSPLIT_CUDA_TRY(cudaMemsetAsync(head, 0, sizeof(segsort_head), stream));  // no error, no bad segment
  if (n == 0 || num_segments == 0) return MSPLIT_SUCCESS;

  segsort_args<Key, Value, Offset> a{};
  a.keys_in = keys_in;
  a.keys_out = keys_out;
  a.values_in = values_in;
  a.values_out = values_out;
  a.tmp_keys = reinterpret_cast<Key *>(temp + plan.shared_at + plan.tmp_keys_off);
  a.tmp_values = HAS_VALUES ? reinterpret_cast<Value *>(temp + plan.shared_at + plan.tmp_values_off) : nullptr;
  a.begin = begin;
  a.end = end;
  uint8_t *bins = temp + plan.shared_at + plan.bins_off;
  uint32_t *ids = reinterpret_cast<uint32_t *>(temp + plan.shared_at + plan.ids_off);
  uint32_t *bin_ids = reinterpret_cast<uint32_t *>(temp + plan.bin_ids_at);
  size_t *bin_offsets = reinterpret_cast<size_t *>(temp + plan.bin_offsets_at);
  a.bin_ids = bin_ids;
  a.bin_offsets = bin_offsets;
  a.record = &head->record;
  a.words = &head->words;
  a.flip = descending ? ~typename key_order<Key>::bits(0) : typename key_order<Key>::bits(0);
  a.lng.tile_start = reinterpret_cast<uint32_t *>(temp + plan.tile_start_at);
  a.lng.meta = reinterpret_cast<size_t *>(temp + plan.meta_at);
  a.n = n;

  // 4. classify the segments (and check their offsets)
  {
    auto kernel = segsort_classify_kernel<Offset>;
    unsigned grid = 0;
    MSPLIT_TRY(segsort_grid(kernel, 0, (num_segments + BT - 1) / BT, &grid));
    kernel<<<grid, BT, 0, stream>>>(begin, end, num_segments, n, ids, bins, a.words);
    MSPLIT_LAUNCH_CHECK();
  }
  // 5. group the segment ids by bin
  size_t ms_bytes = plan.multisplit_bytes;
  MSPLIT_TRY(segsort_group_by_bin(temp + plan.shared_at + plan.ms_off, &ms_bytes, ids, bin_ids, num_segments, bins,
                                  bin_offsets, a.record, stream));
  // 6. the long segments (and a bad offset's details)
  segsort_long_setup_kernel<Offset><<<1, BT, 0, stream>>>(begin, end, bin_ids, bin_offsets, a.record, a.words, a.lng, n,
                                                           plan.max_long, segsort_radix<Key>::MIN_MERGE_PASSES);
  MSPLIT_LAUNCH_CHECK();
  // 7. the tiles: a bin's segments are longer than half its length, which bounds their number
  const size_t segs_tiny4 = n < num_segments ? n : num_segments;
  const size_t segs_tiny8 = n / 5 < num_segments ? n / 5 : num_segments;
  MSPLIT_TRY((segsort_launch_tiles<tuning::SEGSORT_TINY_ITEMS_4>(a, 1, 1, false, (segs_tiny4 + BT - 1) / BT, stream)));
  MSPLIT_TRY((segsort_launch_tiles<tuning::SEGSORT_TINY_ITEMS_8>(a, 2, 2, false, (segs_tiny8 + BT - 1) / BT, stream)));
  // lengths 9 .. 4,096: at most 2n / 4,096 full work items, plus one partial per bin; chunks as many
  const size_t medium_bound = 2 * (2 * n / T + 1) + tuning::SEGSORT_NUM_BINS;
  MSPLIT_TRY((segsort_launch_tiles<tuning::SEGSORT_ITEMS>(a, 3, SEGSORT_LONG_BIN - 1, plan.max_long > 0, medium_bound, stream)));
  // 8. the longest segments by radix halves, one cooperative launch for all of them (queued only
  //    where n admits such a segment)
  if (plan.max_long > 0 && n >= segsort_radix<Key>::MIN_LENGTH) {
    auto kernel = segsort_radix_halves_kernel<Key, Value, Offset>;
    const size_t smem = radix_halves_smem<Key, Value>::TOTAL;
    unsigned grid = 0;
    MSPLIT_TRY(segsort_grid(kernel, smem, 2 * n / T + 1, &grid));
    void *params[] = {&a};
    MSPLIT_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(kernel), dim3(grid), dim3(BT), params,
                                                smem, stream));
  }
  // 9. the long segments' merge passes, one cooperative launch for all of them
  if (plan.max_long > 0) {
    auto kernel = segsort_merge_kernel<Key, Value, Offset>;
    const size_t smem = segsort_tile_layout<tuning::SEGSORT_ITEMS, Key, Value>::BYTES;
    unsigned grid = 0;
    MSPLIT_TRY(segsort_grid(kernel, smem, 2 * n / T + 1, &grid));
    void *params[] = {&a};
    MSPLIT_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(kernel), dim3(grid), dim3(BT), params,
                                                smem, stream));
  }
  return MSPLIT_SUCCESS;
}

}  // namespace detail
}  // namespace msplit
