/* The CSR build on the GPU (ds/csr_gpu.h): sort of (row, column) keys with
 * msplit's radix sort, duplicates reduced to their least weight, offsets from
 * msplit's histogram. The result equals ds_csr_build's, arc for arc: both
 * order each row by column and keep, of every column, the least weight.
 */
#include <stdlib.h>
#include <string.h>

#include <chrono>

#include <cub/device/device_scan.cuh>
#include <msplit/histogram.cuh>
#include <msplit/radix_sort.cuh>

#include "ds/csr_gpu.h"
#include "ds/device.h"
#include "ds/cuda_try.h"
#include "ds/device_layout.h"
#include "ds/rng.h"
#include "host_copy.h"
extern "C" {
#include "graph_internal.h" // a C header without C++ guards
}

namespace {

constexpr int BLOCK = 256;
constexpr uint32_t NEG_ZERO = 0x80000000u; /* -0.0f: stored as +0, as the CPU build does */
constexpr uint64_t MAX_EDGES = 1ull << 31;  /* keys of both directions below 2^32 */

struct build_args {
  const uint32_t *src, *dst, *weights; /* weights NULL: pattern */
  uint64_t count;
  uint32_t n;
  int symmetric, is_float;
  uint64_t seed;
  uint32_t wmin, wmax;
  ds_weight_dist wdist;
  uint64_t *keys;
  uint32_t *values;
  unsigned long long *bad; /* the first bad edge's index, or ~0 */
};

/* 1. the keys: edge i at i (and its reverse at count + i); a self loop or a
 *    bad edge becomes n << 32, beyond every row */
__global__ void make_keys(build_args a) {
  const uint64_t beyond = (uint64_t)a.n << 32;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.count;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t u = a.src[i], v = a.dst[i];
    uint32_t w = 0;
    bool bad = u >= a.n || v >= a.n;
    if (a.weights == nullptr) {
      if (!bad) w = ds_pattern_weight(a.seed, u, v, a.wmin, a.wmax, a.wdist);
    } else {
      w = a.weights[i];
      if (a.is_float) {
        const float f = __uint_as_float(w);
        bad |= !(f >= 0.0f) || isinf(f);
        if (w == NEG_ZERO) w = 0;
      }
    }
    if (bad) atomicMin(a.bad, (unsigned long long)i);
    const bool drop = bad || u == v;
    a.keys[i] = drop ? beyond : ((uint64_t)u << 32) | v;
    a.values[i] = w;
    if (a.symmetric) {
      a.keys[a.count + i] = drop ? beyond : ((uint64_t)v << 32) | u;
      a.values[a.count + i] = w;
    }
  }
}

/* 3a. head[i] = 1 where a run of equal keys starts (rows only); head[total] = 0 */
__global__ void run_heads(const uint64_t *keys, uint64_t total, uint32_t n, uint32_t *head) {
  const uint64_t beyond = (uint64_t)n << 32;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i <= total;
       i += (uint64_t)gridDim.x * blockDim.x)
    head[i] = i < total && keys[i] < beyond && (i == 0 || keys[i] != keys[i - 1]);
}

/* 3b. every key to its arc: the head writes the column and the row, every
 *     member lowers the weight (weights start at ~0) */
__global__ void arcs_of_runs(const uint64_t *keys, const uint32_t *values, const uint32_t *head,
                             const uint32_t *pos, uint64_t total, uint32_t n, uint32_t *col,
                             uint32_t *row, uint32_t *weight) {
  const uint64_t beyond = (uint64_t)n << 32;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t k = keys[i];
    if (k >= beyond) continue;
    const uint32_t j = pos[i] + head[i] - 1; /* the run's arc */
    if (head[i]) {
      col[j] = (uint32_t)k;
      row[j] = (uint32_t)(k >> 32);
    }
    atomicMin(&weight[j], values[i]);
  }
}

unsigned grid_for(uint64_t items) {
  const uint64_t want = (items + BLOCK - 1) / BLOCK;
  return (unsigned)(want < 1 ? 1 : want < 65536 ? want : 65536);
}

int bit_length(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }

