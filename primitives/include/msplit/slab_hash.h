/* msplit C API: the slab hash, a dynamic GPU hash table of 32-bit or 64-bit keys (a set) or of
 * keys with values (a map or multimap): 32-bit keys with 32-bit values and 64-bit keys with 64-bit
 * values. The key and value types are given once, as msplit_type, to msplit_slab_hash_init, and
 * the table carries them: the bulk operations take untyped device pointers to arrays of the
 * table's types. The C++ API (msplit/slab_hash.cuh) offers every mix of 32- and 64-bit keys and
 * values.
 *
 * Design (Ashkiani, Farach-Colton and Owens, "A Dynamic Hash Table for the GPU", IPDPS 2018): a
 * bucket is a linked list of 128-byte slabs (15 pairs or 30 keys of 32 bits, 7 pairs or 15 keys
 * of 64 bits, and a next index),
 * served by whole warps; slabs past the first of each bucket come from a pool of fixed capacity
 * with 1,024-slab blocks and a bitmap each. Beyond that design: a warp walks the chains of all
 * its 32 operations together, a round of coalesced slab loads per step, each lane settling its
 * own operation with one atomic, and only inserts that need a new slab take the one-at-a-time
 * warp-cooperative path; an insert takes the lowest empty slot of the first slab that has one,
 * never a deleted slot, which keeps keys unique under concurrent inserts, erases and
 * re-inserts; flush() compacts the chains and returns emptied slabs. msplit/slab_hash.cuh holds
 * the C++ host object and the device reference for a user's own kernels; the design, its
 * invariants and limits are described there.
 *
 * The table lives in device memory the caller provides (msplit_slab_hash_storage_bytes, then
 * msplit_slab_hash_init): nothing here allocates. Bulk operations are asynchronous on `stream` and
 * take optional per-operation result codes (msplit_hash_result). Two key values of each width are
 * reserved, MSPLIT_HASH_EMPTY_KEY and MSPLIT_HASH_ERASED_KEY (MSPLIT_HASH_EMPTY_KEY64 and
 * MSPLIT_HASH_ERASED_KEY64 for 64-bit keys): an operation on one of them does nothing and reports
 * MSPLIT_HASH_RESERVED_KEY. When the pool has no slab left, the inserts that needed one
 * report MSPLIT_HASH_OUT_OF_SLABS and the table stays valid. No operation can loop forever: one
 * whose walk is longer than the pool or whose retries exceed what contention allows (a corrupted
 * table) gives up with MSPLIT_HASH_GAVE_UP. msplit_slab_hash_check_sync turns those per-operation
 * reports into a status (the table's counters play the part of the other primitives' error
 * record, msplit/core.h).
 *
 * Example (examples/slab_hash_c.c, built and run by CTest, which checks what it prints):
 *
 *     CHECK(msplit_slab_hash_plan(n, 0.65, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &num_buckets, &slabs));
 *     CHECK(msplit_slab_hash_storage_bytes(num_buckets, capacity, &bytes));
 *     CHECK(msplit_slab_hash_init(&table, d_storage, bytes, num_buckets, capacity, MSPLIT_TYPE_U32,
 *                                 MSPLIT_TYPE_U32, NULL));
 *     CHECK(msplit_slab_hash_insert(&table, d_keys, d_values, n, mode, NULL, NULL));
 *     CHECK(msplit_slab_hash_find(&table, d_queries, q, d_found, d_results, NULL));
 *     CHECK(msplit_slab_hash_erase(&table, d_keys, 2, 0, NULL, NULL));
 *     CHECK(msplit_slab_hash_stats_sync(&table, &stats, NULL));
 *     const msplit_status st = msplit_slab_hash_check_sync(&table, NULL);
 *
 * prints
 *
 *     found: 10 11 12 (absent) 14
 *     after erasing 2 keys: size 3, find 0: (absent)
 *     a reserved key: invalid argument
 *     msplit_slab_hash: 1 operation(s) had a reserved key (0xffffffff or 0xfffffffe)
 *
 * A map of 64-bit keys and values: the same calls with MSPLIT_TYPE_U64 keys and values, and
 * arrays of uint64_t.
 */
