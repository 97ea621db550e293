/* Graph500's Kronecker edges drawn on the GPU (dkron_gpu.h): kron_edge.h's
 * per-edge math, compiled for the device, a thread an edge. The plan (the
 * levels' thresholds and the scramble's constants, about 850 bytes) is a
 * kernel parameter, read by every thread from the constant bank.
 *
 * The distributed build on the GPU (ds_dkron_build_device) groups a rank's
 * arcs by owner as dgraph_build.c's group_by_owner does, in its order:
 *   1. the arcs per owner, counted by a pass that draws every edge again (the
 *      host array's layout, so that chunks land where they belong);
 *   2. per chunk of edges: a kernel draws each edge and writes its arcs
 *      (tail, head, weight bits) at 2i and 2i + 1 (i + 0 unless symmetric)
 *      with their bucket: the owner of the tail, or R for a self-loop;
 *   3. msplit's stable split of those 12-byte records into R + 1 buckets:
 *      bucket r holds rank r's arcs in edge order, forward before reverse,
 *      which is the CPU's order; bucket R (the loops) is not copied;
 *   4. each bucket copied to the host at its owner's running position.
 * Records rather than (key, value) pairs: the records are what the exchange
 * sends, so the split writes the send buffer itself, reading 16 bytes and
 * writing 12 a record (ids + records in, records out) where a multisplit of
 * (owner, index) pairs and a gather would move about 28 + 24. The bucket ids
 * come from the kernel that writes the records (4 bytes more written),
 * not from split_records_by's functor, which would read every record again.
 */
#include "dist/dkron_gpu.h"

#include <msplit/multisplit.h> /* msplit_copy_offsets_sync */
#include <msplit/records.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds/cuda_try.h"
#include "ds/graph500.h"
#include "ds/kron_edge.h"

#define DRAW_THREADS 256
#define DRAW_MAX_BLOCKS 65535u /* a grid-stride loop covers the rest */
/* A chunk's buffers may take this share of the GPU's free memory: the rest
 * for the CUDA runtime and for ranks that share the GPU (tests run several). */
#define FREE_SHARE 0.8
/* Where not even this many edges fit, a step is left to the host: smaller
 * chunks would spend more in launches and copies than the host's loop. */
#define MIN_CHUNK_EDGES (UINT64_C(1) << 20)
#define MAX_SPLIT_RECORDS UINT32_MAX /* msplit indexes records with 32 bits */
#define ARC_WORDS 3                  /* tail, head, weight bits: dgraph_build.c's arcs */
#define EDGE_BYTES (2 * sizeof(uint32_t) + sizeof(float))

struct arc {
  uint32_t tail, head, wbits;
};
static_assert(sizeof(arc) == ARC_WORDS * sizeof(uint32_t), "an arc is dgraph_build.c's 3 words");

static_assert(sizeof(ds_kron_plan) <= 4096, "the plan must fit the kernel parameters");

static ds_kron_plan graph500_plan(const ds_dkron_spec *spec) {
  ds_kron_plan plan;
  ds_kron_plan_init(&plan, spec->seed, spec->scale, (uint32_t)(UINT64_C(1) << spec->scale),
                    DS_KRON_GRAPH500_A, DS_KRON_GRAPH500_B, DS_KRON_GRAPH500_C, 1);
  return plan;
}

static unsigned draw_blocks(uint64_t len) {
  const uint64_t want = (len + DRAW_THREADS - 1) / DRAW_THREADS;
  return want < DRAW_MAX_BLOCKS ? (unsigned)want : DRAW_MAX_BLOCKS;
}

__global__ void draw_edges(ds_kron_plan plan, uint64_t begin, uint64_t len, uint32_t *src,
                           uint32_t *dst, float *w) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += stride) {
    uint32_t u, v;
    const uint64_t draw = ds_kron_edge(&plan, begin + k, &u, &v);
    src[k] = u;
    dst[k] = v;
    w[k] = ds_kron_unit_weight(draw);
  }
}

