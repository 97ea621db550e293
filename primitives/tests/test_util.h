// Helpers of msplit's test and benchmark programs (not the library, which returns statuses).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

// CHECK_CUDA(call): the call, or a message with the file and line and exit(1).

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// A GPU test's start: exits 77 (skipped) without a CUDA device; returns whether to run the
// quick subset (--quick, or MSPLIT_TEST_QUICK=1: small sizes, for compute-sanitizer).
inline bool gpu_test_start(int argc, char **argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIP: no CUDA device\n");
    std::exit(77);
  }
  const char *env = std::getenv("MSPLIT_TEST_QUICK");
  return (argc > 1 && std::strcmp(argv[1], "--quick") == 0) || (env && env[0] == '1');
}
