/* The stamp of a graph's input file, which a cache must match to be fresh
 * (graph.h: ds_input_stamp): size, mtime to the nanosecond, inode, device, a
 * content hash, and the inode change time to the nanosecond, which catches
 * what the others miss: an edit in the middle of a large file (not hashed)
 * whose mtime was put back (touch -r, rsync --inplace -t). Only regular files
 * are stamped: a pipe, a device or a name of an open descriptor is read once
 * and never cached.
 */
#define _XOPEN_SOURCE 700
#include "graph_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALIAS_HOPS_MAX 16 /* symbolic links followed when looking for /dev, /proc */

/* Reads up to len bytes at offset; returns the count (short at the end of the file). */
static size_t read_at(int fd, void *buf, size_t len, uint64_t offset) {
  size_t got = 0;
  while (got < len) {
    ssize_t k = pread(fd, (char *)buf + got, len - got, (off_t)(offset + got));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  return got;
}

/* Does path name an open descriptor (/dev/stdin, /dev/fd/N, /proc/self/fd/N),
 * directly or through symbolic links? Such a name can stand for a regular
 * file read from the middle, or for a different file on every run. */
static int is_descriptor_alias(const char *path) {
  char cur[PATH_MAX], next[PATH_MAX];
  snprintf(cur, sizeof cur, "%s", path);
  for (int hop = 0; hop < ALIAS_HOPS_MAX; hop++) {
    if (strncmp(cur, "/dev/", 5) == 0 || strncmp(cur, "/proc/", 6) == 0) return 1;
    ssize_t k = readlink(cur, next, sizeof next - 1);
    if (k < 0) return 0; /* not a link: the end of the chain */
    next[k] = '\0';
    if (next[0] == '/') {
      memcpy(cur, next, (size_t)k + 1);
    } else { /* relative to the link's folder */
      char *slash = strrchr(cur, '/');
      size_t keep = slash ? (size_t)(slash - cur) + 1 : 0;
      if (keep + (size_t)k + 1 > sizeof cur) return 0;
      memcpy(cur + keep, next, (size_t)k + 1);
    }
  }
  return 0;
}

ds_status ds_input_stamp_of(const char *path, ds_input_stamp *s, ds_error *err) {
  if (path == NULL || s == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_input_stamp_of: path and s must not be NULL");
  memset(s, 0, sizeof *s);
  if (is_descriptor_alias(path))
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: names an open stream, not a file: it is "
                        "never cached", path);
  /* a pipe is never opened here: its writer would take our open for the
     reader's and lose its data when we close; the open is non-blocking in
     case the file changed type since */
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: not a regular file (a pipe, device or "
                        "folder): it is never cached", path);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return ds_error_set(err, DS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  ds_status st = DS_OK;
  unsigned char *buf = NULL;
  if (fstat(fd, &sb) != 0) {
    st = ds_error_set(err, DS_ERR_IO, "%s: cannot stat: %s", path, strerror(errno));
    goto done;
  }
  if (!S_ISREG(sb.st_mode)) {
    st = ds_error_set(err, DS_ERR_UNSUPPORTED, "%s: not a regular file (a pipe, device or "
                      "folder): it is never cached", path);
    goto done;
  }
  s->size = (uint64_t)sb.st_size;
  s->mtime_s = (int64_t)sb.st_mtim.tv_sec;
  s->mtime_ns = (int64_t)sb.st_mtim.tv_nsec;
  s->inode = (uint64_t)sb.st_ino;
  s->device = (uint64_t)sb.st_dev;
  s->ctime_s = (int64_t)sb.st_ctim.tv_sec;
  s->ctime_ns = (int64_t)sb.st_ctim.tv_nsec;
  // the content: whole when small, else the first and the last part
  buf = malloc(DS_STAMP_PART_BYTES);
  if (buf == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "%s: out of memory for the input's hash", path);
    goto done;
  }
  uint64_t h = s->size;
  if (s->size <= DS_STAMP_WHOLE_MAX) {
    for (uint64_t at = 0; at < s->size; at += DS_STAMP_PART_BYTES) {
      size_t got = read_at(fd, buf, DS_STAMP_PART_BYTES, at);
      h = ds_checksum64(buf, got, h);
      if (got < DS_STAMP_PART_BYTES) break;
    }
  } else {
    h = ds_checksum64(buf, read_at(fd, buf, DS_STAMP_PART_BYTES, 0), h);
    h = ds_checksum64(buf, read_at(fd, buf, DS_STAMP_PART_BYTES, s->size - DS_STAMP_PART_BYTES),
                      h);
  }
  s->content_hash = h;
done:
  free(buf);
  close(fd);
  return st;
}

int ds_input_stamp_equal(const ds_input_stamp *a, const ds_input_stamp *b) {
  return a->size == b->size && a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
         a->inode == b->inode && a->device == b->device && a->content_hash == b->content_hash &&
         a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns;
}
