/* Introsort of uint64_t keys; see sort_u64.h. */
#include "sort_u64.h"

#define INSERTION_MAX 24 /* ranges this short are insertion-sorted */

static void insertion(uint64_t *a, size_t n) {
  for (size_t i = 1; i < n; i++) {
    uint64_t x = a[i];
    size_t j = i;
    while (j > 0 && a[j - 1] > x) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
  }
}

static void sift_down(uint64_t *a, size_t root, size_t n) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && a[child + 1] > a[child]) child++;
    if (a[root] >= a[child]) return;
    uint64_t t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}

static void heapsort_u64(uint64_t *a, size_t n) {
  for (size_t i = n / 2; i-- > 0;) sift_down(a, i, n);
  for (size_t end = n; end-- > 1;) {
    uint64_t t = a[0];
    a[0] = a[end];
    a[end] = t;
    sift_down(a, 0, end);
  }
}

static void intro(uint64_t *a, size_t n, int depth) {
  while (n > INSERTION_MAX) {
    if (depth-- == 0) {
      heapsort_u64(a, n);
      return;
    }
    // 1. median of three as pivot
    uint64_t x = a[0], y = a[n / 2], z = a[n - 1];
    uint64_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
    // 2. Hoare partition
    size_t i = 0, j = n - 1;
    for (;;) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i >= j) break;
      uint64_t t = a[i];
      a[i] = a[j];
      a[j] = t;
      i++;
      j--;
    }
    // 3. recurse into the smaller side, loop on the larger
    size_t left = j + 1;
    if (left < n - left) {
      intro(a, left, depth);
      a += left;
      n -= left;
    } else {
      intro(a + left, n - left, depth);
      n = left;
    }
  }
  insertion(a, n);
}

void ds_sort_u64(uint64_t *a, size_t n) {
  int depth = 0;
  for (size_t k = n; k > 1; k >>= 1) depth += 2;
  intro(a, n, depth);
}
