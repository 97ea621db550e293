/* msplit C API: the built-in bucket functions, shared by the primitives that assign a bucket to
 * each key (multisplit today). The CUDA C++ API (msplit/bucket.cuh) has the same four as functor
 * types, and takes any device functor besides.
 *
 * Example: examples/multisplit_c.c (msplit/multisplit.h).
 */
#ifndef MSPLIT_BUCKET_H
#define MSPLIT_BUCKET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MSPLIT_BUCKET_DELTA = 0,     /* (key - base) / delta; keys < base (and NaN) -> 0 */
  MSPLIT_BUCKET_SPLITTERS = 1, /* bucket = number of splitters <= key              */
  MSPLIT_BUCKET_BITFIELD = 2,  /* (key >> shift) & (2^bits - 1), on the key's bits */
  MSPLIT_BUCKET_IDENTITY = 3   /* key itself                                       */
} msplit_bucket_kind;

/* Bucket function description. Every result >= num_buckets is clamped to num_buckets - 1 (so
 * the last bucket holds "everything beyond"). The scalar parameters are read through the key
 * type: for u32 and u64 keys use base.u and delta.u, for i32 keys base.i and delta.i, for f32
 * keys base.f and delta.f. Zero-initialise the struct and set what the kind uses:
 *   DELTA      base, delta (> 0)
 *   SPLITTERS  d_splitters: a device array of num_buckets - 1 sorted keys of the key type (more
 *              than 32 KB of them are read from global memory instead of shared memory)
 *   BITFIELD   shift (< the key's width in bits) and bits (<= 32); floats use their IEEE bits
 *   IDENTITY   nothing
 */
typedef struct {
  msplit_bucket_kind kind;
  union { uint64_t u; int64_t i; double f; } base;  /* DELTA */
  union { uint64_t u; int64_t i; double f; } delta; /* DELTA: > 0 */
  const void *d_splitters;                          /* SPLITTERS */
  uint32_t shift, bits;                             /* BITFIELD */
} msplit_bucket_desc;

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_BUCKET_H */
