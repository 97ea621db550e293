// msplit: stable GPU radix sort (LSD, one sweep per pass), CUDA C++ template API.
//
// Sorts n keys, or key-value pairs, by the bits [begin_bit, end_bit) of their keys, ascending or
// descending, keeping the input order of equal keys (stable). It follows Adinets and Merrill,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs" (2022): one read of the keys
// counts the 8-bit digits of every pass, then each pass is one sweep whose tiles rank their keys
// by digit, find their global offsets by decoupled look-back and write coalesced runs. A pass is
// a multisplit with a bit-field bucket (msplit/multisplit.cuh), and ranges of up to 6 bits run as
// exactly that, in one pass. The C API of the same primitive is msplit/radix_sort.h.
//
// Keys: uint32_t, int32_t, float, uint64_t, int64_t, double. Order: unsigned for unsigned keys,
// two's complement for signed ones, IEEE for floating point with -0.0 before +0.0 and every NaN
// after +inf. A bit range selects bits of the key's order code: for unsigned keys the key's own
// bits, for signed keys its bits with the sign bit flipped (both as in CUB); for floating point
// the code is the IEEE order code (negatives inverted, positives with the sign bit set) rotated
// down by the mantissa mask (so that the NaNs come last), and a partial range of it is rarely
// what one wants. Descending sorts are the exact reverse order (NaNs first), still stable.
// Values: any 32-bit or 64-bit type (moved as bits).
//
// Conventions (CUB's): two-phase temporary storage (with d_temp == NULL only *temp_bytes is
// written and no other argument is looked at but the bit range), asynchronous on `stream`, no
// device allocation, no synchronisation, a status for every error (msplit_last_error_message()
// says what was wrong). Link msplit::msplit: the kernels are compiled into it, once per key width
// and value width.
//
// Temporary storage, with P = ceil((end_bit - begin_bit) / 8) passes and T the tile (12,288
// elements for 32-bit keys, 8,832 for 32-bit pairs, 6,144 for 64-bit keys, 64-bit keys with
// 32-bit values or 32-bit keys with 64-bit values, 4,608 for 64-bit pairs): n <= T sorts in one
// block, every pass in shared memory, and asks for 256 bytes: the error record (msplit/core.h),
// which every size below includes too.
// Larger n: 1 KB per tile of the largest look-back portion (a portion is at most 2^28 - 1
// elements, as CUB's) + 2 KB per pass and portion; the plain in/out forms with P > 1 need n x
// (key bytes + value bytes) more for the ping-pong buffers. The double-buffer forms need no copy
// of the data: they sort between the two buffers given. Ranges of at most 6 bits sort in one
// pass of the one-pass multisplit (m = 2^bits buckets): 4 x m bytes per tile of 2,048 to 4,096
// elements. That is no more than CUB's DeviceRadixSort needs for the same call (sort_bench
// compares both for every key and value width).
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/detail/radix_sort/dispatch.cuh"

namespace msplit {

// Stable radix sort of keys, ascending.
//
// [in]  d_temp, temp_bytes  temporary storage: with d_temp == NULL only *temp_bytes is written
//                           (nothing runs); otherwise *temp_bytes must be at least that size,
//                           which depends on n, the key and value widths, the bit range and the
//                           form, not on the keys
// [in]  d_keys_in           n keys (device); not modified
// [out] d_keys_out          n keys (device); must not overlap d_keys_in
// [in]  n                   number of keys; 0 is fine; 2^32 and more are fine
// [in]  begin_bit, end_bit  the bits to sort by: 0 <= begin_bit < end_bit <= 8 x sizeof(Key)
// [in]  stream              the stream the work is queued on
//
// Synchronisation: none; the work is queued on `stream`. n == 0 queues one memset (the error
// record).
// Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes NULL, a bit range outside the key, a NULL
// pointer with n > 0, overlapping buffers), MSPLIT_ERROR_TEMP_STORAGE (*temp_bytes too small),
// MSPLIT_ERROR_CUDA. Nothing is written on an argument error. On the device:
// msplit::check_sync(d_temp, temp_bytes, stream) reports MSPLIT_ERROR_STALLED if a look-back
// waited past its bound (msplit/core.h).
//
// Example (examples/radix_sort_keys.cu, built and run by CTest, which checks what it prints):
//
//     size_t temp_bytes = 0;
//     CHECK(msplit::radix_sort_keys(nullptr, &temp_bytes, d_keys, d_out, n));
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::radix_sort_keys(d_temp, &temp_bytes, d_keys, d_out, n, 0, 32, stream));
//     CHECK(msplit::radix_sort_keys_descending(d_temp, &temp_bytes, d_keys, d_out, n, 0, 32, stream));
//     CHECK(msplit::radix_sort_keys(d_temp, &temp_bytes, d_keys, d_out, n, 0, 4, stream));
//     CHECK(msplit::radix_sort_keys(d_temp, &temp_bytes, d_floats, d_floats_out, 6, 0, 32, stream));
//
// prints
//
//     in:         25 3 17 9 0 30 12 5 21 14
//     ascending:  0 3 5 9 12 14 17 21 25 30
//     descending: 30 25 21 17 14 12 9 5 3 0
//     low 4 bits: 0 17 3 5 21 25 9 12 30 14
//     floats:     -inf -1.5 -0 0 2 nan
template <typename Key>
msplit_status radix_sort_keys(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out, size_t n,
                              int begin_bit = 0, int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, detail::no_value>("radix_sort_keys", d_temp, temp_bytes, d_keys_in,
                                                         d_keys_out, nullptr, nullptr, nullptr, nullptr, n,
                                                         begin_bit, end_bit, false, stream);
}

