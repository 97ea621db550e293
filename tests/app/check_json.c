/* Checks a `--json` report of sssp, kcore or tc: it parses, and holds the
 * keys that the report promises (program, version, commit, command, machine,
 * gpu, and per run the graph, parameters and per-algorithm measurements with
 * one time per trial: per source for sssp; for kcore and tc the result, whose
 * counts must agree with the graph). For sssp, each algorithm's delta agrees
 * with its rule (check_deltas), and every NAME=DELTA given after the report
 * holds in every run: NAME an algorithm that must have run, or "gpu" for every
 * GPU algorithm (none without a GPU); DELTA a number, or "-" for none.
 * Usage: check_json REPORT.json [NAME=DELTA ...]; exit 0 when complete. */
#include "ds_test.h"

#include <cjson/cJSON.h>

#define MAX_REPORT_BYTES (64u << 20)

static const cJSON *need(const cJSON *obj, const char *key, int (*is)(const cJSON *)) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
  return CHECK(item != NULL && (is == NULL || is(item)), "key \"%s\" missing or of the wrong type",
               key)
             ? item
             : NULL;
}

static int is_string(const cJSON *x) { return cJSON_IsString(x); }
static int is_number(const cJSON *x) { return cJSON_IsNumber(x); }
static int is_object(const cJSON *x) { return cJSON_IsObject(x); }
static int is_array(const cJSON *x) { return cJSON_IsArray(x) && cJSON_GetArraySize(x) > 0; }
static int is_any(const cJSON *x) { return x != NULL; }
static int is_number_or_null(const cJSON *x) { return cJSON_IsNumber(x) || cJSON_IsNull(x); }

/* The runs of kcore and tc: per algorithm one time per trial and the count;
 * the result's count; kcore's vertices by core number add up to the graph's
 * vertices, with the last (the degeneracy's) not empty. */
static void check_kernel_runs(const cJSON *root, const char *program) {
  const int kcore = strcmp(program, "kcore") == 0;
  CHECK(kcore || strcmp(program, "tc") == 0, "unknown program \"%s\"", program);
  const char *total = kcore ? "degeneracy" : "triangles";
  const cJSON *runs = need(root, "runs", is_array), *run;
  cJSON_ArrayForEach(run, runs) {
    const cJSON *g = need(run, "graph", is_object);
    const cJSON *vertices = g ? need(g, "vertices", is_number) : NULL;
    if (g) CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "symmetric")),
                 "the graph is not undirected");
    const cJSON *p = need(run, "parameters", is_object);
    const cJSON *trials = p ? need(p, "trials", is_number) : NULL;
    if (p) need(p, "threads", is_number);
    const cJSON *result = need(run, "result", is_object);
    const cJSON *count = result ? need(result, total, is_number) : NULL;
    const cJSON *algos = need(run, "algorithms", is_array), *a;
    cJSON_ArrayForEach(a, algos) {
      need(a, "name", is_string);
      need(a, "validation", is_string);
      const char *keys[] = {"median_ms", "min_ms", "max_ms", total};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) need(a, keys[i], is_number);
      const cJSON *times = need(a, "times_ms", is_array);
      if (times && trials)
        CHECK(cJSON_GetArraySize(times) == (int)trials->valuedouble, "%d times for %g trials",
              cJSON_GetArraySize(times), trials->valuedouble);
    }
    if (kcore && result) {
      const cJSON *sizes = need(result, "vertices_by_core_number", is_array), *s;
      double sum = 0.0, last = 0.0;
      cJSON_ArrayForEach(s, sizes) {
        sum += s->valuedouble;
        last = s->valuedouble;
      }
      if (sizes && count)
        CHECK(cJSON_GetArraySize(sizes) == (int)count->valuedouble + 1 && last > 0,
              "%d core sizes for degeneracy %g", cJSON_GetArraySize(sizes), count->valuedouble);
      if (sizes && vertices)
        CHECK(sum == vertices->valuedouble, "core sizes add up to %g, not %g vertices", sum,
              vertices->valuedouble);
    }
  }
}

