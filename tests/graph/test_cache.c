/* The binary cache: round trip, use (a planted cache is returned), staleness
 * (stamp, options), corruption (a flipped byte is rebuilt, never accepted),
 * truncation, an unwritable cache folder, a cache named directly as input,
 * cache_dir naming, and ds_mtx_write's round trip; then the cases
 * below main's sections: exact freshness, inputs and cache paths that are not regular files,
 * leftover temporaries, cache folders. Crafted caches with valid checksums are
 * test_cache_crafted's. */
#include "graph_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <utime.h>

#define TEXT "%%MatrixMarket matrix coordinate pattern symmetric\n% test\n6 6 7\n2 1\n3 2\n" \
             "4 3\n5 4\n6 5\n6 1\n4 1\n"

static int load(const char *path, const ds_load_options *opt, ds_graph *g) {
  ds_error err;
  memset(g, POISON_BYTE, sizeof *g);
  ds_status st = ds_graph_load(path, opt, g, &err);
  CHECK(st == DS_OK, "load %s: %s", path, err.msg);
  return st == DS_OK;
}

static ds_input_stamp input_stamp(const char *path) {
  ds_input_stamp s;
  ds_error err;
  CHECK(ds_input_stamp_of(path, &s, &err) == DS_OK, "stamp: %s", err.msg);
  return s;
}

static void flip_byte(const char *path, long offset_from_end) {
  FILE *f = fopen(path, "r+b");
  fseek(f, -offset_from_end, SEEK_END);
  int c = fgetc(f);
  fseek(f, -offset_from_end, SEEK_END);
  fputc(c ^ 0x40, f);
  fclose(f);
}

/* ---- exact freshness ------------------------------------------------------ */

#define SMALL_W5 "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 5\n"
#define SMALL_W7 "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 7\n2 3 7\n"
#define STAMP_BIG_BYTES ((size_t)6 << 20) /* beyond DS_STAMP_WHOLE_MAX: head and tail hashed */
#define COMMENT_LINE_BYTES 1024           /* the filler's lines, far below the line limit */
#define CTIME_TICK_NS 20000000L           /* two jiffies at HZ = 100 */

static uint32_t weight_of_first_arc(const ds_graph *g) { return ((const uint32_t *)g->weights)[0]; }

/* Rewrites path with text at the same size and gives it back the same
 * mtime, to the nanosecond: only the content differs. */
static void rewrite_same_stamp(const char *path, const char *text, size_t len) {
  struct stat sb;
  stat(path, &sb);
  write_bytes(path, text, len);
  struct timespec times[2] = {sb.st_atim, sb.st_mtim};
  CHECK(utimensat(AT_FDCWD, path, times, 0) == 0, "utimensat");
}

