// The harness of msplit's tests (not the library, which returns statuses and never exits): checks
// that count, the skip convention of the GPU tests, and the closing summary. The same contract as
// the project's tests/common/ds_test.h, kept here because msplit builds on its own.
//
//   CHECK(cond, fmt, ...)          counts a check; when cond is false, also a failure, printed on
//                                  stderr as "FAIL tests/test_x.cu:42: message", and goes on. Its
//                                  value is cond, so `if (!CHECK(...)) return;` stops a case whose
//                                  later checks depend on this one.
//   REQUIRE(cond, fmt, ...)        CHECK, then returns from the calling void function on failure.
//   REQUIRE_OR(ret, cond, fmt...)  the same for a function that returns a value: returns ret.
//   FAIL(fmt, ...)                 a failed check with no condition.
//   CHECK_MSPLIT(call)             a library call outside what is under test: it must succeed, or
//                                  the test stops with exit code 1 (its output would be garbage).
//   CHECK_CUDA(call)               the same for a CUDA runtime call (common/check_cuda.h).
//   msplit_test_gpu_start(argc, argv)  exits 77 (CTest's SKIP_RETURN_CODE) without a CUDA device;
//                                  returns whether to run the quick subset.
//   msplit_test_finish(fmt, ...)   prints one line, "WHAT: N checks passed" or "WHAT: F of N
//                                  checks FAILED", and returns main's exit code (0 or 1).
//
// Only the first MAX_PRINTED failures are printed (a broken kernel fails thousands of cases, and
// the first ones say what broke); all are counted. The format arguments are evaluated only when a
// check fails. Checks are not thread-safe.
#pragma once
#if __has_include(<cuda_runtime.h>)
#include <cuda_runtime.h>

#include "../common/check_cuda.h"
#define MSPLIT_TEST_HAS_CUDA 1
#endif

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "msplit/core.h"

namespace msplit_test {

constexpr long MAX_PRINTED = 20;
constexpr int SKIP_EXIT_CODE = 77;

inline long &checks() {
  static long n = 0;
  return n;
}
inline long &failures() {
  static long n = 0;
  return n;
}

inline bool pass() {
  ++checks();
  return true;
}

// __FILE__ from "tests/" on, the path a reader finds in the tree.
inline const char *where(const char *file) {
  const char *at = nullptr;
  for (const char *p = std::strstr(file, "tests/"); p != nullptr; p = std::strstr(p + 1, "tests/")) at = p;
  return at ? at : file;
}

__attribute__((format(printf, 3, 4))) inline bool fail(const char *file, int line, const char *fmt, ...) {
  ++checks();
  if (++failures() > MAX_PRINTED) return false;
  std::fflush(stdout);  // the failure after the progress lines printed before it
  std::fprintf(stderr, "FAIL %s:%d: ", where(file), line);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  return false;
}

}  // namespace msplit_test

#define FAIL(...) msplit_test::fail(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(cond, ...) ((cond) ? msplit_test::pass() : FAIL(__VA_ARGS__))
#define REQUIRE(cond, ...)               \
  do {                                   \
    if (!CHECK(cond, __VA_ARGS__)) return; \
  } while (0)
#define REQUIRE_OR(ret, cond, ...)           \
  do {                                       \
    if (!CHECK(cond, __VA_ARGS__)) return ret; \
  } while (0)

#define CHECK_MSPLIT(call)                                                                          \
  do {                                                                                              \
    const msplit_status st_ = (call);                                                               \
    if (st_ != MSPLIT_SUCCESS) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %s: %s\n", msplit_test::where(__FILE__), __LINE__, #call, \
                   msplit_status_string(st_), msplit_last_error_message());                        \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

// The failures so far: a test that prints progress lines reports them.
inline long msplit_test_failures() { return msplit_test::failures(); }

__attribute__((format(printf, 1, 2))) inline int msplit_test_finish(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
  const long f = msplit_test::failures(), n = msplit_test::checks();
  if (f) std::printf(": %ld of %ld checks FAILED\n", f, n);
  else std::printf(": %ld checks passed\n", n);
  return f ? 1 : 0;
}

// The bound of a forced stall, in ns: 20 ms, or MSPLIT_TEST_STALL_MS. A sanitizer slows each block
// so much that a legitimate wait passes 20 ms, so bench/gpu_check.sh raises it for its runs.
inline unsigned long long msplit_test_stall_ns() {
  const char *env = std::getenv("MSPLIT_TEST_STALL_MS");
  const unsigned long long ms = env ? std::strtoull(env, nullptr, 10) : 0;
  return (ms ? ms : 20) * 1000 * 1000;
}

#ifdef MSPLIT_TEST_HAS_CUDA
inline bool msplit_test_gpu_start(int argc, char **argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIP: no CUDA device\n");
    std::exit(msplit_test::SKIP_EXIT_CODE);
  }
  const char *env = std::getenv("MSPLIT_TEST_QUICK");
  return (argc > 1 && std::strcmp(argv[1], "--quick") == 0) || (env && env[0] == '1');
}
#endif
