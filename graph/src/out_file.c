/* ds_out_file: output files that are replaced atomically when they are
 * regular files and written straight through when they are not (out_file.h).
 *
 * A path is one of three kinds:
 *   - new: nothing exists there (a dangling link counts, at its target);
 *   - regular: an existing regular file, found by following every link,
 *     wherever it lives (also under /dev, as /dev/shm);
 *   - through: anything else that exists (FIFO, device, socket), and every
 *     name of an open descriptor: a path that reaches a process's descriptor
 *     table (/dev/stdout, /dev/fd/N, /proc/self/fd/N, as their folders
 *     resolve) on its way. Such a name stands for the file that the
 *     descriptor's owner (a shell's `>> log`) writes, which a rename would
 *     replace under it.
 * New and regular files get a temporary sibling "<target>.tmp.<pid>", created
 * exclusively (never through a link someone placed there) with the old file's
 * mode, and renamed over the target once everything is written. Temporaries
 * of processes that no longer exist (killed runs) are removed first; the
 * cache (cache.c) writes through the same helper.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "ds/out_file.h"
#include "graph_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINK_HOPS 40 /* as the kernel's limit on nested links */
#define MODE_BITS 07777
#define TMP_INFIX ".tmp."
#define PROC_PREFIX "/proc/"
#define TASK_PART "/task/"

typedef enum { OUT_NEW, OUT_REGULAR, OUT_THROUGH } out_kind;

/* The folder part of path ("." when there is none). */
static void folder_of(const char *path, char *out, size_t len) {
  const char *slash = strrchr(path, '/');
  if (slash == NULL) snprintf(out, len, ".");
  else if (slash == path) snprintf(out, len, "/");
  else snprintf(out, len, "%.*s", (int)(slash - path), path);
}

/* Whether the folder of name is a process's descriptor table, /proc/PID/fd
 * or /proc/PID/task/TID/fd, once its own links are resolved: /dev/fd and
 * /proc/self/fd are such folders, and /dev/stdout links into one. */
static int in_descriptor_table(const char *name) {
  char dir[DS_OUT_PATH_MAX], real[PATH_MAX];
  folder_of(name, dir, sizeof dir);
  const char *d = realpath(dir, real) != NULL ? real : dir;
  if (strncmp(d, PROC_PREFIX, strlen(PROC_PREFIX)) != 0) return 0;
  d = strchr(d + strlen(PROC_PREFIX), '/'); /* past PID */
  if (d != NULL && strncmp(d, TASK_PART, strlen(TASK_PART)) == 0)
    d = strchr(d + strlen(TASK_PART), '/'); /* past TID */
  return d != NULL && strcmp(d, "/fd") == 0;
}

/* Follows links from path, also dangling ones, to the name that a write
 * would create. *descriptor (NULL: not wanted) tells whether a name on the
 * way is an open descriptor's (in_descriptor_table). */
static ds_status follow_links(const char *name, const char *path, char *out, int *descriptor,
                              ds_error *err) {
  if (snprintf(out, DS_OUT_PATH_MAX, "%s", path) >= DS_OUT_PATH_MAX)
    return ds_error_set(err, DS_ERR_IO, "%s: the path is too long", name);
  if (descriptor != NULL) *descriptor = 0;
  for (int hop = 0;; hop++) {
    struct stat sb;
    if (descriptor != NULL && in_descriptor_table(out)) *descriptor = 1;
    if (lstat(out, &sb) != 0 || !S_ISLNK(sb.st_mode)) return DS_OK;
    if (hop == MAX_LINK_HOPS)
      return ds_error_set(err, DS_ERR_IO, "%s: too many levels of symbolic links", name);
    char link[DS_OUT_PATH_MAX];
    ssize_t k = readlink(out, link, sizeof link - 1);
    if (k < 0) return ds_error_set(err, DS_ERR_IO, "%s: %s", name, strerror(errno));
    link[k] = '\0';
    char dir[DS_OUT_PATH_MAX];
    folder_of(out, dir, sizeof dir);
    int n = link[0] == '/' ? snprintf(out, DS_OUT_PATH_MAX, "%s", link)
                           : snprintf(out, DS_OUT_PATH_MAX, "%s/%s", dir, link);
    if (n >= DS_OUT_PATH_MAX)
      return ds_error_set(err, DS_ERR_IO, "%s: the link's target path is too long", name);
  }
}