static void run_exact_freshness(const char *dir) {
  char in[1200];
  ds_load_options opt = options_cached();
  ds_graph g;
  ds_load_info info;
  // 1. the repro: weights 5, then 7 at the same size and mtime
  snprintf(in, sizeof in, "%s/w.mtx", dir);
  write_bytes(in, SMALL_W5, strlen(SMALL_W5));
  if (load_info(in, &opt, &g, &info) == DS_CACHE_MISS) ds_graph_free(&g);
  CHECK(info.cache_written, "no cache written for w.mtx");
  if (load_info(in, &opt, &g, &info) == DS_CACHE_HIT) ds_graph_free(&g);
  else CHECK(0, "the second load of w.mtx missed the cache");
  rewrite_same_stamp(in, SMALL_W7, strlen(SMALL_W7));
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_MISS && weight_of_first_arc(&g) == 7,
          "rewritten input: cache %d, weight %u (want a miss and 7)", info.cache,
          weight_of_first_arc(&g));
    ds_graph_free(&g);
  }
  // 2. a large file: the banner, comment lines, the size line and entries in the middle,
  //    comment lines to the end; changed in its last bytes (the tail hash), then in an
  //    entry in the middle, which no hash covers (the change time catches it)
  snprintf(in, sizeof in, "%s/big.mtx", dir);
  char *big = malloc(STAMP_BIG_BYTES);
  memset(big, '%', STAMP_BIG_BYTES);
  for (size_t i = COMMENT_LINE_BYTES - 1; i < STAMP_BIG_BYTES; i += COMMENT_LINE_BYTES)
    big[i] = '\n';
  const char *entries = strchr(SMALL_W5, '\n') + 1; /* "3 3 2\n1 2 5\n2 3 5\n" */
  const size_t middle = STAMP_BIG_BYTES / 2; /* a line start, 2 MiB from either hashed end */
  memcpy(big, SMALL_W5, (size_t)(entries - SMALL_W5));
  memcpy(big + middle, entries, strlen(entries));
  write_bytes(in, big, STAMP_BIG_BYTES);
  if (load_info(in, &opt, &g, &info) == DS_CACHE_MISS) ds_graph_free(&g);
  big[STAMP_BIG_BYTES - 2] = 'x';
  rewrite_same_stamp(in, big, STAMP_BIG_BYTES);
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_MISS, "a change in the last MiB of a large input kept the cache");
    ds_graph_free(&g);
  }
  if (load_info(in, &opt, &g, &info) == DS_CACHE_HIT) ds_graph_free(&g);
  else CHECK(0, "the second load of big.mtx missed the cache");
  /* the change time ticks with the kernel's coarse clock (a jiffy, 10 ms at most): the
     edit comes a tick after the write that the cache recorded, as any real edit does */
  const struct timespec tick = {0, CTIME_TICK_NS};
  nanosleep(&tick, NULL);
  big[middle + strlen("3 3 2\n1 2 ")] = '7'; /* rsync --inplace -t: size and mtime stay */
  rewrite_same_stamp(in, big, STAMP_BIG_BYTES);
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_MISS && weight_of_first_arc(&g) == 7,
          "an edit in the middle of a large input: cache %d, weight %u (want a miss and 7)",
          info.cache, weight_of_first_arc(&g));
    ds_graph_free(&g);
  }
  free(big);
}

/* ---- inputs and cache paths that are not regular files --------------------- */

#define HANG_LIMIT_S 20 /* a test that would hang fails instead */

/* A child writes text into the FIFO at path and exits. */
static pid_t feed_fifo(const char *path, const char *text) {
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(path, O_WRONLY);
    ssize_t ignored = write(fd, text, strlen(text));
    (void)ignored;
    close(fd);
    _exit(0);
  }
  return pid;
}

static void run_not_regular(const char *dir) {
  char fifo[1200], cdir[1200], probe[1400], in[1200], cpath[1300], alias[64];
  ds_load_options opt = options_cached();
  ds_graph g;
  ds_load_info info;
  hang_guard("FAIL: a load hung (a FIFO opened as a cache?)\n");
  alarm(HANG_LIMIT_S);
  // 1. a FIFO input loads, with neither a cache read nor one written
  snprintf(fifo, sizeof fifo, "%s/pipe.mtx", dir);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
  pid_t child = feed_fifo(fifo, SMALL_W7);
  if (load_info(fifo, &opt, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_OFF && g.m == 2 && weight_of_first_arc(&g) == 7,
          "FIFO input: cache %d, m %llu", info.cache, (unsigned long long)g.m);
    ds_graph_free(&g);
  }
  waitpid(child, NULL, 0);
  snprintf(probe, sizeof probe, "%s.dscache", fifo);
  CHECK(access(probe, F_OK) != 0, "a cache was written for a FIFO input");
  // 2. a cache file that comes through a FIFO is decoded from the bytes read
  snprintf(in, sizeof in, "%s/w.mtx", dir); /* run_exact_freshness left its cache */
  snprintf(cpath, sizeof cpath, "%s.dscache", in);
  FILE *f = fopen(cpath, "rb");
  static char image[1 << 16];
  size_t len = f ? fread(image, 1, sizeof image, f) : 0;
  if (f) fclose(f);
  unlink(fifo);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
  child = fork();
  if (child == 0) {
    int fd = open(fifo, O_WRONLY);
    ssize_t ignored = write(fd, image, len);
    (void)ignored;
    _exit(0);
  }
  ds_error err;
  ds_status st = ds_graph_load(fifo, &opt, &g, &err);
  CHECK(st == DS_OK && g.m == 2, "a cache through a FIFO: %s", st == DS_OK ? "" : err.msg);
  if (st == DS_OK) ds_graph_free(&g);
  waitpid(child, NULL, 0);
  // 3. a descriptor's name (as /dev/stdin is) is read, never cached
  snprintf(cdir, sizeof cdir, "%s/alias_caches", dir);
  mkdir(cdir, 0755);
  ds_load_options indir = opt;
  indir.cache_dir = cdir;
  int fd = open(in, O_RDONLY);
  snprintf(alias, sizeof alias, "/dev/fd/%d", fd);
  if (load_info(alias, &indir, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_OFF, "%s was cached", alias);
    ds_graph_free(&g);
  }
  close(fd);
  DIR *d = opendir(cdir);
  int files = 0;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) files += e->d_name[0] != '.';
  if (d) closedir(d);
  CHECK(files == 0, "a cache was written for %s", alias);
  // 4. a FIFO, then a folder, at the cache path: not opened, not replaced
  const char *kinds[2] = {"FIFO", "folder"};
  for (int k = 0; k < 2; k++) {
    unlink(cpath);
    CHECK((k == 0 ? mkfifo(cpath, 0600) : mkdir(cpath, 0755)) == 0, "make a %s", kinds[k]);
    if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) {
      CHECK(info.cache == DS_CACHE_OFF && strstr(info.note, "not a regular file") &&
                weight_of_first_arc(&g) == 7,
            "%s at the cache path: cache %d, note '%s'", kinds[k], info.cache, info.note);
      ds_graph_free(&g);
    }
    struct stat sb;
    CHECK(lstat(cpath, &sb) == 0 && (k == 0 ? S_ISFIFO(sb.st_mode) : S_ISDIR(sb.st_mode)),
          "the %s at the cache path was replaced", kinds[k]);
    if (k == 0) unlink(cpath);
    else rmdir(cpath);
  }
  alarm(0);
}

