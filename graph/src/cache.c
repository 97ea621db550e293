/* The binary CSR cache: one file per input, "<input>.dscache" next to it or
 * "<cache_dir>/<name>.<hash of the input path>.dscache".
 *
 * Layout (native byte order; the magic ends in "\r\n" so text-mode mangling
 * shows): a fixed 360-byte header, then row_offsets (n + 1 uint64), col (m
 * uint32), weights (m uint32 or float bits). The header holds the version,
 * the graph's shape and description, what the CSR depends on (the undirected
 * option; weight range and seed when the weights were generated; the input's
 * size and mtime), a checksum of the payload and one of the header itself.
 * A cache is written to "<path>.tmp.<pid>" and renamed, so a crash never
 * leaves a half file under the real name.
 * Reading: wrong magic, header checksum, file length or payload checksum ->
 * DS_ERR_FORMAT (corrupt); other version, input or parameters -> DS_ERR_STALE.
 */
#define _XOPEN_SOURCE 700
#include "graph_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_VERSION 1u
#define CACHE_SUFFIX ".dscache"
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define CHECKSUM_LANES 4
#define FLAG_SYMMETRIC 1u
#define FLAG_GENERATED 2u
#define FLAG_UNDIRECTED_OPT 4u

typedef struct {
  char magic[DS_CACHE_MAGIC_LEN];
  uint32_t version, header_bytes;
  uint64_t n, m;
  uint32_t weight_type, flags;
  uint32_t weight_min, weight_max;
  uint64_t weight_seed;
  uint64_t input_size;
  int64_t input_mtime;
  int32_t index_base, format;
  uint64_t input_entries;
  char name[256];
  uint64_t payload_checksum;
  uint64_t header_checksum; /* of every byte above */
} cache_header;

_Static_assert(sizeof(cache_header) == 360, "cache header must have no padding");
_Static_assert(sizeof(((ds_graph *)0)->name) == sizeof(((cache_header *)0)->name),
               "graph name and cache name must have the same size");

/* FNV-1a over 64-bit words in four independent lanes (four times the speed
 * of one chain); a changed word always changes its lane, and the lanes are
 * folded and mixed at the end. */
uint64_t ds_checksum64(const void *data, size_t len, uint64_t seed) {
  const unsigned char *p = data;
  uint64_t h[CHECKSUM_LANES];
  for (int i = 0; i < CHECKSUM_LANES; i++) h[i] = (FNV_OFFSET ^ seed) + (uint64_t)i;
  size_t blocks = len / (CHECKSUM_LANES * sizeof(uint64_t));
  for (size_t b = 0; b < blocks; b++, p += CHECKSUM_LANES * sizeof(uint64_t)) {
    uint64_t w[CHECKSUM_LANES];
    memcpy(w, p, sizeof w);
    for (int i = 0; i < CHECKSUM_LANES; i++) h[i] = (h[i] ^ w[i]) * FNV_PRIME;
  }
  for (size_t k = blocks * CHECKSUM_LANES * sizeof(uint64_t); k < len; k++, p++)
    h[0] = (h[0] ^ *p) * FNV_PRIME;
  uint64_t x = h[0];
  for (int i = 1; i < CHECKSUM_LANES; i++) x = (x ^ ds_splitmix64(h[i])) * FNV_PRIME;
  return ds_splitmix64(x ^ len);
}

static uint64_t payload_checksum(const ds_graph *g) {
  uint64_t c = ds_checksum64(g->row_offsets, ((size_t)g->n + 1) * sizeof(uint64_t), 0);
  c = ds_checksum64(g->col, (size_t)g->m * sizeof(uint32_t), c);
  return ds_checksum64(g->weights, (size_t)g->m * sizeof(uint32_t), c);
}

