// Stable sort of records by an unsigned key inside each record (Patidar and Narayanan, "Scalable
// Split and Gather Primitives for the GPU", 2009, SortLargeRecords): the keys are copied out with
// their positions, msplit's radix sort orders the (key, position) pairs, and the records follow
// their positions in one collective gather (move.cu). The radix passes move 8 or 12 bytes per
// record, whatever the record's size; the records move once.
//
// Temporary storage: the radix sort's (first, so that its error record is the call's), then the
// keys and the sorted keys (n x key bytes each), the positions (n x 4) and, where the caller passes
// none, the permutation (n x 4).
#include <type_traits>

#include "msplit/detail/records/dispatch.h"
#include "msplit/detail/records/tuning.h"
#include "msplit/detail/util.cuh"
#include "msplit/radix_sort.cuh"
#include "records_impl.h"

namespace msplit {
namespace detail {
namespace {

constexpr int THREADS = tuning::RECORDS_ELEMENT_THREADS;

// The key of record i, read with accesses of `align` bytes (the alignment of every key's address:
// the records', the record size's and the offset's, host-computed), little-endian as the GPU is.
template <typename U>
__device__ __forceinline__ U load_key(const unsigned char *p, int align) {
  if (align >= int(sizeof(U))) return *reinterpret_cast<const U *>(p);
  U key = 0;
  if (align >= 4) {
    for (int b = 0; b < int(sizeof(U)); b += 4) key |= U(*reinterpret_cast<const uint32_t *>(p + b)) << (8 * b);
    return key;
  }
  for (int b = 0; b < int(sizeof(U)); ++b) key |= U(p[b]) << (8 * b);
  return key;
}

template <typename U>
__global__ void __launch_bounds__(THREADS) extract_keys_kernel(const unsigned char *records, U *keys,
                                                               uint32_t *positions, uint32_t n, uint32_t record_bytes,
                                                               uint32_t key_offset, int align) {
  const uint32_t i = blockIdx.x * THREADS + threadIdx.x;
  if (i >= n) return;
  keys[i] = load_key<U>(records + size_t(i) * record_bytes + key_offset, align);
  positions[i] = i;
}

int key_alignment(const void *records, size_t record_bytes, size_t key_offset) {
  const uintptr_t bits = reinterpret_cast<uintptr_t>(records) | record_bytes | key_offset;
  for (int a : {8, 4})
    if (bits % uintptr_t(a) == 0) return a;
  return 1;
}

template <typename U>
msplit_status sort_by(const char *fn, void *d_temp, size_t *temp_bytes, const void *in, void *out, uint32_t *perm,
                      size_t n, size_t record_bytes, size_t key_offset, cudaStream_t stream) {
  constexpr int BITS = int(sizeof(U) * 8);
  const key_codec<U> codec = make_key_codec<U>(false);
  // 1. the storage: the radix sort's, keys, sorted keys, positions, the permutation
  size_t sort_bytes = 0;
  MSPLIT_TRY((radix_sort_run<U, uint32_t>(fn, nullptr, &sort_bytes, nullptr, nullptr, nullptr, nullptr, nullptr,
                                          nullptr, n, 0, BITS, codec, stream)));
  const size_t sizes[5] = {sort_bytes, n * sizeof(U), n * sizeof(U), n * sizeof(uint32_t),
                           !d_temp || !perm ? n * sizeof(uint32_t) : 0};
  size_t off[5];
  const size_t total = records_place(sizes, 5, off);
  if (!d_temp) {
    *temp_bytes = total;
    return MSPLIT_SUCCESS;
  }
  if (*temp_bytes < total)
    return set_error(MSPLIT_ERROR_TEMP_STORAGE, "%s: temp_bytes is %zu, %zu needed", fn, *temp_bytes, total);
  if (n == 0) return clear_record(d_temp, stream);

  // 2. keys and positions out of the records, sorted as pairs (the sort clears the error record)
  unsigned char *temp = static_cast<unsigned char *>(d_temp);
  U *keys = reinterpret_cast<U *>(temp + off[1]), *sorted_keys = reinterpret_cast<U *>(temp + off[2]);
  uint32_t *positions = reinterpret_cast<uint32_t *>(temp + off[3]);
  uint32_t *p = perm ? perm : reinterpret_cast<uint32_t *>(temp + off[4]);
  extract_keys_kernel<U><<<unsigned((n + THREADS - 1) / THREADS), THREADS, 0, stream>>>(
      static_cast<const unsigned char *>(in), keys, positions, uint32_t(n), uint32_t(record_bytes),
      uint32_t(key_offset), key_alignment(in, record_bytes, key_offset));
  MSPLIT_LAUNCH_CHECK();
  MSPLIT_TRY((radix_sort_run<U, uint32_t>(fn, temp, &sort_bytes, keys, sorted_keys, positions, p, nullptr, nullptr, n,
                                          0, BITS, codec, stream)));

  // 3. the records, gathered by the permutation
  if (!out) return MSPLIT_SUCCESS;
  return records_move_launch(in, p, out, n, n, record_bytes, false, false, temp_record(temp), stream);
}

}  // namespace

msplit_status records_sort_run(const char *fn, void *d_temp, size_t *temp_bytes, const void *in, void *out,
                               uint32_t *perm, size_t n, size_t record_bytes, size_t key_offset, size_t key_bytes,
                               cudaStream_t stream) {
  // 1. check arguments (a size query answers before any data pointer is looked at; its size
  // assumes the call passes no permutation, the most it can need)
  if (!temp_bytes) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: temp_bytes is NULL", fn);
  MSPLIT_TRY(records_check_sizes(fn, n, record_bytes));
  if (key_bytes != 4 && key_bytes != 8)
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: keys of %zu bytes are not supported (4 or 8: u32 or u64)", fn,
                     key_bytes);
  if (key_offset > record_bytes || record_bytes - key_offset < key_bytes)
    return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: a %zu-byte key at key_offset %zu is not inside a %zu-byte record",
                     fn, key_bytes, key_offset, record_bytes);
  if (d_temp) {
    const size_t rb = n * record_bytes, ib = n * sizeof(uint32_t);
    if (!out && !perm)
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                       "%s: d_records_out and d_permutation are both NULL (nothing to write)", fn);
    if (n > 0 && !in) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_in is NULL with n = %zu", fn, n);
    if (n > 0 && out && (ranges_overlap(in, rb, out, rb) || ranges_overlap(perm, ib, out, rb)))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_records_out overlaps d_records_in or d_permutation", fn);
    if (n > 0 && perm && ranges_overlap(in, rb, perm, ib))
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_permutation overlaps d_records_in", fn);
  }
  if (key_bytes == 4)
    return sort_by<uint32_t>(fn, d_temp, temp_bytes, in, out, perm, n, record_bytes, key_offset, stream);
  return sort_by<uint64_t>(fn, d_temp, temp_bytes, in, out, perm, n, record_bytes, key_offset, stream);
}

}  // namespace detail
}  // namespace msplit
