/* ds_graph_load: a file to a CSR graph, through the binary cache.
 *
 *   1. check the input (missing file, directory) and its size and mtime;
 *   2. when the cache is on and matches (cache.c checks magic, version, load
 *      parameters, input size and mtime, checksum), return it;
 *   3. otherwise read the whole text (file_read.c), name its format
 *      (format_detect.c), run that reader, build the CSR (csr_build.c);
 *   4. write the cache (a failure, such as a read-only folder, only means
 *      the next load parses again).
 */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#define EXT_LEN 16
#define CACHE_PATH_MAX 4096
#define FIELDS_EL 2
#define FIELDS_WEL 3

static ds_reader_fn reader_of(ds_format f) {
  switch (f) {
  case DS_FORMAT_MTX: return ds_read_mtx;
  case DS_FORMAT_DIMACS: return ds_read_dimacs;
  case DS_FORMAT_EL:
  case DS_FORMAT_WEL: return ds_read_el;
  default: return NULL;
  }
}

ds_status ds_parse_text(const char *file, ds_text *t, ds_format fmt,
                        const ds_load_options *opt, const ds_read_limits *lim,
                        ds_progress *prog, ds_graph *g, ds_error *err) {
  ds_edges e;
  ds_read_info info;
  ds_status st = DS_OK;
  memset(&e, 0, sizeof e);
  memset(&info, 0, sizeof info);
  // 1. the format: forced, or from content then name
  if (fmt == DS_FORMAT_AUTO) {
    st = ds_detect_format(file, t, &fmt, err);
    if (st != DS_OK) {
      ds_text_free(t);
      return st;
    }
    char ext[EXT_LEN];
    ds_extension_of(file, ext, sizeof ext);
    if (fmt == DS_FORMAT_EL || fmt == DS_FORMAT_WEL) /* the name asks, else the reader counts */
      info.fields = strcmp(ext, "wel") == 0 ? FIELDS_WEL : strcmp(ext, "el") == 0 ? FIELDS_EL : 0;
  } else if (fmt == DS_FORMAT_EL || fmt == DS_FORMAT_WEL) {
    info.fields = fmt == DS_FORMAT_WEL ? FIELDS_WEL : FIELDS_EL;
  }
  ds_reader_fn read = reader_of(fmt);
  if (read == NULL) {
    ds_text_free(t);
    return ds_error_set(err, DS_ERR_ARG, "%s: cannot parse format '%s' as text", file,
                        ds_format_name(fmt));
  }
  // 2. text -> edges -> CSR
  st = read(file, t, lim, prog, &e, &info, err);
  ds_text_free(t);
  if (st == DS_OK) {
    ds_edge_list el = {info.n, e.count, e.src, e.dst, e.weight_type, e.weighted ? e.w : NULL};
    ds_progress_update(prog, "build CSR", 0.0);
    st = ds_csr_build_progress(&el, info.symmetric || opt->undirected, opt, prog, g, err);
    if (st != DS_OK && err != NULL) { /* name the file */
      char msg[DS_ERROR_MSG_LEN];
      memcpy(msg, err->msg, sizeof msg);
      ds_error_set(err, st, "%s: %s", file, msg);
    }
  }
  ds_edges_free(&e);
  if (st != DS_OK) return st;
  // 3. describe
  if (fmt == DS_FORMAT_EL || fmt == DS_FORMAT_WEL)
    fmt = info.fields == FIELDS_WEL ? DS_FORMAT_WEL : DS_FORMAT_EL;
  g->format = fmt;
  g->index_base = info.index_base;
  g->input_entries = info.entries;
  ds_graph_name_of(file, g->name, sizeof g->name);
  return DS_OK;
}

ds_status ds_graph_load(const char *path, const ds_load_options *opt, ds_graph *g,
                        ds_error *err) {
  ds_load_options defaults;
  ds_text text;
  ds_progress prog;
  char cache_path[CACHE_PATH_MAX];
  int cache_ok = 0;
  ds_status st = DS_OK;
  if (g != NULL) memset(g, 0, sizeof *g);
  if (path == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_graph_load: path and g must not be NULL");
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  memset(&text, 0, sizeof text);
  // 1. the input itself
  struct stat sb;
  if (stat(path, &sb) != 0)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  if (S_ISDIR(sb.st_mode))
    return ds_error_set(err, DS_ERR_IO, "%s: is a directory, not a graph file", path);
  const uint64_t in_size = (uint64_t)sb.st_size;
  const int64_t in_mtime = (int64_t)sb.st_mtime;
  // 2. the cache
  if (opt->use_cache && opt->format != DS_FORMAT_CACHE &&
      ds_cache_path(path, opt, cache_path, sizeof cache_path, NULL) == DS_OK) {
    cache_ok = 1;
    if (ds_cache_read(cache_path, opt, in_size, in_mtime, g, NULL) == DS_OK) return DS_OK;
  }
  // 3. parse
  char label[sizeof g->name];
  ds_graph_name_of(path, label, sizeof label);
  ds_progress_begin(&prog, opt->progress, label);
  if (opt->format == DS_FORMAT_CACHE) {
    st = ds_cache_read_any(path, g, err);
    goto done;
  }
  st = ds_text_read_file(path, &text, &prog, err);
  if (st != DS_OK) goto done;
  ds_format fmt = opt->format;
  if (fmt == DS_FORMAT_AUTO) {
    st = ds_detect_format(path, &text, &fmt, err);
    if (st != DS_OK) goto done;
    if (fmt == DS_FORMAT_CACHE) { /* a cache file named directly */
      ds_text_free(&text);
      st = ds_cache_read_any(path, g, err);
      goto done;
    }
    fmt = DS_FORMAT_AUTO; /* let ds_parse_text apply the name rules for edge lists */
  }
  const ds_read_limits lim = {UINT32_MAX};
  st = ds_parse_text(path, &text, fmt, opt, &lim, &prog, g, err); /* frees the text */
  // 4. the cache for next time (best effort)
  if (st == DS_OK && cache_ok) {
    ds_progress_update(&prog, "cache", 1.0);
    (void)ds_cache_write(cache_path, g, opt, in_size, in_mtime, NULL);
  }
done:
  ds_text_free(&text);
  ds_progress_end(&prog);
  if (st != DS_OK) ds_graph_free(g);
  return st;
}
