/* A rank's local CSR on its GPU (dgraph_local.h: ds_dgraph_build_local_gpu):
 * dgraph_csr.c's CSR, arc for arc, from the arcs that arrived, with msplit's
 * radix sort and histogram and CUB's scan, as the one-graph GPU build
 * (graph/gpu/csr_build_gpu.cu) uses them:
 *   1. the arcs up; each becomes the key (row << head_bits | head), row its
 *      tail's local row, with its weight bits as value; the first arc whose
 *      tail this rank does not own, and any head >= n, are noted;
 *   2. msplit's stable radix sort of the pairs on the row_bits + head_bits
 *      bits that rows and heads use;
 *   3. the first key of a run of equal keys is an arc: its place by a scan of
 *      the run starts, its weight the least of the run (atomicMin);
 *   4. the row offsets: msplit's histogram of the arcs' rows, scanned;
 *   5. the CSR down to malloc'd host arrays (ds_dgraph_free frees them).
 * Why it is the host's CSR: the host sorts a row's (head << 32 | weight bits)
 * keys and keeps the first key of every head, so each head once, in head
 * order, with its least weight bits; steps 2-3 give the same. For a float
 * the least bits are the least value (non-negative floats order as their
 * bits; -0 arrives as +0). Self-loops are kept as they arrive, as the host
 * build keeps them (dgraph_build.c drops them before they leave their slice).
 * Device memory (estimated before any allocation, one block): 12 bytes an arc
 * for the arcs, whose room the sort's second buffers take once the keys are
 * made; 12 for the keys and values; 4 for the scan of the run starts; 8 a row
 * for the offsets; the sort's temporary storage. The results (heads, rows,
 * weights) go to the buffers that the sort leaves free.
 * Limits, where it declines (DS_ERR_DEVICE, the host builds): fewer than
 * 2^32 arcs (the scan's positions are 32-bit), at most 2^30 rows (msplit's
 * histogram bins), heads below n (the keys' head bits come from n).
 */
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_scan.cuh>
#include <msplit/error_record.cuh> /* msplit::check_sync */
#include <msplit/histogram.cuh>
#include <msplit/radix_sort.cuh>

#include "dist/dgraph_local.h"
#include "ds/cuda_try.h"
#include "ds/device.h"
#include "ds/device_layout.h"

namespace {

constexpr int BLOCK = 256;
constexpr unsigned MAX_GRID = 65536;                 /* a grid-stride loop covers the rest */
constexpr uint64_t MAX_ARCS = UINT32_MAX - 1;        /* count + 1 scan positions below 2^32 */
constexpr uint32_t MAX_ROWS = 1u << 30;              /* msplit's histogram: at most 2^30 bins */
constexpr unsigned long long NO_ARC = ~0ull;         /* no bad tail found */
constexpr uint32_t WEIGHT_NONE = 0xFFFFFFFFu;        /* above every weight: atomicMin's start */

struct arc {
  uint32_t tail, head, wbits;
};
static_assert(sizeof(arc) == DS_DGRAPH_ARC_WORDS * sizeof(uint32_t),
              "an arc is dgraph_build.c's 3 words");

/* What step 1 found wrong, read back with the arc count. */
struct checks {
  unsigned long long bad_tail; /* the first arc of a vertex this rank does not own, or NO_ARC */
  unsigned int head_beyond;    /* some head >= n */
};

int bit_length(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

unsigned grid_for(uint64_t items) {
  const uint64_t want = (items + BLOCK - 1) / BLOCK;
  return (unsigned)(want < 1 ? 1 : want < MAX_GRID ? want : MAX_GRID);
}

/* The key's shape: row_bits + head_bits <= 64 (both ids are 32-bit). */
struct key_bits {
  int head, total;
};

key_bits bits_of(uint32_t n_local, uint32_t n) {
  key_bits b;
  b.head = bit_length(n > 0 ? n - 1 : 0);
  b.total = b.head + bit_length(n_local > 0 ? n_local - 1 : 0);
  if (b.total == 0) b.total = 1; /* one row of one head: a sort of one bit, all keys 0 */
  return b;
}

/* 1. arc i to its key and value; the checks */
__global__ void make_keys(const arc *arcs, uint64_t count, uint32_t first, uint32_t n_local,
                          uint32_t n, int head_bits, uint64_t *keys, uint32_t *values,
                          checks *found) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const arc a = arcs[i];
    const uint32_t row = a.tail - first;
    if (row >= n_local) atomicMin(&found->bad_tail, (unsigned long long)i);
    if (a.head >= n) found->head_beyond = 1;
    keys[i] = ((uint64_t)row << head_bits) | a.head;
    values[i] = a.wbits;
  }
}

