/* barrier_probe: what a round's fixed costs are made of on this GPU.
 *
 * A persistent cooperative kernel (2 blocks of 256 threads per SM, as the
 * SSSP engines) times, with %globaltimer on block 0:
 *   grid     cooperative-groups grid barrier (every block)
 *   team     our team barrier (app/sssp/gpu/barriers.cuh stretch_sync::team_sync: a counter
 *            that only grows, red.release / ld.acquire) over blocks 0..k-1
 *   cluster  the hardware cluster barrier of cluster 0 (blocks 0..k-1 when the
 *            launch has clusters of k blocks; cooperative + cluster launch)
 *   chase    one thread's chain of dependent L2 loads (a random cycle over
 *            16 MB), the others spinning at a grid barrier meanwhile
 *   chase-s  the same with the others polling a flag with __nanosleep
 *   atomic   one thread's chain of dependent atomicAdd(…, 0) on the cycle
 *   smid     which SM each block of the launch runs on (blocks 0..63: how
 *            many distinct SMs a team of the first blocks spans)
 * Build: the barrier_probe target (sm_90 or newer), or by hand:
 *          nvcc -O3 -arch=sm_90 -o barrier_probe bench/sssp/barrier_probe.cu
 * Run:   ./barrier_probe  (prints one line per measurement, ns per step)
 */
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "barrier_probe: %s failed: %s\n", #call, cudaGetErrorString(e_));          \
      exit(1);                                                                                   \
    }                                                                                            \
  } while (0)

struct probe_args {
  int mode;
  int steps;
  int k;                 /* team / cluster size */
  unsigned *team;        /* team barrier counter */
  unsigned *flag;        /* chase-s: done flag */
  unsigned *cycle;       /* random cycle */
  unsigned long long *out; /* [0] ns total, [1] sink */
  unsigned *smid;          /* per block */
};

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void arrive(unsigned *w) {
  asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(w) : "memory");
}
__device__ __forceinline__ void await(unsigned *w, unsigned target) {
  unsigned v;
  do {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(w) : "memory");
  } while ((int)(v - target) < 0);
}

__global__ void __launch_bounds__(256) probe(probe_args a) {
  cg::grid_group grid = cg::this_grid();
  const bool first = blockIdx.x == 0 && threadIdx.x == 0;
  if (threadIdx.x == 0) {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    a.smid[blockIdx.x] = id;
  }
  unsigned base = *(volatile unsigned *)a.team;
  grid.sync();
  unsigned long long t0 = now(), sink = 0;
  switch (a.mode) {
  case 0: /* grid */
    for (int i = 0; i < a.steps; ++i) grid.sync();
    break;
  case 1: /* team (blocks 0..k-1) */
    if ((int)blockIdx.x < a.k)
      for (int i = 0; i < a.steps; ++i) {
        __syncthreads();
        base += a.k;
        if (threadIdx.x == 0) {
          arrive(a.team);
          await(a.team, base);
        }
        __syncthreads();
      }
    break;
  case 2: /* cluster barrier of cluster 0 */
    if ((int)blockIdx.x < a.k)
      for (int i = 0; i < a.steps; ++i) {
        asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
      }
    break;
  case 3:   /* chase, others spin at the grid barrier */
  case 4: { /* chase, others sleep-poll a flag */
    if (first) {
      unsigned x = 0;
      for (int i = 0; i < a.steps; ++i) x = *(volatile unsigned *)&a.cycle[x];
      sink = x;
      if (a.mode == 4) atomicExch(a.flag, 1u);
    } else if (a.mode == 4 && threadIdx.x == 0) {
      while (*(volatile unsigned *)a.flag == 0) __nanosleep(2000);
    }
    break;
  }
  case 5: /* atomic chase */
    if (first) {
      unsigned x = 0;
      for (int i = 0; i < a.steps; ++i) x = atomicAdd(&a.cycle[x], 0u);
      sink = x;
    }
    break;
  }
  if (first) a.out[0] = now() - t0; /* block 0 finishes its part; the others wait below */
  grid.sync();
  if (first) a.out[1] = sink;
}

