/* The distributed GPU engine's state on one rank, shared by the file that runs
 * its rounds (dsssp_gpu.cu) and the one that sets it up on the GPU, starts a
 * search on it and frees it (dsssp_gpu_setup.cu). Internal to the two.
 */
#ifndef DS_DIST_DSSSP_GPU_ENGINE_CUH
#define DS_DIST_DSSSP_GPU_ENGINE_CUH

#include <cuda_runtime.h>

#include "dist/dgraph.h"
#include "dist/dsssp.h"
#include "dist/dsssp_engine.h"
#include "dsssp_gpu_kernels.cuh"

namespace dsdist {

constexpr int THREADS_PER_SM = 2048; /* the warp-a-vertex kernels fill the GPU once, grid-stride */

/* The phases of a round on the device's timeline (rounds_on_device's statistics). */
enum round_event { EV_START, EV_RELAXED, EV_COUNTED, EV_EXCHANGED, EV_SCANNED, EV_COUNT };

struct engine {
  ds_comm *comm;
  const ds_dgraph *g;
  int ranks, me, staged, want_pred, own_stream;
  int device, pred_room; /* pred_room: opened for searches with predecessors */
  uint64_t cap;          /* the combining table's slots */
  cudaStream_t s;
  part p;
  table t;
  uint64_t max_heads;    /* distinct other ranks' heads a round can offer */
  uint64_t list_slots;   /* the owners' lists together */
  int relax_grid;
  uint32_t *d_bounds;    /* ranks + 1 */
  uint64_t *d_list_base; /* ranks */
  unsigned long long *d_ctl, *h_ctl;
  uint64_t *d_off;       /* ranks + 1: the send layout */
  uint64_t *d_xfer, *h_xfer; /* the counts sent, the counts received, the agreement */
  ds_dsssp_update *d_send, *d_recv, *h_send, *h_recv; /* h_*: staging for a host communicator */
  size_t recv_cap;
  cudaEvent_t ev[2][EV_COUNT]; /* a round's and the last round's (rounds_on_device) */
  uint64_t next;         /* the bucket the last apply's scan found */
  int next_valid;
  ds_status failed;      /* a scan that failed: the next relax reports it */
  ds_error failed_err;
};

inline uint32_t blocks_for(uint64_t n) { return (uint32_t)((n + BLOCK - 1) / BLOCK); }

template <typename T> ds_status dev_alloc(T **p, uint64_t count, const engine *e, const char *what,
                                          ds_error *err) {
  const size_t bytes = (size_t)(count ? count : 1) * sizeof(T);
  if (cudaMalloc((void **)p, bytes) == cudaSuccess) return DS_OK;
  cudaGetLastError(); /* the failed allocation's error is not sticky: clear it */
  *p = nullptr;
  return ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of GPU memory for %s (%zu bytes)", e->me,
                      what, bytes);
}

inline unsigned long long *agree_words(const engine *e) {
  return (unsigned long long *)(e->d_xfer + 2 * (size_t)e->ranks);
}

/* The rank's engine on its GPU, kept across searches: the part's CSR copied there and every
 * buffer a search needs, for searches with predecessors where want_pred. */
ds_status engine_open(engine *e, ds_comm *comm, const ds_dgraph *g, int want_pred, ds_error *err);

/* A search's start from source on the engine's stream, waited for. */
ds_status engine_start(engine *e, uint32_t source, const ds_dsssp_params *prm, ds_error *err);

/* Frees what engine_open allocated (also after it failed part way). */
void engine_free(engine *e);

} // namespace dsdist

#endif /* DS_DIST_DSSSP_GPU_ENGINE_CUH */