#ifndef MSPLIT_SLAB_HASH_H
#define MSPLIT_SLAB_HASH_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reserved keys: the marker of an empty slot and of an erased one. */
#define MSPLIT_HASH_EMPTY_KEY 0xFFFFFFFFu
#define MSPLIT_HASH_ERASED_KEY 0xFFFFFFFEu
/* The value written by find for a key that is absent (a stored value may equal it too: the
 * result codes tell them apart). */
#define MSPLIT_HASH_ABSENT_VALUE 0xFFFFFFFFu
/* The same for 64-bit keys and values. */
#define MSPLIT_HASH_EMPTY_KEY64 0xFFFFFFFFFFFFFFFFull
#define MSPLIT_HASH_ERASED_KEY64 0xFFFFFFFFFFFFFFFEull
#define MSPLIT_HASH_ABSENT_VALUE64 0xFFFFFFFFFFFFFFFFull

/* Operations, the tags of a mixed batch (msplit_slab_hash_apply) and the modes of insert. */
typedef enum {
  MSPLIT_HASH_OP_INSERT = 0,           /* insert a unique key; a present key keeps its value */
  MSPLIT_HASH_OP_INSERT_OR_ASSIGN = 1, /* insert a unique key; a present key gets the new value */
  MSPLIT_HASH_OP_INSERT_DUP = 2,       /* insert one more copy (multimap / multiset) */
  MSPLIT_HASH_OP_FIND = 3,             /* the value of one copy of the key */
  MSPLIT_HASH_OP_ERASE = 4,            /* erase one copy */
  MSPLIT_HASH_OP_ERASE_ALL = 5,        /* erase every copy; values_out gets how many */
  MSPLIT_HASH_OP_COUNT = 6,            /* values_out gets the number of copies */
  MSPLIT_HASH_OP_NOP = 7               /* nothing (padding in a batch) */
} msplit_hash_op;

/* Per-operation results (one byte each). */
typedef enum {
  MSPLIT_HASH_DONE = 0,      /* inserted a new key, found it, erased at least one copy, count > 0 */
  MSPLIT_HASH_NOT_FOUND = 1, /* find, erase or count of an absent key */
  MSPLIT_HASH_EXISTED = 2,   /* insert of a key that was present (kept or assigned) */
  MSPLIT_HASH_OUT_OF_SLABS = 3, /* an insert that needed a slab when the pool had none */
  MSPLIT_HASH_RESERVED_KEY = 4, /* the key is an empty or erased marker of its width */
  MSPLIT_HASH_BAD_OP = 5,       /* a tag that is not an msplit_hash_op (mixed batches) */
  MSPLIT_HASH_GAVE_UP = 6       /* the table is corrupted: the operation's chain was longer than
                                   the pool (a cycle), or a slab's compare-and-swap kept failing
                                   beyond any contention; nothing was done */
} msplit_hash_result;

/* A table: where its storage is and its shape. Fill it with msplit_slab_hash_init; copy it freely
 * (it only describes device memory that the caller owns). */
typedef struct {
  void *d_storage;
  uint32_t num_buckets;    /* head slabs, one per bucket */
  uint32_t capacity_slabs; /* slabs of the pool that chains grow into */
  int has_values;          /* value_type != MSPLIT_TYPE_NONE, kept for the device code */
  msplit_type key_type;    /* MSPLIT_TYPE_U32 or MSPLIT_TYPE_U64 */
  msplit_type value_type;  /* MSPLIT_TYPE_NONE, MSPLIT_TYPE_U32 or MSPLIT_TYPE_U64 */
} msplit_slab_hash;