/* ---- temporaries left by killed writers ------------------------------------- */

static void run_temporaries(const char *dir) {
  char in[1200], cpath[1300], dead[1400], live[1400];
  snprintf(in, sizeof in, "%s/w.mtx", dir);
  snprintf(cpath, sizeof cpath, "%s.dscache", in);
  pid_t gone = fork(); /* a process that has exited and been reaped */
  if (gone == 0) _exit(0);
  waitpid(gone, NULL, 0);
  snprintf(dead, sizeof dead, "%s.tmp.%ld", cpath, (long)gone);
  snprintf(live, sizeof live, "%s.tmp.%ld", cpath, (long)getppid());
  write_bytes(dead, "partial", 7);
  write_bytes(live, "partial", 7);
  unlink(cpath); /* a miss, so the load writes the cache */
  ds_load_options opt = options_cached();
  ds_graph g;
  ds_load_info info;
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) ds_graph_free(&g);
  CHECK(info.cache_written, "no cache written");
  CHECK(access(dead, F_OK) != 0, "the temporary of a dead process was left: %s", dead);
  CHECK(access(live, F_OK) == 0, "the temporary of a live process was removed: %s", live);
  unlink(live);
}

/* ---- cache folders ------------------------------------------------------------ */

static void run_cache_folders(const char *dir) {
  char in[1200], cdir[1200], file[1200];
  snprintf(in, sizeof in, "%s/w.mtx", dir);
  ds_load_options opt = options_cached();
  ds_graph g;
  ds_load_info info;
  // 1. missing, two levels deep: made, and the cache written there
  snprintf(cdir, sizeof cdir, "%s/made/here", dir);
  opt.cache_dir = cdir;
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) ds_graph_free(&g);
  CHECK(info.cache == DS_CACHE_MISS && info.cache_written &&
            strncmp(info.cache_path, cdir, strlen(cdir)) == 0,
        "missing cache folder: cache %d, written %d, path '%s'", info.cache, info.cache_written,
        info.cache_path);
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) ds_graph_free(&g);
  CHECK(info.cache == DS_CACHE_HIT, "no hit from the made cache folder");
  // 2. a file: the cache is off, and the note says why
  snprintf(file, sizeof file, "%s/plain_file", dir);
  write_bytes(file, "x", 1);
  opt.cache_dir = file;
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) ds_graph_free(&g);
  CHECK(info.cache == DS_CACHE_OFF && strstr(info.note, file) && strstr(info.note, "cache is off"),
        "a file as cache folder: cache %d, note '%s'", info.cache, info.note);
  // 3. switched off: off, and nothing to say
  opt.cache_dir = NULL;
  opt.use_cache = 0;
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) ds_graph_free(&g);
  CHECK(info.cache == DS_CACHE_OFF && info.note[0] == '\0', "use_cache 0: cache %d, note '%s'",
        info.cache, info.note);
}