/* 3a. pos[i] = 1 where a run of equal keys starts; pos[count] = 0 (the scan's total) */
__global__ void run_starts(const uint64_t *keys, uint64_t count, uint32_t *pos) {
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i <= count;
       i += (uint64_t)gridDim.x * blockDim.x)
    pos[i] = i < count && (i == 0 || keys[i] != keys[i - 1]);
}

/* 3b. key i to its run's arc (pos[i]: the runs started before i, so its run's arc is pos[i] at
 *     the run's start and pos[i] - 1 after it): the start writes the head and the row, every
 *     key lowers the weight (WEIGHT_NONE before) */
__global__ void arcs_of_runs(const uint64_t *keys, const uint32_t *values, const uint32_t *pos,
                             uint64_t count, int head_bits, uint32_t *col, uint32_t *row,
                             uint32_t *weight) {
  const uint64_t head_mask = (UINT64_C(1) << head_bits) - 1;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t k = keys[i];
    const bool start = i == 0 || k != keys[i - 1];
    const uint32_t j = start ? pos[i] : pos[i] - 1;
    if (start) {
      col[j] = (uint32_t)(k & head_mask);
      row[j] = (uint32_t)(k >> head_bits);
    }
    atomicMin(&weight[j], values[i]);
  }
}

/* The device buffers of one build, in one block. */
struct buffers {
  arc *arcs;                  /* count; after step 1, the sort's second buffers */
  uint64_t *keys, *keys_alt;  /* count each (keys_alt in arcs' room) */
  uint32_t *values, *values_alt;
  uint32_t *pos;              /* count + 1 */
  uint64_t *counts;           /* n_local + 1: the rows' arcs, then the offsets */
  checks *found;
  void *temp;
  size_t temp_bytes;
};

uint64_t layout(uint32_t n_local, uint64_t count, size_t temp, char *base, buffers *b) {
  ds_layout l(base);
  static_assert(sizeof(arc) == sizeof(uint64_t) + sizeof(uint32_t),
                "an arc's room holds a key and a value of the sort's second buffers");
  b->arcs = l.take<arc>(count);
  b->keys_alt = reinterpret_cast<uint64_t *>(b->arcs);
  b->values_alt = base ? reinterpret_cast<uint32_t *>(b->keys_alt + count) : nullptr;
  b->keys = l.take<uint64_t>(count);
  b->values = l.take<uint32_t>(count);
  b->pos = l.take<uint32_t>(count + 1);
  b->counts = l.take<uint64_t>((uint64_t)n_local + 1);
  b->found = l.take<checks>(1);
  b->temp = l.take<char>(temp);
  b->temp_bytes = temp;
  return l.bytes();
}

/* The temporary storage of the sort, the histogram and the two scans: the largest. */
ds_status temp_needed(uint32_t n_local, uint64_t count, key_bits kb, size_t *bytes,
                      ds_error *err) {
  size_t t = 0, most = 0;
  /* size queries: neither msplit nor CUB looks at the data pointers */
  msplit::double_buffer<uint64_t> keys(nullptr, nullptr);
  msplit::double_buffer<uint32_t> values(nullptr, nullptr);
  DS_MSPLIT_TRY(msplit::radix_sort_pairs((void *)nullptr, &t, keys, values, (size_t)count, 0,
                                         kb.total));
  most = t > most ? t : most;
  DS_MSPLIT_TRY(msplit::histogram_even((void *)nullptr, &t, (const uint32_t *)nullptr,
                                       (size_t)count, n_local > 0 ? n_local : 1, 0u, 1u,
                                       (uint64_t *)nullptr));
  most = t > most ? t : most;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, t, (uint32_t *)nullptr, (uint32_t *)nullptr,
                                            (int64_t)count + 1));
  most = t > most ? t : most;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, t, (uint64_t *)nullptr, (uint64_t *)nullptr,
                                            (int64_t)n_local + 1));
  *bytes = t > most ? t : most;
  return DS_OK;
}