static double run(int mode, int steps, int k, int cluster, int grid_blocks, probe_args a) {
  a.mode = mode;
  a.steps = steps;
  a.k = k;
  CHECK(cudaMemset(a.flag, 0, sizeof(unsigned)));
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[2];
  cfg.gridDim = dim3(grid_blocks);
  cfg.blockDim = dim3(256);
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  int na = 1;
  if (cluster > 1) {
    attr[1].id = cudaLaunchAttributeClusterDimension;
    attr[1].val.clusterDim.x = cluster;
    attr[1].val.clusterDim.y = 1;
    attr[1].val.clusterDim.z = 1;
    na = 2;
  }
  cfg.attrs = attr;
  cfg.numAttrs = na;
  CHECK(cudaLaunchKernelEx(&cfg, probe, a));
  CHECK(cudaDeviceSynchronize());
  unsigned long long out[2];
  CHECK(cudaMemcpy(out, a.out, sizeof out, cudaMemcpyDeviceToHost));
  return (double)out[0] / steps;
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  CHECK(cudaFuncSetAttribute(probe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  probe_args a;
  const size_t words = 4u << 20; /* 16 MB */
  std::vector<unsigned> perm(words), cyc(words);
  srand(1);
  for (size_t i = 0; i < words; ++i) perm[i] = (unsigned)i;
  for (size_t i = words - 1; i > 0; --i) std::swap(perm[i], perm[(size_t)rand() % (i + 1)]);
  for (size_t i = 0; i < words; ++i) cyc[perm[i]] = perm[(i + 1) % words];
  CHECK(cudaMalloc(&a.cycle, words * sizeof(unsigned)));
  CHECK(cudaMemcpy(a.cycle, cyc.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&a.team, sizeof(unsigned)));
  CHECK(cudaMalloc(&a.flag, sizeof(unsigned)));
  CHECK(cudaMalloc(&a.out, 2 * sizeof(unsigned long long)));
  CHECK(cudaMemset(a.team, 0, sizeof(unsigned)));
  CHECK(cudaMalloc(&a.smid, 4096 * sizeof(unsigned)));
  {
    run(0, 1, 1, 1, 2 * sms, a);
    std::vector<unsigned> id(2 * sms);
    CHECK(cudaMemcpy(id.data(), a.smid, id.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("smid of blocks 0..15:");
    for (int b = 0; b < 16; ++b) printf(" %u", id[b]);
    printf("\n");
    for (int k : {16, 32, 64, 132}) {
      std::vector<int> seen(4096, 0);
      int distinct = 0;
      for (int b = 0; b < k; ++b) distinct += !seen[id[b]]++;
      printf("blocks 0..%d span %d distinct SMs\n", k - 1, distinct);
    }
  }
  printf("device %s, %d SMs\n", p.name, sms);
  for (int cluster : {1, 2, 4, 8, 16}) {
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe, 256, 0));
    int grid = 2 * sms;
    if (cluster > 1) {
      cudaLaunchConfig_t cfg = {};
      cudaLaunchAttribute attr;
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = cluster;
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      cfg.gridDim = dim3(grid);
      cfg.blockDim = dim3(256);
      cfg.attrs = &attr;
      cfg.numAttrs = 1;
      int clusters = 0;
      cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, probe, &cfg);
      if (e != cudaSuccess) {
        printf("cluster %d: occupancy query failed: %s\n", cluster, cudaGetErrorString(e));
        cudaGetLastError();
        continue;
      }
      int g = clusters * cluster;
      if (g < grid) grid = g;
      grid -= grid % cluster;
      printf("cluster %d: %d clusters resident, grid %d (of %d)\n", cluster, clusters, grid, 2 * sms);
    }
    const int steps = 2000;
    run(0, 10, 1, cluster, grid, a); /* warm-up */
    printf("cluster %2d grid %3d  grid.sync %7.0f ns\n", cluster, grid, run(0, steps, 1, cluster, grid, a));
    for (int k : {2, 4, 8, 16}) {
      if (k > grid) continue;
      printf("cluster %2d grid %3d  team k=%-2d %7.0f ns\n", cluster, grid, k, run(1, steps, k, cluster, grid, a));
    }
    if (cluster > 1)
      printf("cluster %2d grid %3d  cluster barrier %7.0f ns\n", cluster, grid,
             run(2, steps, cluster, cluster, grid, a));
    if (cluster == 1) {
      printf("chase (others spin at grid.sync)   %7.1f ns/load\n", run(3, 20000, 1, 1, grid, a));
      printf("chase (others sleep-poll)          %7.1f ns/load\n", run(4, 20000, 1, 1, grid, a));
      printf("chase alone (grid 1)               %7.1f ns/load\n", run(3, 20000, 1, 1, 1, a));
      printf("atomic chase (others spin)         %7.1f ns/atomic\n", run(5, 20000, 1, 1, grid, a));
    }
  }
  return 0;
}
