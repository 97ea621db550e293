/* `sssp`: single-source shortest paths on a graph file, GPU and CPU
 * algorithms compared in one run. Options come from defaults, then --config,
 * then the command line (app/common: ds_app_main); run.c does the work, or
 * run_dist.c with several GPUs (--gpus, --mpi). The
 * exit code says what went wrong (cli.h, --help).
 */
#include <stdio.h>

#include "app.h"
#include "run.h"
#include "run_dist.h"
#include "sssp.h"

static void usage(FILE *f) {
  fprintf(f,
"usage: sssp --graph FILE [options]\n"
"\n"
"Single-source shortest paths by delta-stepping: GPU algorithms (multisplit\n"
"buckets, Near-Far, sort buckets, Bellman-Ford) and CPU ones (Dijkstra,\n"
"OpenMP delta-stepping), timed and compared in one run.\n"
"\n"
"input\n"
"  --graph FILE        graph: Matrix Market .mtx[.gz], DIMACS .gr, edge list\n"
"                      .el/.wel (format from the content); repeat for several\n"
"  --kron S            Graph500's Kronecker graph instead of a file: 2^S\n"
"                      vertices, E * 2^S undirected edges, float weights on\n"
"                      [0, 1), seeded by --seed; with --gpus or --mpi each rank\n"
"                      generates its share (no rank holds the whole graph)\n"
"  --edgefactor E      its edges per vertex (default %u, Graph500's)\n"
"  --undirected        store both directions of every edge\n"
"  --weights MIN:MAX   random integer weights for pattern graphs (default %u:%u)\n"
"  --weight-dist D     their distribution: uniform (default) | log (log-uniform\n"
"                      by octaves, MIN >= 1) | bimodal (99 %%: MIN .. MIN +\n"
"                      (MAX-MIN)/65536, 1 %%: the top half of the range)\n"
"  --seed S            seed for weights and random sources, 0..2^53-1 (the\n"
"                      JSON report holds it exactly); default %u\n"
"  --cache-dir DIR     where the binary cache lives, made when missing\n"
"                      (default: next to FILE)\n"
"  --no-cache          neither read nor write the binary cache\n"
"search\n"
"  --source N|random   source vertex in the file's numbering (1-based for\n"
"                      Matrix Market and DIMACS, 0-based for edge lists);\n"
"                      default: the first vertex with an out-arc\n"
"  --sources K         K random sources (seeded), distinct vertices with an\n"
"                      out-arc (fewer, with a note, where the graph has fewer);\n"
"                      each reported, and the mean\n"
"  --target T[,T2..]   stop once every target's distance is final (dijkstra,\n"
"                      cpu-delta, near-far; the bucket engines and\n"
"                      bellman-ford search to the end) and\n"
"                      print each target's distance and path from the source,\n"
"                      file numbering, for the first algorithm; one source\n"
"  --algo LIST|all     comma-separated: dijkstra, cpu-delta, near-far,\n"
"                      multisplit, sort, bellman-ford; all = every available.\n"
"                      Default: multisplit,near-far with a GPU, else\n"
"                      cpu-delta,dijkstra. Without a GPU, GPU algorithms run\n"
"                      as cpu-delta.\n"
"  --buckets M|auto    buckets of multisplit/sort, %u..%u (default auto: max\n"
"                      arc weight / delta rounded up to a power of two,\n"
"                      within %u..%u)\n"
"  --delta D|auto      bucket width of every algorithm; default auto: each\n"
"                      algorithm its backend's rule, rounded up and at least\n"
"                      1 for integer weights, in the table's delta column.\n"
"                      GPU algorithms: %g * mean arc weight, %g * below %g\n"
"                      arcs per vertex, %g * the median weight below %g arcs\n"
"                      per vertex where the mean is %g * it or more.\n"
"                      cpu-delta, also in a GPU algorithm's place without a\n"
"                      GPU: %g * the smaller of mean and median weight below\n"
"                      %g arcs per vertex where neighbourhoods grow like a\n"
"                      plane's (roads, grids, meshes), else %g * mean arc\n"
"                      weight / arcs per vertex\n"
"  --batch MODE        auto (default) | on | off: run the GPU algorithms'\n"
"                      sources together, one thread block a search, in one\n"
"                      launch (Near-Far, at cpu-delta's width under --delta\n"
"                      auto; distances only); auto where one search leaves\n"
"                      most of the GPU idle (fewer than %g arcs per vertex,\n"
"                      at most %u vertices, %u sources or more), on for any\n"
"                      graph and sources; with one source,\n"
"                      --predecessors or --target the sources run one after\n"
"                      another. One GPU only; the command line alone (no\n"
"                      configuration key)\n"
"  --threads T         CPU threads (default: OpenMP's)\n"
"  --device ID         CUDA device (default 0)\n"
"several GPUs (the distributed engine: multisplit and near-far only)\n"
"  --gpus N            N ranks in this process, rank r on GPU r, through NCCL;\n"
"                      the graph is loaded once and cut into the ranks' parts\n"
"  --mpi               one rank a process under mpirun (mpirun -np N sssp\n"
"                      --mpi ...), each on the GPU of its rank on its machine;\n"
"                      rank 0 reports, every rank ends with the same code\n"
"measure and check\n"
"  --trials N          timed trials after one untimed warm-up (default %u);\n"
"                      the median is reported, with min and max\n"
"  --validate          check every result with the independent validator and\n"
"                      against Dijkstra's distances\n"
"  --predecessors      compute predecessors (checked by --validate)\n"
"output\n"
"  --output FILE       'vertex distance [predecessor]' per line for the first\n"
"                      algorithm, file numbering, 'inf' and '-' if unreached;\n"
"                      with --target only the vertices on the targets' paths,\n"
"                      with their predecessors\n",
          DS_CLI_DEFAULT_EDGE_FACTOR, DS_CLI_DEFAULT_WEIGHT_MIN, DS_CLI_DEFAULT_WEIGHT_MAX,
          DS_CLI_DEFAULT_SEED, DS_CLI_MIN_BUCKETS, DS_CLI_MAX_BUCKETS, DS_BUCKETS_AUTO_MIN,
          DS_BUCKETS_AUTO_MAX,
          DS_DELTA_AUTO_SCALE,
          DS_DELTA_AUTO_SCALE_SPARSE, DS_DELTA_AUTO_SPARSE_DEGREE, DS_DELTA_AUTO_SCALE_HEAVY,
          DS_DELTA_AUTO_MEDIAN_DEGREE, DS_DELTA_AUTO_HEAVY_TAIL, DS_DELTA_AUTO_CPU_SCALE,
          DS_DELTA_AUTO_CPU_DENSE_DEGREE, DS_DELTA_AUTO_CPU_DENSE_SCALE,
          DS_GPU_BATCH_MAX_DEGREE, DS_GPU_BATCH_MAX_VERTICES, DS_GPU_BATCH_MIN_SOURCES,
          DS_CLI_DEFAULT_TRIALS);
  ds_cli_usage_tail(f, "CUDA failure, or the graph does not fit on the device;\n"
                       "     with --gpus or --mpi also a rank's GPU or NCCL failing, and a\n"
                       "     build without NCCL (or, for --mpi, without MPI)");
  fputs(
"  6  a distance does not fit: a float sum reaches FLT_MAX, or a GPU algorithm\n"
"     meets an integer distance beyond 2^32-3 (dijkstra and cpu-delta compute\n"
"     such graphs in 64 bits)\n",
        f);
}

