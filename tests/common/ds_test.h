/* The harness of every test program under tests/ (C11 and C++17): checks that
 * count, the skip convention, the closing summary, and scratch files.
 *
 *   CHECK(cond, fmt, ...)    counts a check; when cond is false, also a failure, printed on
 *                            stderr as "FAIL tests/graph/test_csr.c:42: message", and goes on.
 *                            Its value is cond (0 or 1), so `if (!CHECK(...)) goto done;`
 *                            stops a case whose later checks depend on this one.
 *   REQUIRE(cond, fmt, ...)  CHECK, then returns from the calling void function on failure.
 *   FAIL(fmt, ...)           a failed check with no condition (a step that could not run).
 *   ds_test_skip(fmt, ...)   prints "SKIP: reason" and returns DS_TEST_SKIP, which main
 *                            returns: CTest's SKIP_RETURN_CODE reports the test as skipped.
 *   ds_test_finish(fmt, ...) prints one line, "WHAT: N checks passed" or "WHAT: F of N checks
 *                            FAILED", and returns main's exit code (0 or 1).
 *
 * Exit codes of a test program: 0 passed, 1 a check failed, 2 it could not run (bad
 * arguments, the system refused a scratch folder), DS_TEST_SKIP skipped.
 *
 * The format arguments are evaluated only when a check fails. A test program is one
 * translation unit that includes this header once (the counters are static), first of
 * all its headers: it sets the feature macros the scratch helpers need. Checks are not
 * thread-safe: make them outside parallel regions.
 */
#ifndef DS_TEST_H
#define DS_TEST_H

#if !defined(_XOPEN_SOURCE) && !defined(__cplusplus)
#define _XOPEN_SOURCE 700 /* mkdtemp; C++ compilers define _GNU_SOURCE, which has it */
#endif

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The exit code of a skipped test: every CTest test that may skip declares it as
 * SKIP_RETURN_CODE (tests/CMakeLists.txt: DS_TEST_SKIP_CODE). */
#define DS_TEST_SKIP 77

/* The byte that outputs are filled with before a call, so that a value the call
 * should have written and did not cannot pass for a right one. */
#define POISON_BYTE 0xA5

#if defined(__GNUC__) || defined(__clang__)
#define DS_TEST_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define DS_TEST_PRINTF(fmt, args)
#endif

static long ds_test_checks_ = 0;
static long ds_test_failures_ = 0;

/* The failures so far: a caller that retries a case compares it before and after. */
static inline long ds_test_failures(void) { return ds_test_failures_; }

static inline int ds_test_pass_(void) {
  ds_test_checks_++;
  return 1;
}

/* __FILE__ from "/tests/" on, the path a reader finds in the tree. */
static inline const char *ds_test_where_(const char *file) {
  const char *at = NULL;
  for (const char *p = strstr(file, "/tests/"); p != NULL; p = strstr(p + 1, "/tests/")) at = p;
  return at ? at + 1 : file;
}

DS_TEST_PRINTF(3, 4)
static inline int ds_test_fail_(const char *file, int line, const char *fmt, ...) {
  ds_test_checks_++;
  ds_test_failures_++;
  fflush(stdout); /* the failure after the progress lines printed before it */
  fprintf(stderr, "FAIL %s:%d: ", ds_test_where_(file), line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 0;
}

#define FAIL(...) ds_test_fail_(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(cond, ...) ((cond) ? ds_test_pass_() : FAIL(__VA_ARGS__))
#define REQUIRE(cond, ...)                                                                \
  do {                                                                                    \
    if (!CHECK(cond, __VA_ARGS__)) return;                                                \
  } while (0)

DS_TEST_PRINTF(1, 2)
static inline int ds_test_skip(const char *fmt, ...) {
  fputs("SKIP: ", stdout);
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
  return DS_TEST_SKIP;
}

DS_TEST_PRINTF(1, 2)
static inline int ds_test_finish(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  const char *s = ds_test_checks_ == 1 ? "" : "s";
  if (ds_test_failures_ == 0) printf(": %ld check%s passed\n", ds_test_checks_, s);
  else printf(": %ld of %ld check%s FAILED\n", ds_test_failures_, ds_test_checks_, s);
  fflush(stdout);
  return ds_test_failures_ ? 1 : 0;
}

/* A fresh folder under TMPDIR (or /tmp), its name in dir[len]; removed with
 * everything in it by scratch_remove. Exits 2 when it cannot be made. */
static inline void scratch_make(char *dir, size_t len, const char *tag) {
  const char *base = getenv("TMPDIR");
  snprintf(dir, len, "%s/ds_%s_XXXXXX", base && *base ? base : "/tmp", tag);
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    exit(2);
  }
}

static inline void scratch_remove(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  struct dirent *e;
  char path[4096 + sizeof e->d_name + 2];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
    if (remove(path) != 0) scratch_remove(path), rmdir(path);
  }
  closedir(d);
  rmdir(dir);
}

/* Writes len bytes to path, replacing it; exits 2 when it cannot. */
static inline void write_bytes(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, len, f) != len) {
    perror(path);
    exit(2);
  }
  fclose(f);
}

#endif /* DS_TEST_H */
