/* shortest_paths: the deltasplit library from a program of one's own. Loads a
 * graph, runs SSSP on the GPU where one is present (on the CPU otherwise),
 * prints the distances of the first vertices, and the graph's k-core
 * degeneracy.
 *
 *   shortest_paths GRAPH [SOURCE]     SOURCE in the file's numbering; default: the first vertex
 *
 * Ends with the exit code of the programs (sssp, kcore) for the status that
 * stopped it: 0 success, 1 a bad argument, 2 an input error, 4 a device error.
 */
#include <stdio.h>
#include <stdlib.h>

#include <deltasplit/deltasplit.h>

#define SHOWN 5 /* vertices whose distance is printed */

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s GRAPH [SOURCE]\n", argv[0]);
    return dsp_status_exit_code(DSP_ERR_ARG);
  }
  dsp_error err;
  dsp_graph *g = NULL;
  dsp_gpu *gpu = NULL;
  dsp_sssp_result paths = {0};
  dsp_kcore_result cores = {0};
  dsp_graph_info info;
  // 1. the graph (through its binary cache, written beside it)
  dsp_status st = dsp_graph_load(argv[1], NULL, &g, &err);
  if (st == DSP_OK) st = dsp_graph_describe(g, &info, &err);
  if (st != DSP_OK) goto done;
  const int v = dsp_version(); /* 10000 major + 100 minor + patch */
  printf("%s: %u vertices, %llu arcs (deltasplit %d.%d.%d)\n", info.name, info.vertices,
         (unsigned long long)info.arcs, v / 10000, v / 100 % 100, v % 100);
  // 2. a GPU context where there is a GPU
  char reason[256];
  if (dsp_gpu_count(reason, sizeof reason) > 0) {
    dsp_gpu_options gopt;
    dsp_gpu_options_init(&gopt);
    gopt.engines = DSP_ENGINE_SSSP | DSP_ENGINE_KCORE;
    if ((st = dsp_gpu_open(g, &gopt, &gpu, &err)) != DSP_OK) goto done;
  } else {
    printf("no GPU (%s): the CPU runs it\n", reason);
  }
  // 3. shortest paths from the source, validated against Dijkstra
  const long given = argc > 2 ? strtol(argv[2], NULL, 10) : info.index_base;
  const uint32_t source = given < info.index_base ? UINT32_MAX : (uint32_t)(given - info.index_base);
  dsp_sssp_options sopt;
  dsp_sssp_options_init(&sopt);
  sopt.validate = 1;
  if ((st = dsp_sssp(g, gpu, &source, 1, &sopt, &paths, &err)) != DSP_OK) goto done;
  printf("%s from %ld: %.3f ms, %u vertices reached\n", dsp_sssp_algo_name(paths.algo), given,
         paths.time_ms, paths.reached);
  for (uint32_t v = 0; v < info.vertices && v < SHOWN; v++)
    printf("  distance to %u: %g\n", v + info.index_base, dsp_sssp_distance(&paths, v));
  // 4. k-core
  if ((st = dsp_kcore(g, gpu, NULL, &cores, &err)) != DSP_OK) goto done;
  printf("k-core (%s): degeneracy %u\n", dsp_backend_name(cores.backend), cores.degeneracy);
done:
  if (st != DSP_OK) fprintf(stderr, "%s: %s: %s\n", argv[0], dsp_status_name(st), err.msg);
  dsp_kcore_result_free(&cores);
  dsp_sssp_result_free(&paths, 1);
  dsp_gpu_close(gpu);
  dsp_graph_free(g);
  return dsp_status_exit_code(st);
}
