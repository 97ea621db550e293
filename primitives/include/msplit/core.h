/* msplit C API, the part every primitive shares: statuses and their messages, the version, and
 * the element types.
 *
 * Conventions of every msplit C function (CUB's): device work takes caller-provided temporary
 * storage (call once with d_temp == NULL to get *temp_bytes, then again with at least that much
 * to run), a stream (a cudaStream_t passed as void *, NULL for the default stream), and does not
 * synchronise unless its name ends in _sync. Zero items return MSPLIT_SUCCESS without a kernel
 * launch (a memset clears the error record below). Every function returns a status;
 * msplit_last_error_message() gives the message of the calling thread's last failure. Nothing
 * prints, exits or allocates device memory.
 *
 * One argument order for every call, so that a reader of one call can read the others: the
 * temporary storage (d_temp, temp_bytes) or the table, the data (inputs, then outputs), the sizes
 * (n, then the shape of the problem: buckets, segments, bins and the arrays that describe them),
 * the element types as msplit_type (keys or samples, then values, then counters or offsets), the
 * options (variant, descending, bits, accumulate), and the stream last. The slab hash's table
 * carries its key and value types (msplit_slab_hash_init), so its bulk operations take untyped
 * pointers and no types.
 *
 * Errors found on the device. A call returns before its kernels run, so what only the device can
 * see (an argument that lives in device memory, such as unsorted histogram levels or segment
 * offsets out of order, and a wait that passed its bound: see MSPLIT_ERROR_STALLED) goes to an
 * error record, msplit_error_record, at the start of the call's temporary storage. Every call
 * that takes temporary storage (multisplit, histogram, radix sort, segmented sort) clears the
 * record in its stream before anything can be recorded (with the memset of its storage that it
 * queues anyway, else in its first kernel, else with a memset of the record); the first error of
 * the call is recorded there and later ones are dropped; a kernel that finds an argument error writes nothing of the output.
 * msplit_check_sync(d_temp, temp_bytes, stream) waits for the stream and returns the status of
 * the last call that used this storage, with its message. Without the check such an error goes
 * unnoticed (the output is then wrong), so call it where a wrong result would cost more than a
 * wait. The slab hash, which takes no temporary storage, keeps the same kind of record in its
 * table (msplit_slab_hash_check_sync).
 *
 * No wait on the device is unbounded: a block that waits for another block (the look-back of a
 * single-pass scan, a grid barrier) gives up after MSPLIT_STALL_NS nanoseconds of GPU time, far
 * above any legitimate wait, records MSPLIT_ERROR_STALLED ("msplit: <primitive>: block B gave up
 * waiting at <site> after X s") and lets the other blocks go, so that the kernel ends and the
 * context stays usable.
 *
 * Example: examples/multisplit_c.c (msplit/multisplit.h) uses the functions declared here but
 * the record's; examples/segmented_sort_c.c and histogram_c.c call msplit_check_sync.
 */
#ifndef MSPLIT_CORE_H
#define MSPLIT_CORE_H

#include <stddef.h>
#include <stdint.h>

#define MSPLIT_VERSION_MAJOR 0
#define MSPLIT_VERSION_MINOR 3
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
  MSPLIT_ERROR_INTERNAL = 5,
  MSPLIT_ERROR_OUT_OF_CAPACITY = 6, /* a fixed-capacity structure (the slab hash's pool) is full */
  MSPLIT_ERROR_STALLED = 7          /* a wait on the device passed its bound (msplit_error_record) */
} msplit_status;

/* Static string describing a status ("invalid argument", ...); never NULL. */
const char *msplit_status_string(msplit_status status);

/* Message of the calling thread's last failure ("" if none), naming the function and the
 * argument at fault, e.g. "multisplit: num_buckets is 0 (need at least 1)". The string is
 * thread-local and valid until the thread's next failing msplit call. */
const char *msplit_last_error_message(void);

/* "MAJOR.MINOR.PATCH" of the library that is linked (the macros above are the header's). */
const char *msplit_version_string(void);

/* Element types of the C API. Which ones a call accepts is said at the call. */
typedef enum {
  MSPLIT_TYPE_NONE = 0, /* no values: a keys-only call */
  MSPLIT_TYPE_U32 = 1,
  MSPLIT_TYPE_I32 = 2,
  MSPLIT_TYPE_F32 = 3,
  MSPLIT_TYPE_U64 = 4,
  MSPLIT_TYPE_I64 = 5,
  MSPLIT_TYPE_F64 = 6,
  MSPLIT_TYPE_U8 = 7,
  MSPLIT_TYPE_I8 = 8,
  MSPLIT_TYPE_U16 = 9,
  MSPLIT_TYPE_I16 = 10
} msplit_type;

