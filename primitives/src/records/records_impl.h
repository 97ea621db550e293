// What the records primitive's sources share: the checks every call makes of its sizes, and the
// launch of the collective move (msplit/detail/records/move.cuh) that gather, scatter, split and
// sort all end with.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"
#include "msplit/detail/util.cuh"
#include "msplit/error_record.cuh"

namespace msplit {
namespace detail {

// Lays pieces of temporary storage out one after the other from offset 0, each rounded up to
// TEMP_ALIGN (piece 0 holds the error record: the record's slot, or the storage of the primitive
// the call runs first, whose record is then the call's); returns the total.
inline size_t records_place(const size_t *sizes, int count, size_t *off) {
  size_t at = 0;
  for (int i = 0; i < count; ++i) {
    off[i] = at;
    at += align_up(sizes[i], TEMP_ALIGN);
  }
  return at;
}

// The record size and the count are in range: record_bytes in [RECORDS_MIN_BYTES,
// RECORDS_MAX_BYTES], n below 2^32 (positions and indexes are 32-bit).
msplit_status records_check_sizes(const char *fn, size_t n, size_t record_bytes);

// The widest vector word (16, 8, 4 or 1 bytes) that divides the record size and both addresses.
int records_move_width(const void *in, const void *out, size_t record_bytes);

// Queues the move of n records (gather or scatter, see records_move_run) after the arguments have
// been checked; stop_on_error: move nothing if `record` holds an error already (an earlier kernel
// of the same call found a bad argument).
msplit_status records_move_launch(const void *in, const uint32_t *index, void *out, size_t n, size_t bound,
                                  size_t record_bytes, bool scatter, bool stop_on_error, error_record *record,
                                  cudaStream_t stream);

}  // namespace detail
}  // namespace msplit
