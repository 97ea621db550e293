/* The GPU context of the public API: one engine context per engine asked for
 * (app/sssp/gpu's ds_gpu_open for SSSP, ds_kcore_gpu_open, ds_tc_gpu_open), the
 * device memory they need before any of them allocates, and the locks that
 * keep calls on one context, and on one device, one at a time. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "ds/device.h"
#ifdef DSP_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#define NO_CUDA_REASON "this build of deltasplit has no CUDA"

/* Devices whose calls are serialised by a lock of their own; devices beyond
 * share them (a lock too many costs nothing but waiting). */
#define DEVICE_LOCKS 64
static pthread_mutex_t device_lock[DEVICE_LOCKS];
static pthread_once_t device_lock_once = PTHREAD_ONCE_INIT;

static void device_lock_init(void) {
  for (int i = 0; i < DEVICE_LOCKS; i++) pthread_mutex_init(&device_lock[i], NULL);
}

static pthread_mutex_t *lock_of(int device) {
  pthread_once(&device_lock_once, device_lock_init);
  return &device_lock[(unsigned)device % DEVICE_LOCKS];
}

void dsp_gpu_options_init(dsp_gpu_options *opt) {
  if (opt == NULL) return;
  memset(opt, 0, sizeof *opt);
  opt->device = 0;
  opt->stream = NULL;
  opt->engines = DSP_ENGINE_ALL;
  opt->tc_intersect = DSP_TC_INTERSECT_AUTO;
}

int dsp_gpu_count(char *reason, size_t reason_len) { return ds_device_count(reason, reason_len); }

static dsp_status check_options(const dsp_gpu_options *o, dsp_error *err) {
  if (o->engines == 0 || (o->engines & ~DSP_ENGINE_ALL) != 0)
    return dsp_fail(err, DSP_ERR_ARG, "GPU option engines = %#x: give one or more of DSP_ENGINE_SSSP, "
                    "DSP_ENGINE_KCORE and DSP_ENGINE_TC", o->engines);
  if ((unsigned)o->tc_intersect > DSP_TC_INTERSECT_SEARCH)
    return dsp_fail(err, DSP_ERR_ARG, "GPU option tc_intersect = %d is not a dsp_tc_intersect",
                    (int)o->tc_intersect);
  if (o->device < 0)
    return dsp_fail(err, DSP_ERR_ARG, "GPU option device = %d: devices are numbered from 0", o->device);
  return DSP_OK;
}

/* What dsp_gpu_bytes and dsp_gpu_open check first: g and their output, the
 * options (*opt: defaults where NULL), and that the build has CUDA. */
static dsp_status prepare(const dsp_graph *g, const void *out, const dsp_gpu_options **opt,
                          dsp_gpu_options *defaults, const char *who, dsp_error *err) {
  dsp_clear(err);
  if (g == NULL || out == NULL) return dsp_fail(err, DSP_ERR_ARG, "%s: g and its output must not be NULL", who);
  if (*opt == NULL) {
    dsp_gpu_options_init(defaults);
    *opt = defaults;
  }
  dsp_status st = check_options(*opt, err);
  if (st == DSP_OK && !dsp_built_with_cuda()) st = dsp_fail(err, DSP_ERR_NO_CUDA, "%s: " NO_CUDA_REASON, who);
  return st;
}

/* The bound ds_gpu_open checks before it allocates: the CSR (offsets, and
 * arcs packed with their weights), six words a vertex of search state, the
 * huge lists at their least degree, the largest algorithm's queues, and the
 * fixed piece lists and temporaries. The constants are ds_gpu_open's (its
 * context's queues and piece lists are private to the engine); the API's GPU
 * test holds the estimate against what a context takes after a search. */
#define SSSP_STATE_BYTES_PER_VERTEX (8u + 4u + 4u + 4u + 4u + 4u)
#define SSSP_QUEUE_BYTES_PER_VERTEX (4u * 40u)
#define SSSP_HUGE_ENTRY_BYTES 24u
#define SSSP_HUGE_DEGREE_MIN 256u
#define SSSP_FIXED_BYTES ((uint64_t)64 << 20)
static uint64_t sssp_bytes(uint32_t n, uint64_t m) {
  const uint64_t graph = 8ull * (n + 1ull) + 8ull * m;
  const uint64_t huge = SSSP_HUGE_ENTRY_BYTES * 2ull * (m / SSSP_HUGE_DEGREE_MIN + 1);
  return graph + (uint64_t)n * (SSSP_STATE_BYTES_PER_VERTEX + SSSP_QUEUE_BYTES_PER_VERTEX) + huge +
         SSSP_FIXED_BYTES;
}

