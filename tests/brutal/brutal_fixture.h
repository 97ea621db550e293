/* The brutal memory test's fixture: the inputs in every format, caches, an
 * edge list and search graphs with Dijkstra's answers, all made before any
 * allocation is failed (test_brutal.c runs the cases on it).
 */
#ifndef DS_BRUTAL_FIXTURE_H
#define DS_BRUTAL_FIXTURE_H

#include "graph_test_util.h" /* first: ds_test.h sets the feature macros */

#include "app_test_util.h"

#define SMALL_N 40u          /* vertices of the text inputs */
#define SMALL_M 120u         /* their entries */
#define GZ_ENTRIES 200000u   /* the .gz input inflates past the first 1 MiB and 4x its size, */
                             /* so the text grows while inflating */
#define SEARCH_N 3000u       /* the search graphs */
#define SEARCHES 3           /* integer, float, and integer weights near 2^31 */
#define SEARCH_M 24000u
#define SEARCH_THREADS 4     /* cpu-delta allocates bins per thread inside OpenMP */
#define SEARCH_DELTA 40.0
#define SEARCH_DELTA_FLOAT 0.5
#define PATH_LEN 1300

/* ---- inputs, one per format ---------------------------------------------- */
typedef enum {
  IN_MTX_INT, IN_MTX_REAL, IN_MTX_PATTERN, IN_MTX_SYM, IN_MTX_GZ, IN_GR, IN_EL, IN_WEL, IN_COUNT
} input_id;

typedef struct {
  const char *file;
  const char *banner; /* Matrix Market banner; NULL for the other formats */
  uint32_t entries;
} input_spec;

extern const input_spec inputs[IN_COUNT];

/* Everything a case needs, made before any allocation is failed. */
typedef struct {
  char dir[1024];
  char path[IN_COUNT][PATH_LEN];
  ds_graph ref[IN_COUNT];     /* each input loaded without failures */
  char hit_dir[PATH_LEN], miss_dir[PATH_LEN], hit_cache[PATH_LEN];
  char out_cache[PATH_LEN], out_mtx[PATH_LEN];
  ds_input_stamp in_stamp;    /* of the IN_MTX_INT input, for ds_cache_read */
  uint32_t *src, *dst, *w;    /* an edge list for ds_csr_build */
  ds_graph built, built_pattern;
  ds_graph search[SEARCHES];  /* integer, float, and integer needing 64-bit distances */
  void *dist_ref[SEARCHES];
  uint32_t *pred_ref[SEARCHES];
  void *dist;                 /* the outputs of the searches under test */
  uint32_t *pred;
} fixture;

/* The distance width of search graph f: 64-bit for the one whose weights near
 * 2^31 make paths longer than 32 bits. */
static inline ds_dist_width search_width(const fixture *fx, int f) {
  return ds_sssp_dist_width(&fx->search[f]);
}

/* Without a cache, or with one in cache_dir. */
static inline ds_load_options load_options(const char *cache_dir) {
  ds_load_options o = options_no_cache();
  if (cache_dir != NULL) {
    o.use_cache = 1;
    o.cache_dir = cache_dir;
  }
  return o;
}

/* Makes the fixture in a fresh scratch folder (1), or prints why not (0). */
int fixture_make(fixture *fx);
void fixture_free(fixture *fx);

#endif /* DS_BRUTAL_FIXTURE_H */