/* A wait on the device gives up after this many nanoseconds of GPU time (%globaltimer). */
#define MSPLIT_STALL_NS 10000000000ull

/* Which primitive recorded an error (msplit_error_record::primitive). */
typedef enum {
  MSPLIT_PRIMITIVE_NONE = 0, /* a user's kernel (msplit/grid_barrier.cuh) */
  MSPLIT_PRIMITIVE_MULTISPLIT = 1,
  MSPLIT_PRIMITIVE_HISTOGRAM = 2,
  MSPLIT_PRIMITIVE_RADIX_SORT = 3,
  MSPLIT_PRIMITIVE_SEGMENTED_SORT = 4,
  MSPLIT_PRIMITIVE_SLAB_HASH = 5,
  MSPLIT_PRIMITIVE_RECORDS = 6, /* split, gather, scatter and sort of records (msplit/records.h) */
  MSPLIT_PRIMITIVE_LSM = 7,     /* the GPU LSM (msplit/lsm.h) */
  MSPLIT_PRIMITIVE_RANGE_TREE = 8 /* the 2-D range tree (msplit/range_tree.h) */
} msplit_primitive;

/* Where an error was found (msplit_error_record::site), and what its detail words hold. */
typedef enum {
  MSPLIT_SITE_NONE = 0,
  MSPLIT_SITE_LOOKBACK = 1,        /* a tile waited for its predecessor's count: tile, predecessor,
                                      ns waited */
  MSPLIT_SITE_GRID_BARRIER = 2,    /* a grid barrier: arrivals seen, arrivals wanted, ns waited */
  MSPLIT_SITE_SEGMENT_OFFSETS = 3, /* a bad segment: index, begin offset, end offset, n */
  MSPLIT_SITE_HISTOGRAM_LEVELS = 4, /* levels not sorted: index i (levels[i] > levels[i + 1]),
                                      the two levels' bits, their msplit_type */
  MSPLIT_SITE_HASH_CHAIN = 5,      /* a slab chain longer than the pool (a cycle): bucket, slabs
                                      walked, operations that gave up */
  MSPLIT_SITE_HASH_RETRY = 6,      /* compare-and-swaps lost beyond any contention: bucket,
                                      tries, operations that gave up */
  MSPLIT_SITE_RECORD_INDEX = 7,    /* a gather or scatter index out of range: position, index,
                                      records it indexes, 0 for a gather and 1 for a scatter */
  MSPLIT_SITE_BUCKET_ID = 8,       /* a split's bucket id out of range: position, bucket id,
                                      num_buckets */
  MSPLIT_SITE_LSM_UPDATE = 9,      /* an LSM update entry that is not a valid op, or an insert of
                                      the reserved value: position, op, value */
  MSPLIT_SITE_LSM_RANGE_SLICE = 10, /* an LSM range query with more entries than its slice of the
                                      output: query, entries, slice length */
  MSPLIT_SITE_RANGE_TREE_SLICE = 11 /* a range tree report (of a box or a skyline) with more points
                                      than its slice of the output: query, points, slice length */
} msplit_error_site;

/* The device-side error record (see the top of this header). 48 bytes, at the start of the
 * temporary storage of every call that takes some. code is MSPLIT_SUCCESS while no error was
 * recorded; the first error claims it and writes the rest. */
typedef struct {
  uint32_t code;      /* msplit_status */
  uint32_t primitive; /* msplit_primitive */
  uint32_t site;      /* msplit_error_site */
  uint32_t block;     /* the block that recorded it */
  uint64_t detail[4]; /* by site (msplit_error_site) */
} msplit_error_record;

/* Waits for `stream` and returns the status of the last call that ran with this temporary
 * storage (d_temp, temp_bytes as passed to that call), with its message: MSPLIT_SUCCESS, or
 * what the device recorded (MSPLIT_ERROR_INVALID_ARGUMENT for a device-side argument,
 * MSPLIT_ERROR_STALLED for a wait that gave up). Errors of its own: MSPLIT_ERROR_INVALID_ARGUMENT
 * (d_temp NULL, temp_bytes smaller than the record), MSPLIT_ERROR_CUDA. */
msplit_status msplit_check_sync(const void *d_temp, size_t temp_bytes, void *stream /* cudaStream_t */);

/* The status and message of a record the caller has copied to the host (one that a kernel of
 * its own filled, through msplit/grid_barrier.cuh): MSPLIT_SUCCESS if none was recorded. */
msplit_status msplit_error_record_status(const msplit_error_record *record);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_CORE_H */
