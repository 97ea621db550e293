/* The binary CSR cache: one file per input, "<input>.dscache" next to it or
 * "<cache_dir>/<name>.<hash of the input path>.dscache".
 *
 * Layout (native byte order; the magic ends in "\r\n" so text-mode mangling
 * shows): a fixed 416-byte header, then row_offsets (n + 1 uint64), col (m
 * uint32), weights (m uint32 or float bits). The header holds the version,
 * the graph's shape and description, what the CSR depends on (the undirected
 * option; weight range, distribution and seed when the weights were
 * generated; the input's stamp: size, mtime to the nanosecond, inode, device,
 * a content hash and the inode change time to the nanosecond), a checksum of
 * the payload and one of the header itself.
 * Freshness is exact equality of the whole stamp, so a file rewritten at the
 * same size within the same second, or moved over the input, is rebuilt.
 * Only regular files are ever read or written as caches, and only regular
 * inputs get one: a pipe or device is read once and cannot be stamped.
 * Writing: "<path>.tmp.<pid>" (created exclusively, never through a link),
 * then renamed, so a crash never leaves a half file under the real name;
 * temporaries of processes that no longer exist are removed on the next
 * write (ds_tmp_sibling_open, shared with the output files). Something
 * other than a regular file at the cache path is left alone.
 * Reading: wrong magic, header checksum, file length or payload checksum, or
 * a payload that breaks the CSR invariants -> DS_ERR_FORMAT (corrupt); other
 * version, input or parameters -> DS_ERR_STALE. The version is read before
 * the rest of the header, so that a cache of another version (whose header
 * may have another length and layout) is stale, never "corrupt".
 */
#define _XOPEN_SOURCE 700
#include "graph_internal.h"
#include "ds/text_range.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_VERSION 4u /* 3: the weight distribution; 4: the input's change time */
#define CACHE_SUFFIX ".dscache"
#define FLAG_SYMMETRIC 1u
#define FLAG_GENERATED 2u
#define FLAG_UNDIRECTED_OPT 4u
#define FLAGS_KNOWN (FLAG_SYMMETRIC | FLAG_GENERATED | FLAG_UNDIRECTED_OPT)
#define IO_CHUNK ((size_t)1 << 30) /* one read() or write() at most */

typedef struct {
  char magic[DS_CACHE_MAGIC_LEN];
  uint32_t version, header_bytes;
  uint64_t n, m;
  uint32_t weight_type, flags;
  uint32_t weight_min, weight_max;
  uint32_t weight_dist, reserved; /* reserved: 0, keeps weight_seed aligned */
  uint64_t weight_seed;
  uint64_t input_size;
  int64_t input_mtime_s, input_mtime_ns;
  uint64_t input_inode, input_device, input_hash;
  int32_t index_base, format;
  uint64_t input_entries;
  char name[256];
  int64_t input_ctime_s, input_ctime_ns; /* after the name: the fields before keep their places */
  uint64_t payload_checksum;
  uint64_t header_checksum; /* of every byte above */
} cache_header;

_Static_assert(sizeof(cache_header) == 416, "cache header must have no padding");
_Static_assert(sizeof(((ds_graph *)0)->name) == sizeof(((cache_header *)0)->name),
               "graph name and cache name must have the same size");

static uint64_t payload_checksum(const ds_graph *g) {
  uint64_t c = ds_checksum64(g->row_offsets, ((size_t)g->n + 1) * sizeof(uint64_t), 0);
  c = ds_checksum64(g->col, (size_t)g->m * sizeof(uint32_t), c);
  return ds_checksum64(g->weights, (size_t)g->m * sizeof(uint32_t), c);
}

static uint64_t header_checksum(const cache_header *h) {
  return ds_checksum64(h, offsetof(cache_header, header_checksum), 0);
}

/* ---- paths ------------------------------------------------------------------- */

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

/* ---- writing ----------------------------------------------------------------- */

static int write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  while (len > 0) {
    ssize_t k = write(fd, p, len < IO_CHUNK ? len : IO_CHUNK);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return 0;
    p += k;
    len -= (size_t)k;
  }
  return 1;
}

