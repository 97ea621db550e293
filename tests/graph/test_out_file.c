/* Tests of ds_out_file (graph/src/out_file.c): what each kind of path becomes
 * after a write (regular files under /dev too, names of open descriptors),
 * what ds_out_check refuses without creating anything, which temporaries of
 * killed writers an open removes, and which paths ds_out_same_file calls one
 * file. */
#include "graph_test_util.h"

#include "ds/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PATH_LEN 4200

#define DIR_LEN 512 /* the scratch folder's name: TMPDIR plus a few characters */
#define SHM_TEMPLATE "/dev/shm/ds_out_file_XXXXXX"

static char dir[DIR_LEN];

static const char *at(char *buf, const char *name) {
  if (snprintf(buf, PATH_LEN, "%s/%s", dir, name) >= PATH_LEN) buf[0] = '\0';
  return buf;
}

static void slurp(const char *path, char *out, size_t len) {
  out[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (f == NULL) return;
  size_t k = fread(out, 1, len - 1, f);
  out[k] = '\0';
  fclose(f);
}

/* Writes text through the helper; the status of open, or of close. */
static ds_status write_text(const char *path, const char *text, ds_error *err) {
  ds_out_file out;
  ds_status st = ds_out_open(path, &out, err);
  if (st != DS_OK) return st;
  fputs(text, out.stream);
  return ds_out_close(&out, err);
}

static void test_writes(void) {
  char p[PATH_LEN], q[PATH_LEN], got[64];
  ds_error err;
  struct stat sb;
  // 1. a new file, then a replacement that keeps the old file's mode
  CHECK(write_text(at(p, "new.txt"), "one", &err) == DS_OK, "new file: %s", err.msg);
  chmod(p, 0600);
  CHECK(write_text(p, "two", &err) == DS_OK, "replace: %s", err.msg);
  slurp(p, got, sizeof got);
  CHECK(strcmp(got, "two") == 0, "replaced content '%s'", got);
  CHECK(stat(p, &sb) == 0 && (sb.st_mode & 0777) == 0600, "mode %o, want 600",
        (unsigned)(sb.st_mode & 0777));
  // 2. a link stays a link; its target (also a dangling one) gets the content
  write_bytes(at(q, "target.txt"), "old", 3);
  symlink("target.txt", at(p, "link.txt"));
  CHECK(write_text(p, "new", &err) == DS_OK, "link: %s", err.msg);
  slurp(q, got, sizeof got);
  CHECK(lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode) && strcmp(got, "new") == 0,
        "link replaced, or target holds '%s'", got);
  symlink("later.txt", at(p, "dangling.txt"));
  CHECK(write_text(p, "x", &err) == DS_OK, "dangling link: %s", err.msg);
  CHECK(lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode) && stat(at(q, "later.txt"), &sb) == 0,
        "dangling link not followed");
  // 3. an abandoned write leaves the old content and no temporary file
  ds_out_file out;
  CHECK(ds_out_open(at(p, "new.txt"), &out, &err) == DS_OK, "open: %s", err.msg);
  fputs("half", out.stream);
  char tmp[sizeof out.tmp];
  memcpy(tmp, out.tmp, sizeof tmp);
  ds_out_abort(&out);
  slurp(p, got, sizeof got);
  CHECK(strcmp(got, "two") == 0 && stat(tmp, &sb) != 0, "abort left '%s' or %s", got, tmp);
  // 4. a regular file's target that became something else meanwhile is not
  // replaced: the rename only ever replaces a regular file
  CHECK(ds_out_open(at(p, "became_fifo"), &out, &err) == DS_OK, "open: %s", err.msg);
  mkfifo(p, 0600);
  CHECK(ds_out_close(&out, &err) == DS_ERR_IO && strstr(err.msg, "not a regular file"),
        "close over a FIFO: '%s'", err.msg);
  CHECK(stat(p, &sb) == 0 && S_ISFIFO(sb.st_mode), "the FIFO was replaced");
  // 5. devices are written through: /dev/null takes anything, /dev/full fails
  // at close. Both are reached through links in the scratch folder, so that a
  // helper which renamed over its target would replace a link, not a device.
  symlink("/dev/null", at(p, "null"));
  CHECK(write_text(p, "x", &err) == DS_OK, "/dev/null: %s", err.msg);
  CHECK(lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode), "the link to /dev/null was replaced");
  symlink("/dev/full", at(p, "full"));
  CHECK(write_text(p, "x", &err) == DS_ERR_IO && strstr(err.msg, "No space left"),
        "/dev/full: '%s'", err.msg);
  CHECK(lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode), "the link to /dev/full was replaced");
}

/* A regular file under /dev is replaced as anywhere else; a name of an open
 * descriptor is written through, also where the descriptor is a regular file
 * (a shell's `>> log`): appended to, never renamed over. */
