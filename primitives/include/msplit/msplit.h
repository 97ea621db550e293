/* msplit: a library of GPU primitives. C API.
 *
 * What the library holds today:
 *   - multisplit: stable permutation of keys or key-value pairs into m contiguous buckets
 *     (msplit/multisplit.h here; msplit/multisplit.cuh for the CUDA C++ templates and
 *     msplit/grid_multisplit.cuh for a multisplit called from inside a cooperative kernel).
 * Histogram, radix sort, segmented sort and a hash table are planned, not yet here; each will
 * come with its own C header, included below, and its own template header.
 *
 * This header includes every C header of the library:
 *   msplit/core.h        statuses and messages, the version, element types (the conventions
 *                        that every call follows are described there)
 *   msplit/bucket.h      the built-in bucket functions
 *   msplit/multisplit.h  multisplit
 *   msplit/segmented_sort.h  segmented sort (stable, keys or pairs, by length bins)
 * Link the msplit::msplit CMake target (find_package(msplit)).
 */
#ifndef MSPLIT_H
#define MSPLIT_H

#include "msplit/core.h"
#include "msplit/bucket.h"
#include "msplit/multisplit.h"
#include "msplit/segmented_sort.h"

#endif /* MSPLIT_H */
