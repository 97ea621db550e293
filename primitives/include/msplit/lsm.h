/* msplit C API: the GPU LSM, an ordered dictionary that takes batches of updates and answers
 * lookups, counts and range queries in batches.
 *
 * Design (Ashkiani et al., "GPU LSM: A Dynamic Dictionary Data Structure for the GPU", IPDPS
 * 2018; chapter 4 of the multisplit thesis): levels of sorted runs of capacity b, 2b, 4b, ...
 * (b the batch size), occupied like the bits of a binary counter. An update batch is sorted with
 * msplit's radix sort and merged down the occupied levels, newer before older, into the first empty
 * level (a stable merge-path merge: equal keys keep the newer entry first). A delete is an entry
 * whose value is the reserved MSPLIT_LSM_DELETED value (a tombstone); a key's newest entry, in the
 * lowest level that holds the key, is its state. Cleanup merges every level into one run and keeps
 * only each key's newest entry, and only if it is not a tombstone.
 *
 * Order of updates: a later batch wins over an earlier one; within a batch, the later entry of a
 * key wins (entries are staged in reverse before the stable sort). An update of more than b
 * entries is done as consecutive batches of b; a last batch of fewer than b entries is padded
 * with copies of its own last entry, which change nothing but take slots.
 *
 * Cost and bound (N entries stored, L levels, K + V bytes an entry):
 *   update   the batch's sort (msplit_radix_sort of b pairs) and, amortised over the binary
 *            counter, about log2(N / b) merges of each entry: (K + V) bytes read and written per
 *            entry and level it passes.
 *   lookup   one binary search per occupied level, newest first, until the key is found; the
 *            first 8 steps of each in shared memory (256 fences per level, cached per block of
 *            1,024 queries for the lowest 8 levels).
 *   count,   two binary searches per occupied level, then a walk over the candidates of all
 *   range    levels in key order (each key's newest entry decides); after a cleanup and before
 *            any update the levels hold unique keys without tombstones and a count is the sum of
 *            the searches.
 *   cleanup  a merge of the occupied levels (smallest first), a flag, a scan and a compacting copy
 *            of every entry.
 * Capacity is counted in slots: stale entries, tombstones and padding take theirs until a cleanup.
 * The structure has L levels, the fewest with b (2^L - 1) >= max_elements; an update that would
 * need a level beyond them is refused (MSPLIT_ERROR_OUT_OF_CAPACITY) before anything is done.
 *
 * Types: 32-bit keys with 32-bit values (U32, U32), 64-bit keys with 32-bit values (U64, U32) and
 * 64-bit keys with 64-bit values (U64, U64); keys are unsigned and compared as such.
 *
 * The structure lives in device memory the caller provides (msplit_lsm_storage_bytes, then
 * msplit_lsm_init). Updates, counts, ranges and cleanup take two-phase temporary storage (with
 * d_temp == NULL only *temp_bytes is written: the size depends on the structure's shape, read from
 * the handle, never on a pointer), begin it with the error record (msplit/core.h) and are
 * asynchronous on `stream`; msplit_check_sync reports what the device found. The handle is host
 * state that updates and cleanup change: one handle per structure, used by one stream at a time.
 *
 * Example (examples/lsm_c.c, built and run by CTest, which checks what it prints):
 *
 *     CHECK(msplit_lsm_storage_bytes(max_elements, batch, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, &bytes));
 *     CHECK(msplit_lsm_init(&lsm, d_storage, bytes, max_elements, batch, MSPLIT_TYPE_U32, MSPLIT_TYPE_U32, NULL));
 *     CHECK(msplit_lsm_update(NULL, &temp_bytes, &lsm, d_keys, d_values, d_ops, n, NULL));
 *     CHECK(msplit_lsm_update(d_temp, &temp_bytes, &lsm, d_keys, d_values, d_ops, n, NULL));
 *     CHECK(msplit_lsm_lookup(&lsm, d_queries, q, d_found_values, d_found, NULL));
 *     CHECK(msplit_lsm_count(d_temp, &temp_bytes, &lsm, d_lo, d_hi, r, d_counts, d_offsets, NULL));
 *     CHECK(msplit_lsm_range(d_temp, &temp_bytes, &lsm, d_lo, d_hi, r, d_offsets, d_out_keys, d_out_values, NULL));
 *     CHECK(msplit_lsm_cleanup(d_temp, &temp_bytes, &lsm, NULL));
 *     CHECK(msplit_lsm_reclaim_sync(&lsm, &size, NULL));
 *
 * prints
 *
 *     lookup: 5->50 7->(absent) 9->91 11->(absent)
 *     counts: 3 0 0
 *     range [4, 10]: 5->50 6->60 9->91
 *     after cleanup: levels 0x3 -> 0x4, count [0, 100] = 5
 *     full: out of capacity: msplit_lsm_update: the update needs 4 more batches of 4 entries but only 3 slots of batches are free (capacity 28 entries in 3 levels)
 *     after reclaim: 5 entries, levels 0x2
 *     16 more entries: success, levels 0x6
 */
