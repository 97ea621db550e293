/* What the examples share: the skip without a GPU, checked calls, and printing split keys.
 * C and C++. */
#ifndef MSPLIT_EXAMPLE_UTIL_H
#define MSPLIT_EXAMPLE_UTIL_H

#include <cuda_runtime_api.h>
#include <msplit/core.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status of an example that cannot run here (CTest's "skipped"). */
#define EXAMPLE_SKIP 77

/* Whether a CUDA device can be used; prints why not. */
static inline int example_have_gpu(void) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    printf("skipped: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return 0;
  }
  return 1;
}

/* For main(): an msplit call that must succeed, or a message and exit status 1. */
#define CHECK(call)                                                                              \
  do {                                                                                           \
    const msplit_status st_ = (call);                                                            \
    if (st_ != MSPLIT_SUCCESS) {                                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, msplit_status_string(st_),          \
              msplit_last_error_message());                                                      \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

/* For main(): a CUDA runtime call that must succeed. */
#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    const cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));     \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

/* "label:   k0 k1 | k2 ..." with a bar between buckets (offsets: m + 1 entries, or NULL). */
static inline void example_print_keys(const char *label, const uint32_t *keys, size_t n, const size_t *offsets,
                               uint32_t m) {
  printf("%-9s", label);
  for (size_t i = 0; i < n; ++i) {
    printf(i ? " %u" : "%u", (unsigned)keys[i]);
    for (uint32_t b = 1; offsets && b < m; ++b)
      if (offsets[b] == i + 1 && i + 1 < n) printf(" |");
  }
  printf("\n");
}

/* "offsets: o0 o1 ... om" */
static inline void example_print_offsets(const size_t *offsets, uint32_t m) {
  printf("offsets:");
  for (uint32_t b = 0; b <= m; ++b) printf(" %zu", offsets[b]);
  printf("\n");
}

#endif /* MSPLIT_EXAMPLE_UTIL_H */