/* The deltas of one sssp run. An algorithm without buckets has delta null and
 * rule "none". A given delta is every other algorithm's; under auto a GPU
 * algorithm has "auto-gpu", a CPU one "auto-cpu", the algorithms of one rule
 * share one width, and the parameters' delta is the GPU rule's where a GPU
 * algorithm ran, else the CPU rule's. */
static void check_deltas(const cJSON *p, const cJSON *algos) {
  // main checks the parameters' keys; here they only have to be read
  const cJSON *pd = p ? cJSON_GetObjectItemCaseSensitive(p, "delta") : NULL;
  const cJSON *pr = p ? cJSON_GetObjectItemCaseSensitive(p, "delta_rule") : NULL;
  if (!cJSON_IsNumber(pd)) pd = NULL;
  const int given = cJSON_IsString(pr) && strcmp(pr->valuestring, "given") == 0;
  double rule_delta[2] = {-1.0, -1.0}; /* auto-gpu's and auto-cpu's, the first seen */
  const cJSON *a;
  cJSON_ArrayForEach(a, algos) {
    const cJSON *name = need(a, "name", is_string), *device = need(a, "device", is_string);
    const cJSON *d = need(a, "delta", is_number_or_null), *rule = need(a, "delta_rule", is_string);
    if (!name || !device || !d || !rule) continue;
    const char *n = name->valuestring;
    if (cJSON_IsNull(d)) {
      CHECK(strcmp(rule->valuestring, "none") == 0, "%s: no delta, but delta_rule \"%s\"", n,
            rule->valuestring);
      continue;
    }
    const int gpu = strcmp(device->valuestring, "gpu") == 0;
    const char *want = given ? "given" : gpu ? "auto-gpu" : "auto-cpu";
    CHECK(strcmp(rule->valuestring, want) == 0, "%s: delta_rule \"%s\", not \"%s\"", n,
          rule->valuestring, want);
    if (given && pd)
      CHECK(d->valuedouble == pd->valuedouble, "%s ran at delta %g, not the given %g", n,
            d->valuedouble, pd->valuedouble);
    double *shared = &rule_delta[!gpu];
    if (!given && *shared < 0.0) *shared = d->valuedouble;
    else if (!given)
      CHECK(d->valuedouble == *shared, "%s ran at delta %g, another %s algorithm at %g", n,
            d->valuedouble, device->valuestring, *shared);
  }
  const double run = rule_delta[0] >= 0.0 ? rule_delta[0] : rule_delta[1];
  if (!given && pd && run >= 0.0)
    CHECK(pd->valuedouble == run, "the parameters' delta %g is not the %s rule's %g",
          pd->valuedouble, rule_delta[0] >= 0.0 ? "GPU" : "CPU", run);
}

/* Reads the expectation NAME=DELTA (see the head of the file): 0 when malformed. */
static int parse_expectation(const char *expect, size_t *len, int *none, double *want) {
  const char *eq = strchr(expect, '=');
  if (eq == NULL || eq == expect) return 0;
  *len = (size_t)(eq - expect);
  *none = strcmp(eq + 1, "-") == 0;
  char *end = NULL;
  *want = *none ? 0.0 : strtod(eq + 1, &end);
  return *none || (end != eq + 1 && *end == '\0');
}

/* The expectation NAME=DELTA in one run's algorithms. */
static void check_expected_delta(const cJSON *algos, const char *expect) {
  size_t len = 0;
  int none = 0;
  double want = 0.0;
  if (!parse_expectation(expect, &len, &none, &want)) return; /* main refused it */
  const int any_gpu = len == strlen("gpu") && strncmp(expect, "gpu", len) == 0;
  int matched = 0;
  const cJSON *a;
  cJSON_ArrayForEach(a, algos) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(a, "name");
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(a, "device");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(a, "delta");
    if (!cJSON_IsString(name) || !cJSON_IsString(device) || !is_number_or_null(d)) continue;
    const char *match = any_gpu ? device->valuestring : name->valuestring;
    if (strlen(match) != len || strncmp(match, expect, len) != 0) continue;
    matched++;
    char got[32] = "none";
    if (cJSON_IsNumber(d)) snprintf(got, sizeof got, "%.10g", d->valuedouble);
    CHECK(none ? cJSON_IsNull(d) : cJSON_IsNumber(d) && d->valuedouble == want,
          "%s ran at delta %s, expected %s", name->valuestring, got, expect + len + 1);
  }
  CHECK(any_gpu || matched > 0, "%.*s did not run", (int)len, expect);
}

