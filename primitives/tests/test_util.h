// Helpers of msplit's tests (not the library, which returns statuses).
#pragma once
#include <cuda_runtime.h>

#include "../common/check_cuda.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

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
