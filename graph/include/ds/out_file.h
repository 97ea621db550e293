/* Writing an output file without clobbering what its path names.
 *
 * A regular file (or a path that does not exist yet) is written under a
 * temporary name in the same folder and renamed over the path when complete,
 * so a reader never sees half a file and a failed write leaves the old file;
 * a symbolic link is followed, so the rename happens at the link's target and
 * the link stays a link. This holds wherever the file lives, /dev/shm too.
 * Anything else (a FIFO, /dev/null, a terminal, /dev/full) is written
 * straight through: renaming over it would replace the device or pipe with a
 * plain file. So is a name of an open descriptor (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, or a link to one), even where the descriptor is a regular
 * file: that file is its owner's (a shell's `>> log`), appended to, never
 * replaced. Temporaries that killed runs left beside the target
 * ("<target>.tmp.<pid>" of a process that no longer exists) are removed by
 * the next open. Every write error, such as ENOSPC, is reported by
 * ds_out_close.
 *
 * C11 + POSIX. Functions return a ds_status with a message that names the
 * path as the caller gave it; nothing prints or exits.
 *
 * Example:
 *   ds_out_file out; ds_error err;
 *   if (ds_out_open("report.json", &out, &err) != DS_OK) return fail(err.msg);
 *   fputs(text, out.stream);
 *   if (ds_out_close(&out, &err) != DS_OK) return fail(err.msg);
 */
#ifndef DS_OUT_FILE_H
#define DS_OUT_FILE_H

#include <stdio.h>

#include "ds/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DS_OUT_PATH_MAX 4096

typedef struct {
  FILE *stream;               /* write the content here */
  const char *name;           /* the path as given, for messages (not owned) */
  char target[DS_OUT_PATH_MAX]; /* the file written: the path, or its link's target */
  char tmp[DS_OUT_PATH_MAX];  /* temporary name renamed over target; "" when writing through */
} ds_out_file;

/* Opens path for writing as described above. On failure out->stream is NULL.
 * Errors: DS_ERR_IO (a directory, a missing or unwritable folder, an
 * unwritable file, too many links), DS_ERR_ARG (NULL or empty path). */
ds_status ds_out_open(const char *path, ds_out_file *out, ds_error *err);

/* Flushes and closes; for a regular file renames the temporary file over the
 * target, or removes it when anything failed. DS_ERR_IO names the error
 * ("No space left on device"). Always releases out. */
ds_status ds_out_close(ds_out_file *out, ds_error *err);

/* Closes and removes the temporary file without touching the target. */
void ds_out_abort(ds_out_file *out);

/* Whether ds_out_open would succeed, without creating, truncating or opening
 * anything: the folder exists and is writable, an existing file is writable,
 * the path is not a directory. Errors as ds_out_open. */
ds_status ds_out_check(const char *path, ds_error *err);

/* 1 when ds_out_open would write path straight through (a FIFO, a device,
 * a name of an open descriptor: nothing there is replaced), 0 when it would
 * replace or create a regular file, or path cannot be written at all. */
int ds_out_written_through(const char *path);

/* 1 when a and b name the same file that a write would replace: the same
 * device and inode when both exist, else the same path once links and the
 * folder are resolved. 0 when either is written through
 * (ds_out_written_through): two outputs to /dev/null or /dev/stdout do not
 * clobber each other. */
int ds_out_same_file(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif /* DS_OUT_FILE_H */