extern "C" ds_status ds_dkron_generate_device(const ds_dkron_spec *spec, uint64_t begin,
                                              uint64_t end, uint32_t *d_src, uint32_t *d_dst,
                                              float *d_w, cudaStream_t stream, ds_error *err) {
  // 1. arguments: the host generator's checks
  ds_status st =
      spec != NULL ? ds_graph500_range_check(spec->scale, spec->edge_factor, begin, end, err)
                   : ds_error_set(err, DS_ERR_ARG, "kron: the spec must not be NULL");
  if (st != DS_OK) return st;
  const uint64_t len = end - begin;
  if (len == 0) return DS_OK;
  if (d_src == NULL || d_dst == NULL || d_w == NULL)
    return ds_error_set(err, DS_ERR_ARG, "kron: the device arrays must not be NULL");
  // 2. the plan, on the host; the launch
  const ds_kron_plan plan = graph500_plan(spec);
  draw_edges<<<draw_blocks(len), DRAW_THREADS, 0, stream>>>(plan, begin, len, d_src, d_dst, d_w);
  const cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "kron: the generator's launch failed: %s",
                        cudaGetErrorString(e));
  return DS_OK;
}

/* ---- the build: edges drawn and grouped by owner on the GPU -------------- */

/* ds_partition_owner on the device: the r with bounds[r] <= v < bounds[r + 1]. */
__device__ __forceinline__ uint32_t owner_of(const uint32_t *bounds, uint32_t ranks, uint32_t v) {
  uint32_t lo = 0, hi = ranks;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (__ldg(&bounds[mid]) <= v) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* An edge's weight as dgraph_build.c sends it: its bits, -0 as +0. */
__device__ __forceinline__ uint32_t weight_bits(uint64_t draw) {
  float w = ds_kron_unit_weight(draw);
  if (w == 0.0f) w = 0.0f;
  return __float_as_uint(w);
}

/* 1. the arcs of edges [first, first + len) for each owner (self-loops dropped),
 *    added to counts: a block's counters in shared memory (ranks of them). */
__global__ void count_owners(ds_kron_plan plan, uint64_t first, uint64_t len,
                             const uint32_t *bounds, uint32_t ranks, int symmetric,
                             unsigned long long *counts) {
  extern __shared__ unsigned int block_counts[];
  for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x) block_counts[r] = 0;
  __syncthreads();
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += stride) {
    uint32_t u, v;
    ds_kron_edge(&plan, first + k, &u, &v);
    if (u == v) continue;
    atomicAdd(&block_counts[owner_of(bounds, ranks, u)], 1u);
    if (symmetric) atomicAdd(&block_counts[owner_of(bounds, ranks, v)], 1u);
  }
  __syncthreads();
  for (uint32_t r = threadIdx.x; r < ranks; r += blockDim.x)
    if (block_counts[r] != 0) atomicAdd(&counts[r], (unsigned long long)block_counts[r]);
}

/* 2. edge first + k's arcs at per k (and per k + 1), with their buckets:
 *    the tail's owner, or ranks (the bucket after the last) for a loop. */
__global__ void pack_arcs(ds_kron_plan plan, uint64_t first, uint64_t len, const uint32_t *bounds,
                          uint32_t ranks, int symmetric, arc *arcs, uint32_t *buckets) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  const uint64_t per = symmetric ? 2 : 1;
  for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < len; k += stride) {
    uint32_t u, v;
    const uint32_t wb = weight_bits(ds_kron_edge(&plan, first + k, &u, &v));
    const bool loop = u == v;
    const uint64_t at = per * k;
    arcs[at] = arc{u, v, wb};
    buckets[at] = loop ? ranks : owner_of(bounds, ranks, u);
    if (!symmetric) continue;
    arcs[at + 1] = arc{v, u, wb};
    buckets[at + 1] = loop ? ranks : owner_of(bounds, ranks, v);
  }
}

/* The rank's build on its GPU: the share it draws (set by the generator, read
 * by the grouper), the chunk size asked for, the stream, and the note. */
typedef struct {
  uint64_t begin, end;
  uint64_t chunk_edges;
  cudaStream_t stream;
  char *note; /* DS_DKRON_NOTE_LEN bytes, or NULL */
  int rank;
} gpu_build;