/* Names the kind of path and the file a rename would replace. */
static ds_status classify(const char *path, out_kind *kind, char *target, struct stat *sb,
                          ds_error *err) {
  if (path == NULL || path[0] == '\0')
    return ds_error_set(err, DS_ERR_ARG, "an output file name is empty");
  if (stat(path, sb) == 0) {
    if (S_ISDIR(sb->st_mode))
      return ds_error_set(err, DS_ERR_IO, "%s: is a directory, not a file", path);
    int descriptor = 0;
    ds_status st = follow_links(path, path, target, &descriptor, err);
    if (st != DS_OK) return st;
    if (!S_ISREG(sb->st_mode) || descriptor) {
      *kind = OUT_THROUGH;
      return DS_OK;
    }
    *kind = OUT_REGULAR;
    if (realpath(path, target) == NULL)
      return ds_error_set(err, DS_ERR_IO, "%s: %s", path, strerror(errno));
    return DS_OK;
  }
  if (errno != ENOENT) return ds_error_set(err, DS_ERR_IO, "%s: %s", path, strerror(errno));
  *kind = OUT_NEW;
  return follow_links(path, path, target, NULL, err);
}

/* The folder of a new or regular target must exist and take new files. */
static ds_status check_folder(const char *name, const char *target, ds_error *err) {
  char dir[DS_OUT_PATH_MAX];
  struct stat sb;
  folder_of(target, dir, sizeof dir);
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return ds_error_set(err, DS_ERR_IO, "%s: cannot write: the folder %s does not exist", name,
                        dir);
  if (access(dir, W_OK | X_OK) != 0)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot write: the folder %s is not writable (%s)",
                        name, dir, strerror(errno));
  return DS_OK;
}

/* Removes "<target>.tmp.<pid>" files whose process no longer exists: what
 * a killed writer left behind. A live process's file is kept (it may still be
 * writing), and so is one we may not signal (another user's); a pid reused
 * since only delays the cleanup. */
static void remove_stale_temporaries(const char *target) {
  char folder[DS_OUT_PATH_MAX];
  folder_of(target, folder, sizeof folder);
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  const size_t base_len = strlen(base), infix_len = strlen(TMP_INFIX);
  DIR *d = opendir(folder);
  if (d == NULL) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    const char *nm = e->d_name;
    if (strncmp(nm, base, base_len) != 0 || strncmp(nm + base_len, TMP_INFIX, infix_len) != 0)
      continue;
    const char *digits = nm + base_len + infix_len;
    char *end;
    errno = 0;
    long pid = strtol(digits, &end, 10);
    if (*digits == '\0' || *end != '\0' || errno != 0 || pid <= 0 || pid == (long)getpid())
      continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive, or not ours to judge */
    char path[DS_OUT_PATH_MAX + 256];
    if (snprintf(path, sizeof path, "%s/%s", folder, nm) < (int)sizeof path) unlink(path);
  }
  closedir(d);
}

int ds_tmp_sibling_open(const char *target, char *tmp, size_t tmp_len, mode_t mode) {
  int k = snprintf(tmp, tmp_len, "%s%s%ld", target, TMP_INFIX, (long)getpid());
  if (k < 0 || (size_t)k >= tmp_len) {
    if (tmp_len > 0) tmp[0] = '\0';
    errno = ENAMETOOLONG;
    return -1;
  }
  remove_stale_temporaries(target);
  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open(tmp, flags, mode);
  if (fd < 0 && errno == EEXIST && unlink(tmp) == 0) /* our pid's: left by a dead process */
    fd = open(tmp, flags, mode);
  return fd;
}