/* The stream and the block, released on every path. The block comes from the
 * stream-ordered allocator: cudaMalloc and cudaFree may wait for the whole
 * device, and for its peers where peer access is on, so a rank's build could
 * wait on another rank's collective while that one waits for this rank's part
 * of it (ranks of one process, each a thread on its GPU). */
struct device_state {
  cudaStream_t stream = nullptr;
  void *block = nullptr;
  ~device_state() {
    if (block) cudaFreeAsync(block, stream);
    if (stream) {
      cudaStreamSynchronize(stream);
      cudaStreamDestroy(stream);
    }
  }
};

/* The CSR's host arrays, freed unless handed to g. */
struct host_csr {
  uint64_t *off = nullptr;
  uint32_t *col = nullptr, *w = nullptr;
  ~host_csr() { free(off), free(col), free(w); }
};

ds_status check_limits(const ds_dgraph *g, uint64_t count, ds_error *err) {
  if (count > MAX_ARCS)
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: %llu arcs, beyond the GPU CSR build's "
                        "%llu", g->rank, (unsigned long long)count, (unsigned long long)MAX_ARCS);
  if (g->n_local > MAX_ROWS)
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: %u rows, beyond the GPU CSR build's %u",
                        g->rank, g->n_local, MAX_ROWS);
  if (ds_device_count(NULL, 0) == 0) {
    (void)cudaGetLastError(); /* the query's error is an answer, not a failure */
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: no GPU for the CSR build", g->rank);
  }
  return DS_OK;
}