/* What msplit_slab_hash_stats_sync reports. */
typedef struct {
  uint64_t size;            /* live entries (copies count once each) */
  uint64_t pool_slabs_used; /* pool slabs allocated to chains */
  double utilization;       /* entry bytes (key and value, 4 to 16 each) / bytes of head and pool
                               slabs in use */
  uint64_t out_of_slabs;    /* operations that reported MSPLIT_HASH_OUT_OF_SLABS since init or the
                               last msplit_slab_hash_check_sync */
  uint64_t reserved_keys;   /* operations on a reserved key, since the same */
} msplit_slab_hash_stats;

/* The bucket count for `expected_keys` entries at a memory utilization `utilization` in (0, 1)
 * (entry bytes over the bytes of the slabs in use) under a uniform hash, and the pool slabs those
 * keys are expected to take, for a table of key_type (MSPLIT_TYPE_U32 or _U64) and value_type
 * (MSPLIT_TYPE_NONE for a set, _U32 or _U64): entries take 4, 8 or 16 bytes of a slab (slab.cuh
 * has the layout), so the reachable utilization differs (a 64-bit key with a 32-bit value pads to
 * 16 bytes). Utilization above about 0.75 (pairs) makes chains long: a bucket's keys are Poisson
 * distributed, so high utilization needs several slabs per bucket.
 * Errors: MSPLIT_ERROR_UNSUPPORTED for other types. */
msplit_status msplit_slab_hash_plan(size_t expected_keys, double utilization, msplit_type key_type,
                                    msplit_type value_type, uint32_t *num_buckets,
                                    uint32_t *expected_pool_slabs);

/* Bytes of device storage for a table (128-byte slabs, the pool's bitmaps and counters; the same
 * for every key and value type). 
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (bytes NULL, num_buckets 0, more than 2^31 slabs). */
msplit_status msplit_slab_hash_storage_bytes(uint32_t num_buckets, uint32_t capacity_slabs,
                                             size_t *bytes);

/* Lays out an empty table of key_type (MSPLIT_TYPE_U32 or _U64) and value_type
 * (MSPLIT_TYPE_NONE, _U32 or _U64) in d_storage (at least msplit_slab_hash_storage_bytes,
 * 128-byte aligned as cudaMalloc gives) and fills `table`. Asynchronous on `stream`; it also
 * clears a table. Entries of 16 bytes (a 64-bit key or value with a value) are claimed by a
 * 128-bit CAS and need a GPU of compute capability 9.0 or later. The C API's bulk operations
 * serve maps of U32 to U32 and of U64 to U64, and sets of either; the C++ API serves the other
 * mixes. Errors: MSPLIT_ERROR_INVALID_ARGUMENT (table or d_storage NULL, storage not aligned, a
 * shape of more than 2^31 slabs), MSPLIT_ERROR_TEMP_STORAGE (bytes too small),
 * MSPLIT_ERROR_UNSUPPORTED (other types, or 16-byte entries on an older GPU), MSPLIT_ERROR_CUDA. */
msplit_status msplit_slab_hash_init(msplit_slab_hash *table, void *d_storage, size_t bytes,
                                    uint32_t num_buckets, uint32_t capacity_slabs,
                                    msplit_type key_type, msplit_type value_type,
                                    void *stream /* cudaStream_t */);

/* Bulk operations. Each one is a kernel launch on `stream` (none for n == 0) and serves its n
 * operations concurrently: each is atomic, and the outcome is that of some serial order of them
 * (for distinct keys, any order gives the same). d_results (n bytes, msplit_hash_result) may be
 * NULL. Keys and values (d_keys, d_values, d_values_out) are arrays of the table's key_type and
 * value_type: uint32_t or uint64_t; an absent key's value is MSPLIT_HASH_ABSENT_VALUE or
 * MSPLIT_HASH_ABSENT_VALUE64. Errors: MSPLIT_ERROR_INVALID_ARGUMENT (table NULL or not
 * initialised, a NULL array with n > 0, values missing for a map's insert, a mode that is not an
 * insert), MSPLIT_ERROR_UNSUPPORTED (a table of 64-bit keys with 32-bit values, or of 32-bit keys
 * with 64-bit values: the C++ API's), MSPLIT_ERROR_CUDA. */

