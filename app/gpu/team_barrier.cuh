/* deltasplit GPU SSSP: the barriers of the persistent kernels below the grid
 * barrier: block ranks (which blocks form the solo block and the team), the
 * check-in before a stretch of small rounds, and the team's own barrier on a
 * global counter (release / acquire). Shared by Near-Far and the bucket
 * engine (round_schedule.cuh runs the rounds between them).
 */
#ifndef DS_GPU_TEAM_BARRIER_CUH
#define DS_GPU_TEAM_BARRIER_CUH

#include <cooperative_groups.h>

#include "gpu_common.cuh"

namespace dsgpu {

namespace cg = cooperative_groups;

/* Block ranks: SM ids told apart, and blocks per SM told apart. */
constexpr uint32_t RANK_SMS = 256;
constexpr uint32_t RANK_SLOTS = 8;

/* Small frontiers run on part of the grid ("stretches", see small_stretch):
 * a frontier of at most solo_max vertices on block 0 alone (block barriers),
 * one of at most team_max on a team, blocks 0..k-1 (block numbers here are
 * ranks, stretch_sync::b; a barrier of k blocks on
 * one global counter), while the other blocks wait at one grid barrier. Road
 * graphs spend most rounds there: on NY a grid round of 257..4K vertices cost
 * ~8 us, a solo round 4.6 us. */
struct stretch_ctl {
  uint32_t r;       /* the stretch's last round */
  uint32_t base;    /* the pile's base in that round */
  uint32_t huge;    /* that round left its huge list to the grid */
  uint32_t nout;    /* a solo part of a team stretch ends: the frontier's size */
  uint32_t pile;    /*   and the pile's */
  uint32_t arrived; /* check-ins before stretches (only ever grows) */
  uint32_t team;    /* arrivals at team barriers (only ever grows) */
  /* block ranks (stretch_sync::init), zero before each launch */
  uint32_t sm_slot[RANK_SMS];      /* blocks seen per SM id */
  uint32_t slot_count[RANK_SLOTS]; /* blocks per slot: first on their SM, second, ... */
};

/* A block's view of the stretches: the counts of stretch_ctl it expects.
 * Every block enters the same stretches and every team member passes the same
 * team barriers, so the expected values agree; they start from the counters'
 * values at the kernel's start, before any block can change them. */
struct stretch_sync {
  stretch_ctl *c;
  uint32_t k;       /* team members: blocks 0..k-1 (1: no team rounds) */
  uint32_t arrived; /* check-ins the last stretch's entry waited for */
  uint32_t team;    /* team arrivals the last team barrier waited for */
  bool local;       /* solo rounds kept local (relax_round, local) */
  /* The block's rank, what the engines use instead of blockIdx.x: block 0 is
   * the solo block, blocks 0..k-1 the team. With ranking on (init's rank),
   * ranks 0, 1, ... go first to the first block on each SM, then to the second
   * ones: the scheduler puts blocks 0-7 and 8-15 of a launch on the same 8 SMs,
   * so a team of the first 64 block ids sat on 56 SMs, two blocks sharing one
   * SM's L1 request rate (where a launch puts its blocks: bench/sssp/barrier_probe.cu). Unranked: blockIdx.x. */
  uint32_t b;
  /* Every thread of every block, at the kernel's start (a grid barrier when
   * ranking; ctl's rank counters must be zero). */
  __device__ __forceinline__ void init(cg::grid_group &grid, stretch_ctl *ctl, uint32_t team_blocks,
                                       bool solo_local, bool rank, uint32_t (&scratch)[2]) {
    c = ctl;
    k = team_blocks;
    local = solo_local;
    arrived = *(volatile uint32_t *)&ctl->arrived;
    team = *(volatile uint32_t *)&ctl->team;
    b = blockIdx.x;
    if (!rank) return;
    if (threadIdx.x == 0) {
      uint32_t smid;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
      uint32_t slot = atomicAdd(&ctl->sm_slot[smid % RANK_SMS], 1u);
      if (slot >= RANK_SLOTS) slot = RANK_SLOTS - 1; /* still one rank per block */
      scratch[0] = slot;
      scratch[1] = atomicAdd(&ctl->slot_count[slot], 1u);
    }
    grid.sync();
    if (threadIdx.x == 0) {
      uint32_t r = scratch[1];
      for (uint32_t i = 0; i < scratch[0]; ++i) r += *(volatile uint32_t *)&ctl->slot_count[i];
      scratch[0] = r;
    }
    __syncthreads();
    b = scratch[0];
  }
  /* Waits (thread 0) until *word has passed target (wrapping); an acquire:
   * what the arrivals released is visible after it. */
  static __device__ __forceinline__ void await(uint32_t *word, uint32_t target) {
    uint32_t v;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(word) : "memory");
    } while ((int32_t)(v - target) < 0);
  }
  /* Adds one to *word, releasing every earlier access of this block (thread 0,
   * after a block barrier). Release / acquire instead of two sequentially
   * consistent fences (__threadfence) around a relaxed atomic and volatile
   * polls: team rounds 2-3 % faster on the road networks. */
  static __device__ __forceinline__ void arrive(uint32_t *word) {
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(word) : "memory");
  }
  /* Before a stretch: every block checks in once it has read the counters it
   * decides on; the team, which changes them, waits for all. */
  __device__ __forceinline__ void check_in() {
    __syncthreads();
    arrived += gridDim.x;
    if (threadIdx.x == 0) {
      arrive(&c->arrived);
      if (b < k) await(&c->arrived, arrived);
    }
    __syncthreads();
  }
  /* The barrier of blocks 0..k-1. */
  __device__ __forceinline__ void team_sync() {
    __syncthreads();
    team += k;
    if (threadIdx.x == 0) {
      arrive(&c->team);
      await(&c->team, team);
    }
    __syncthreads();
  }
  /* The barrier of a round relaxed by `parts` blocks. */
  __device__ __forceinline__ void round_sync(uint32_t parts) {
    if (parts == 1) __syncthreads();
    else if (parts < gridDim.x) team_sync();
    else cg::this_grid().sync();
  }
};

} // namespace dsgpu

#endif /* DS_GPU_TEAM_BARRIER_CUH */