ds_status ds_cache_write(const char *cache_path, const ds_graph *g, const ds_load_options *opt,
                         const ds_input_stamp *input, ds_error *err) {
  ds_load_options defaults;
  if (cache_path == NULL || g == NULL || g->row_offsets == NULL || input == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_write: cache_path, a built g and the input's "
                        "stamp are needed");
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
  h.weight_dist = (uint32_t)g->weight_dist;
  h.weight_seed = g->weight_seed;
  h.input_size = input->size;
  h.input_mtime_s = input->mtime_s;
  h.input_mtime_ns = input->mtime_ns;
  h.input_inode = input->inode;
  h.input_device = input->device;
  h.input_hash = input->content_hash;
  h.input_ctime_s = input->ctime_s;
  h.input_ctime_ns = input->ctime_ns;
  h.index_base = g->index_base;
  h.format = (int32_t)g->format;
  h.input_entries = g->input_entries;
  memcpy(h.name, g->name, sizeof h.name);
  h.name[sizeof h.name - 1] = '\0';
  h.payload_checksum = payload_checksum(g);
  h.header_checksum = header_checksum(&h);
  // 2. never replace what is not a regular file (a FIFO, a device, a folder, a link)
  struct stat sb;
  if (lstat(cache_path, &sb) == 0 && !S_ISREG(sb.st_mode))
    return ds_error_set(err, DS_ERR_IO, "%s: not a regular file: left alone, no cache written",
                        cache_path);
  // 3. a temporary file of our own (killed writers' removed), then rename
  char tmp[PATH_MAX + 32];
  int fd = ds_tmp_sibling_open(cache_path, tmp, sizeof tmp, 0644);
  if (fd < 0 && tmp[0] == '\0')
    return ds_error_set(err, DS_ERR_ARG, "%s: the cache path is too long", cache_path);
  if (fd < 0)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot write the cache: %s", tmp, strerror(errno));
  int ok = write_all(fd, &h, sizeof h) &&
           write_all(fd, g->row_offsets, ((size_t)g->n + 1) * sizeof(uint64_t)) &&
           write_all(fd, g->col, (size_t)g->m * sizeof(uint32_t)) &&
           write_all(fd, g->weights, (size_t)g->m * sizeof(uint32_t));
  int saved = errno;
  ok = (close(fd) == 0) && ok;
  if (!ok || rename(tmp, cache_path) != 0) {
    if (ok) saved = errno;
    unlink(tmp);
    return ds_error_set(err, DS_ERR_IO, "%s: writing the cache failed: %s", cache_path,
                        strerror(saved));
  }
  return DS_OK;
}

/* ---- reading ----------------------------------------------------------------- */

/* Where cache bytes come from: an open regular file, or memory. */
typedef struct {
  int fd;                   /* >= 0: the file */
  const unsigned char *mem; /* else these bytes */
  uint64_t len, pos;        /* total length; bytes consumed */
} cache_src;

static int src_read(cache_src *s, void *dst, size_t bytes) {
  if (s->len - s->pos < bytes) return 0;
  if (s->fd < 0) {
    if (bytes) memcpy(dst, s->mem + s->pos, bytes);
  } else {
    for (size_t got = 0; got < bytes;) {
      size_t want = bytes - got < IO_CHUNK ? bytes - got : IO_CHUNK;
      ssize_t k = read(s->fd, (char *)dst + got, want);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return 0;
      got += (size_t)k;
    }
  }
  s->pos += bytes;
  return 1;
}

/* The header's own fields, before any allocation: known values, and a file
 * length that is exactly what n and m need. */
static ds_status check_header(const char *path, const cache_header *h, uint64_t len,
                              ds_error *err) {
  const uint64_t arc_bytes = 2 * sizeof(uint32_t);
  if (h->n > UINT32_MAX || (h->weight_type != DS_WEIGHT_U32 && h->weight_type != DS_WEIGHT_F32) ||
      (h->flags & ~FLAGS_KNOWN) != 0 || (h->index_base != 0 && h->index_base != 1) ||
      h->format < DS_FORMAT_AUTO || h->format > DS_FORMAT_WEL ||
      memchr(h->name, '\0', sizeof h->name) == NULL ||
      h->weight_dist >= DS_WEIGHT_DISTS || h->reserved != 0 ||
      ((h->flags & FLAG_GENERATED) &&
       (h->weight_min > h->weight_max || h->weight_type != DS_WEIGHT_U32)))
    return ds_error_set(err, DS_ERR_FORMAT, "%s: the cache header holds impossible values", path);
  if (len < sizeof *h || h->m > (len - sizeof *h) / arc_bytes ||
      len != sizeof *h + (h->n + 1) * sizeof(uint64_t) + h->m * arc_bytes)
    return ds_error_set(err, DS_ERR_FORMAT, "%s: the cache file has the wrong length for %llu "
                        "vertices and %llu arcs", path, (unsigned long long)h->n,
                        (unsigned long long)h->m);
  return DS_OK;
}

/* The header: ours, current (magic and version first: they lead every
 * version's header), then intact. */
