/* ds_graph_load_info: a file to a CSR graph, through the binary cache.
 *
 *   1. check the input (missing file, directory) and stamp it (input_stamp.c:
 *      size, mtime in ns, inode, device, content hash); a pipe or device has
 *      no stamp and is never cached;
 *   2. when the cache is on and its stamp, parameters, checksums and CSR
 *      invariants all hold, return it (a corrupt or invalid one is noted and
 *      rebuilt, a stale one silently);
 *   3. otherwise read the whole text (file_read.c; each chunk is checked as it
 *      arrives, text_check.c, so a stream that cannot be a graph stops at
 *      its first chunk), name its format
 *      (format_detect.c), run that reader, build the CSR (csr_build.c); a
 *      cache named as the input is decoded instead;
 *   4. stamp the input again and write the cache when the input did not
 *      change meanwhile (a failure, such as a read-only folder, only means
 *      the next load parses again).
 * ds_load_info says which of these happened.
 */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FOLDER_MODE 0777 /* less the umask */

ds_status ds_parse_text(const char *file, ds_text *t, ds_format fmt,
                        const ds_load_options *opt, const ds_read_limits *lim,
                        ds_progress *prog, ds_graph *g, ds_error *err) {
  ds_edges e;
  ds_read_info info;
  ds_status st = DS_OK;
  memset(&e, 0, sizeof e);
  memset(&info, 0, sizeof info);
  // 1. the format: forced, or from content then name
  st = ds_reader_format(file, t, fmt, &fmt, &info.fields, err);
  if (st != DS_OK) {
    ds_text_free(t);
    return st;
  }
  if (fmt == DS_FORMAT_CACHE) { /* a cache that came as bytes (a pipe, the fuzzer) */
    st = ds_cache_from_memory(file, t->data, t->len - (size_t)t->newline_added, g, err);
    ds_text_free(t);
    return st;
  }
  ds_reader_fn read = ds_reader_of(fmt);
  if (read == NULL) {
    ds_text_free(t);
    return ds_error_set(err, DS_ERR_ARG, "%s: cannot parse format '%s' as text", file,
                        ds_format_name(fmt));
  }
  // 2. text -> edges -> CSR, each step's memory checked before it is taken (a text
  //    checked as it arrived has no NUL byte; one that began as a cache is checked here)
  if (!t->nul_free) st = ds_text_nul_check(file, t->data, 0, t->len, err);
  if (st == DS_OK) st = read(file, t, lim, prog, &e, &info, err);
  ds_text_free(t);
  if (st == DS_OK) {
    const int both = info.symmetric || opt->undirected;
    const ds_load_size need = {info.n, e.count, both, e.weighted, 0};
    st = ds_check_load_memory(file, 0, &need, lim->max_memory, err);
  }
  if (st == DS_OK) {
    ds_edge_list el = {info.n, e.count, e.src, e.dst, e.weight_type, e.weighted ? e.w : NULL};
    ds_progress_update(prog, "build CSR", 0.0);
    const int both = info.symmetric || opt->undirected;
    st = opt->csr_build != NULL ? opt->csr_build(opt->csr_build_ctx, &el, both, opt, g, err)
                                : ds_csr_build_progress(&el, both, opt, prog, g, err);
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
    fmt = info.fields == DS_WEL_FIELDS ? DS_FORMAT_WEL : DS_FORMAT_EL;
  g->format = fmt;
  g->index_base = info.index_base;
  g->input_entries = info.entries;
  ds_graph_name_of(file, g->name, sizeof g->name);
  return DS_OK;
}

static void note(ds_load_info *info, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(ds_load_info *info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(info->note, sizeof info->note, fmt, ap);
  va_end(ap);
}

/* mkdir -p: the folder and its missing parents. */
static int make_folders(const char *dir) {
  char p[PATH_MAX];
  if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *c = p + 1; *c; c++) {
    if (*c != '/') continue;
    *c = '\0';
    if (mkdir(p, FOLDER_MODE) != 0 && errno != EEXIST) return -1;
    *c = '/';
  }
  if (mkdir(p, FOLDER_MODE) != 0 && errno != EEXIST) return -1;
  struct stat sb;
  if (stat(p, &sb) != 0) return -1;
  if (!S_ISDIR(sb.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

/* Is the input a cache? Its first bytes say, read without consuming a pipe. */
static int starts_as_cache(const char *path) {
  char magic[DS_CACHE_MAGIC_LEN];
  struct stat pre; /* a pipe is opened once only, by the text reader */
  if (stat(path, &pre) != 0 || !S_ISREG(pre.st_mode)) return 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat sb;
  int yes = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
            pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
            memcmp(magic, DS_CACHE_MAGIC, DS_CACHE_MAGIC_LEN) == 0;
  close(fd);
  return yes;
}

/* Step 2: where the cache is, and whether it serves the graph. Returns 1 on
 * a hit; 0 with info->cache MISS (read the text, then write the cache) or
 * OFF (read the text only). */
static int try_cache(const char *path, const ds_load_options *opt, ds_input_stamp *stamp,
                     ds_graph *g, ds_load_info *info) {
  ds_error why;
  info->cache = DS_CACHE_OFF;
  if (!opt->use_cache || opt->format == DS_FORMAT_CACHE || starts_as_cache(path)) return 0;
  ds_status st = ds_input_stamp_of(path, stamp, &why);
  if (st != DS_OK) {
    if (st != DS_ERR_IO) note(info, "%s: the cache is off", why.msg); /* unreadable: said later */
    return 0;
  }
  if (opt->cache_dir != NULL && opt->cache_dir[0] != '\0' && make_folders(opt->cache_dir) != 0) {
    note(info, "%s: cannot be the cache folder (%s): the cache is off", opt->cache_dir,
         strerror(errno));
    return 0;
  }
  if (ds_cache_path(path, opt, info->cache_path, sizeof info->cache_path, &why) != DS_OK) {
    note(info, "%s: the cache is off", why.msg);
    info->cache_path[0] = '\0';
    return 0;
  }
  info->cache = DS_CACHE_MISS;
  st = ds_cache_read(info->cache_path, opt, stamp, g, &why);
  if (st == DS_OK) {
    info->cache = DS_CACHE_HIT;
    return 1;
  }
  struct stat sb;
  if (st == DS_ERR_FORMAT) {
    note(info, "%s: rebuilt from the text", why.msg);
  } else if (st == DS_ERR_IO && lstat(info->cache_path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    note(info, "%s: not a regular file, left alone: the cache is off", info->cache_path);
    info->cache = DS_CACHE_OFF;
  }
  return 0;
}

ds_status ds_graph_load_info(const char *path, const ds_load_options *opt, ds_graph *g,
                             ds_load_info *info, ds_error *err) {
  ds_load_options defaults;
  ds_load_info own;
  ds_text text;
  ds_progress prog;
  ds_input_stamp stamp;
  ds_status st = DS_OK;
  if (info == NULL) info = &own;
  memset(info, 0, sizeof *info);
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
  // 2. the cache
  if (try_cache(path, opt, &stamp, g, info)) return DS_OK;
  // 3. parse
  char label[sizeof g->name];
  ds_graph_name_of(path, label, sizeof label);
  ds_progress_begin(&prog, opt->progress, label);
  if (opt->format == DS_FORMAT_CACHE || starts_as_cache(path)) {
    st = ds_cache_read_any(path, g, err); /* from the file: no text copy beside the graph */
    goto done;
  }
  const ds_read_limits lim = {UINT32_MAX, opt->max_memory, opt->undirected != 0, opt->format};
  st = ds_text_read_file(path, &text, &lim, &prog, err);
  if (st != DS_OK) goto done;
  ds_format fmt = opt->format; /* AUTO lets ds_parse_text apply the name rules of edge lists */
  st = ds_parse_text(path, &text, fmt, opt, &lim, &prog, g, err); /* frees the text */
  // 4. the cache for next time (best effort), unless the input changed while it was read
  if (st == DS_OK && info->cache == DS_CACHE_MISS) {
    ds_input_stamp after;
    ds_error why;
    ds_progress_update(&prog, "cache", 1.0);
    if (ds_input_stamp_of(path, &after, NULL) != DS_OK || !ds_input_stamp_equal(&stamp, &after))
      note(info, "%s: the file changed while it was read: no cache written", path);
    else if (ds_cache_write(info->cache_path, g, opt, &stamp, &why) == DS_OK)
      info->cache_written = 1;
    else if (lstat(info->cache_path, &sb) == 0 && !S_ISREG(sb.st_mode))
      note(info, "%s", why.msg); /* a FIFO or folder in the cache's place: say so */
  }
done:
  ds_text_free(&text);
  ds_progress_end(&prog, st == DS_OK);
  if (st != DS_OK) ds_graph_free(g);
  return st;
}

ds_status ds_graph_load(const char *path, const ds_load_options *opt, ds_graph *g,
                        ds_error *err) {
  return ds_graph_load_info(path, opt, g, NULL, err);
}