/* The options, configuration keys and algorithms of sssp (cli.h). */
static const char *const SSSP_VALUE_OPTIONS[] = {
    "--graph", "--source", "--sources", "--target", "--buckets", "--delta", "--algo",    "--trials",
    "--json",  "--config", "--weights", "--weight-dist", "--seed", "--output", "--device",
    "--cache-dir", "--threads", "--gpus", "--kron", "--edgefactor", NULL};
static const char *const SSSP_FLAG_OPTIONS[] = {"--validate", "--undirected", "--predecessors",
                                                "--quiet",    "--help",       "--version",
                                                "--no-cache", "-h",           "--mpi",
                                                NULL};

static const char *sssp_algo_name(int a) { return ds_algo_name((ds_algo)a); }

static const ds_program SSSP = {
    "sssp", SSSP_VALUE_OPTIONS, SSSP_FLAG_OPTIONS,
    "graph, source, sources, algo, buckets, delta, trials, validate, undirected, predecessors, "
    "no_cache, weights, weight_dist, seed, device, threads, json, output, cache_dir",
    DS_ALGO_COUNT, sssp_algo_name, usage};

/* --batch: taken off the command line before the shared parser sees it
 * (run_sources.h), which has no place for it. */
static ds_batch_mode batch_mode = DS_BATCH_AUTO;

/* One GPU or none: run.c; several: the distributed engine's own driver. */
static ds_exit_code run(const ds_cli *cli) {
  if ((cli->gpus > 0 || cli->mpi) && batch_mode == DS_BATCH_ON) {
    fprintf(stderr, "sssp: --batch on runs on one GPU: not with --gpus or --mpi\n");
    return DS_EXIT_USAGE;
  }
  return cli->gpus > 0 || cli->mpi ? ds_run_dist(cli) : ds_run(cli, batch_mode);
}

int main(int argc, char **argv) {
  char msg[DS_CLI_MSG_LEN] = "";
  if (ds_run_take_batch(&argc, argv, SSSP_VALUE_OPTIONS, &batch_mode, msg, sizeof msg) != DS_EXIT_OK) {
    fprintf(stderr, "sssp: %s\n(sssp --help lists the options)\n", msg);
    return DS_EXIT_USAGE;
  }
  return ds_app_main(argc, argv, &SSSP, run);
}
