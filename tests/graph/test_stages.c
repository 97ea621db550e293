/* The public pieces that benchmarks use instead of the graph layer's private
 * header: the random-number header (ds/rng.h) against splitmix64's published
 * outputs, and the load stages (ds/graph_stages.h) on each kind of Matrix
 * Market file and on a bad one. */
#include "graph_test_util.h" /* first: ds_test.h sets the feature macros */

#include "ds/graph_stages.h"
#include "ds/rng.h"

/* 1. splitmix64 from state 0: the reference outputs of Vigna's splitmix64.c,
 *    which every seeded graph, weight and source of the project depends on. */
static void test_splitmix64(void) {
  static const uint64_t want[] = {UINT64_C(0xE220A8397B1DCDAF), UINT64_C(0x6E789E6AA1B965F4),
                                  UINT64_C(0x06C45D188009454F), UINT64_C(0xF88BB8A8724C81EC)};
  uint64_t state = 0, hash_in = 0;
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    uint64_t got = ds_splitmix64_next(&state);
    CHECK(got == want[i], "splitmix64 output %zu: %016llx, want %016llx", i,
          (unsigned long long)got, (unsigned long long)want[i]);
    /* the stateless form is the same step taken from the previous state */
    CHECK(ds_splitmix64(hash_in) == want[i], "ds_splitmix64 of state %zu", i);
    hash_in += DS_SPLITMIX64_GAMMA;
  }
  ds_rng r = {0};
  CHECK(ds_rng_next(&r) == want[0], "ds_rng_next from 0");
  double u = ds_unit_double(UINT64_MAX);
  CHECK(u < 1.0 && u > 0.999999, "unit double of all ones: %.17g", u);
  CHECK(ds_rng_weight(0, 5, 9) == 5 && ds_rng_weight(UINT64_MAX, 5, 9) == 9,
        "weights span [5, 9]");
}

/* 2. the stages on one file each */
typedef struct {
  const char *name, *text;
  ds_status read_st, parse_st;
  uint32_t n;
  uint64_t entries;
  int weighted;
  ds_weight_type type;
  const char *msg; /* part of the error message, for a failing case */
} stage_case;

static const stage_case cases[] = {
    {"int.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 7\n", DS_OK,
     DS_OK, 3, 2, 1, DS_WEIGHT_U32, NULL},
    {"pat.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 1\n4 2\n",
     DS_OK, DS_OK, 4, 3, 0, DS_WEIGHT_U32, NULL},
    {"real.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n", DS_OK, DS_OK,
     2, 1, 1, DS_WEIGHT_F32, NULL},
    {"bad.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 9 5\n", DS_OK,
     DS_ERR_FORMAT, 0, 0, 0, DS_WEIGHT_U32, "bad.mtx:3:"},
};

static void test_stages(const char *dir) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const stage_case *c = &cases[i];
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, c->name);
    write_bytes(path, c->text, strlen(c->text));
    ds_error err;
    memset(&err, 0, sizeof err);
    ds_stage_text *text = NULL;
    size_t bytes = 0;
    ds_status st = ds_stage_read(path, &text, &bytes, &err);
    CHECK(st == c->read_st, "%s: read status %d: %s", c->name, (int)st, err.msg);
    if (st != DS_OK) continue;
    CHECK(bytes == strlen(c->text), "%s: %zu bytes read", c->name, bytes);
    ds_stage_edges *edges = NULL;
    ds_stage_summary sum;
    memset(&sum, 0, sizeof sum);
    st = ds_stage_parse_mtx(path, text, &edges, &sum, &err);
    CHECK(st == c->parse_st, "%s: parse status %d: %s", c->name, (int)st, err.msg);
    if (st == DS_OK) {
      CHECK(edges != NULL, "%s: no edges", c->name);
      CHECK(sum.n == c->n && sum.entries == c->entries, "%s: n %u, entries %llu", c->name, sum.n,
            (unsigned long long)sum.entries);
      CHECK(sum.weighted == c->weighted, "%s: weighted %d", c->name, sum.weighted);
      if (c->weighted) CHECK(sum.weight_type == c->type, "%s: weight type", c->name);
    } else {
      CHECK(edges == NULL, "%s: edges returned on failure", c->name);
      CHECK(c->msg && strstr(err.msg, c->msg), "%s: message '%s' lacks '%s'", c->name, err.msg,
            c->msg);
    }
    ds_stage_edges_free(edges);
    ds_stage_text_free(text);
  }
  /* a missing file is a read error naming it */
  char missing[4200];
  snprintf(missing, sizeof missing, "%s/none.mtx", dir);
  ds_stage_text *text = NULL;
  ds_error err;
  memset(&err, 0, sizeof err);
  CHECK(ds_stage_read(missing, &text, NULL, &err) != DS_OK && text == NULL,
        "missing file read without error");
  CHECK(strstr(err.msg, "none.mtx") != NULL, "missing file message: %s", err.msg);
  ds_stage_text_free(NULL);
  ds_stage_edges_free(NULL);
}

int main(void) {
  char dir[4096];
  scratch_make(dir, sizeof dir, "stages");
  test_splitmix64();
  test_stages(dir);
  scratch_remove(dir);
  return ds_test_finish("load stages and splitmix64");
}