// Stable radix sort of keys, descending: as radix_sort_keys, in the reverse order.
template <typename Key>
msplit_status radix_sort_keys_descending(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                                         size_t n, int begin_bit = 0, int end_bit = int(sizeof(Key) * 8),
                                         cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, detail::no_value>("radix_sort_keys_descending", d_temp, temp_bytes,
                                                         d_keys_in, d_keys_out, nullptr, nullptr, nullptr, nullptr,
                                                         n, begin_bit, end_bit, true, stream);
}

// Stable radix sort of key-value pairs, ascending: as radix_sort_keys, each value following its
// key.
//
// [in]  d_values_in         n values (device); not modified
// [out] d_values_out        n values (device); must not overlap d_values_in or the key buffers
// The other parameters, the synchronisation and the errors are radix_sort_keys's (NULL value
// pointers with n > 0 are argument errors too).
//
// Example (examples/radix_sort_pairs.cu, built and run by CTest, which checks what it prints):
//
//     msplit::double_buffer<uint64_t> keys(d_keys, d_keys_alt);
//     msplit::double_buffer<uint32_t> values(d_values, d_values_alt);
//     size_t temp_bytes = 0;
//     CHECK(msplit::radix_sort_pairs(nullptr, &temp_bytes, keys, values, n));
//     CHECK_CUDA(cudaMalloc(&d_temp, temp_bytes));
//     CHECK(msplit::radix_sort_pairs(d_temp, &temp_bytes, keys, values, n, 0, 64, stream));
//
// prints (the values are the keys' input positions: equal keys keep their order; 8 pairs are
// one tile, sorted by one block from the current buffers into the alternate ones, so the
// selector moves to 1)
//
//     keys:     7 7 42 42 42 1000000000000 1000000000000 18446744073709551615
//     values:   1 4 0 3 6 2 5 7
//     selector: 1
template <typename Key, typename Value>
msplit_status radix_sort_pairs(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                               const Value *d_values_in, Value *d_values_out, size_t n, int begin_bit = 0,
                               int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, Value>("radix_sort_pairs", d_temp, temp_bytes, d_keys_in, d_keys_out,
                                              d_values_in, d_values_out, nullptr, nullptr, n, begin_bit, end_bit,
                                              false, stream);
}

// Stable radix sort of key-value pairs, descending.
template <typename Key, typename Value>
msplit_status radix_sort_pairs_descending(void *d_temp, size_t *temp_bytes, const Key *d_keys_in, Key *d_keys_out,
                                          const Value *d_values_in, Value *d_values_out, size_t n,
                                          int begin_bit = 0, int end_bit = int(sizeof(Key) * 8),
                                          cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, Value>("radix_sort_pairs_descending", d_temp, temp_bytes, d_keys_in,
                                              d_keys_out, d_values_in, d_values_out, nullptr, nullptr, n, begin_bit,
                                              end_bit, true, stream);
}

// Double-buffer forms (CUB's DoubleBuffer): the data is keys.current() (and values.current());
// the sort may overwrite both buffers of each pair and sets .selector to the buffer that holds
// the result (values.selector == keys.selector). The temporary storage holds no copy of the data.
// keys.selector must be 0 or 1 (and values.selector equal to it); the two buffers of a pair must
// not overlap each other or the other pair's. The rest is as in the plain forms.
template <typename Key>
msplit_status radix_sort_keys(void *d_temp, size_t *temp_bytes, double_buffer<Key> &keys, size_t n,
                              int begin_bit = 0, int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, detail::no_value>("radix_sort_keys", d_temp, temp_bytes, nullptr, nullptr,
                                                         nullptr, nullptr, &keys, nullptr, n, begin_bit, end_bit,
                                                         false, stream);
}

template <typename Key>
msplit_status radix_sort_keys_descending(void *d_temp, size_t *temp_bytes, double_buffer<Key> &keys, size_t n,
                                         int begin_bit = 0, int end_bit = int(sizeof(Key) * 8),
                                         cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, detail::no_value>("radix_sort_keys_descending", d_temp, temp_bytes,
                                                         nullptr, nullptr, nullptr, nullptr, &keys, nullptr, n,
                                                         begin_bit, end_bit, true, stream);
}

template <typename Key, typename Value>
msplit_status radix_sort_pairs(void *d_temp, size_t *temp_bytes, double_buffer<Key> &keys,
                               double_buffer<Value> &values, size_t n, int begin_bit = 0,
                               int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, Value>("radix_sort_pairs", d_temp, temp_bytes, nullptr, nullptr, nullptr,
                                              nullptr, &keys, &values, n, begin_bit, end_bit, false, stream);
}

template <typename Key, typename Value>
msplit_status radix_sort_pairs_descending(void *d_temp, size_t *temp_bytes, double_buffer<Key> &keys,
                                          double_buffer<Value> &values, size_t n, int begin_bit = 0,
                                          int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = 0) {
  return detail::radix_sort_entry<Key, Value>("radix_sort_pairs_descending", d_temp, temp_bytes, nullptr, nullptr,
                                              nullptr, nullptr, &keys, &values, n, begin_bit, end_bit, true, stream);
}

}  // namespace msplit