/* Device buffers of one build, in one allocation. */
struct buffers {
  uint32_t *src, *dst, *win;            /* count each (win: given weights only) */
  uint64_t *keys[2];                     /* total each */
  uint32_t *values[2];                   /* total each */
  uint32_t *head, *pos;                  /* total + 1 each */
  uint32_t *col, *row, *weight;          /* total each (the arcs) */
  unsigned long long *counts;            /* n + 1: rows' arcs, then offsets */
  unsigned long long *bad;
  void *temp;
  size_t temp_bytes;
};

uint64_t layout(uint32_t n, uint64_t count, int symmetric, int weighted, size_t temp,
                char *base, buffers *b) {
  const uint64_t total = count * (symmetric ? 2 : 1) + 1, c = count + 1;
  ds_layout l(base);
  b->src = l.take<uint32_t>(c);
  b->dst = l.take<uint32_t>(c);
  b->win = weighted ? l.take<uint32_t>(c) : nullptr;
  b->keys[0] = l.take<uint64_t>(total);
  b->keys[1] = l.take<uint64_t>(total);
  b->values[0] = l.take<uint32_t>(total);
  b->values[1] = l.take<uint32_t>(total);
  b->head = l.take<uint32_t>(total + 1);
  b->pos = l.take<uint32_t>(total + 1);
  b->col = l.take<uint32_t>(total);
  b->row = l.take<uint32_t>(total);
  b->weight = l.take<uint32_t>(total);
  b->counts = l.take<unsigned long long>((uint64_t)n + 1);
  b->bad = l.take<unsigned long long>(1);
  b->temp = l.take<char>(temp);
  b->temp_bytes = temp;
  return l.bytes();
}

/* Temporary storage of the sort, the scans and the histogram: the largest. */
msplit_status temp_needed(uint32_t n, uint64_t total, size_t *bytes) {
  size_t t = 0, most = 0;
  /* size queries: msplit answers them before it looks at any data pointer */
  uint64_t *k0 = nullptr, *k1 = nullptr;
  uint32_t *v0 = nullptr, *v1 = nullptr;
  msplit::double_buffer<uint64_t> keys(k0, k1);
  msplit::double_buffer<uint32_t> values(v0, v1);
  msplit_status st = msplit::radix_sort_pairs((void *)nullptr, &t, keys, values, total, 0, 64);
  if (st != MSPLIT_SUCCESS) return st;
  most = t > most ? t : most;
  st = msplit::histogram_even((void *)nullptr, &t, v0, total, n ? n : 1, 0u, 1u,
                              (unsigned long long *)k0);
  if (st != MSPLIT_SUCCESS) return st;
  most = t > most ? t : most;
  const uint64_t scanned = (total > n ? total : n) + 1;
  if (cub::DeviceScan::ExclusiveSum(nullptr, t, (unsigned long long *)nullptr,
                                    (unsigned long long *)nullptr, (int64_t)scanned) != cudaSuccess)
    return MSPLIT_ERROR_CUDA;
  most = t > most ? t : most;
  if (cub::DeviceScan::ExclusiveSum(nullptr, t, (uint32_t *)nullptr, (uint32_t *)nullptr,
                                    (int64_t)scanned) != cudaSuccess)
    return MSPLIT_ERROR_CUDA;
  *bytes = (t > most ? t : most);
  return MSPLIT_SUCCESS;
}

constexpr int PHASE_EVENTS = 3; /* keys, sort | arcs, offsets */

double since_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct device_state {
  void *block = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[PHASE_EVENTS] = {};
  ~device_state() {
    if (stream) cudaStreamSynchronize(stream);
    cudaFree(block);
    for (cudaEvent_t e : ev)
      if (e) cudaEventDestroy(e);
    if (stream) cudaStreamDestroy(stream);
  }
};

}  // namespace

extern "C" uint64_t ds_csr_build_gpu_bytes(uint32_t n, uint64_t count, int symmetric) {
  size_t temp = 0;
  const uint64_t total = count * (symmetric ? 2 : 1);
  if (temp_needed(n, total, &temp) != MSPLIT_SUCCESS) return UINT64_MAX;
  buffers b;
  return layout(n, count, symmetric, 1, temp, nullptr, &b);
}

