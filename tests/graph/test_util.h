/* Shared helpers of the graph-layer tests: a CHECK that counts failures,
 * a scratch folder, writing files, and comparing graphs arc by arc. */
#ifndef DS_TEST_UTIL_H
#define DS_TEST_UTIL_H

#define _XOPEN_SOURCE 700
#include "ds/graph.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int test_failures = 0;

#define CHECK(cond, ...)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      test_failures++;                                                                    \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                \
      fprintf(stderr, __VA_ARGS__);                                                       \
      fprintf(stderr, "\n");                                                              \
    }                                                                                     \
  } while (0)

#define POISON_BYTE 0xA5

/* A fresh folder under TMPDIR (or /tmp); removed by scratch_remove. */
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

static inline void write_bytes(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, len, f) != len) {
    perror(path);
    exit(2);
  }
  fclose(f);
}

/* Same shape, columns and weight bits. */
static inline int same_graph(const ds_graph *a, const ds_graph *b) {
  if (a->n != b->n || a->m != b->m || a->weight_type != b->weight_type) return 0;
  if (memcmp(a->row_offsets, b->row_offsets, ((size_t)a->n + 1) * sizeof(uint64_t)) != 0) return 0;
  if (a->m && memcmp(a->col, b->col, (size_t)a->m * sizeof(uint32_t)) != 0) return 0;
  if (a->m && memcmp(a->weights, b->weights, (size_t)a->m * sizeof(uint32_t)) != 0) return 0;
  return 1;
}

static inline ds_load_options options_no_cache(void) {
  ds_load_options o;
  ds_load_options_default(&o);
  o.use_cache = 0;
  o.progress = 0;
  return o;
}

#endif /* DS_TEST_UTIL_H */