ds_status build(ds_dgraph *g, const uint32_t *arcs, uint64_t count, ds_error *err) {
  const uint32_t n_local = g->n_local;
  // 1. will it fit? Asked before the first allocation
  DS_TRY(check_limits(g, count, err));
  const key_bits kb = bits_of(n_local, g->n);
  size_t temp = 0;
  DS_TRY(temp_needed(n_local, count, kb, &temp, err));
  buffers b;
  const uint64_t need = layout(n_local, count, temp, nullptr, &b);
  int device = 0;
  uint64_t free_bytes = 0;
  DS_CUDA_TRY(cudaGetDevice(&device));
  DS_TRY(ds_device_mem_info(device, &free_bytes, NULL, err));
  if (need > free_bytes)
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d: the CSR of %llu arcs does not fit on GPU "
                        "%d: needs %.2f GB, %.2f GB free", g->rank, (unsigned long long)count,
                        device, need / 1e9, free_bytes / 1e9);
  device_state d;
  DS_CUDA_TRY(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
  DS_CUDA_TRY(cudaMallocAsync(&d.block, need, d.stream));
  layout(n_local, count, temp, (char *)d.block, &b);
  cudaStream_t s = d.stream;

  // 2. the arcs up, their keys, the checks; the sort
  const checks none = {NO_ARC, 0};
  DS_CUDA_TRY(cudaMemcpyAsync(b.found, &none, sizeof none, cudaMemcpyHostToDevice, s));
  DS_CUDA_TRY(cudaMemcpyAsync(b.arcs, arcs, count * sizeof(arc), cudaMemcpyHostToDevice, s));
  make_keys<<<grid_for(count), BLOCK, 0, s>>>(b.arcs, count, g->first, n_local, g->n, kb.head,
                                              b.keys, b.values, b.found);
  DS_LAUNCH_CHECK("make_keys");
  msplit::double_buffer<uint64_t> keys(b.keys, b.keys_alt);
  msplit::double_buffer<uint32_t> values(b.values, b.values_alt);
  size_t tb = b.temp_bytes;
  DS_MSPLIT_TRY(msplit::radix_sort_pairs(b.temp, &tb, keys, values, (size_t)count, 0, kb.total, s));
  DS_MSPLIT_TRY(msplit::check_sync(b.temp, b.temp_bytes, s)); /* before the scan reuses temp */
  const uint64_t *k = keys.current();
  const uint32_t *v = values.current();
  /* the heads and rows in the free keys buffer, the weights in the free values buffer */
  uint32_t *col = reinterpret_cast<uint32_t *>(keys.alternate()), *row = col + count;
  uint32_t *weight = values.alternate();

  // 3. runs of equal keys -> arcs with the least weight
  run_starts<<<grid_for(count + 1), BLOCK, 0, s>>>(k, count, b.pos);
  DS_LAUNCH_CHECK("run_starts");
  tb = b.temp_bytes;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(b.temp, tb, b.pos, b.pos, (int64_t)count + 1, s));
  if (count > 0) DS_CUDA_TRY(cudaMemsetAsync(weight, 0xFF, count * sizeof(uint32_t), s));
  static_assert(WEIGHT_NONE == 0xFFFFFFFFu, "the memset's bytes make WEIGHT_NONE");
  arcs_of_runs<<<grid_for(count), BLOCK, 0, s>>>(k, v, b.pos, count, kb.head, col, row, weight);
  DS_LAUNCH_CHECK("arcs_of_runs");
  checks found;
  uint32_t m = 0;
  DS_CUDA_TRY(cudaMemcpyAsync(&found, b.found, sizeof found, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaMemcpyAsync(&m, b.pos + count, sizeof m, cudaMemcpyDeviceToHost, s));
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  if (found.bad_tail != NO_ARC) /* the host build's words */
    return ds_error_set(err, DS_ERR_ARG, "rank %d received an arc of vertex %u, which it does "
                        "not own ([%u, %u)): the ranks disagree on the partition", g->rank,
                        arcs[DS_DGRAPH_ARC_WORDS * found.bad_tail], g->first,
                        g->first + n_local);
  if (found.head_beyond)
    return ds_error_set(err, DS_ERR_DEVICE, "rank %d received an arc whose head is beyond the "
                        "graph's %u vertices: left to the host build", g->rank, g->n);

  // 4. the offsets: the histogram of the arcs' rows, scanned
  DS_CUDA_TRY(cudaMemsetAsync(b.counts + n_local, 0, sizeof(uint64_t), s));
  tb = b.temp_bytes;
  if (n_local > 0)
    DS_MSPLIT_TRY(msplit::histogram_even(b.temp, &tb, row, (size_t)m, n_local, 0u, 1u, b.counts,
                                         s));
  tb = b.temp_bytes;
  DS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(b.temp, tb, b.counts, b.counts,
                                            (int64_t)n_local + 1, s));

  // 5. the CSR down
  host_csr h;
  h.off = (uint64_t *)malloc(((size_t)n_local + 1) * sizeof *h.off);
  h.col = (uint32_t *)malloc((m ? (size_t)m : 1) * sizeof *h.col);
  h.w = (uint32_t *)malloc((m ? (size_t)m : 1) * sizeof *h.w);
  if (h.off == NULL || h.col == NULL || h.w == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for a CSR of %u vertices and "
                        "%u arcs", g->rank, n_local, m);
  DS_CUDA_TRY(cudaMemcpyAsync(h.off, b.counts, ((size_t)n_local + 1) * sizeof *h.off,
                              cudaMemcpyDeviceToHost, s));
  if (m > 0) {
    DS_CUDA_TRY(cudaMemcpyAsync(h.col, col, (size_t)m * sizeof *h.col, cudaMemcpyDeviceToHost, s));
    DS_CUDA_TRY(cudaMemcpyAsync(h.w, weight, (size_t)m * sizeof *h.w, cudaMemcpyDeviceToHost, s));
  }
  DS_CUDA_TRY(cudaStreamSynchronize(s));
  g->row_offsets = h.off;
  g->col = h.col;
  g->weights = h.w;
  g->m_local = m;
  h.off = nullptr, h.col = nullptr, h.w = nullptr;
  return DS_OK;
}

}  // namespace

extern "C" uint64_t ds_dgraph_build_local_gpu_bytes(uint32_t n_local, uint32_t n,
                                                    uint64_t count) {
  size_t temp = 0;
  if (temp_needed(n_local, count, bits_of(n_local, n), &temp, NULL) != DS_OK) return UINT64_MAX;
  buffers b;
  return layout(n_local, count, temp, nullptr, &b);
}

extern "C" ds_status ds_dgraph_build_local_gpu(ds_dgraph *g, const uint32_t *arcs, uint64_t count,
                                               ds_error *err) {
  if (g == NULL || (count > 0 && arcs == NULL))
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_build_local_gpu: g and arcs must not be NULL");
  const ds_status st = build(g, arcs, count, err);
  if (st == DS_ERR_DEVICE) (void)cudaGetLastError(); /* the host build follows: a clean slate */
  return st;
}