/* A step left to the host: why, after any earlier note. */
static void add_note(gpu_build *b, const char *step, double need_gb, double free_gb) {
  if (b->note == NULL) return;
  const size_t used = strlen(b->note);
  snprintf(b->note + used, DS_DKRON_NOTE_LEN - used, "%srank %d: %s on the host: a chunk of "
           "%.2f GB does not fit the %.2f GB free on its GPU", used ? "; " : "", b->rank, step,
           need_gb, free_gb);
}

/* The split's temporary storage for records records into buckets buckets. */
static ds_status split_temp(uint64_t records, uint32_t buckets, size_t *bytes, ds_error *err) {
  *bytes = 0;
  DS_MSPLIT_TRY(msplit::split_records<arc>(nullptr, bytes, nullptr, nullptr, nullptr, nullptr,
                                           (size_t)records, buckets, nullptr, 0));
  return DS_OK;
}

/* The edges of a chunk: the share (at most chunk_edges if set, records of
 * per arcs within msplit's bound) halved until edge_bytes an edge and the
 * split's storage (buckets > 0) fit FREE_SHARE of the free memory. 0 where
 * MIN_CHUNK_EDGES do not fit (or an explicit chunk_edges does not), with
 * what it needed and had. */
static ds_status fit_chunk(const gpu_build *b, uint64_t len, uint64_t edge_bytes, uint64_t per,
                           uint32_t buckets, uint64_t *chunk, double *need, double *have,
                           ds_error *err) {
  uint64_t c = b->chunk_edges != 0 && b->chunk_edges < len ? b->chunk_edges : len;
  if (c * per > MAX_SPLIT_RECORDS) c = MAX_SPLIT_RECORDS / per;
  size_t free_bytes = 0, total = 0;
  DS_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total));
  *have = FREE_SHARE * (double)free_bytes;
  for (;;) {
    size_t temp = 0;
    if (buckets > 0) DS_TRY(split_temp(c * per, buckets, &temp, err));
    *need = (double)c * (double)edge_bytes + (double)temp;
    if (*need <= *have) break;
    if (c <= MIN_CHUNK_EDGES || b->chunk_edges != 0) {
      *chunk = 0;
      return DS_OK;
    }
    c /= 2;
  }
  *chunk = c;
  return DS_OK;
}

/* cudaMalloc that tells a full GPU (*full set, the error cleared) from
 * other failures (an error). */
static ds_status dev_alloc(void **p, size_t bytes, int *full, ds_error *err) {
  const cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    *p = NULL;
    *full = 1;
    return DS_OK;
  }
  if (e != cudaSuccess)
    return ds_error_set(err, DS_ERR_DEVICE, "cudaMalloc of %zu bytes for the Kronecker build "
                        "failed: %s", bytes, cudaGetErrorString(e));
  return DS_OK;
}

/* The generator of the engine: the share drawn on the GPU a chunk at a time,
 * each chunk copied into out's host arrays (which the partition and the
 * exchange read). */
typedef struct {
  uint32_t *src, *dst;
  float *w;
} draw_bufs;

static ds_status draw_chunks(gpu_build *b, const ds_dkron_spec *spec, uint64_t chunk,
                             draw_bufs *d, ds_dkron_edges *out, int *full, ds_error *err) {
  const uint64_t len = b->end - b->begin;
  DS_TRY(dev_alloc((void **)&d->src, chunk * sizeof(uint32_t), full, err));
  if (!*full) DS_TRY(dev_alloc((void **)&d->dst, chunk * sizeof(uint32_t), full, err));
  if (!*full) DS_TRY(dev_alloc((void **)&d->w, chunk * sizeof(float), full, err));
  if (*full) return DS_OK;
  DS_TRY(ds_dkron_edges_alloc(spec, len, out, err));
  for (uint64_t at = 0; at < len; at += chunk) {
    const uint64_t n = len - at < chunk ? len - at : chunk;
    DS_TRY(ds_dkron_generate_device(spec, b->begin + at, b->begin + at + n, d->src, d->dst, d->w,
                                    b->stream, err));
    DS_CUDA_TRY(cudaMemcpyAsync(out->src + at, d->src, n * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, b->stream));
    DS_CUDA_TRY(cudaMemcpyAsync(out->dst + at, d->dst, n * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, b->stream));
    DS_CUDA_TRY(cudaMemcpyAsync(out->w + at, d->w, n * sizeof(float), cudaMemcpyDeviceToHost,
                                b->stream));
  }
  DS_CUDA_TRY(cudaStreamSynchronize(b->stream));
  return DS_OK;
}

