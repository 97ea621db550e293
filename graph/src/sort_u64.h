/* In-place introsort of 64-bit keys (quicksort with a median of three,
 * insertion sort for short ranges, heapsort when the recursion gets deep):
 * O(k log k) worst case for the per-row sorts of the CSR build. */
#ifndef DS_SORT_U64_H
#define DS_SORT_U64_H

#include <stddef.h>
#include <stdint.h>

void ds_sort_u64(uint64_t *a, size_t n);

#endif