static int finish(const char *report) { return ds_test_finish("check_json: %s", report); }

int main(int argc, char **argv) {
  int bad_expectation = 0;
  for (int i = 2; i < argc; i++) {
    size_t len;
    int none;
    double want;
    bad_expectation |= !parse_expectation(argv[i], &len, &none, &want);
  }
  if (argc < 2 || bad_expectation) {
    printf("usage: check_json REPORT.json [NAME=DELTA ...]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!CHECK(f != NULL, "cannot open %s", argv[1])) return finish(argv[1]);
  char *text = malloc(MAX_REPORT_BYTES + 1);
  size_t len = text ? fread(text, 1, MAX_REPORT_BYTES, f) : 0;
  fclose(f);
  if (!CHECK(text != NULL, "no memory for the report")) return finish(argv[1]);
  text[len] = '\0';
  cJSON *root = cJSON_Parse(text);
  free(text);
  if (!CHECK(root != NULL, "%s is not valid JSON", argv[1])) return finish(argv[1]);
  // 1. the fixed part
  need(root, "program", is_string);
  need(root, "version", is_string);
  need(root, "commit", is_string);
  need(root, "command", is_array);
  need(root, "gpu", is_any);
  need(root, "exit_code", is_number);
  const cJSON *machine = need(root, "machine", is_object);
  if (machine) {
    need(machine, "hostname", is_string);
    need(machine, "cpu", is_string);
    need(machine, "threads", is_number);
  }
  const cJSON *program = need(root, "program", is_string);
  if (program && strcmp(program->valuestring, "sssp") != 0) {
    check_kernel_runs(root, program->valuestring);
    cJSON_Delete(root);
    return finish(argv[1]);
  }
  // 2. every run
  const cJSON *runs = need(root, "runs", is_array), *run;
  cJSON_ArrayForEach(run, runs) {
    const cJSON *g = need(run, "graph", is_object);
    if (g) {
      const char *keys[] = {"name", "path", "format", "weight_type", "cache"};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) need(g, keys[i], is_string);
      need(g, "vertices", is_number);
      need(g, "arcs", is_number);
      need(g, "load_ms", is_number);
    }
    const cJSON *p = need(run, "parameters", is_object);
    if (p) {
      const char *keys[] = {"delta", "buckets", "trials", "seed", "threads"};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) need(p, keys[i], is_number);
      need(p, "sources", is_array);
      need(p, "weights", is_string);
      need(p, "weight_dist", is_string);
      need(p, "delta_rule", is_string);
    }
    const cJSON *algos = need(run, "algorithms", is_array), *a;
    check_deltas(p, algos);
    for (int i = 2; algos && i < argc; i++) check_expected_delta(algos, argv[i]);
    cJSON_ArrayForEach(a, algos) {
      need(a, "name", is_string);
      need(a, "validation", is_string);
      need(a, "speedup", is_any);
      const cJSON *per = need(a, "per_source", is_array), *s;
      cJSON_ArrayForEach(s, per) {
        const char *keys[] = {"source", "median_ms", "min_ms", "max_ms", "rounds",
                              "edges_relaxed", "reached", "mteps"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) need(s, keys[i], is_number);
        const cJSON *times = need(s, "times_ms", is_array);
        const cJSON *trials = p ? cJSON_GetObjectItemCaseSensitive(p, "trials") : NULL;
        if (times && trials)
          CHECK(cJSON_GetArraySize(times) == (int)trials->valuedouble, "%d times for %g trials",
                cJSON_GetArraySize(times), trials->valuedouble);
      }
    }
  }
  cJSON_Delete(root);
  return finish(argv[1]);
}
