/* The slab-hash sets of the triangle counter's classes probed by hash: one
 * set (msplit's slab hash without values) of the out-arcs of a batch of a
 * class's rows, the key of arc u -> w being i * n + w for the row's place i in
 * its batch. Batches hold at most (2^32 - 3) / n rows, so that keys fit 32
 * bits and stay below the two the table reserves; on most graphs a class is
 * one batch.
 *
 * Sizing: buckets for the batch's arcs at HASH_UTILIZATION (msplit's plan),
 * and a pool that cannot run dry: an insert fills the first slab of its
 * chain that has room, so every chain's slabs are full but its last, and a
 * slab linked twice by racing warps goes back to the pool; the pool of arcs /
 * 30 slabs plus a margin of POOL_MARGIN blocks is therefore enough for any
 * spread of the keys. A run still checks: an insert that finds no slab sets
 * a flag, and the run fails with a message rather than miscount.
 */
#include <stdlib.h>

#include <msplit/slab_hash.cuh>

#include "ds/cuda_try.h"
#include "tc_gpu_internal.cuh"

namespace tc {
namespace {

constexpr double HASH_UTILIZATION = 0.5; /* misses, the common probe, walk a whole chain */
constexpr uint64_t KEYS_PER_SLAB = 30;   /* a set's slab: 30 keys and a link */
constexpr uint64_t POOL_MARGIN = 2048;   /* slabs beyond arcs / 30: two allocator blocks */
constexpr uint64_t KEY_LIMIT = 0xFFFFFFFDull; /* keys below the reserved erased and empty */

struct shape {
  uint32_t buckets, capacity;
  size_t bytes;
};

ds_status shape_for(uint64_t keys, shape *sh, ds_error *err) {
  uint32_t expected = 0;
  if (msplit_slab_hash_plan(keys ? keys : 1, HASH_UTILIZATION, MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE,
                            &sh->buckets, &expected) != MSPLIT_SUCCESS)
    return ds_error_set(err, DS_ERR_DEVICE, "tc hash set: %s", msplit_last_error_message());
  const uint64_t capacity = (keys + KEYS_PER_SLAB - 1) / KEYS_PER_SLAB + POOL_MARGIN;
  if (capacity > UINT32_MAX)
    return ds_error_set(err, DS_ERR_UNSUPPORTED, "tc hash set: %llu keys are too many",
                        (unsigned long long)keys);
  sh->capacity = (uint32_t)capacity;
  if (msplit_slab_hash_storage_bytes(sh->buckets, sh->capacity, &sh->bytes) != MSPLIT_SUCCESS)
    return ds_error_set(err, DS_ERR_DEVICE, "tc hash set: %s", msplit_last_error_message());
  return DS_OK;
}

/* Two more events for a batch (grown as needed, kept for later runs). */
ds_status next_events(hash_sets *h, cudaEvent_t **ev, ds_error *err) {
  if (h->events_used + 2 > h->events) {
    const uint32_t more = h->events ? 2 * h->events : 16;
    cudaEvent_t *grown = (cudaEvent_t *)realloc(h->ev, more * sizeof *grown);
    if (grown == NULL) return ds_error_set(err, DS_ERR_NOMEM, "tc hash set: out of memory");
    h->ev = grown;
    for (uint32_t i = h->events; i < more; i++) grown[i] = nullptr;
    for (uint32_t i = h->events; i < more; i++) DS_CUDA_TRY(cudaEventCreate(&grown[i]));
    h->events = more;
  }
  *ev = h->ev + h->events_used;
  h->events_used += 2;
  return DS_OK;
}

}  // namespace

uint64_t hash_bytes(uint64_t max_keys) {
  shape sh;
  ds_error err;
  if (shape_for(max_keys, &sh, &err) != DS_OK) return UINT64_MAX;
  return sh.bytes + 256; /* the flag, in its own aligned slot */
}

ds_status count_hash_class(hash_sets *h, const graph_args &g, class_rows r, uint64_t rows,
                           uint64_t arcs, unsigned grid, cudaStream_t s, uint32_t *first_event,
                           ds_error *err) {
  *first_event = h->events_used;
  if (rows == 0 || g.n == 0) return DS_OK;
  // 1. the table's shape: for every arc of the class (a batch has no more)
  shape sh;
  DS_TRY(shape_for(arcs, &sh, err));
  if (sh.bytes > h->bytes)
    return ds_error_set(err, DS_ERR_DEVICE, "tc hash set: %zu bytes needed, %zu reserved",
                        sh.bytes, h->bytes);
  const uint64_t batch = KEY_LIMIT / g.n; /* rows a batch: keys (i * n + w) < KEY_LIMIT */
  // 2. each batch: a fresh set of its rows' arcs, then their count
  for (uint64_t lo = 0; lo < rows; lo += batch) {
    r.lo = (uint32_t)lo;
    r.hi = (uint32_t)(lo + batch < rows ? lo + batch : rows);
    cudaEvent_t *ev = nullptr;
    DS_TRY(next_events(h, &ev, err));
    DS_CUDA_TRY(cudaEventRecord(ev[0], s));
    msplit_slab_hash table;
    DS_MSPLIT_TRY(msplit_slab_hash_init(&table, h->storage, sh.bytes, sh.buckets, sh.capacity,
                                        MSPLIT_TYPE_U32, MSPLIT_TYPE_NONE, s));
    DS_TRY(build_class_set(g, r, table, h->failed, grid, s, err));
    DS_CUDA_TRY(cudaEventRecord(ev[1], s));
    DS_TRY(count_class(g, r, DS_TC_PROBE_HASH, &table, grid, s, err));
  }
  return DS_OK;
}

ds_status hash_build_ms(const hash_sets *h, uint32_t first, uint32_t end, double *ms,
                        ds_error *err) {
  double sum = 0.0;
  for (uint32_t e = first; e + 1 < end; e += 2) {
    float t = 0.0f;
    DS_CUDA_TRY(cudaEventElapsedTime(&t, h->ev[e], h->ev[e + 1]));
    sum += t;
  }
  *ms = sum;
  return DS_OK;
}

void hash_sets_free(hash_sets *h) {
  for (uint32_t i = 0; i < h->events; i++)
    if (h->ev[i]) cudaEventDestroy(h->ev[i]);
  free(h->ev);
  h->ev = nullptr;
  h->events = h->events_used = 0;
}

}  // namespace tc
