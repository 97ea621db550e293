/* Host memory: what is available (ds_host_memory_available), and what a load
 * will need, estimated from the sizes a file declares before anything large
 * is allocated, so that a 75-byte file claiming 3e8 vertices is refused
 * instead of ending in the OOM killer.
 *
 * The estimate follows the load's phases (bytes; n vertices, e entries,
 * a = e arcs, or 2e when both directions are stored):
 *   parse:      the text + the edge list (8 bytes an entry, 12 with weights)
 *   CSR build:  the edge list + max(16 (n + 1) + 8 a, 8 (n + 1) + 12 a)
 *               (offsets and cursors, then 64-bit keys; at the end offsets,
 *               keys and columns), csr_build.c's steps 1-4
 * The larger phase counts, plus a fixed allowance for the process itself.
 * Measured with /usr/bin/time -v (maximum resident size of a program that
 * only loads, no cache, 2 threads):
 *   30M vertices, 0 entries (a 69-byte file)  471 MB   estimate  497 MB
 *   R-MAT 1M vertices, 7.8M entries, 135 MB    231 MB   estimate  246 MB
 *   uniform 1M vertices, 16M entries, 278 MB   472 MB   estimate  487 MB
 * so 16 bytes a vertex, and 12 an entry plus the text: the parse phase is
 * the peak of files with entries, the offsets that of files without. */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MEMINFO_PATH "/proc/meminfo"
#define MEMINFO_KEY "MemAvailable:"
#define KIB 1024ull
#define GB 1e9
#define EDGE_ID_BYTES (2 * sizeof(uint32_t)) /* src and dst of the edge list */
#define EDGE_WEIGHT_BYTES sizeof(uint32_t)
#define OFFSET_BYTES sizeof(uint64_t)
#define KEY_BYTES sizeof(uint64_t)         /* (column, weight) of one arc in the build */
#define COL_BYTES sizeof(uint32_t)
/* The process beyond the arrays (code, libraries, OpenMP stacks, malloc
 * slack): a load of a 3-vertex file peaks at a few MB resident. */
#define LOAD_OVERHEAD_BYTES ((uint64_t)16 << 20)

ds_status ds_host_memory_available(uint64_t *bytes, ds_error *err) {
  if (bytes == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_host_memory_available: bytes is NULL");
  *bytes = 0;
  FILE *f = fopen(MEMINFO_PATH, "r");
  if (f != NULL) {
    char line[256];
    unsigned long long kib = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f) != NULL)
      found = strncmp(line, MEMINFO_KEY, strlen(MEMINFO_KEY)) == 0 &&
              sscanf(line + strlen(MEMINFO_KEY), "%llu", &kib) == 1;
    fclose(f);
    if (found) {
      *bytes = (uint64_t)kib * KIB;
      return DS_OK;
    }
  }
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE); /* an older kernel */
  if (pages <= 0 || page <= 0)
    return ds_error_set(err, DS_ERR_IO, "the available host memory is unknown (no %s, no "
                        "physical page count)", MEMINFO_PATH);
  *bytes = (uint64_t)pages * (uint64_t)page;
  return DS_OK;
}

double ds_load_memory_need(const ds_load_size *s) {
  const double n1 = (double)s->n + 1.0, e = (double)s->entries;
  const double arcs = (s->symmetric ? 2.0 : 1.0) * e;
  const double edges = e * (double)(EDGE_ID_BYTES + (s->weighted ? EDGE_WEIGHT_BYTES : 0));
  const double parse = (double)s->text_bytes + edges;
  const double start = 2.0 * n1 * OFFSET_BYTES + arcs * KEY_BYTES;
  const double finish = n1 * OFFSET_BYTES + arcs * (KEY_BYTES + COL_BYTES);
  const double build = edges + (start > finish ? start : finish);
  return (parse > build ? parse : build) + (double)LOAD_OVERHEAD_BYTES;
}

ds_status ds_check_load_memory(const char *file, uint64_t line, const ds_load_size *s,
                               uint64_t limit, ds_error *err) {
  uint64_t have = limit;
  if (have == 0 && ds_host_memory_available(&have, NULL) != DS_OK) return DS_OK; /* unknown */
  const double need = ds_load_memory_need(s);
  if (need <= (double)have) return DS_OK;
  char where[64] = "";
  if (line > 0) snprintf(where, sizeof where, "%llu:", (unsigned long long)line);
  return ds_error_set(err, DS_ERR_NOMEM, "%s:%s the graph needs about %.1f GB of host memory to "
                      "load (%llu vertices, %llu entries), %.1f GB %s", file, where, need / GB,
                      (unsigned long long)s->n, (unsigned long long)s->entries, (double)have / GB,
                      limit ? "are allowed (the load's memory limit)" : "are available");
}