int main(void) {
  char dir[1024], in[1200], cpath[1300];
  ds_error err;
  scratch_make(dir, sizeof dir, "cache");
  snprintf(in, sizeof in, "%s/ring.mtx", dir);
  write_bytes(in, TEXT, strlen(TEXT));
  ds_load_options opt = options_cached();
  ds_load_options plain = options_no_cache();
  CHECK(ds_cache_path(in, &opt, cpath, sizeof cpath, &err) == DS_OK, "%s", err.msg);
  ds_graph ref, g;
  if (!load(in, &plain, &ref)) return 1;
  ds_input_stamp stamp = input_stamp(in);

  // 1. round trip: the first load writes the cache, the second reads it
  struct stat sb;
  if (load(in, &opt, &g)) {
    CHECK(same_graph(&ref, &g) && !strcmp(g.name, "ring"), "first cached load differs");
    ds_graph_free(&g);
  }
  CHECK(stat(cpath, &sb) == 0, "no cache at %s", cpath);
  if (load(in, &opt, &g)) {
    CHECK(same_graph(&ref, &g) && g.format == DS_FORMAT_MTX && g.index_base == 1 &&
              g.weights_generated && g.symmetric && g.input_entries == 7 && !strcmp(g.name, "ring"),
          "cache round trip lost the graph or its description");
    ds_graph_free(&g);
  }

  // 2. the cache is used: plant another valid graph under the input's stamp
  uint32_t s[1] = {0}, d[1] = {5}, w[1] = {77};
  ds_edge_list el = {6, 1, s, d, DS_WEIGHT_U32, w};
  ds_graph other;
  CHECK(ds_csr_build(&el, 0, NULL, &other, &err) == DS_OK, "%s", err.msg);
  CHECK(ds_cache_write(cpath, &other, &opt, &stamp, &err) == DS_OK, "%s", err.msg);
  if (load(in, &opt, &g)) {
    CHECK(same_graph(&other, &g), "a matching cache was not used");
    ds_graph_free(&g);
  }
  CHECK(ds_cache_read(cpath, &opt, &stamp, &g, &err) == DS_OK, "%s", err.msg);
  ds_graph_free(&g);

  // 3. stale: any field of the stamp, other options -> DS_ERR_STALE and a rebuild
  for (int f = 0; f < 8; f++) {
    ds_input_stamp s2 = stamp;
    int64_t *fields[8] = {(int64_t *)&s2.size, &s2.mtime_s, &s2.mtime_ns, (int64_t *)&s2.inode,
                          (int64_t *)&s2.device, (int64_t *)&s2.content_hash, &s2.ctime_s,
                          &s2.ctime_ns};
    (*fields[f])++;
    CHECK(ds_cache_read(cpath, &opt, &s2, &g, &err) == DS_ERR_STALE, "stamp field %d not checked",
          f);
  }
  ds_load_options und = opt;
  und.undirected = 1;
  CHECK(ds_cache_read(cpath, &und, &stamp, &g, &err) == DS_ERR_STALE, "undirected not checked");
  struct utimbuf ut = {(time_t)stamp.mtime_s + 10, (time_t)stamp.mtime_s + 10};
  utime(in, &ut);
  if (load(in, &opt, &g)) {
    CHECK(same_graph(&ref, &g), "a stale cache (touched input) was used");
    ds_graph_free(&g);
  }
  ds_load_options seed2 = opt;
  seed2.seed = 99;
  if (load(in, &seed2, &g)) {
    CHECK(!same_graph(&ref, &g) && g.weight_seed == 99, "another seed reused the cached weights");
    ds_graph_free(&g);
  }
  if (load(in, &opt, &g)) { /* back to seed 1: rebuilt again, equal to the reference */
    CHECK(same_graph(&ref, &g), "seed 1 after seed 99");
    ds_graph_free(&g);
  }

  // 4. corrupt: a flipped payload byte, a flipped header byte, a truncated file
  stamp = input_stamp(in);
  const long offsets[] = {1, 30, (long)0};
  for (int k = 0; k < 3; k++) {
    if (k < 2) {
      flip_byte(cpath, offsets[k]);
    } else {
      CHECK(truncate(cpath, 100) == 0, "truncate");
    }
    ds_status st = ds_cache_read(cpath, &opt, &stamp, &g, &err);
    CHECK(st == DS_ERR_FORMAT, "corruption %d: ds_cache_read said %s", k, ds_status_name(st));
    if (load(in, &opt, &g)) {
      CHECK(same_graph(&ref, &g), "corruption %d: a corrupt cache was accepted", k);
      ds_graph_free(&g);
    }
    CHECK(ds_cache_read(cpath, &opt, &stamp, &g, &err) == DS_OK,
          "corruption %d: the cache was not rewritten: %s", k, err.msg);
    ds_graph_free(&g);
  }
  flip_byte(cpath, 200); /* a header byte (the header is 416 bytes, the file 584) */
  CHECK(ds_cache_read(cpath, &opt, &stamp, &g, &err) == DS_ERR_FORMAT, "header flip");

  // 5. a cache named directly as the input
  if (load(in, &opt, &g)) ds_graph_free(&g);
  if (load(cpath, &plain, &g)) {
    CHECK(same_graph(&ref, &g) && g.format == DS_FORMAT_MTX, "loading the cache file directly");
    ds_graph_free(&g);
  }

  // 6. cache_dir: named by input and hash; an unwritable folder is not an error
  ds_load_options indir = opt;
  char cdir[1200], cpath2[4096];
  snprintf(cdir, sizeof cdir, "%s/caches", dir);
  mkdir(cdir, 0755);
  indir.cache_dir = cdir;
  CHECK(ds_cache_path(in, &indir, cpath2, sizeof cpath2, &err) == DS_OK &&
            strncmp(cpath2, cdir, strlen(cdir)) == 0 && strstr(cpath2, "/ring.") &&
            strstr(cpath2, ".dscache"), "cache_dir path '%s'", cpath2);
  if (load(in, &indir, &g)) ds_graph_free(&g);
  CHECK(stat(cpath2, &sb) == 0, "no cache written into cache_dir");
  indir.cache_dir = "/proc/no/folder/here"; /* cannot be made */
  if (load(in, &indir, &g)) {
    CHECK(same_graph(&ref, &g), "an unwritable cache folder broke the load");
    ds_graph_free(&g);
  }

  run_exact_freshness(dir);
  run_not_regular(dir);
  run_temporaries(dir);
  run_cache_folders(dir);

  // 7. ds_mtx_write round trip, integer and float weights
  char out[1200];
  snprintf(out, sizeof out, "%s/written.mtx", dir);
  float fw[3] = {0.1f, 3.0e-7f, 123456.79f};
  uint32_t fs[3] = {0, 1, 2}, fd[3] = {1, 2, 0};
  ds_edge_list fel = {3, 3, fs, fd, DS_WEIGHT_F32, fw};
  ds_graph fg;
  CHECK(ds_csr_build(&fel, 1, NULL, &fg, &err) == DS_OK, "%s", err.msg);
  const ds_graph *graphs[2] = {&ref, &fg};
  for (int k = 0; k < 2; k++) {
    CHECK(ds_mtx_write(out, graphs[k], &err) == DS_OK, "ds_mtx_write: %s", err.msg);
    if (load(out, &plain, &g)) {
      CHECK(same_graph(graphs[k], &g), "ds_mtx_write round trip %d", k);
      /* a symmetric graph is written "symmetric", each edge once, and loads so */
      CHECK(g.symmetric == graphs[k]->symmetric && g.input_entries == (g.symmetric ? g.m / 2 : g.m),
            "ds_mtx_write round trip %d: symmetric %d, %llu entries", k, g.symmetric,
            (unsigned long long)g.input_entries);
      ds_graph_free(&g);
    }
  }
  CHECK(ds_mtx_write("/nonexistent/x.mtx", &ref, &err) == DS_ERR_IO, "write to a missing folder");
  ds_graph_free(&fg);
  ds_graph_free(&other);
  ds_graph_free(&ref);
  scratch_remove(dir);
  return ds_test_finish("cache");
}
