/* The program side of the GPU options (app/sssp/gpu_options.c): each DS_GPU_*
 * variable sets its field and no other, an unset variable leaves its field
 * alone, and a value that is not a whole number of the field's type is an
 * argument error naming the variable. Needs no GPU: only the reading is
 * tested (ds_gpu_open checks the ranges).
 */
#include "ds_test.h" /* first: it sets the feature macros (setenv) */

#include "gpu_options.h"

#define SENTINEL 0x5A5A5A5Au

/* The options every test fills, and each variable's field in them. */
static ds_gpu_options o;
static const struct {
  const char *name;
  uint32_t *u; /* the field, if a uint32_t */
  int *i;      /* else this int */
} FIELDS[] = {
    {"DS_GPU_BLOCKS_PER_SM", NULL, &o.blocks_per_sm}, {"DS_GPU_SOLO_MAX", &o.solo_max, NULL},
    {"DS_GPU_TEAM_BLOCKS", &o.team_blocks, NULL},     {"DS_GPU_TEAM_MAX", &o.team_max, NULL},
    {"DS_GPU_SOLO_LOCAL", NULL, &o.solo_local},       {"DS_GPU_RANK_BLOCKS", NULL, &o.rank_blocks},
    {"DS_GPU_DYNAMIC_TILES", NULL, &o.dynamic_tiles}, {"DS_GPU_MIN_TILE", &o.min_tile, NULL},
    {"DS_GPU_HUGE_DEGREE", &o.huge_degree, NULL},     {"DS_GPU_LOCAL_SOLO", &o.local_solo, NULL},
    {"DS_GPU_LOCAL_TEAM", &o.local_team, NULL},       {"DS_GPU_LOCAL_GRID", &o.local_grid, NULL},
    {"DS_GPU_LOCAL_ORDER", &o.local_order, NULL},     {"DS_GPU_HUB_ORDER", &o.hub_order, NULL},
    {"DS_GPU_HUB_DEGREE", &o.hub_degree, NULL},       {"DS_GPU_DENSE_DIV", &o.dense_div, NULL},
    {"DS_GPU_SPILL_LIMIT", &o.spill_limit, NULL},     {"DS_GPU_SELF_CHECK", NULL, &o.self_check},
};
#define N_FIELDS (sizeof FIELDS / sizeof FIELDS[0])

static uint32_t field(size_t i) { return FIELDS[i].u ? *FIELDS[i].u : (uint32_t)*FIELDS[i].i; }

static void fill(void) {
  for (size_t i = 0; i < N_FIELDS; i++) {
    if (FIELDS[i].u) *FIELDS[i].u = SENTINEL;
    else *FIELDS[i].i = (int)SENTINEL;
  }
}

int main(void) {
  ds_error err;
  for (size_t i = 0; i < N_FIELDS; i++) unsetenv(FIELDS[i].name);
  // 1. nothing set: nothing changes
  fill();
  CHECK(ds_gpu_options_from_env(&o, &err) == DS_OK, "no variables: %s", err.msg);
  for (size_t i = 0; i < N_FIELDS; i++)
    CHECK(field(i) == SENTINEL, "no variables: %s changed", FIELDS[i].name);
  // 2. each variable sets its own field, and only it
  for (size_t i = 0; i < N_FIELDS; i++) {
    fill();
    setenv(FIELDS[i].name, "7", 1);
    CHECK(ds_gpu_options_from_env(&o, &err) == DS_OK, "%s=7: %s", FIELDS[i].name, err.msg);
    for (size_t j = 0; j < N_FIELDS; j++)
      CHECK(field(j) == (j == i ? 7u : SENTINEL), "%s=7: field of %s is %u", FIELDS[i].name,
            FIELDS[j].name, field(j));
    unsetenv(FIELDS[i].name);
  }
  // 3. values that are not whole numbers of the field's type
  static const struct {
    const char *name, *value;
    int ok;
    uint32_t want;
  } cases[] = {{"DS_GPU_SOLO_MAX", "0", 1, 0},           {"DS_GPU_SOLO_MAX", "4294967295", 1, 4294967295u},
               {"DS_GPU_SOLO_MAX", "4294967296", 0, 0},  {"DS_GPU_SOLO_MAX", "", 0, 0},
               {"DS_GPU_SOLO_MAX", "-1", 0, 0},          {"DS_GPU_SOLO_MAX", "+1", 0, 0},
               {"DS_GPU_SOLO_MAX", " 1", 0, 0},          {"DS_GPU_SOLO_MAX", "1x", 0, 0},
               {"DS_GPU_SOLO_MAX", "1.5", 0, 0},         {"DS_GPU_SPILL_LIMIT", "100", 1, 100},
               {"DS_GPU_BLOCKS_PER_SM", "2147483647", 1, 2147483647u},
               {"DS_GPU_BLOCKS_PER_SM", "2147483648", 0, 0},
               {"DS_GPU_SELF_CHECK", "99999999999999999999999", 0, 0}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    size_t i = 0;
    while (strcmp(FIELDS[i].name, cases[c].name) != 0) i++;
    fill();
    setenv(cases[c].name, cases[c].value, 1);
    err.msg[0] = '\0';
    const ds_status st = ds_gpu_options_from_env(&o, &err);
    unsetenv(cases[c].name);
    CHECK(cases[c].ok ? st == DS_OK && field(i) == cases[c].want
                      : st == DS_ERR_ARG && strstr(err.msg, cases[c].name) != NULL,
          "%s='%s': status %d, field %u, message '%s'", cases[c].name, cases[c].value, (int)st,
          field(i), err.msg);
  }
  return ds_test_finish("gpu options from the environment");
}
