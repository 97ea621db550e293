/* Crafted caches with valid checksums: each breaks one CSR invariant or header
 * field and reseals the checksums (ds_cache_seal), so that only the decoder's
 * own checks can catch it. Named as the input, each must give a format error
 * that names the file and the problem; beside its input, it must be rebuilt
 * from the text with a note. With "--write-seeds DIR" it writes the crafted
 * caches as fuzz seeds instead (graph/fuzz/corpus/cache_*). */
#include "graph_test_util.h"

#include "graph_internal.h" /* ds_cache_seal, to craft caches whose checksums pass */

/* Offsets in a cache image (cache.c's header layout, version 4). */
#define HDR_N 16
#define HDR_FLAGS 36
#define HDR_WEIGHT_DIST 48
#define HDR_FORMAT 116
#define HDR_BYTES 416
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

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--write-seeds") == 0) return write_cache_seeds(argv[2]);
  char dir[1024];
  scratch_make(dir, sizeof dir, "cache_crafted");
  run_crafted(dir);
  scratch_remove(dir);
  return ds_test_finish("cache_crafted");
}