/* Inserts n keys (and values, for a map; ignored for a set) with mode MSPLIT_HASH_OP_INSERT,
 * MSPLIT_HASH_OP_INSERT_OR_ASSIGN or MSPLIT_HASH_OP_INSERT_DUP. */
msplit_status msplit_slab_hash_insert(const msplit_slab_hash *table, const void *d_keys,
                                      const void *d_values, size_t n, msplit_hash_op mode,
                                      uint8_t *d_results, void *stream);
/* d_values_out[i]: the value of one copy of d_keys[i], or the absent value (may be NULL for a set
 * or when only d_results is wanted). */
msplit_status msplit_slab_hash_find(const msplit_slab_hash *table, const void *d_keys, size_t n,
                                    void *d_values_out, uint8_t *d_results, void *stream);
/* d_found[i]: 1 if d_keys[i] is present, else 0. */
msplit_status msplit_slab_hash_contains(const msplit_slab_hash *table, const void *d_keys,
                                        size_t n, uint8_t *d_found, void *stream);
/* Erases one copy of each key (all copies with all != 0). */
msplit_status msplit_slab_hash_erase(const msplit_slab_hash *table, const void *d_keys, size_t n,
                                     int all, uint8_t *d_results, void *stream);
/* d_counts[i]: the copies of d_keys[i]. */
msplit_status msplit_slab_hash_count(const msplit_slab_hash *table, const void *d_keys, size_t n,
                                     uint32_t *d_counts, void *stream);
/* The values of every copy of d_keys[i] go to d_values_out[d_offsets[i] .. d_offsets[i + 1]),
 * in chain order; d_offsets (n + 1 entries) is the exclusive scan of msplit_slab_hash_count's
 * counts for the same keys, with no change to the table in between (a range that is too short
 * gets the first values that fit). */
msplit_status msplit_slab_hash_find_all(const msplit_slab_hash *table, const void *d_keys,
                                        size_t n, const uint32_t *d_offsets, void *d_values_out,
                                        void *stream);
/* A mixed batch: operation i is d_ops[i] (an msplit_hash_op) on d_keys[i], with d_values[i] for
 * inserts (d_values may be NULL if there are none, or for a set). d_values_out[i] (may be NULL)
 * gets the value of a find, the copies of a count or an erase-all (as a value of the table's
 * value type), and is left as it is for the other operations. */
msplit_status msplit_slab_hash_apply(const msplit_slab_hash *table, const uint8_t *d_ops,
                                     const void *d_keys, const void *d_values, size_t n,
                                     void *d_values_out, uint8_t *d_results, void *stream);

/* Compaction: removes erased entries, packs each chain into as few slabs as it needs and returns
 * the others to the pool. Must not run concurrently with any other operation on the table (the
 * bulk ones queued on other streams, or device references in user kernels). */
msplit_status msplit_slab_hash_flush(const msplit_slab_hash *table, void *stream);

/* Synchronises `stream` and reports the table's counters. */
msplit_status msplit_slab_hash_stats_sync(const msplit_slab_hash *table,
                                          msplit_slab_hash_stats *stats, void *stream);

/* Synchronises `stream`; returns MSPLIT_ERROR_STALLED if any operation since init or the previous
 * check gave up (MSPLIT_HASH_GAVE_UP: the message names the first one's bucket and how far it
 * went), else MSPLIT_ERROR_OUT_OF_CAPACITY if any ran out of slabs, else
 * MSPLIT_ERROR_INVALID_ARGUMENT if any had a reserved key (the message gives the counts), else
 * success; then resets those counters. */
msplit_status msplit_slab_hash_check_sync(const msplit_slab_hash *table, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_SLAB_HASH_H */
