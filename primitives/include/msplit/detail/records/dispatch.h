// The records primitive's dispatch (the "device" level): argument checks, temporary storage and
// launches of gather, scatter, split and sort of records. The record size is a runtime value, so
// these are plain functions compiled once into the msplit library (src/records/); the C API
// (msplit/records.h) and the C++ templates (msplit/records.cuh) are thin layers over them. `fn`
// names the public call in error messages.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "msplit/core.h"

namespace msplit {
namespace detail {

// Record sizes the primitive accepts, in bytes.
constexpr size_t RECORDS_MIN_BYTES = 4;
constexpr size_t RECORDS_MAX_BYTES = 256;

// Gather (scatter == false): out[i] = in[index[i]] for i < n, index[i] < bound (the records of in).
// Scatter (scatter == true): out[index[i]] = in[i] for i < n, index[i] < bound (the records of out).
msplit_status records_move_run(const char *fn, void *d_temp, size_t *temp_bytes, const void *in,
                               const uint32_t *index, void *out, size_t n, size_t bound, size_t record_bytes,
                               bool scatter, cudaStream_t stream);

// Stable split of n records by their bucket ids into m contiguous buckets: the permutation
// (perm[j] = the input position of output record j) and/or the records in that order, and the
// m + 1 bucket offsets.
msplit_status records_split_run(const char *fn, void *d_temp, size_t *temp_bytes, const void *in,
                                const uint32_t *bucket_ids, void *out, uint32_t *perm, size_t n,
                                size_t record_bytes, uint32_t num_buckets, size_t *bucket_offsets,
                                cudaStream_t stream);

// Stable sort of n records by the unsigned key of key_bytes (4 or 8) at key_offset in each record:
// the permutation and/or the sorted records.
msplit_status records_sort_run(const char *fn, void *d_temp, size_t *temp_bytes, const void *in, void *out,
                               uint32_t *perm, size_t n, size_t record_bytes, size_t key_offset, size_t key_bytes,
                               cudaStream_t stream);

}  // namespace detail
}  // namespace msplit
