/* The binary cache: round trip, use (a planted cache is returned), staleness
 * (stamp, options), corruption (a flipped byte is rebuilt, never accepted),
 * truncation, an unwritable cache folder, a cache named directly as input,
 * cache_dir naming, and ds_mtx_write's round trip; then the cases
 * below main's sections: exact freshness, inputs and cache paths that are not regular files,
 * leftover temporaries, crafted caches with valid checksums, cache folders.
 * With "--write-seeds DIR" it writes the crafted caches as fuzz seeds instead
 * (graph/fuzz/corpus/cache_*). */
#include "graph_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <utime.h>

#include "graph_internal.h" /* ds_cache_seal, to craft caches whose checksums pass */

#define TEXT "%%MatrixMarket matrix coordinate pattern symmetric\n% test\n6 6 7\n2 1\n3 2\n" \
             "4 3\n5 4\n6 5\n6 1\n4 1\n"

/* The default options with the cache on and no progress bar. */
static ds_load_options options_cached(void) {
  ds_load_options o;
  ds_load_options_default(&o);
  o.progress = 0;
  return o;
}

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

static uint32_t weight_of_first_arc(const ds_graph *g) { return ((const uint32_t *)g->weights)[0]; }

/* Loads path through the cache and returns what info said. */
static ds_cache_use load_info(const char *path, const ds_load_options *opt, ds_graph *g,
                              ds_load_info *info) {
  ds_error err;
  ds_status st = ds_graph_load_info(path, opt, g, info, &err);
  CHECK(st == DS_OK, "load %s: %s", path, err.msg);
  return st == DS_OK ? info->cache : (ds_cache_use)-1;
}

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
  // 2. a large file changed in its last bytes (the tail hash)
  snprintf(in, sizeof in, "%s/big.mtx", dir);
  char *big = malloc(STAMP_BIG_BYTES);
  size_t k = (size_t)snprintf(big, STAMP_BIG_BYTES, "%s", SMALL_W5);
  memset(big + k, '%', STAMP_BIG_BYTES - k); /* one long comment line to the end */
  big[STAMP_BIG_BYTES - 1] = '\n';
  write_bytes(in, big, STAMP_BIG_BYTES);
  if (load_info(in, &opt, &g, &info) == DS_CACHE_MISS) ds_graph_free(&g);
  big[STAMP_BIG_BYTES - 2] = 'x';
  rewrite_same_stamp(in, big, STAMP_BIG_BYTES);
  if (load_info(in, &opt, &g, &info) != (ds_cache_use)-1) {
    CHECK(info.cache == DS_CACHE_MISS, "a change in the last MiB of a large input kept the cache");
    ds_graph_free(&g);
  }
  free(big);
}

/* ---- inputs and cache paths that are not regular files --------------------- */

#define HANG_LIMIT_S 20 /* a test that would hang fails instead */

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "FAIL: a load hung (a FIFO opened as a cache?)\n";
  ssize_t ignored = write(2, msg, sizeof msg - 1);
  (void)ignored;
  _exit(1);
}

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
  signal(SIGALRM, on_alarm);
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

/* ---- crafted caches with valid checksums ------------------------------------ */

/* Offsets in a cache image (cache.c's header layout, version 3). */
#define HDR_N 16
#define HDR_FLAGS 36
#define HDR_WEIGHT_DIST 48
#define HDR_FORMAT 116
#define HDR_BYTES 400
#define SEED_SELECTOR 0 /* the fuzz target's first byte: auto format, so content decides */

typedef enum { AT_HEADER, AT_OFFSETS, AT_COLS, AT_WEIGHTS } region;
typedef struct {
  const char *name;  /* also the seed's file name after "cache_" */
  int float_graph;   /* crafted from the float graph, else the integer one */
  region where;
  size_t index;      /* element within the region (header: byte offset) */
  uint64_t value;    /* written with the region's width (header: 4 or 8 bytes, see width) */
  int width;         /* header fields only: 4 or 8 */
  const char *says;  /* in the error */
} crafted_case;

static const crafted_case crafted[] = {
    {"valid", 0, AT_HEADER, 0, 0, 0, NULL},
    {"col_out_of_range", 0, AT_COLS, 1, 1000000, 0, "leaves the"},
    {"col_self_loop", 0, AT_COLS, 0, 0, 0, "self-loop"},
    {"row_unsorted", 0, AT_COLS, 2, 1, 0, "not strictly increasing"},
    {"offsets_decrease", 0, AT_OFFSETS, 2, 0, 0, "out of order"},
    {"offsets_beyond_m", 0, AT_OFFSETS, 1, 1u << 30, 0, "out of order or beyond"},
    {"offsets_first", 0, AT_OFFSETS, 0, 1, 0, "row_offsets[0]"},
    {"weight_nan", 1, AT_WEIGHTS, 0, 0x7fc00000u, 0, "weight"},
    {"weight_negative", 1, AT_WEIGHTS, 1, 0xbf800000u, 0, "weight"},
    {"asymmetric", 0, AT_WEIGHTS, 0, 99, 0, "with the same weight"},
    {"n_too_large", 0, AT_HEADER, HDR_N, 1000000, 8, "wrong length"},
    {"flags_unknown", 0, AT_HEADER, HDR_FLAGS, 0x80, 4, "impossible values"},
    {"format_unknown", 0, AT_HEADER, HDR_FORMAT, 77, 4, "impossible values"},
    {"weight_dist_unknown", 0, AT_HEADER, HDR_WEIGHT_DIST, 7, 4, "impossible values"},
};

