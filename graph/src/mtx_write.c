/* ds_mtx_write: a graph as a Matrix Market "coordinate {integer|real}
 * general" file with every stored arc (1-based), or for a symmetric graph a
 * "symmetric" one with each edge once (the lower triangle, as the format
 * asks): a load then knows the graph is undirected, and the file is half the
 * size. Through ds_out_open (a regular file is replaced atomically, a FIFO or
 * device written through).
 * Integers are formatted by hand into a large buffer; floats with "%.9g",
 * which round-trips every float. */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"
#include "ds/out_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define WRITE_BUF_BYTES ((size_t)1 << 22)
#define LINE_MAX_BYTES 80 /* "4294967295 4294967295 <float>\n" fits */

static char *put_u64(char *p, uint64_t x) {
  char tmp[24];
  int k = 0;
  do {
    tmp[k++] = (char)('0' + x % 10);
    x /= 10;
  } while (x);
  while (k) *p++ = tmp[--k];
  return p;
}

ds_status ds_mtx_write(const char *path, const ds_graph *g, ds_error *err) {
  if (path == NULL || g == NULL || g->row_offsets == NULL || (g->m > 0 && g->weights == NULL))
    return ds_error_set(err, DS_ERR_ARG, "ds_mtx_write: path and a built graph are needed");
  char *buf = malloc(WRITE_BUF_BYTES);
  if (buf == NULL) return ds_error_set(err, DS_ERR_NOMEM, "ds_mtx_write: out of memory");
  ds_out_file out;
  ds_status st = ds_out_open(path, &out, err);
  if (st != DS_OK) {
    free(buf);
    return st;
  }
  FILE *f = out.stream;
  const int real = g->weight_type == DS_WEIGHT_F32;
  /* a symmetric CSR has no self-loops and each edge in both rows: m / 2 entries */
  const uint64_t entries = g->symmetric ? g->m / 2 : g->m;
  int ok = fprintf(f, "%%%%MatrixMarket matrix coordinate %s %s\n%% written by deltasplit "
                   "(graph '%s')\n%u %u %llu\n", real ? "real" : "integer",
                   g->symmetric ? "symmetric" : "general", g->name, g->n, g->n,
                   (unsigned long long)entries) > 0;
  char *p = buf;
  for (uint32_t u = 0; u < g->n && ok; u++) {
    for (uint64_t a = g->row_offsets[u]; a < g->row_offsets[u + 1]; a++) {
      if (g->symmetric && g->col[a] > u) break; /* rows are sorted: the upper triangle */
      if ((size_t)(p - buf) > WRITE_BUF_BYTES - LINE_MAX_BYTES) {
        ok = fwrite(buf, 1, (size_t)(p - buf), f) == (size_t)(p - buf);
        p = buf;
        if (!ok) break;
      }
      p = put_u64(p, (uint64_t)u + 1);
      *p++ = ' ';
      p = put_u64(p, (uint64_t)g->col[a] + 1);
      *p++ = ' ';
      if (real) p += snprintf(p, LINE_MAX_BYTES / 2, "%.9g", (double)((const float *)g->weights)[a]);
      else p = put_u64(p, ((const uint32_t *)g->weights)[a]);
      *p++ = '\n';
    }
  }
  if (ok && p > buf) ok = fwrite(buf, 1, (size_t)(p - buf), f) == (size_t)(p - buf);
  int saved = errno;
  free(buf);
  if (!ok) {
    ds_out_abort(&out);
    return ds_error_set(err, DS_ERR_IO, "%s: writing failed: %s", path, strerror(saved));
  }
  return ds_out_close(&out, err);
}
