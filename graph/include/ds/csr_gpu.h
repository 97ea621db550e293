/* The CSR build on the GPU (graph/gpu, CUDA builds only): ds_csr_build's
 * contract and result, arc for arc, computed on a CUDA device with msplit's
 * primitives.
 *
 * Example (the loader takes it through ds_load_options.csr_builder):
 *   ds_graph g;
 *   ds_error err;
 *   ds_status st = ds_csr_build_gpu(0, &edges, 1, NULL, &g, &err);
 *   if (st == DS_ERR_DEVICE) st = ds_csr_build(&edges, 1, NULL, &g, &err); // no room on the GPU
 */
#ifndef DS_CSR_GPU_H
#define DS_CSR_GPU_H

#include <stdint.h>

#include "ds/graph.h"
#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device bytes the build of `count` edges on n vertices needs. */
uint64_t ds_csr_build_gpu_bytes(uint32_t n, uint64_t count, int symmetric);

/* ds_csr_build (graph.h) on CUDA device `device`: the same CSR, arc for arc,
 * weights included (pattern weights drawn by the same formula). How:
 *   1. every edge becomes the 64-bit key (u << 32 | v) with its weight's bits
 *      as value (and (v << 32 | u) when symmetric); a self loop becomes a key
 *      beyond every row;
 *   2. msplit's radix sort of the pairs on the bits that rows and columns use;
 *   3. the first key of every run is an arc: its position by a scan of the
 *      run heads, its weight the least of the run (the bits of non-negative
 *      floats order as their values);
 *   4. the row offsets: msplit's histogram of the arcs' rows, scanned.
 * An edge list with a bad edge (id out of range, float weight negative, NaN
 * or infinite) is handed to ds_csr_build, which says which.
 * Synchronous; host memory: the result, and 64 MiB of pinned staging for the
 * copies (ds_csr_gpu_transfer).
 * Errors: as ds_csr_build, and DS_ERR_DEVICE (no device, a CUDA error, more
 * than 2^31 edges, or a build that does not fit the device: refused before any
 * device allocation, with the bytes needed and available); the caller falls
 * back to ds_csr_build on DS_ERR_DEVICE. */
ds_status ds_csr_build_gpu(int device, const ds_edge_list *edges, int symmetric,
                           const ds_load_options *opt, ds_graph *g, ds_error *err);

/* Where the time of a build went (ms): the copies by the host's clock (they
 * are synchronous, pinning and host-side staging included), the build on the
 * device by CUDA events on its stream. */
typedef struct {
  double upload_ms;   /* the edge list to the device */
  double sort_ms;     /* the keys and their radix sort */
  double arcs_ms;     /* runs to arcs, the offsets (histogram, scan), the count read back */
  double download_ms; /* the CSR to the host */
} ds_csr_gpu_stats;

/* How the edge list goes up and the CSR comes down (the host arrays are the
 * caller's pageable memory): through a pinned staging ring of 2 x 32 MiB, the
 * host threads filling one slot while the other's DMA runs (the default); with
 * the host arrays pinned in place for the copy (cudaHostRegister; where that
 * fails, pageable); or plain pageable copies. */
typedef enum {
  DS_CSR_GPU_STAGED = 0,
  DS_CSR_GPU_REGISTER = 1,
  DS_CSR_GPU_PAGEABLE = 2
} ds_csr_gpu_transfer;

/* ds_csr_build_gpu, with *stats (may be NULL) filled after a build on the GPU. */
ds_status ds_csr_build_gpu_stats(int device, const ds_edge_list *edges, int symmetric,
                                 const ds_load_options *opt, ds_graph *g, ds_csr_gpu_stats *stats,
                                 ds_error *err);

/* ds_csr_build_gpu_stats with the transfers done the way `transfer` says. */
ds_status ds_csr_build_gpu_ex(int device, const ds_edge_list *edges, int symmetric,
                              const ds_load_options *opt, ds_csr_gpu_transfer transfer,
                              ds_graph *g, ds_csr_gpu_stats *stats, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_CSR_GPU_H */