ds_status ds_cache_path(const char *input_path, const ds_load_options *opt, char *out,
                        size_t out_len, ds_error *err) {
  if (input_path == NULL || out == NULL || out_len == 0)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_path: input_path and out must be given");
  int k;
  if (opt != NULL && opt->cache_dir != NULL && opt->cache_dir[0] != '\0') {
    /* one folder for many inputs: the absolute path's hash keeps same names apart */
    char abs[PATH_MAX], name[256];
    const char *key = realpath(input_path, abs) ? abs : input_path;
    ds_graph_name_of(input_path, name, sizeof name);
    k = snprintf(out, out_len, "%s/%s.%016llx%s", opt->cache_dir, name,
                 (unsigned long long)ds_checksum64(key, strlen(key), 0), CACHE_SUFFIX);
  } else {
    k = snprintf(out, out_len, "%s%s", input_path, CACHE_SUFFIX);
  }
  if (k < 0 || (size_t)k >= out_len)
    return ds_error_set(err, DS_ERR_ARG, "%s: the cache path is longer than %zu bytes", input_path,
                        out_len - 1);
  return DS_OK;
}

ds_status ds_cache_write(const char *cache_path, const ds_graph *g, const ds_load_options *opt,
                         uint64_t input_size, int64_t input_mtime, ds_error *err) {
  ds_load_options defaults;
  if (cache_path == NULL || g == NULL || g->row_offsets == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_write: cache_path and a built g are needed");
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  // 1. header
  cache_header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN);
  h.version = CACHE_VERSION;
  h.header_bytes = sizeof h;
  h.n = g->n;
  h.m = g->m;
  h.weight_type = (uint32_t)g->weight_type;
  h.flags = (g->symmetric ? FLAG_SYMMETRIC : 0) | (g->weights_generated ? FLAG_GENERATED : 0) |
            (opt->undirected ? FLAG_UNDIRECTED_OPT : 0);
  h.weight_min = g->weight_min;
  h.weight_max = g->weight_max;
  h.weight_seed = g->weight_seed;
  h.input_size = input_size;
  h.input_mtime = input_mtime;
  h.index_base = g->index_base;
  h.format = (int32_t)g->format;
  h.input_entries = g->input_entries;
  memcpy(h.name, g->name, sizeof h.name);
  h.name[sizeof h.name - 1] = '\0';
  h.payload_checksum = payload_checksum(g);
  h.header_checksum = ds_checksum64(&h, offsetof(cache_header, header_checksum), 0);
  // 2. temporary file, then rename
  char tmp[PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", cache_path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (f == NULL)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot write the cache: %s", tmp, strerror(errno));
  int ok = fwrite(&h, sizeof h, 1, f) == 1 &&
           fwrite(g->row_offsets, sizeof(uint64_t), (size_t)g->n + 1, f) == (size_t)g->n + 1 &&
           fwrite(g->col, sizeof(uint32_t), (size_t)g->m, f) == (size_t)g->m &&
           fwrite(g->weights, sizeof(uint32_t), (size_t)g->m, f) == (size_t)g->m;
  int saved = errno;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, cache_path) != 0) {
    if (ok) saved = errno;
    remove(tmp);
    return ds_error_set(err, DS_ERR_IO, "%s: writing the cache failed: %s", cache_path,
                        strerror(saved));
  }
  return DS_OK;
}

