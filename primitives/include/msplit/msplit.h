/* msplit: GPU multisplit, histogram, sort and hash primitives. C API.
 *
 * Conventions (CUB's): device functions take caller-provided temporary storage
 * (call once with temp == NULL to get *temp_bytes, then again to run), a
 * cudaStream_t, and do not synchronize unless their name says so. Zero items
 * return MSPLIT_SUCCESS without a launch. Every function returns a status;
 * msplit_last_error_message() gives the message of the calling thread's last
 * failure. Nothing here prints, exits or allocates device memory.
 */
#ifndef MSPLIT_H
#define MSPLIT_H

#include <stddef.h>
#include <stdint.h>

#define MSPLIT_VERSION_MAJOR 0
#define MSPLIT_VERSION_MINOR 1
#define MSPLIT_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MSPLIT_SUCCESS = 0,
  MSPLIT_ERROR_INVALID_ARGUMENT = 1, /* NULL pointer with n > 0, m == 0, overlap, ... */
  MSPLIT_ERROR_TEMP_STORAGE = 2,     /* temporary storage too small */
  MSPLIT_ERROR_UNSUPPORTED = 3,      /* type or option not supported */
  MSPLIT_ERROR_CUDA = 4,             /* a CUDA call or launch failed */
  MSPLIT_ERROR_INTERNAL = 5
} msplit_status;

/* Static string describing a status. */
const char *msplit_status_string(msplit_status status);

/* Message of the calling thread's last failure ("" if none). */
const char *msplit_last_error_message(void);

/* "MAJOR.MINOR.PATCH" */
const char *msplit_version_string(void);

/* ------------------------------------------------------------------------- */
/* Multisplit (seed 000, Ashkiani et al., PPoPP 2016; plus a one-pass variant) */
/* ------------------------------------------------------------------------- */

/* Which multisplit implementation runs. AUTO picks from m and n, by
 * measurements on an H100 (multisplit_impl.cuh has the table): DIRECT for
 * m <= 2, ONEPASS for m = 3..256 and whenever n >= 2^32, and the reduced-bit
 * sort fallback for m > 256. DIRECT, WARP and BLOCK are the paper's three-pass
 * variants (prescan / scan / postscan) and need n < 2^32; ONEPASS counts the
 * buckets in one pass, then reorders in one sweep whose tiles find their
 * global offsets by decoupled look-back (12 bytes moved per key). For m > 256
 * every variant uses the sort fallback. */
typedef enum {
  MSPLIT_VARIANT_AUTO = 0,
  MSPLIT_VARIANT_DIRECT = 1,  /* DMS: warp subproblems, direct scatter          */
  MSPLIT_VARIANT_WARP = 2,    /* WMS: warp subproblems, warp-level reordering   */
  MSPLIT_VARIANT_BLOCK = 3,   /* BMS: block subproblems, block-level reordering */
  MSPLIT_VARIANT_ONEPASS = 4, /* histogram + one sweep with decoupled look-back */
  MSPLIT_VARIANT_SORT = 5     /* bucket labels + CUB radix sort on log2(m) bits */
} msplit_variant;

/* Element types of the C API. */
typedef enum {
  MSPLIT_TYPE_NONE = 0, /* values only: keys-only multisplit */
  MSPLIT_TYPE_U32 = 1,
  MSPLIT_TYPE_I32 = 2,  /* keys only */
  MSPLIT_TYPE_F32 = 3,  /* keys only */
  MSPLIT_TYPE_U64 = 4
} msplit_type;

/* Built-in bucket functions of the C API. */
typedef enum {
  MSPLIT_BUCKET_DELTA = 0,     /* (key - base) / delta; keys < base (and NaN) -> 0 */
  MSPLIT_BUCKET_SPLITTERS = 1, /* bucket = number of splitters <= key              */
  MSPLIT_BUCKET_BITFIELD = 2,  /* (key >> shift) & (2^bits - 1), on the key's bits */
  MSPLIT_BUCKET_IDENTITY = 3   /* key itself                                       */
} msplit_bucket_kind;

/* Bucket function description. Every result >= num_buckets is clamped to
 * num_buckets - 1 (so the last bucket holds "everything beyond").
 * The scalar parameters are read through the key type: for U32/I32/F32 keys
 * use base_u/base_i/base_f according to the key type (u64 keys: base_u). */
typedef struct {
  msplit_bucket_kind kind;
  union { uint64_t u; int64_t i; double f; } base;  /* DELTA */
  union { uint64_t u; int64_t i; double f; } delta; /* DELTA: > 0 */
  const void *d_splitters; /* SPLITTERS: device array of num_buckets - 1 sorted keys
                              of the key type (at most 4096 splitters: they are held
                              in shared memory) */
  uint32_t shift, bits;    /* BITFIELD */
} msplit_bucket_desc;

/* Stable multisplit of keys (value_type == MSPLIT_TYPE_NONE) or key-value pairs.
 *
 * [in]  d_temp, temp_bytes  two-phase temporary storage: with d_temp == NULL
 *                           only *temp_bytes is written (nothing runs);
 *                           otherwise *temp_bytes must be at least that size.
 * [in]  d_keys_in, d_values_in   n elements (device); d_values_in ignored for NONE
 * [out] d_keys_out, d_values_out n elements (device), must not overlap the inputs
 * [in]  num_buckets m >= 1
 * [out] d_bucket_offsets  NULL or m + 1 size_t (device): start of each bucket,
 *                         [m] = n
 * Relative order within each bucket is preserved; buckets are contiguous and in
 * bucket order. Asynchronous on `stream`; no device allocation. n == 0 launches
 * nothing except zeroing d_bucket_offsets (one memset).
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (NULL with n > 0, m == 0, delta <= 0,
 * overlap), MSPLIT_ERROR_TEMP_STORAGE, MSPLIT_ERROR_UNSUPPORTED (type combination,
 * explicit 3-pass variant with n >= 2^32), MSPLIT_ERROR_CUDA. Nothing is written
 * on an argument error. */
msplit_status msplit_multisplit(void *d_temp, size_t *temp_bytes, const void *d_keys_in,
                                void *d_keys_out, const void *d_values_in, void *d_values_out,
                                size_t n, uint32_t num_buckets, msplit_bucket_desc bucket,
                                msplit_type key_type, msplit_type value_type,
                                size_t *d_bucket_offsets, void *stream /* cudaStream_t */,
                                msplit_variant variant);

/* Copies the m + 1 bucket offsets to the host in one transfer and waits for it
 * (synchronizes `stream`). */
msplit_status msplit_copy_offsets_sync(size_t *h_offsets, const size_t *d_bucket_offsets,
                                       uint32_t num_buckets, void *stream /* cudaStream_t */);

/* Name of a variant ("auto", "direct", ...). */
const char *msplit_variant_name(msplit_variant variant);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_H */