static ds_status build(int device, const ds_edge_list *e, int symmetric, const ds_load_options *opt,
                       ds_csr_gpu_transfer transfer, ds_graph *g, int *bad_edge,
                       ds_csr_gpu_stats *stats, ds_error *err) {
  const uint32_t n = e->n;
  const uint64_t count = e->count, total = count * (symmetric ? 2 : 1);
  const int weighted = e->weights != nullptr;
  // 1. will it fit? Asked before the first allocation
  size_t temp = 0;
  if (temp_needed(n, total, &temp) != MSPLIT_SUCCESS)
    return ds_error_set(err, DS_ERR_DEVICE, "GPU CSR build: %s", msplit_last_error_message());
  buffers b;
  const uint64_t need = layout(n, count, symmetric, weighted, temp, nullptr, &b);
  uint64_t free_b = 0;
  DS_TRY(ds_device_mem_info(device, &free_b, NULL, err));
  if (need > free_b)
    return ds_error_set(err, DS_ERR_DEVICE,
                        "%llu edges do not fit on the GPU for the CSR build: needs %.2f GB, %.2f "
                        "GB available", (unsigned long long)count, need / 1e9, free_b / 1e9);
  device_state d;
  DS_CUDA_TRY(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
  DS_CUDA_TRY(cudaMalloc(&d.block, need));
  layout(n, count, symmetric, weighted, temp, (char *)d.block, &b);
  cudaStream_t s = d.stream;
  for (int i = 0; i < PHASE_EVENTS; i++) DS_CUDA_TRY(cudaEventCreate(&d.ev[i]));
  // 2. the edges up (pinned speed: host_copy.h), their keys, the sort
  ds_stage stage;
  DS_TRY(ds_stage_open(&stage, transfer, err));
  auto t0 = std::chrono::steady_clock::now();
  DS_TRY(ds_host_copy(b.src, e->src, 4 * count, true, transfer, &stage, s, err));
  DS_TRY(ds_host_copy(b.dst, e->dst, 4 * count, true, transfer, &stage, s, err));
  if (weighted) DS_TRY(ds_host_copy(b.win, e->weights, 4 * count, true, transfer, &stage, s, err));
  const double upload_ms = since_ms(t0);
  DS_CUDA_TRY(cudaMemsetAsync(b.bad, 0xFF, 8, s));
  DS_CUDA_TRY(cudaEventRecord(d.ev[0], s));
  build_args a = {b.src, b.dst, b.win, count, n, symmetric != 0,
                  e->weight_type == DS_WEIGHT_F32, opt->seed, opt->weight_min, opt->weight_max,
                  opt->weight_dist, b.keys[0], b.values[0], b.bad};
  make_keys<<<grid_for(count), BLOCK, 0, s>>>(a);
  DS_LAUNCH_CHECK("make_keys");
  msplit::double_buffer<uint64_t> keys(b.keys[0], b.keys[1]);
  msplit::double_buffer<uint32_t> values(b.values[0], b.values[1]);
  size_t tb = b.temp_bytes;
  DS_MSPLIT_TRY(
      msplit::radix_sort_pairs(b.temp, &tb, keys, values, total, 0, 32 + bit_length(n), s));
  const uint64_t *k = keys.current();
  const uint32_t *v = values.current();
  DS_CUDA_TRY(cudaEventRecord(d.ev[1], s));
  // 3. runs of equal keys -> arcs with the least weight
  run_heads<<<grid_for(total + 1), BLOCK, 0, s>>>(k, total, n, b.head);
  DS_LAUNCH_CHECK("run kernels");
  tb = b.temp_bytes;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(b.temp, tb, b.head, b.pos, (int64_t)total + 1, s));
  DS_CUDA_TRY(cudaMemsetAsync(b.weight, 0xFF, 4 * (total ? total : 1), s));
  arcs_of_runs<<<grid_for(total), BLOCK, 0, s>>>(k, v, b.head, b.pos, total, n, b.col, b.row,
                                                 b.weight);
  DS_LAUNCH_CHECK("run kernels");
  unsigned long long bad = 0;
  uint32_t arcs = 0;
  DS_CUDA_TRY(cudaMemcpyAsync(&bad, b.bad, 8, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaMemcpyAsync(&arcs, b.pos + total, 4, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  if (bad != ~0ull) {
    *bad_edge = 1;
    return DS_OK;
  }
  // 4. offsets: the histogram of the arcs' rows, scanned
  tb = b.temp_bytes;
  DS_CUDA_TRY(cudaMemsetAsync(b.counts + n, 0, 8, s));
  if (n > 0)
    DS_MSPLIT_TRY(msplit::histogram_even(b.temp, &tb, b.row, arcs, n, 0u, 1u, b.counts, s));
  tb = b.temp_bytes;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(b.temp, tb, b.counts, b.counts, (int64_t)n + 1, s));
  // 5. the CSR down
  g->row_offsets = (uint64_t *)ds_alloc_big(8 * ((size_t)n + 1)); /* huge pages: few faults */
  g->col = (uint32_t *)ds_alloc_big(4 * (size_t)(arcs ? arcs : 1));
  g->weights = ds_alloc_big(4 * (size_t)(arcs ? arcs : 1));
  if (!g->row_offsets || !g->col || !g->weights)
    return ds_error_set(err, DS_ERR_NOMEM, "out of memory building a CSR of %u vertices and %llu "
                        "edges", n, (unsigned long long)count);
  DS_CUDA_TRY(cudaEventRecord(d.ev[2], s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  t0 = std::chrono::steady_clock::now();
  DS_TRY(ds_host_copy(g->row_offsets, b.counts, 8 * ((size_t)n + 1), false, transfer, &stage, s,
                      err));
  DS_TRY(ds_host_copy(g->col, b.col, 4 * (size_t)arcs, false, transfer, &stage, s, err));
  DS_TRY(ds_host_copy(g->weights, b.weight, 4 * (size_t)arcs, false, transfer, &stage, s, err));
  const double download_ms = since_ms(t0);
  if (stats != NULL) {
    float ms[2] = {0, 0};
    for (int i = 0; i < 2; i++) DS_CUDA_TRY(cudaEventElapsedTime(&ms[i], d.ev[i], d.ev[i + 1]));
    stats->upload_ms = upload_ms;
    stats->sort_ms = ms[0];
    stats->arcs_ms = ms[1];
    stats->download_ms = download_ms;
  }
  g->n = n;
  g->m = arcs;
  return DS_OK;
}

extern "C" ds_status ds_csr_build_gpu(int device, const ds_edge_list *edges, int symmetric,
                                      const ds_load_options *opt, ds_graph *g, ds_error *err) {
  return ds_csr_build_gpu_stats(device, edges, symmetric, opt, g, NULL, err);
}

extern "C" ds_status ds_csr_build_gpu_stats(int device, const ds_edge_list *edges, int symmetric,
                                            const ds_load_options *opt, ds_graph *g,
                                            ds_csr_gpu_stats *stats, ds_error *err) {
  return ds_csr_build_gpu_ex(device, edges, symmetric, opt, DS_CSR_GPU_STAGED, g, stats, err);
}

extern "C" ds_status ds_csr_build_gpu_ex(int device, const ds_edge_list *edges, int symmetric,
                                         const ds_load_options *opt, ds_csr_gpu_transfer transfer,
                                         ds_graph *g, ds_csr_gpu_stats *stats, ds_error *err) {
  ds_load_options defaults;
  if (g == NULL || edges == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_csr_build_gpu: edges and g must not be NULL");
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  // what ds_csr_build reports in its own words: bad arguments, found here or on the device
  const int pattern = edges->weights == NULL;
  if ((edges->count > 0 && (edges->src == NULL || edges->dst == NULL)) ||
      (edges->weight_type != DS_WEIGHT_U32 && edges->weight_type != DS_WEIGHT_F32) ||
      (pattern &&
       ds_weight_dist_check(opt->weight_dist, opt->weight_min, opt->weight_max, NULL) != DS_OK))
    return ds_csr_build(edges, symmetric, opt, g, err);
  if (edges->count >= MAX_EDGES)
    return ds_error_set(err, DS_ERR_DEVICE, "GPU CSR build: %llu edges (at most 2^31 - 1)",
                        (unsigned long long)edges->count);
  memset(g, 0, sizeof *g);
  int bad_edge = 0;
  if ((unsigned)transfer > DS_CSR_GPU_PAGEABLE)
    return ds_error_set(err, DS_ERR_ARG, "ds_csr_build_gpu: unknown transfer %d", (int)transfer);
  ds_status st = build(device, edges, symmetric, opt, transfer, g, &bad_edge, stats, err);
  if (st != DS_OK || bad_edge) {
    ds_graph_free(g);
    if (st == DS_OK) return ds_csr_build(edges, symmetric, opt, g, err);
    return st;
  }
  ds_csr_describe(edges, symmetric, opt, g);
  return DS_OK;
}
