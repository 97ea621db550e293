/* msplit: a library of GPU primitives. C API.
 *
 * What the library holds today:
 *   - multisplit: stable permutation of keys or key-value pairs into m contiguous buckets
 *     (msplit/multisplit.h here; msplit/multisplit.cuh for the CUDA C++ templates and
 *     msplit/grid_multisplit.cuh for a multisplit called from inside a cooperative kernel).
 *   - histogram: counts of samples in even bins or bins between sorted boundaries
 *     (msplit/histogram.h here; msplit/histogram.cuh for the templates, any bin functor too).
 *   - radix sort: stable LSD sort of keys or key-value pairs, ascending or descending, on a bit
 *     range (msplit/radix_sort.h here; msplit/radix_sort.cuh for the templates).
 *   - segmented sort: stable sort of each segment of keys or pairs, segments given by offsets
 *     (msplit/segmented_sort.h here; msplit/segmented_sort.cuh for the templates).
 *   - slab hash: a dynamic hash table (set, map, multimap) of 32-bit keys and values with bulk,
 *     mixed and in-kernel operations (msplit/slab_hash.h here; msplit/slab_hash.cuh for the host
 *     object and the device reference).
 *   - records: split, gather, scatter and sort of records of 4 to 256 bytes (msplit/records.h
 *     here; msplit/records.cuh for the templates, record types and bucket functors).
 *   - GPU LSM: an ordered dictionary of 32- or 64-bit keys taking batches of inserts and deletes
 *     and answering lookups, counts and range queries in batches (msplit/lsm.h here;
 *     msplit/lsm.cuh for the C++ class).
 *
 * This header includes every C header of the library:
 *   msplit/core.h            statuses and messages, the version, element types, the error
 *                            record that device code fills and msplit_check_sync reads (the
 *                            conventions that every call follows are described there)
 *   msplit/bucket.h          the built-in bucket functions
 *   msplit/multisplit.h      multisplit
 *   msplit/histogram.h       histogram
 *   msplit/radix_sort.h      radix sort
 *   msplit/segmented_sort.h  segmented sort
 *   msplit/slab_hash.h       slab hash
 *   msplit/records.h         split, gather, scatter and sort of records
 *   msplit/lsm.h             the GPU LSM, an ordered dictionary with batched updates and queries
 * Device-side headers for a user's own kernels: msplit/grid_barrier.cuh (a grid barrier whose
 * wait is bounded) and msplit/error_record.cuh (the record it fills).
 * Link the msplit::msplit CMake target (find_package(msplit)).
 */
#ifndef MSPLIT_H
#define MSPLIT_H

#include "msplit/core.h"
#include "msplit/bucket.h"
#include "msplit/multisplit.h"
#include "msplit/histogram.h"
#include "msplit/radix_sort.h"
#include "msplit/segmented_sort.h"
#include "msplit/slab_hash.h"
#include "msplit/records.h"
#include "msplit/lsm.h"
#include "msplit/range_tree.h"

#endif /* MSPLIT_H */