ds_status ds_out_check(const char *path, ds_error *err) {
  out_kind kind;
  char target[DS_OUT_PATH_MAX];
  struct stat sb;
  ds_status st = classify(path, &kind, target, &sb, err);
  if (st != DS_OK) return st;
  if (kind != OUT_NEW && access(path, W_OK) != 0)
    return ds_error_set(err, DS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
  return kind == OUT_THROUGH ? DS_OK : check_folder(path, target, err);
}

ds_status ds_out_open(const char *path, ds_out_file *out, ds_error *err) {
  out_kind kind;
  struct stat sb;
  memset(out, 0, sizeof *out);
  out->name = path;
  ds_status st = ds_out_check(path, err);
  if (st == DS_OK) st = classify(path, &kind, out->target, &sb, err);
  if (st != DS_OK) return st;
  if (kind == OUT_THROUGH) {
    /* no truncation: a device or pipe has nothing to truncate, and a regular
     * file behind /dev/stdout belongs to the shell, which may append to it */
    int fd = open(path, O_WRONLY | (S_ISREG(sb.st_mode) ? O_APPEND : 0));
    out->stream = fd < 0 ? NULL : fdopen(fd, "w");
    if (out->stream == NULL) {
      st = ds_error_set(err, DS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
      if (fd >= 0) close(fd);
    }
    return st;
  }
  int fd = ds_tmp_sibling_open(out->target, out->tmp, sizeof out->tmp, 0666);
  if (fd < 0) {
    st = errno == ENAMETOOLONG && out->tmp[0] == '\0'
             ? ds_error_set(err, DS_ERR_IO, "%s: the path is too long", path)
             : ds_error_set(err, DS_ERR_IO, "%s: cannot create %s: %s", path, out->tmp,
                            strerror(errno));
    out->tmp[0] = '\0';
    return st;
  }
  if (kind == OUT_REGULAR) (void)fchmod(fd, sb.st_mode & MODE_BITS); /* keep the file's mode */
  out->stream = fdopen(fd, "w");
  if (out->stream == NULL) {
    st = ds_error_set(err, DS_ERR_IO, "%s: %s", path, strerror(errno));
    close(fd);
    ds_out_abort(out);
  }
  return st;
}

ds_status ds_out_close(ds_out_file *out, ds_error *err) {
  if (out->stream == NULL) return ds_error_set(err, DS_ERR_ARG, "ds_out_close: not open");
  int failed = 0;
  errno = 0;
  if (fflush(out->stream) != 0 || ferror(out->stream)) failed = errno ? errno : EIO;
  if (fclose(out->stream) != 0 && failed == 0) failed = errno ? errno : EIO;
  out->stream = NULL;
  /* the rename replaces only a regular file, whatever happened since the
   * open (a FIFO or device put there, a link resolved wrongly) */
  struct stat sb;
  if (failed == 0 && out->tmp[0] != '\0' && stat(out->target, &sb) == 0 &&
      !S_ISREG(sb.st_mode)) {
    ds_out_abort(out);
    return ds_error_set(err, DS_ERR_IO, "%s: %s is not a regular file any more: not replaced",
                        out->name, out->target);
  }
  if (failed == 0 && out->tmp[0] != '\0' && rename(out->tmp, out->target) != 0) failed = errno;
  if (failed != 0) {
    ds_out_abort(out);
    return ds_error_set(err, DS_ERR_IO, "%s: writing failed: %s", out->name, strerror(failed));
  }
  out->tmp[0] = '\0';
  return DS_OK;
}

void ds_out_abort(ds_out_file *out) {
  if (out->stream != NULL) fclose(out->stream);
  out->stream = NULL;
  if (out->tmp[0] != '\0') unlink(out->tmp);
  out->tmp[0] = '\0';
}

/* A path with its links followed and its folder made absolute, for names of
 * files that do not exist yet. */
static void resolved_name(const char *path, char *out) {
  char target[DS_OUT_PATH_MAX], dir[DS_OUT_PATH_MAX], abs[PATH_MAX];
  if (follow_links(path, path, target, NULL, NULL) != DS_OK) {
    snprintf(out, DS_OUT_PATH_MAX, "%s", path);
    return;
  }
  folder_of(target, dir, sizeof dir);
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  if (realpath(dir, abs) == NULL ||
      snprintf(out, DS_OUT_PATH_MAX, "%s/%s", strcmp(abs, "/") == 0 ? "" : abs, base) >=
          DS_OUT_PATH_MAX)
    snprintf(out, DS_OUT_PATH_MAX, "%s", target);
}

int ds_out_written_through(const char *path) {
  out_kind kind;
  char target[DS_OUT_PATH_MAX];
  struct stat sb;
  return classify(path, &kind, target, &sb, NULL) == DS_OK && kind == OUT_THROUGH;
}

int ds_out_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  if (ds_out_written_through(a) || ds_out_written_through(b)) return 0;
  int a_exists = stat(a, &sa) == 0, b_exists = stat(b, &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists || b_exists) return 0;
  char ra[DS_OUT_PATH_MAX], rb[DS_OUT_PATH_MAX];
  resolved_name(a, ra);
  resolved_name(b, rb);
  return strcmp(ra, rb) == 0;
}