#ifndef MSPLIT_LSM_H
#define MSPLIT_LSM_H

#include "msplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reserved value of each width: the tombstone of a deleted key, and what a lookup writes for
 * an absent one. Inserting it is an argument error (recorded on the device). */
#define MSPLIT_LSM_DELETED 0xFFFFFFFFu
#define MSPLIT_LSM_DELETED64 0xFFFFFFFFFFFFFFFFull

/* The operations of an update batch (d_ops, one byte each). */
typedef enum {
  MSPLIT_LSM_INSERT = 0, /* insert or replace the key's value */
  MSPLIT_LSM_DELETE = 1  /* delete the key (its value is ignored) */
} msplit_lsm_op;

/* The levels at most (b (2^64 - 1) entries is beyond any memory). */
#define MSPLIT_LSM_MAX_LEVELS 40

/* A structure: its storage and shape, and which levels are occupied. Filled by msplit_lsm_init;
 * msplit_lsm_update and msplit_lsm_cleanup change it. */
typedef struct {
  void *d_storage;
  uint64_t batch_size;   /* b: entries per batch and capacity of level 0 */
  uint32_t num_levels;   /* L */
  uint64_t occupied;     /* bit i: level i holds a run (at most b 2^i entries; the counts live on
                            the device) */
  int clean;             /* the levels hold unique keys, no tombstones (after a cleanup, before
                            the next update) */
  msplit_type key_type;   /* MSPLIT_TYPE_U32 or MSPLIT_TYPE_U64 */
  msplit_type value_type; /* MSPLIT_TYPE_U32, or MSPLIT_TYPE_U64 with U64 keys */
} msplit_lsm;

/* Bytes of device storage for a structure of at most max_elements entries (slots: see the top)
 * taking batches of batch_size: (K + V) b (2^L - 1) for the levels and 512 for their counts.
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (bytes NULL, batch_size or max_elements 0, or more levels
 * than MSPLIT_LSM_MAX_LEVELS), MSPLIT_ERROR_UNSUPPORTED (a type pair not listed at the top). */
msplit_status msplit_lsm_storage_bytes(size_t max_elements, size_t batch_size, msplit_type key_type,
                                       msplit_type value_type, size_t *bytes);

/* The shape of a structure without its storage: *lsm filled as msplit_lsm_init would, with
 * d_storage NULL, so that the temporary storage of its operations can be sized (their size
 * queries read the shape only) before anything is allocated. Errors: those of
 * msplit_lsm_storage_bytes, and lsm NULL. */
msplit_status msplit_lsm_plan(msplit_lsm *lsm, size_t max_elements, size_t batch_size, msplit_type key_type,
                              msplit_type value_type);

/* Lays out an empty structure in d_storage (at least msplit_lsm_storage_bytes, 256-byte aligned
 * as cudaMalloc gives) and fills *lsm; asynchronous on `stream` (one memset). It also empties a
 * structure. Errors: MSPLIT_ERROR_INVALID_ARGUMENT (lsm or d_storage NULL, misaligned storage),
 * MSPLIT_ERROR_TEMP_STORAGE (bytes too small), those of msplit_lsm_storage_bytes,
 * MSPLIT_ERROR_CUDA. */
msplit_status msplit_lsm_init(msplit_lsm *lsm, void *d_storage, size_t bytes, size_t max_elements, size_t batch_size,
                              msplit_type key_type, msplit_type value_type, void *stream /* cudaStream_t */);