static ds_status draw_on_gpu(void *ctx, const ds_dkron_spec *spec, uint64_t begin, uint64_t end,
                             ds_dkron_edges *out, int *on_device, ds_error *err) {
  gpu_build *b = (gpu_build *)ctx;
  memset(out, 0, sizeof *out);
  *on_device = 0;
  ds_status st = ds_dkron_spec_check(spec, err);
  if (st == DS_OK) st = ds_graph500_range_check(spec->scale, spec->edge_factor, begin, end, err);
  if (st != DS_OK) return st;
  b->begin = begin;
  b->end = end;
  uint64_t chunk = 0;
  double need = 0, have = 0;
  int full = 0;
  if (end > begin) st = fit_chunk(b, end - begin, EDGE_BYTES, 1, 0, &chunk, &need, &have, err);
  if (st != DS_OK) return st;
  if (end > begin && chunk == 0) full = 1;
  draw_bufs d = {NULL, NULL, NULL};
  if (!full && end > begin) st = draw_chunks(b, spec, chunk, &d, out, &full, err);
  cudaFree(d.src), cudaFree(d.dst), cudaFree(d.w);
  if (st != DS_OK) {
    ds_dkron_edges_free(out);
    return st;
  }
  if (end == begin) {
    *on_device = 1; /* nothing to draw */
    return ds_dkron_edges_alloc(spec, 0, out, err);
  }
  if (!full) {
    *on_device = 1;
    return DS_OK;
  }
  // no room: the host draws the same edges
  ds_dkron_edges_free(out);
  add_note(b, "the edges drawn", need / 1e9, have / FREE_SHARE / 1e9);
  return ds_dkron_generate(spec, begin, end, out, err);
}

/* The grouper's device and host arrays, freed on one path. */
typedef struct {
  uint32_t *d_bounds, *d_buckets;
  unsigned long long *d_counts;
  arc *d_arcs, *d_out;
  void *d_temp;
  size_t temp_bytes;
  size_t *d_offsets, *h_offsets;
  uint64_t *pos, *stop;
  uint32_t *h_arcs;
} group_bufs;

static void group_bufs_free(group_bufs *m) {
  cudaFree(m->d_bounds), cudaFree(m->d_buckets), cudaFree(m->d_counts);
  cudaFree(m->d_arcs), cudaFree(m->d_out), cudaFree(m->d_temp), cudaFree(m->d_offsets);
  free(m->h_offsets), free(m->pos), free(m->stop), free(m->h_arcs);
  memset(m, 0, sizeof *m);
}

/* Steps 1-4 of the file's comment; *full where the GPU had no room (nothing
 * grouped then). m->h_arcs holds the arcs on success. */
