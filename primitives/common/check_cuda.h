// Helpers of msplit's programs, its tests and its benchmark (not the library, which returns
// statuses and never exits).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// CHECK_CUDA(call): the call, or a message with the file and line and exit(1).

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)
