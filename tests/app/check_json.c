/* Checks a `--json` report of sssp, kcore or tc: it parses, and holds the
 * keys that the report promises (program, version, commit, command, machine,
 * gpu, and per run the graph, parameters and per-algorithm measurements with
 * one time per trial: per source for sssp; for kcore and tc the result, whose
 * counts must agree with the graph). Usage: check_json REPORT.json; exit 0
 * when complete. */
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

static int finish(const char *report) { return ds_test_finish("check_json: %s", report); }

int main(int argc, char **argv) {
  if (argc != 2) {
    printf("usage: check_json REPORT.json\n");
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
