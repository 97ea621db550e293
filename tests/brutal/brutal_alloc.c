/* The failing allocator of brutal_alloc.h: __wrap_X stands for X in every
 * object of the test (ld --wrap), __real_X is the C library's (or the
 * sanitizer's) X. Only the linker calls the __wrap_ functions, so they have
 * no declarations. */
#define _POSIX_C_SOURCE 200809L
#include "brutal_alloc.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_reallocarray(void *p, size_t count, size_t size);
void __real_free(void *p);
int __real_posix_memalign(void **out, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

static _Atomic uint64_t fail_at;   /* 0: disarmed */
static _Atomic int fail_mode;      /* brutal_mode */
static _Atomic uint64_t attempts;  /* allocations since arming */
static _Atomic int failed;         /* one was failed since arming */
static _Atomic int64_t live;       /* blocks handed out and not freed */

void brutal_arm(uint64_t k, brutal_mode mode) {
  atomic_store(&attempts, 0);
  atomic_store(&failed, 0);
  atomic_store(&fail_mode, (int)mode);
  atomic_store(&fail_at, k);
}

uint64_t brutal_disarm(void) {
  atomic_store(&fail_at, 0);
  return atomic_load(&attempts);
}

int brutal_failed(void) { return atomic_load(&failed); }

int64_t brutal_live(void) { return atomic_load(&live); }

/* One allocation is attempted: 1 when it must fail. */
static int must_fail(void) {
  uint64_t k = atomic_load(&fail_at);
  if (k == 0) return 0;
  uint64_t i = atomic_fetch_add(&attempts, 1) + 1;
  int fail = atomic_load(&fail_mode) == BRUTAL_FROM ? i >= k : i == k;
  if (fail) {
    atomic_store(&failed, 1);
    errno = ENOMEM;
  }
  return fail;
}

static void *counted(void *p) {
  if (p != NULL) atomic_fetch_add(&live, 1);
  return p;
}

void *__wrap_malloc(size_t size) { return must_fail() ? NULL : counted(__real_malloc(size)); }

void *__wrap_calloc(size_t count, size_t size) {
  return must_fail() ? NULL : counted(__real_calloc(count, size));
}

/* A realloc that moves or resizes a block keeps the count; realloc(NULL, n)
 * allocates one; glibc's realloc(p, 0) frees p. */
static void *resized(void *old, void *p, size_t bytes) {
  if (old == NULL) return counted(p);
  if (p == NULL && bytes == 0) atomic_fetch_sub(&live, 1);
  return p;
}

void *__wrap_realloc(void *p, size_t size) {
  if ((p == NULL || size > 0) && must_fail()) return NULL;
  return resized(p, __real_realloc(p, size), size);
}

void *__wrap_reallocarray(void *p, size_t count, size_t size) {
  if ((p == NULL || (count > 0 && size > 0)) && must_fail()) return NULL;
  return resized(p, __real_reallocarray(p, count, size), count * size);
}

void __wrap_free(void *p) {
  if (p != NULL) atomic_fetch_sub(&live, 1);
  __real_free(p);
}

int __wrap_posix_memalign(void **out, size_t align, size_t size) {
  if (must_fail()) return ENOMEM;
  int rc = __real_posix_memalign(out, align, size);
  if (rc == 0) counted(*out);
  return rc;
}

void *__wrap_aligned_alloc(size_t align, size_t size) {
  return must_fail() ? NULL : counted(__real_aligned_alloc(align, size));
}

char *__wrap_strdup(const char *s) { return must_fail() ? NULL : counted(__real_strdup(s)); }

char *__wrap_strndup(const char *s, size_t n) {
  return must_fail() ? NULL : counted(__real_strndup(s, n));
}
