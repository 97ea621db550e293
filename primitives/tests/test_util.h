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

// The expectations of the small tests: a failure is printed and counted; test_finish prints the
// summary line and gives the exit status.
inline int &test_failures() {
  static int failures = 0;
  return failures;
}
#define TEST_EXPECT(cond, ...)             \
  do {                                     \
    if (!(cond)) {                         \
      std::printf("FAIL: " __VA_ARGS__);   \
      std::printf("\n");                   \
      ++test_failures();                   \
    }                                      \
  } while (0)
inline int test_finish(const char *passed) {
  if (test_failures()) std::printf("%d failures\n", test_failures());
  else std::printf("%s\n", passed);
  return test_failures() ? 1 : 0;
}