/* Applies n updates: entry i is d_ops[i] (msplit_lsm_op; d_ops NULL: every entry an insert) on
 * d_keys[i], with d_values[i] for an insert. Keys and values are arrays of the structure's types.
 * Later entries win over earlier ones (see the top); the batches of b entries are merged in order.
 *
 * [in]  d_temp, temp_bytes  temporary storage: the error record, the radix sort's storage for b
 *                           pairs, 2 b entries for the staged and sorted batch, and two buffers
 *                           of b 2^(L-2) entries for the merges between levels
 * [in,out] lsm              the structure (its occupancy changes)
 * Synchronisation: none. Errors: MSPLIT_ERROR_INVALID_ARGUMENT (temp_bytes or lsm NULL, a NULL
 * array with n > 0), MSPLIT_ERROR_TEMP_STORAGE, MSPLIT_ERROR_OUT_OF_CAPACITY (the batches need
 * more slots than are free: nothing is done), MSPLIT_ERROR_UNSUPPORTED, MSPLIT_ERROR_CUDA. On the
 * device (msplit_check_sync): an op that is not an msplit_lsm_op, or an insert of the reserved
 * value, is MSPLIT_ERROR_INVALID_ARGUMENT naming the first one found; such an entry is stored
 * as a delete of its key, so the structure stays consistent. */
msplit_status msplit_lsm_update(void *d_temp, size_t *temp_bytes, msplit_lsm *lsm, const void *d_keys,
                                const void *d_values, const uint8_t *d_ops, size_t n, void *stream);

/* d_values_out[i]: the value of d_keys[i], or MSPLIT_LSM_DELETED (of the value width) if the key
 * is absent or deleted; d_found[i] (may be NULL): 1 if present, else 0. No temporary storage.
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (lsm NULL, d_keys NULL or both outputs NULL with n > 0),
 * MSPLIT_ERROR_UNSUPPORTED, MSPLIT_ERROR_CUDA. */
msplit_status msplit_lsm_lookup(const msplit_lsm *lsm, const void *d_keys, size_t n, void *d_values_out,
                                uint8_t *d_found, void *stream);

/* For each query i, the live keys k with d_lo[i] <= k <= d_hi[i] (closed; none when lo > hi):
 * d_counts[i] (may be NULL) their number, d_offsets (may be NULL; n + 1 entries) the exclusive
 * scan of the counts, d_offsets[n] the total: the slices of msplit_lsm_range's output.
 * Temporary storage: the error record and about 4 n + 8 n / 2048 bytes (the counts and the scan).
 * Errors: as msplit_lsm_lookup's, plus MSPLIT_ERROR_TEMP_STORAGE; both outputs NULL is an
 * argument error. */
msplit_status msplit_lsm_count(void *d_temp, size_t *temp_bytes, const msplit_lsm *lsm, const void *d_lo,
                               const void *d_hi, size_t n, uint32_t *d_counts, uint64_t *d_offsets, void *stream);

/* The live entries of each query, in key order, into d_keys_out and d_values_out (either may be
 * NULL) at [d_offsets[i], d_offsets[i + 1]): the offsets msplit_lsm_count gave for the same
 * queries, with no update in between. Temporary storage: the error record (256 bytes). On the
 * device: a query with more entries than its slice holds writes the first ones and records
 * MSPLIT_ERROR_INVALID_ARGUMENT (the query, its entries, the slice). Other errors: as count's. */
msplit_status msplit_lsm_range(void *d_temp, size_t *temp_bytes, const msplit_lsm *lsm, const void *d_lo,
                               const void *d_hi, size_t n, const uint64_t *d_offsets, void *d_keys_out,
                               void *d_values_out, void *stream);

/* Cleanup: every key's newest entry, unless a tombstone, into one sorted run, in the level
 * 2^j >= (occupied levels' slots) / b; where that level would be beyond the last, the run is laid
 * over the occupied levels, largest first (consecutive slices: disjoint key ranges). Afterwards
 * the levels hold unique keys without tombstones (lsm->clean). Temporary storage: the error record,
 * two buffers of b (2^L - 1) entries and the scan's 8 b (2^L - 1) / 2048 bytes. Errors: as
 * update's, without the device-side ones. */
msplit_status msplit_lsm_cleanup(void *d_temp, size_t *temp_bytes, msplit_lsm *lsm, void *stream);

/* After a cleanup (lsm->clean), frees the slots of what it dropped: waits for `stream`, reads the
 * run's length c and, where the cleanup wrote one level, moves the run into the levels of the
 * binary representation of ceil(c / b), largest first (c == 0 empties the structure); *size (may
 * be NULL) gets c. A run that the cleanup had to lay over several levels stays where it is.
 * Errors: MSPLIT_ERROR_INVALID_ARGUMENT (lsm NULL or not clean: an update came after the
 * cleanup), MSPLIT_ERROR_UNSUPPORTED, MSPLIT_ERROR_CUDA. */
msplit_status msplit_lsm_reclaim_sync(msplit_lsm *lsm, uint64_t *size, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* MSPLIT_LSM_H */