static ds_status read_header(const char *path, cache_src *src, cache_header *hp, ds_error *err) {
  cache_header h;
  const size_t lead = offsetof(cache_header, header_bytes);
  if (!src_read(src, &h, lead))
    return ds_error_set(err, DS_ERR_FORMAT, "%s: too short for a cache header", path);
  if (memcmp(h.magic, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) != 0)
    return ds_error_set(err, DS_ERR_FORMAT, "%s: not a deltasplit cache, or its header is corrupt",
                        path);
  if (h.version != CACHE_VERSION)
    return ds_error_set(err, DS_ERR_STALE, "%s: cache version %u, expected %u", path, h.version,
                        CACHE_VERSION);
  if (!src_read(src, (char *)&h + lead, sizeof h - lead))
    return ds_error_set(err, DS_ERR_FORMAT, "%s: too short for a cache header", path);
  if (h.header_checksum != header_checksum(&h) || h.header_bytes != sizeof h)
    return ds_error_set(err, DS_ERR_FORMAT, "%s: not a deltasplit cache, or its header is corrupt",
                        path);
  *hp = h;
  return DS_OK;
}

/* Reads and checks a cache. input == NULL: no staleness checks (a cache
 * named as the input). */
static ds_status cache_decode(const char *path, cache_src *src, const ds_load_options *opt,
                              const ds_input_stamp *input, ds_graph *g, ds_error *err) {
  cache_header h;
  memset(g, 0, sizeof *g);
  // 1. the header
  ds_status st = read_header(path, src, &h, err);
  if (st != DS_OK) return st;
  if (input != NULL) {
    int generated = (h.flags & FLAG_GENERATED) != 0;
    const ds_input_stamp was = {h.input_size,   h.input_mtime_s, h.input_mtime_ns, h.input_inode,
                                h.input_device, h.input_hash,    h.input_ctime_s,  h.input_ctime_ns};
    if (!ds_input_stamp_equal(&was, input) ||
        ((h.flags & FLAG_UNDIRECTED_OPT) != 0) != (opt->undirected != 0) ||
        (generated && (h.weight_min != opt->weight_min || h.weight_max != opt->weight_max ||
                       h.weight_dist != (uint32_t)opt->weight_dist ||
                       h.weight_seed != opt->seed)))
      return ds_error_set(err, DS_ERR_STALE, "%s: the cache is of another version of the input "
                          "or other load options", path);
  }
  if ((st = check_header(path, &h, src->len, err)) != DS_OK) return st;
  // 2. payload: read, checksum
  g->row_offsets = ds_alloc_big(((size_t)h.n + 1) * sizeof(uint64_t));
  g->col = ds_alloc_big((h.m ? h.m : 1) * sizeof(uint32_t));
  g->weights = ds_alloc_big((h.m ? h.m : 1) * sizeof(uint32_t));
  if (g->row_offsets == NULL || g->col == NULL || g->weights == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for the cached graph", path);
    goto fail;
  }
  g->n = (uint32_t)h.n;
  g->m = h.m;
  if (!src_read(src, g->row_offsets, ((size_t)h.n + 1) * sizeof(uint64_t)) ||
      !src_read(src, g->col, (size_t)h.m * sizeof(uint32_t)) ||
      !src_read(src, g->weights, (size_t)h.m * sizeof(uint32_t))) {
    st = ds_error_set(err, DS_ERR_IO, "%s: read failed: %s", path, strerror(errno));
    goto fail;
  }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION /* let the fuzzer reach the checks below */
  if (payload_checksum(g) != h.payload_checksum) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s: the cache is corrupt (checksum mismatch)", path);
    goto fail;
  }
#endif
  // 3. description, then the CSR invariants: a checksum only shows that the
  //    bytes are the ones written, not that whoever wrote them made a graph
  g->weight_type = (ds_weight_type)h.weight_type;
  g->symmetric = (h.flags & FLAG_SYMMETRIC) != 0;
  g->weights_generated = (h.flags & FLAG_GENERATED) != 0;
  g->weight_min = h.weight_min;
  g->weight_max = h.weight_max;
  g->weight_dist = (ds_weight_dist)h.weight_dist;
  g->weight_seed = h.weight_seed;
  g->index_base = h.index_base;
  g->format = (ds_format)h.format;
  g->input_entries = h.input_entries;
  memcpy(g->name, h.name, sizeof g->name);
  ds_error why;
  if (ds_csr_check(g, &why) != DS_OK) {
    st = ds_error_set(err, DS_ERR_FORMAT, "%s: the cache does not hold a valid graph: %s", path,
                      why.msg);
    goto fail;
  }
  return DS_OK;
fail:
  ds_graph_free(g);
  return st;
}