static ds_status group_steps(gpu_build *b, const ds_dkron_spec *spec, const ds_partition *part,
                             int symmetric, uint64_t chunk, uint64_t *counts, group_bufs *m,
                             int *full, ds_error *err) {
  const uint32_t ranks = (uint32_t)part->ranks, buckets = ranks + 1; /* + the loops' */
  const uint64_t len = b->end - b->begin, per = symmetric ? 2 : 1;
  const ds_kron_plan plan = graph500_plan(spec);
  cudaStream_t s = b->stream;
  // 0. the buffers: a chunk's arcs twice (packed, split) and their buckets, the split's storage
  DS_TRY(split_temp(chunk * per, buckets, &m->temp_bytes, err));
  void **dev[] = {(void **)&m->d_arcs, (void **)&m->d_out, (void **)&m->d_buckets, &m->d_temp,
                  (void **)&m->d_bounds, (void **)&m->d_counts, (void **)&m->d_offsets};
  const size_t bytes[] = {chunk * per * sizeof(arc), chunk * per * sizeof(arc),
                          chunk * per * sizeof(uint32_t), m->temp_bytes,
                          (ranks + 1) * sizeof(uint32_t), ranks * sizeof(unsigned long long),
                          (buckets + 1) * sizeof(size_t)};
  for (size_t k = 0; k < sizeof bytes / sizeof bytes[0] && !*full; k++)
    DS_TRY(dev_alloc(dev[k], bytes[k], full, err));
  if (*full) return DS_OK;
  m->h_offsets = (size_t *)malloc((buckets + 1) * sizeof *m->h_offsets);
  m->pos = (uint64_t *)malloc(ranks * sizeof *m->pos);
  m->stop = (uint64_t *)malloc(ranks * sizeof *m->stop);
  if (m->h_offsets == NULL || m->pos == NULL || m->stop == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %u owners' offsets",
                        b->rank, ranks);

  // 1. the arcs per owner: the host array's layout
  DS_CUDA_TRY(cudaMemcpyAsync(m->d_bounds, part->bounds, (ranks + 1) * sizeof(uint32_t),
                              cudaMemcpyHostToDevice, s));
  DS_CUDA_TRY(cudaMemsetAsync(m->d_counts, 0, ranks * sizeof(unsigned long long), s));
  count_owners<<<draw_blocks(len), DRAW_THREADS, ranks * sizeof(unsigned int), s>>>(
      plan, b->begin, len, m->d_bounds, ranks, symmetric, m->d_counts);
  DS_LAUNCH_CHECK("count_owners");
  static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "counts are copied as they are");
  DS_CUDA_TRY(cudaMemcpyAsync(counts, m->d_counts, ranks * sizeof(uint64_t),
                              cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  uint64_t total = 0;
  for (uint32_t r = 0; r < ranks; r++) {
    m->pos[r] = total;
    total += counts[r];
    m->stop[r] = total;
  }
  m->h_arcs = (uint32_t *)malloc((total ? (size_t)total : 1) * sizeof(arc));
  if (m->h_arcs == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "distributed build: out of memory grouping %llu arcs "
                        "by owner", (unsigned long long)total);

  // 2-4. per chunk: draw and pack, split, each owner's bucket to its place on the host
  for (uint64_t at = 0; at < len; at += chunk) {
    const uint64_t n = len - at < chunk ? len - at : chunk;
    pack_arcs<<<draw_blocks(n), DRAW_THREADS, 0, s>>>(plan, b->begin + at, n, m->d_bounds, ranks,
                                                       symmetric, m->d_arcs, m->d_buckets);
    DS_LAUNCH_CHECK("pack_arcs");
    DS_MSPLIT_TRY(msplit::split_records<arc>(m->d_temp, &m->temp_bytes, m->d_arcs, m->d_buckets,
                                             m->d_out, nullptr, (size_t)(n * per), buckets,
                                             m->d_offsets, s));
    DS_MSPLIT_TRY(msplit_copy_offsets_sync(m->h_offsets, m->d_offsets, buckets, s));
    for (uint32_t r = 0; r < ranks; r++) {
      const uint64_t c = m->h_offsets[r + 1] - m->h_offsets[r];
      if (c > m->stop[r] - m->pos[r])
        return ds_error_set(err, DS_ERR_DEVICE, "rank %d: the GPU grouped more arcs for rank %u "
                            "than it counted (%llu)", b->rank, r, (unsigned long long)counts[r]);
      if (c != 0)
        DS_CUDA_TRY(cudaMemcpyAsync(m->h_arcs + ARC_WORDS * m->pos[r], m->d_out + m->h_offsets[r],
                                    c * sizeof(arc), cudaMemcpyDeviceToHost, s));
      m->pos[r] += c;
    }
  }
  DS_MSPLIT_TRY(msplit_check_sync(m->d_temp, m->temp_bytes, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  for (uint32_t r = 0; r < ranks; r++)
    if (m->pos[r] != m->stop[r])
      return ds_error_set(err, DS_ERR_DEVICE, "rank %d: the GPU grouped %llu arcs for rank %u, "
                          "not the %llu it counted", b->rank,
                          (unsigned long long)(m->pos[r] - (m->stop[r] - counts[r])), r,
                          (unsigned long long)counts[r]);
  return DS_OK;
}

/* The grouper of the engine (dgraph.h's contract): the share's arcs, drawn
 * again on the GPU, grouped there. slice is the share the generator gave. */
typedef struct {
  gpu_build *b;
  const ds_dkron_spec *spec;
} group_ctx;

static ds_status group_on_gpu(void *ctx, const ds_partition *part, const ds_edge_list *slice,
                              int symmetric, uint64_t *counts, uint32_t **arcs, ds_error *err) {
  const group_ctx *g = (const group_ctx *)ctx;
  gpu_build *b = g->b;
  *arcs = NULL;
  const uint64_t len = b->end - b->begin;
  if (slice->count != len)
    return ds_error_set(err, DS_ERR_ARG, "rank %d: the GPU grouper was given %llu edges, not its "
                        "share of %llu", b->rank, (unsigned long long)slice->count,
                        (unsigned long long)len);
  if (len == 0) {
    memset(counts, 0, (size_t)part->ranks * sizeof *counts);
    *arcs = (uint32_t *)malloc(sizeof(arc));
    return *arcs != NULL ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "out of memory");
  }
  const uint64_t per = symmetric ? 2 : 1;
  uint64_t chunk = 0;
  double need = 0, have = 0;
  ds_status st = fit_chunk(b, len, per * (2 * sizeof(arc) + sizeof(uint32_t)), per,
                           (uint32_t)part->ranks + 1, &chunk, &need, &have, err);
  int full = chunk == 0;
  group_bufs m;
  memset(&m, 0, sizeof m);
  if (st == DS_OK && !full)
    st = group_steps(b, g->spec, part, symmetric, chunk, counts, &m, &full, err);
  if (st == DS_OK && !full) {
    *arcs = m.h_arcs;
    m.h_arcs = NULL;
  } else if (st == DS_OK) {
    add_note(b, "the arcs grouped by owner", need / 1e9, have / FREE_SHARE / 1e9);
  }
  group_bufs_free(&m);
  return st;
}

extern "C" ds_status ds_dkron_build_device(ds_comm *comm, const ds_dkron_spec *spec,
                                           const ds_dkron_gpu_options *opt, ds_dgraph *g,
                                           ds_dkron_info *info, ds_error *err) {
  if (comm == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dkron_build_device: comm and g must not be NULL");
  memset(g, 0, sizeof *g);
  gpu_build b;
  memset(&b, 0, sizeof b);
  b.chunk_edges = opt != NULL ? opt->chunk_edges : 0;
  b.rank = ds_comm_rank(comm);
  if (info != NULL) {
    info->note[0] = '\0';
    b.note = info->note;
  }
  // 1. the rank's GPU and stream, on every rank before the collective build
  ds_status local = DS_OK;
  cudaError_t e = cudaSuccess;
  if (opt != NULL && opt->device >= 0) e = cudaSetDevice(opt->device);
  if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking);
  if (e != cudaSuccess)
    local = ds_error_set(err, DS_ERR_DEVICE, "rank %d: the GPU's setup for the Kronecker build "
                         "failed: %s", b.rank, cudaGetErrorString(e));
  ds_status st = ds_comm_agree(comm, local, err);
  // 2. the build, its edges drawn and grouped on the GPU
  if (st == DS_OK) {
    group_ctx gc = {&b, spec};
    ds_dkron_engine engine;
    memset(&engine, 0, sizeof engine);
    engine.ctx = &b;
    engine.generate = draw_on_gpu;
    engine.group.ctx = &gc;
    engine.group.run = group_on_gpu;
    st = ds_dkron_build_with(comm, spec, &engine, g, info, err);
  }
  if (b.stream != NULL) cudaStreamDestroy(b.stream);
  return st;
}