/* Reads and checks a cache. opt == NULL: no staleness checks. */
static ds_status cache_read(const char *path, const ds_load_options *opt, uint64_t input_size,
                            int64_t input_mtime, ds_graph *g, ds_error *err) {
  cache_header h;
  ds_status st = DS_OK;
  memset(g, 0, sizeof *g);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat sb;
  // 1. header: intact, ours, current
  if (fstat(fileno(f), &sb) != 0 || fread(&h, sizeof h, 1, f) != 1) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s: too short for a cache header", path);
    goto fail;
  }
  if (memcmp(h.magic, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) != 0 ||
      h.header_checksum != ds_checksum64(&h, offsetof(cache_header, header_checksum), 0)) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s: not a deltasplit cache, or its header is corrupt",
                      path);
    goto fail;
  }
  if (h.version != CACHE_VERSION || h.header_bytes != sizeof h) {
    st = ds_error_set(err, DS_ERR_STALE, "%s: cache version %u, expected %u", path, h.version,
                      CACHE_VERSION);
    goto fail;
  }
  if (opt != NULL) {
    int generated = (h.flags & FLAG_GENERATED) != 0;
    if (h.input_size != input_size || h.input_mtime != input_mtime ||
        ((h.flags & FLAG_UNDIRECTED_OPT) != 0) != (opt->undirected != 0) ||
        (generated && (h.weight_min != opt->weight_min || h.weight_max != opt->weight_max ||
                       h.weight_seed != opt->seed))) {
      st = ds_error_set(err, DS_ERR_STALE, "%s: the cache is of another version of the input or "
                        "other load options", path);
      goto fail;
    }
  }
  // 2. payload: the right length and checksum
  if (h.n >= UINT32_MAX || (h.weight_type != DS_WEIGHT_U32 && h.weight_type != DS_WEIGHT_F32) ||
      h.m > ((uint64_t)sb.st_size) / (2 * sizeof(uint32_t)) ||
      (uint64_t)sb.st_size != sizeof h + (h.n + 1) * sizeof(uint64_t) + h.m * 2 * sizeof(uint32_t)) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s: the cache file has the wrong length for %llu "
                      "vertices and %llu arcs", path, (unsigned long long)h.n,
                      (unsigned long long)h.m);
    goto fail;
  }
  g->row_offsets = ds_alloc_big(((size_t)h.n + 1) * sizeof(uint64_t));
  g->col = ds_alloc_big((h.m ? h.m : 1) * sizeof(uint32_t));
  g->weights = ds_alloc_big((h.m ? h.m : 1) * sizeof(uint32_t));
  if (g->row_offsets == NULL || g->col == NULL || g->weights == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for the cached graph", path);
    goto fail;
  }
  g->n = (uint32_t)h.n;
  g->m = h.m;
  if (fread(g->row_offsets, sizeof(uint64_t), (size_t)h.n + 1, f) != (size_t)h.n + 1 ||
      fread(g->col, sizeof(uint32_t), (size_t)h.m, f) != (size_t)h.m ||
      fread(g->weights, sizeof(uint32_t), (size_t)h.m, f) != (size_t)h.m) {
    st = ds_error_set(err, DS_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    goto fail;
  }
  if (payload_checksum(g) != h.payload_checksum || g->row_offsets[0] != 0 ||
      g->row_offsets[g->n] != g->m) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s: the cache is corrupt (checksum mismatch)", path);
    goto fail;
  }
  fclose(f);
  // 3. description
  g->weight_type = (ds_weight_type)h.weight_type;
  g->symmetric = (h.flags & FLAG_SYMMETRIC) != 0;
  g->weights_generated = (h.flags & FLAG_GENERATED) != 0;
  g->weight_min = h.weight_min;
  g->weight_max = h.weight_max;
  g->weight_seed = h.weight_seed;
  g->index_base = h.index_base;
  g->format = (ds_format)h.format;
  g->input_entries = h.input_entries;
  memcpy(g->name, h.name, sizeof g->name);
  g->name[sizeof g->name - 1] = '\0';
  return DS_OK;
fail:
  fclose(f);
  ds_graph_free(g);
  return st;
}

ds_status ds_cache_read(const char *cache_path, const ds_load_options *opt, uint64_t input_size,
                        int64_t input_mtime, ds_graph *g, ds_error *err) {
  ds_load_options defaults;
  if (cache_path == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_read: cache_path and g must not be NULL");
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  return cache_read(cache_path, opt, input_size, input_mtime, g, err);
}

ds_status ds_cache_read_any(const char *cache_path, ds_graph *g, ds_error *err) {
  return cache_read(cache_path, NULL, 0, 0, g, err);
}