/* A hash probe's set holds every oriented arc (ds_tc_gpu_bytes leaves it out). */
#define TC_HASH_BYTES_PER_EDGE 16u

dsp_status dsp_gpu_bytes(const dsp_graph *g, const dsp_gpu_options *opt, uint64_t *bytes,
                         dsp_error *err) {
  dsp_gpu_options defaults;
  dsp_status st = prepare(g, bytes, &opt, &defaults, "dsp_gpu_bytes", err);
  if (st != DSP_OK) return st;
  const uint32_t n = g->g.n;
  /* a directed graph's undirected form has at most twice its arcs */
  const uint64_t m = g->g.m, m_und = g->g.symmetric ? m : 2 * m;
  uint64_t total = 0;
  if (opt->engines & DSP_ENGINE_SSSP) total += sssp_bytes(n, m);
  if (opt->engines & DSP_ENGINE_KCORE) total += ds_kcore_gpu_bytes(n, m_und);
  if (opt->engines & DSP_ENGINE_TC) {
    total += ds_tc_gpu_bytes(n, m_und);
    if (opt->tc_intersect == DSP_TC_INTERSECT_HASH) total += TC_HASH_BYTES_PER_EDGE * (m_und / 2);
  }
  *bytes = total;
  return DSP_OK;
}

void dsp_gpu_close(dsp_gpu *gpu) {
  if (gpu == NULL) return;
  pthread_mutex_t *dev = lock_of(gpu->device);
  pthread_mutex_lock(dev);
  ds_gpu_close(gpu->sssp);
  ds_kcore_gpu_close(gpu->kcore);
  ds_tc_gpu_close(gpu->tc);
  pthread_mutex_unlock(dev);
  pthread_mutex_destroy(&gpu->lock);
  free(gpu);
}

/* Waits for the work the caller queued on its stream. */
static dsp_status wait_stream(const dsp_gpu *gpu, dsp_error *err) {
#ifdef DSP_HAVE_CUDA
  cudaError_t e = cudaSetDevice(gpu->device);
  if (e == cudaSuccess) e = cudaStreamSynchronize((cudaStream_t)gpu->stream);
  if (e != cudaSuccess)
    return dsp_fail(err, DSP_ERR_DEVICE, "device %d: the caller's stream failed: %s", gpu->device,
                    cudaGetErrorString(e));
  return DSP_OK;
#else
  (void)gpu;
  return dsp_fail(err, DSP_ERR_NO_CUDA, NO_CUDA_REASON);
#endif
}

/* The engines of opt->engines over g, on an empty context. */
static dsp_status open_engines(dsp_gpu *gpu, const dsp_gpu_options *opt, dsp_error *err) {
  const ds_graph *g = &gpu->graph->g;
  ds_error e = {{0}};
  ds_status st = DS_OK;
  dsp_status ps = wait_stream(gpu, err);
  if (ps != DSP_OK) return ps;
  if (opt->engines & DSP_ENGINE_SSSP) {
    st = ds_gpu_open(gpu->device, g, NULL, &gpu->sssp, &e);
    if (st != DS_OK) return dsp_fail_ds(err, st, &e);
  }
  if (!(opt->engines & (DSP_ENGINE_KCORE | DSP_ENGINE_TC))) return DSP_OK;
  ds_graph tmp;
  const ds_graph *und = NULL;
  if ((ps = dsp_undirected(g, &tmp, &und, err)) != DSP_OK) return ps;
  if (opt->engines & DSP_ENGINE_KCORE) st = ds_kcore_gpu_open(gpu->device, und, NULL, &gpu->kcore, &e);
  if (st == DS_OK && (opt->engines & DSP_ENGINE_TC)) {
    static const char *const PROBE[] = {"auto", "bitmap", "hash", "search"};
    ds_tc_gpu_options to;
    ds_tc_gpu_options_default(&to);
    ds_tc_gpu_options_intersect(&to, PROBE[opt->tc_intersect]);
    st = ds_tc_gpu_open(gpu->device, und, &to, &gpu->tc, &e);
  }
  if (und == &tmp) ds_graph_free(&tmp);
  return st == DS_OK ? DSP_OK : dsp_fail_ds(err, st, &e);
}