static void test_descriptors(void) {
  char p[PATH_LEN], name[PATH_LEN], link[PATH_LEN], got[64];
  ds_error err;
  // 1. a regular file in /dev/shm, where it exists
  char shm[] = SHM_TEMPLATE;
  if (mkdtemp(shm) == NULL) {
    printf("note: no %s (%s): the /dev/shm case is not run\n", SHM_TEMPLATE, strerror(errno));
  } else {
    snprintf(p, sizeof p, "%s/r.txt", shm);
    write_bytes(p, "old\n", 4);
    CHECK(write_text(p, "new\n", &err) == DS_OK, "%s: %s", p, err.msg);
    slurp(p, got, sizeof got);
    CHECK(strcmp(got, "new\n") == 0, "%s holds '%s', not the new content alone", p, got);
    CHECK(!ds_out_written_through(p), "%s is taken as written through", p);
    scratch_remove(shm);
  }
  // 2. a regular file open for appending, named through its descriptor: the
  // file stays the same file and gets every write at its end
  struct stat before, after;
  write_bytes(at(p, "log"), "old\n", 4);
  int fd = open(p, O_WRONLY | O_APPEND);
  REQUIRE(fd >= 0 && fstat(fd, &before) == 0, "open %s: %s", p, strerror(errno));
  const char *const forms[] = {"/dev/fd/%d", "/proc/self/fd/%d", "/proc/thread-self/fd/%d"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    snprintf(name, sizeof name, forms[i], fd);
    CHECK(ds_out_written_through(name), "%s is not taken as written through", name);
    CHECK(write_text(name, "+\n", &err) == DS_OK, "%s: %s", name, err.msg);
  }
  symlink(name, at(link, "fd_link")); /* a link to a descriptor's name, as /dev/stdout is */
  CHECK(write_text(link, "+\n", &err) == DS_OK, "%s: %s", link, err.msg);
  close(fd);
  slurp(p, got, sizeof got);
  CHECK(strcmp(got, "old\n+\n+\n+\n+\n") == 0, "the descriptor's file holds '%s'", got);
  CHECK(stat(p, &after) == 0 && after.st_ino == before.st_ino, "the descriptor's file was replaced");
}

/* Temporaries "<target>.tmp.<pid>" of processes that no longer exist are
 * removed by the next open; a live process's and other names stay. */
static void test_stale_temporaries(void) {
  char target[PATH_LEN], dead[PATH_LEN + 32], live[PATH_LEN + 32], other[PATH_LEN + 32];
  ds_error err;
  pid_t gone = fork(); /* a process that has exited and been reaped */
  if (gone == 0) _exit(0);
  REQUIRE(gone > 0 && waitpid(gone, NULL, 0) == gone, "fork: %s", strerror(errno));
  at(target, "t.txt");
  snprintf(dead, sizeof dead, "%s.tmp.%ld", target, (long)gone);
  snprintf(live, sizeof live, "%s.tmp.%ld", target, (long)getppid());
  snprintf(other, sizeof other, "%s.tmp.x%ld", target, (long)gone);
  write_bytes(dead, "partial", 7);
  write_bytes(live, "partial", 7);
  write_bytes(other, "partial", 7);
  CHECK(write_text(target, "x", &err) == DS_OK, "%s: %s", target, err.msg);
  CHECK(access(dead, F_OK) != 0, "the temporary of a dead process was left: %s", dead);
  CHECK(access(live, F_OK) == 0, "the temporary of a live process was removed: %s", live);
  CHECK(access(other, F_OK) == 0, "a file not named by a pid was removed: %s", other);
}

static void test_check(void) {
  /* refused paths, and nothing created while checking */
  const struct {
    const char *name; /* under the scratch folder */
    const char *problem;
  } cases[] = {
      {"no_folder/x.json", "folder"},
      {"", "is a directory"}, /* the scratch folder itself */
      {"new.txt/x", "Not a directory"},
  };
  char p[PATH_LEN];
  ds_error err;
  struct stat sb;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    err.msg[0] = '\0';
    CHECK(ds_out_check(at(p, cases[i].name), &err) == DS_ERR_IO &&
              strstr(err.msg, cases[i].problem) != NULL,
          "check '%s': '%s', want '%s'", cases[i].name, err.msg, cases[i].problem);
  }
  CHECK(ds_out_check(at(p, "fresh.json"), &err) == DS_OK, "fresh: %s", err.msg);
  CHECK(stat(p, &sb) != 0, "ds_out_check created %s", p);
}

static void test_same_file(void) {
  char a[PATH_LEN], b[PATH_LEN];
  const struct {
    const char *a, *b; /* under the scratch folder, or absolute */
    int same;
  } cases[] = {
      {"new.txt", "new.txt", 1},
      {"new.txt", "./new.txt", 1},
      {"link.txt", "target.txt", 1},        /* a link and its target */
      {"missing.json", "./missing.json", 1}, /* neither exists: resolved paths */
      {"missing.json", "other.json", 0},
      {"new.txt", "missing.json", 0},
      {"/dev/null", "/dev/null", 0}, /* written through: never clobbered */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *pa = cases[i].a[0] == '/' ? cases[i].a : at(a, cases[i].a);
    const char *pb = cases[i].b[0] == '/' ? cases[i].b : at(b, cases[i].b);
    CHECK(ds_out_same_file(pa, pb) == cases[i].same, "same_file(%s, %s) != %d", cases[i].a,
          cases[i].b, cases[i].same);
  }
}

int main(void) {
  scratch_make(dir, sizeof dir, "out_file");
  test_writes();
  test_descriptors();
  test_stale_temporaries();
  test_check();
  test_same_file();
  scratch_remove(dir);
  return ds_test_finish("ds_out_file");
}