/* Opens a cache file: regular files only, and without blocking on a FIFO. */
static ds_status cache_open(const char *path, cache_src *src, ds_error *err) {
  memset(src, 0, sizeof *src);
  struct stat pre;
  if (stat(path, &pre) == 0 && !S_ISREG(pre.st_mode))
    return ds_error_set(err, DS_ERR_IO, "%s: not a regular file, so not a cache", path);
  src->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (src->fd < 0)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  struct stat sb;
  if (fstat(src->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    close(src->fd);
    return ds_error_set(err, DS_ERR_IO, "%s: not a regular file, so not a cache", path);
  }
  src->len = (uint64_t)sb.st_size;
  return DS_OK;
}

static ds_status cache_read_file(const char *path, const ds_load_options *opt,
                                 const ds_input_stamp *input, ds_graph *g, ds_error *err) {
  cache_src src;
  memset(g, 0, sizeof *g);
  ds_status st = cache_open(path, &src, err);
  if (st != DS_OK) return st;
  st = cache_decode(path, &src, opt, input, g, err);
  close(src.fd);
  return st;
}

ds_status ds_cache_read(const char *cache_path, const ds_load_options *opt,
                        const ds_input_stamp *input, ds_graph *g, ds_error *err) {
  ds_load_options defaults;
  if (cache_path == NULL || g == NULL || input == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_read: cache_path, input and g must not be "
                        "NULL");
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  return cache_read_file(cache_path, opt, input, g, err);
}

ds_status ds_cache_read_any(const char *cache_path, ds_graph *g, ds_error *err) {
  return cache_read_file(cache_path, NULL, NULL, g, err);
}

ds_status ds_cache_layout_read(const char *path, ds_cache_layout *lay, ds_error *err) {
  cache_src src;
  cache_header h;
  if (path == NULL || lay == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_cache_layout_read: path and lay must not be NULL");
  memset(lay, 0, sizeof *lay);
  ds_status st = cache_open(path, &src, err);
  if (st != DS_OK) return st;
  st = read_header(path, &src, &h, err);
  close(src.fd);
  if (st == DS_OK) st = check_header(path, &h, src.len, err);
  if (st != DS_OK) return st;
  lay->n = (uint32_t)h.n;
  lay->m = h.m;
  lay->weight_type = (ds_weight_type)h.weight_type;
  lay->symmetric = (h.flags & FLAG_SYMMETRIC) != 0;
  lay->index_base = h.index_base;
  lay->format = (ds_format)h.format;
  lay->input_entries = h.input_entries;
  memcpy(lay->name, h.name, sizeof lay->name);
  lay->file_bytes = src.len;
  lay->offsets_at = sizeof h;
  lay->col_at = lay->offsets_at + (h.n + 1) * sizeof(uint64_t);
  lay->weights_at = lay->col_at + h.m * sizeof(uint32_t);
  return DS_OK;
}

ds_status ds_cache_from_memory(const char *name, const void *bytes, size_t len, ds_graph *g,
                               ds_error *err) {
  cache_src src = {-1, bytes, len, 0};
  return cache_decode(name, &src, NULL, NULL, g, err);
}

void ds_cache_seal(void *image, size_t len) {
  cache_header h;
  if (len < sizeof h) return;
  memcpy(&h, image, sizeof h);
  if (h.m <= (len - sizeof h) / (2 * sizeof(uint32_t)) && h.n <= UINT32_MAX &&
      len == sizeof h + (h.n + 1) * sizeof(uint64_t) + h.m * 2 * sizeof(uint32_t)) {
    ds_graph g;
    memset(&g, 0, sizeof g);
    g.n = (uint32_t)h.n;
    g.m = h.m;
    /* the payload may sit at any alignment in image: checksum copies */
    g.row_offsets = malloc(((size_t)h.n + 1) * sizeof(uint64_t));
    g.col = malloc((h.m ? h.m : 1) * sizeof(uint32_t));
    g.weights = malloc((h.m ? h.m : 1) * sizeof(uint32_t));
    if (g.row_offsets && g.col && g.weights) {
      const char *p = (const char *)image + sizeof h;
      memcpy(g.row_offsets, p, ((size_t)h.n + 1) * sizeof(uint64_t));
      p += ((size_t)h.n + 1) * sizeof(uint64_t);
      memcpy(g.col, p, (size_t)h.m * sizeof(uint32_t));
      p += (size_t)h.m * sizeof(uint32_t);
      memcpy(g.weights, p, (size_t)h.m * sizeof(uint32_t));
      h.payload_checksum = payload_checksum(&g);
    }
    ds_graph_free(&g);
  }
  h.header_checksum = header_checksum(&h);
  memcpy(image, &h, sizeof h);
}