dsp_status dsp_gpu_open(const dsp_graph *g, const dsp_gpu_options *opt, dsp_gpu **gpu,
                        dsp_error *err) {
  // 1. check arguments and the device
  if (gpu != NULL) *gpu = NULL;
  dsp_gpu_options defaults;
  dsp_status st = prepare(g, gpu, &opt, &defaults, "dsp_gpu_open", err);
  if (st != DSP_OK) return st;
  char reason[256] = "";
  const int devices = ds_device_count(reason, sizeof reason);
  if (devices == 0) return dsp_fail(err, DSP_ERR_DEVICE, "dsp_gpu_open: no GPU (%s)", reason);
  if (opt->device >= devices)
    return dsp_fail(err, DSP_ERR_ARG, "device %d does not exist: %d CUDA device%s (0..%d)",
                                   opt->device, devices, devices == 1 ? "" : "s", devices - 1);
  if (g->g.n == 0) return dsp_fail(err, DSP_ERR_ARG, "dsp_gpu_open: graph %s has no vertices", g->g.name);
  // 2. the context, and its engines (their fit checked by each before it allocates)
  dsp_gpu *c = (dsp_gpu *)calloc(1, sizeof *c);
  if (c == NULL) return dsp_fail(err, DSP_ERR_NOMEM, "dsp_gpu_open: out of host memory");
  c->graph = g;
  c->device = opt->device;
  c->stream = opt->stream;
  c->engines = opt->engines;
  pthread_mutex_init(&c->lock, NULL);
  pthread_mutex_t *dev = lock_of(c->device);
  pthread_mutex_lock(dev);
  st = open_engines(c, opt, err);
  pthread_mutex_unlock(dev);
  if (st != DSP_OK) {
    dsp_gpu_close(c);
    return st;
  }
  *gpu = c;
  return DSP_OK;
}

dsp_status dsp_gpu_check(const dsp_graph *g, const dsp_gpu *gpu, unsigned engine, const char *who,
                         dsp_error *err) {
  static const char *const NAME[] = {"", "SSSP", "k-core", "", "triangle counting"};
  if (g == NULL) return dsp_fail(err, DSP_ERR_ARG, "%s: g must not be NULL", who);
  if (gpu == NULL) return DSP_OK;
  if (gpu->graph != g)
    return dsp_fail(err, DSP_ERR_ARG, "%s: the GPU context is over graph %s, not %s", who,
                    gpu->graph->g.name, g->g.name);
  if (!(gpu->engines & engine))
    return dsp_fail(err, DSP_ERR_ARG, "%s: the GPU context was opened without the %s engine (DSP_ENGINE_*)",
                    who, NAME[engine < 5 ? engine : 0]);
  return DSP_OK;
}

dsp_status dsp_gpu_begin(dsp_gpu *gpu, dsp_error *err) {
  if (gpu == NULL) return DSP_OK;
  pthread_mutex_lock(&gpu->lock);
  pthread_mutex_lock(lock_of(gpu->device));
  dsp_status st = wait_stream(gpu, err);
  if (st != DSP_OK) dsp_gpu_end(gpu);
  return st;
}

void dsp_gpu_end(dsp_gpu *gpu) {
  if (gpu == NULL) return;
  pthread_mutex_unlock(lock_of(gpu->device));
  pthread_mutex_unlock(&gpu->lock);
}

dsp_status dsp_pick_backend(const dsp_gpu *gpu, dsp_backend asked, const char *who, dsp_backend *out,
                            dsp_error *err) {
  if ((unsigned)asked > DSP_BACKEND_ORACLE)
    return dsp_fail(err, DSP_ERR_ARG, "%s: backend %d is not a dsp_backend", who, (int)asked);
  *out = asked == DSP_BACKEND_AUTO ? (gpu != NULL ? DSP_BACKEND_GPU : DSP_BACKEND_CPU) : asked;
  if (*out != DSP_BACKEND_GPU || gpu != NULL) return DSP_OK;
  return dsp_built_with_cuda() ? dsp_fail(err, DSP_ERR_DEVICE, "%s: the GPU backend needs a GPU context", who)
                               : dsp_fail(err, DSP_ERR_NO_CUDA, "%s: the GPU backend: " NO_CUDA_REASON, who);
}

double dsp_seconds(void) { return omp_get_wtime(); }
