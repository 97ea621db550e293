/* The binary cache: round trip, use (a planted cache is returned), staleness
 * (size, mtime, options), corruption (a flipped byte is rebuilt, never
 * accepted), truncation, an unwritable cache folder, a cache named directly
 * as input, cache_dir naming, and ds_mtx_write's round trip. */
#include "test_util.h"

#include <sys/stat.h>
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

static void input_stat(const char *path, uint64_t *size, int64_t *mtime) {
  struct stat sb;
  stat(path, &sb);
  *size = (uint64_t)sb.st_size;
  *mtime = (int64_t)sb.st_mtime;
}

static void flip_byte(const char *path, long offset_from_end) {
  FILE *f = fopen(path, "r+b");
  fseek(f, -offset_from_end, SEEK_END);
  int c = fgetc(f);
  fseek(f, -offset_from_end, SEEK_END);
  fputc(c ^ 0x40, f);
  fclose(f);
}

int main(void) {
  char dir[1024], in[1200], cpath[1300];
  ds_error err;
  scratch_make(dir, sizeof dir, "cache");
  snprintf(in, sizeof in, "%s/ring.mtx", dir);
  write_bytes(in, TEXT, strlen(TEXT));
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.progress = 0;
  ds_load_options plain = options_no_cache();
  CHECK(ds_cache_path(in, &opt, cpath, sizeof cpath, &err) == DS_OK, "%s", err.msg);
  ds_graph ref, g;
  if (!load(in, &plain, &ref)) return 1;
  uint64_t size;
  int64_t mtime;
  input_stat(in, &size, &mtime);

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

  // 2. the cache is used: plant another valid graph under the input's size and mtime
  uint32_t s[1] = {0}, d[1] = {5}, w[1] = {77};
  ds_edge_list el = {6, 1, s, d, DS_WEIGHT_U32, w};
  ds_graph other;
  CHECK(ds_csr_build(&el, 0, NULL, &other, &err) == DS_OK, "%s", err.msg);
  CHECK(ds_cache_write(cpath, &other, &opt, size, mtime, &err) == DS_OK, "%s", err.msg);
  if (load(in, &opt, &g)) {
    CHECK(same_graph(&other, &g), "a matching cache was not used");
    ds_graph_free(&g);
  }
  CHECK(ds_cache_read(cpath, &opt, size, mtime, &g, &err) == DS_OK, "%s", err.msg);
  ds_graph_free(&g);

  // 3. stale: another mtime, another size, other options -> DS_ERR_STALE and a rebuild
  CHECK(ds_cache_read(cpath, &opt, size, mtime + 1, &g, &err) == DS_ERR_STALE, "mtime not checked");
  CHECK(ds_cache_read(cpath, &opt, size + 1, mtime, &g, &err) == DS_ERR_STALE, "size not checked");
  ds_load_options und = opt;
  und.undirected = 1;
  CHECK(ds_cache_read(cpath, &und, size, mtime, &g, &err) == DS_ERR_STALE, "undirected not checked");
  struct utimbuf ut = {(time_t)mtime + 10, (time_t)mtime + 10};
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
  input_stat(in, &size, &mtime);
  const long offsets[] = {1, 30, (long)0};
  for (int k = 0; k < 3; k++) {
    if (k < 2) {
      flip_byte(cpath, offsets[k]);
    } else {
      CHECK(truncate(cpath, 100) == 0, "truncate");
    }
    ds_status st = ds_cache_read(cpath, &opt, size, mtime, &g, &err);
    CHECK(st == DS_ERR_FORMAT, "corruption %d: ds_cache_read said %s", k, ds_status_name(st));
    if (load(in, &opt, &g)) {
      CHECK(same_graph(&ref, &g), "corruption %d: a corrupt cache was accepted", k);
      ds_graph_free(&g);
    }
    CHECK(ds_cache_read(cpath, &opt, size, mtime, &g, &err) == DS_OK,
          "corruption %d: the cache was not rewritten: %s", k, err.msg);
    ds_graph_free(&g);
  }
  flip_byte(cpath, 200); /* a header byte (the header is 360 bytes, the file ~ 470) */
  CHECK(ds_cache_read(cpath, &opt, size, mtime, &g, &err) == DS_ERR_FORMAT, "header flip");

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
  indir.cache_dir = "/nonexistent/folder";
  if (load(in, &indir, &g)) {
    CHECK(same_graph(&ref, &g), "an unwritable cache folder broke the load");
    ds_graph_free(&g);
  }

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
  printf("cache: %d failures\n", test_failures);
  return test_failures ? 1 : 0;
}