/* The cache image of one of two small symmetric graphs: the ring of TEXT
 * (integer weights) or a float triangle. */
static size_t base_image(const char *dir, int float_graph, unsigned char *buf, size_t cap) {
  char in[1200], cpath[1300];
  snprintf(in, sizeof in, "%s/base%d.mtx", dir, float_graph);
  const char *text = float_graph ? "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n"
                                   "2 1 0.5\n3 2 1.5\n3 1 2.5\n"
                                 : "%%MatrixMarket matrix coordinate integer symmetric\n4 4 4\n"
                                   "2 1 5\n3 1 6\n4 1 7\n3 2 8\n";
  write_bytes(in, text, strlen(text));
  ds_load_options opt = options_cached();
  ds_graph g;
  ds_error err;
  if (ds_graph_load(in, &opt, &g, &err) == DS_OK) ds_graph_free(&g);
  snprintf(cpath, sizeof cpath, "%s.dscache", in);
  FILE *f = fopen(cpath, "rb");
  size_t len = f ? fread(buf, 1, cap, f) : 0;
  if (f) fclose(f);
  return len;
}

static void apply_case(const crafted_case *c, unsigned char *img, size_t len) {
  uint64_t n;
  memcpy(&n, img + HDR_N, sizeof n);
  const size_t offsets = HDR_BYTES, cols = offsets + (n + 1) * 8;
  const size_t m = (len - cols) / 8, weights = cols + m * 4;
  uint32_t v32 = (uint32_t)c->value;
  switch (c->where) {
  case AT_HEADER:
    if (c->width == 8) memcpy(img + c->index, &c->value, 8);
    else if (c->width == 4) memcpy(img + c->index, &v32, 4);
    break;
  case AT_OFFSETS: memcpy(img + offsets + c->index * 8, &c->value, 8); break;
  case AT_COLS: memcpy(img + cols + c->index * 4, &v32, 4); break;
  case AT_WEIGHTS: memcpy(img + weights + c->index * 4, &v32, 4); break;
  }
  ds_cache_seal(img, len);
}

static void run_crafted(const char *dir) {
  static unsigned char img[1 << 16];
  char in[1200], cpath[1300];
  ds_load_options opt = options_cached();
  for (size_t i = 0; i < sizeof crafted / sizeof crafted[0]; i++) {
    const crafted_case *c = &crafted[i];
    size_t len = base_image(dir, c->float_graph, img, sizeof img);
    apply_case(c, img, len);
    snprintf(in, sizeof in, "%s/base%d.mtx", dir, c->float_graph);
    snprintf(cpath, sizeof cpath, "%s.dscache", in);
    write_bytes(cpath, img, len);
    // 1. named as the input: a clean error that names the file and the problem
    ds_graph g;
    ds_error err;
    ds_load_options plain = options_no_cache();
    ds_status st = ds_graph_load(cpath, &plain, &g, &err);
    if (c->says == NULL) {
      CHECK(st == DS_OK, "%s: the valid image was refused: %s", c->name, err.msg);
    } else {
      CHECK(st == DS_ERR_FORMAT && strncmp(err.msg, cpath, strlen(cpath)) == 0 &&
                strstr(err.msg, c->says),
            "%s: status %s, message '%s' (want format error with '%s')", c->name,
            ds_status_name(st), err.msg, c->says);
    }
    if (st == DS_OK) ds_graph_free(&g);
    // 2. beside its input: rebuilt from the text, with a note
    ds_load_info info;
    if (c->says != NULL && load_info(in, &opt, &g, &info) != (ds_cache_use)-1) {
      CHECK(info.cache == DS_CACHE_MISS && info.cache_written && strstr(info.note, "rebuilt") &&
                ds_csr_check(&g, &err) == DS_OK,
            "%s: cache %d, note '%s'", c->name, info.cache, info.note);
      ds_graph_free(&g);
    }
  }
}

/* graph/fuzz/corpus/cache_<name>: the selector byte, then the image. */
static int write_cache_seeds(const char *out_dir) {
  char dir[1024], path[4096];
  static unsigned char img[1 << 16];
  scratch_make(dir, sizeof dir, "seeds");
  for (size_t i = 0; i < sizeof crafted / sizeof crafted[0]; i++) {
    img[0] = SEED_SELECTOR;
    size_t len = base_image(dir, crafted[i].float_graph, img + 1, sizeof img - 1);
    apply_case(&crafted[i], img + 1, len);
    snprintf(path, sizeof path, "%s/cache_%s", out_dir, crafted[i].name);
    write_bytes(path, img, len + 1);
  }
  scratch_remove(dir);
  return 0;
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

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0) return write_cache_seeds(argv[2]);
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
  for (int f = 0; f < 6; f++) {
    ds_input_stamp s2 = stamp;
    int64_t *fields[6] = {(int64_t *)&s2.size, &s2.mtime_s, &s2.mtime_ns, (int64_t *)&s2.inode,
                          (int64_t *)&s2.device, (int64_t *)&s2.content_hash};
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
  flip_byte(cpath, 200); /* a header byte (the header is 400 bytes, the file 568) */
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
  run_crafted(dir);
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
