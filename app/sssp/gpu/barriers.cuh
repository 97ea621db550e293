/* deltasplit GPU SSSP: the barriers of the persistent kernels: block ranks
 * (which blocks form the solo block and the team), the grid barrier, the
 * check-in before a stretch of small rounds, and the team's own barrier.
 * Shared by Near-Far and the bucket engine (round_schedule.cuh runs the
 * rounds between them).
 *
 * Every barrier is a counter in global memory that only grows (stretch_ctl):
 * thread 0 of each arriving block adds one with release order after a block
 * barrier, and the waiting blocks' thread 0 loads it with acquire order until
 * it has passed the block's own expected value, then a block barrier. What a
 * block wrote before it arrived is visible to every block that waited for its
 * arrival (release / acquire at device scope; the block barriers order the
 * other threads' accesses around thread 0's).
 *
 * Invariants the counters rely on:
 *   - every block that takes part in a barrier arrives exactly once per
 *     passage, and the blocks agree on the sequence of barriers they pass
 *     (they take the same decisions from the same values; round_schedule.cuh);
 *   - each block's expected values start from the counters' values at the
 *     kernel's start, read before any block of the launch can arrive: init
 *     ends with a barrier of the launch itself (cooperative groups), passed
 *     only once every block has read them;
 *   - the targets compare with wrapping arithmetic (counters may wrap), so a
 *     counter must never run more than 2^31 arrivals ahead of a waiter: a
 *     waiter is at most one passage behind.
 *
 * No wait is unbounded. A wait that has not been met after stall_ns
 * nanoseconds (ds_gpu_options::stall_ms; far above any real wait, which is
 * one round's work) records where it was (stall_record, first one wins) and
 * raises the stall flag (stretch_ctl::stalled, or the engine's own word that the host reads
 * back with its summary); every other waiter polls that flag and gives
 * up too. A block that gives up ends (PTX exit, all its threads together),
 * so the kernel ends, the context stays usable, and the host reads the record
 * and reports the stall (stall_report).
 */
#ifndef DS_GPU_BARRIERS_CUH
#define DS_GPU_BARRIERS_CUH

#include <cooperative_groups.h>
#include <cuda/atomic>

#include "gpu_common.cuh"

namespace dsgpu {

namespace cg = cooperative_groups;

/* Block ranks: SM ids told apart, and blocks per SM told apart. */
constexpr uint32_t RANK_SMS = 256;
constexpr uint32_t RANK_SLOTS = 8;

/* Where a persistent kernel gave up waiting (stall_record::site). */
enum stall_site : uint32_t {
  STALL_NONE = 0,
  STALL_GRID = 1,     /* the grid barrier */
  STALL_CHECK_IN = 2, /* the team's check-in before a stretch */
  STALL_TEAM = 3,     /* the team barrier */
};

/* The first wait that gave up, for the host's message. */
struct stall_record {
  uint32_t site;    /* stall_site */
  uint32_t rank;    /* the block that gave up (stretch_sync::b) */
  uint32_t seen;    /* the counter's last value, */
  uint32_t want;    /*   and the value the block waited for */
  unsigned long long waited_ns;
};

/* Where each block was when the search stopped (ds_gpu_ctx::d_block_waits,
 * one per block rank; zero before each search): written by a block as it
 * gives up, so that the host's message says where every block waited. */
struct block_wait {
  uint32_t site;    /* stall_site; 0: the block never gave up (it was not waiting) */
  uint32_t want;    /* the counter value it waited for */
  uint32_t all;     /* its grid and team targets then: how many barriers it had passed */
  uint32_t team;
};

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
  uint32_t grid;    /* arrivals at grid barriers (only ever grows) */
  uint32_t stalled; /* a wait gave up (stall): every block ends (where the engine
                       keeps no flag of its own, stretch_sync::init) */
  stall_record stall;
  /* block ranks (stretch_sync::init), zero before each launch */
  uint32_t sm_slot[RANK_SMS];      /* blocks seen per SM id */
  uint32_t slot_count[RANK_SLOTS]; /* blocks per slot: first on their SM, second, ... */
};

/* A block's view of the barriers: the counts of stretch_ctl it expects.
 * Every block enters the same stretches and passes the same grid barriers,
 * and every team member passes the same team barriers, so the expected values
 * agree. */
struct stretch_sync {
  stretch_ctl *c;
  uint32_t k;       /* team members: blocks 0..k-1 (1: no team rounds) */
  uint32_t arrived; /* check-ins the last stretch's entry waited for */
  uint32_t team;    /* team arrivals the last team barrier waited for */
  uint32_t all;     /* grid arrivals the last grid barrier waited for */
  unsigned long long stall_ns; /* a wait longer than this gives up */
  block_wait *waits;           /* where each block gave up (block_wait) */
  uint32_t *stalled;           /* the flag a give-up raises (init) */
  bool local;       /* solo rounds kept local (relax_round, local) */
  bool hold;        /* a test's forced stall: this block skips its first grid arrival */
  bool lag;         /* a test's lag behind team barriers (team_sync) */
  /* The block's rank, what the engines use instead of blockIdx.x: block 0 is
   * the solo block, blocks 0..k-1 the team. With ranking on (init's rank),
   * ranks 0, 1, ... go first to the first block on each SM, then to the second
   * ones: the scheduler puts blocks 0-7 and 8-15 of a launch on the same 8 SMs,
   * so a team of the first 64 block ids sat on 56 SMs, two blocks sharing one
   * SM's L1 request rate (where a launch puts its blocks: bench/sssp/barrier_probe.cu). Unranked: blockIdx.x. */
  uint32_t b;

  using ref = cuda::atomic_ref<uint32_t, cuda::thread_scope_device>;

  /* Every thread of every block, at the kernel's start (ctl's rank counters
   * must be zero when ranking). */
  /* flag: where a give-up is flagged, a word the host reads back with the
   * search's summary anyway (NULL: ctl->stalled). */
  __device__ __forceinline__ void init(cg::grid_group &grid, stretch_ctl *ctl, const round_knobs &kn,
                                       uint32_t (&scratch)[2], uint32_t *flag = nullptr) {
    c = ctl;
    stalled = flag ? flag : &ctl->stalled;
    k = kn.team_blocks;
    local = kn.solo_local;
    stall_ns = kn.stall_ns;
    waits = kn.block_waits;
    arrived = ref(ctl->arrived).load(cuda::memory_order_relaxed);
    team = ref(ctl->team).load(cuda::memory_order_relaxed);
    all = ref(ctl->grid).load(cuda::memory_order_relaxed);
    b = blockIdx.x;
    if (kn.rank_blocks && threadIdx.x == 0) {
      uint32_t smid;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
      uint32_t slot = atomicAdd(&ctl->sm_slot[smid % RANK_SMS], 1u);
      if (slot >= RANK_SLOTS) slot = RANK_SLOTS - 1; /* still one rank per block */
      scratch[0] = slot;
      scratch[1] = atomicAdd(&ctl->slot_count[slot], 1u);
    }
    /* once: every block has read the counters before any arrives (and the
       rank counters are complete) */
    grid.sync();
    if (kn.rank_blocks) {
      if (threadIdx.x == 0) {
        uint32_t r = scratch[1];
        for (uint32_t i = 0; i < scratch[0]; ++i) r += ref(ctl->slot_count[i]).load(cuda::memory_order_relaxed);
        scratch[0] = r;
      }
      __syncthreads();
      b = scratch[0];
    }
    hold = kn.force_stall == 1 && b == gridDim.x - 1;
    lag = kn.force_stall == 2;
  }
  /* Thread 0: waits until *word has passed target (wrapping); an acquire:
   * what the arrivals released is visible after it. Returns false if the
   * wait gave up: after stall_ns (recorded as `site`), or because another
   * block's wait did. The first poll is inline; the rest, which only a block
   * that came early runs, is a call. */
  __device__ __forceinline__ bool await(uint32_t *word, uint32_t target, stall_site site) {
    if ((int32_t)(ref(*word).load(cuda::memory_order_acquire) - target) >= 0) return true;
    return await_long(word, target, site);
  }
  __device__ __noinline__ bool await_long(uint32_t *word, uint32_t target, stall_site site) {
    ref w(*word);
    const unsigned long long t0 = now_ns();
    for (uint32_t i = 1;; ++i) {
      const uint32_t v = w.load(cuda::memory_order_acquire);
      if ((int32_t)(v - target) >= 0) return true;
      if (i % STALL_POLL != 0) continue;
      const unsigned long long t = now_ns();
      const bool other = ref(*stalled).load(cuda::memory_order_relaxed) != 0;
      if (other || t - t0 > stall_ns) {
        if (!other && ref(*stalled).exchange(1u, cuda::memory_order_relaxed) == 0)
          c->stall = stall_record{site, b, v, target, t - t0};
        waits[b] = block_wait{site, target, all, team};
        return false;
      }
    }
  }
  /* Adds one to *word, releasing every earlier access of this block (thread 0,
   * after a block barrier). Release / acquire instead of two sequentially
   * consistent fences (__threadfence) around a relaxed atomic and volatile
   * polls: team rounds 2-3 % faster on the road networks. */
  static __device__ __forceinline__ void arrive(uint32_t *word) {
    /* a reduction (nothing waits for a result), which atomic_ref's fetch_add
       is not */
    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(word) : "memory");
  }
  /* Every thread of the block, after thread 0's wait: ends the block if any
   * wait gave up (the barrier's block barrier and the decision in one). */
  static __device__ __forceinline__ void leave_if(bool gave_up) {
    if (__syncthreads_or(gave_up)) asm volatile("exit;");
  }
  /* The barrier of every block of the launch. */
  __device__ __forceinline__ void grid_sync() {
    __syncthreads();
    all += gridDim.x;
    bool gave_up = false;
    if (threadIdx.x == 0) {
      if (hold) hold = false; /* a test's forced stall: this arrival never comes */
      else arrive(&c->grid);
      gave_up = !await(&c->grid, all, STALL_GRID);
    }
    leave_if(gave_up);
  }
  /* Before a stretch: every block checks in once it has read the counters it
   * decides on; the team, which changes them, waits for all. */
  __device__ __forceinline__ void check_in() {
    __syncthreads();
    arrived += gridDim.x;
    bool gave_up = false;
    if (threadIdx.x == 0) {
      arrive(&c->arrived);
      if (b < k) gave_up = !await(&c->arrived, arrived, STALL_CHECK_IN);
    }
    leave_if(gave_up);
  }
  /* The barrier of blocks 0..k-1. */
  __device__ __forceinline__ void team_sync() {
    __syncthreads();
    team += k;
    bool gave_up = false;
    if (threadIdx.x == 0) {
      arrive(&c->team);
      gave_up = !await(&c->team, team, STALL_TEAM);
      /* a test's lag: the team's last member comes late out of every team
         barrier, as a block that the scheduler holds back would */
      if (lag && b == k - 1) __nanosleep(TEST_LAG_NS);
    }
    leave_if(gave_up);
  }
  /* Block 0, between its arrivals at two team barriers: waits until the
   * other members have arrived at the coming one (what they did before
   * arriving is visible after it). */
  __device__ __forceinline__ void team_wait_others() {
    bool gave_up = false;
    if (threadIdx.x == 0) gave_up = !await(&c->team, team + k - 1, STALL_TEAM);
    leave_if(gave_up);
  }
  /* The barrier of a round relaxed by `parts` blocks. */
  __device__ __forceinline__ void round_sync(uint32_t parts) {
    if (parts == 1) __syncthreads();
    else if (parts < gridDim.x) team_sync();
    else grid_sync();
  }
  /* Polls between looks at the clock and the stall flag: a poll is one L2
     round trip, so the give-up is noticed within a few microseconds. */
  static constexpr uint32_t STALL_POLL = 32;
  static constexpr uint32_t TEST_LAG_NS = 200000;
  static __device__ __forceinline__ unsigned long long now_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
  }
};

/* The grid barrier in the form the library's grid-wide primitives take (a
 * type with sync()). */
struct grid_barrier {
  stretch_sync &ss;
  __device__ __forceinline__ void sync() { ss.grid_sync(); }
};

/* After a search of `grid` blocks whose stall flag the host found raised (in
 * the summary it reads back): "the GPU search stalled: ..." from the record
 * at dev, with where each block waited (DS_ERR_DEVICE). */
ds_status stall_report(ds_gpu_ctx *ctx, const stall_record *dev, uint32_t grid, const char *who, ds_error *err);

} // namespace dsgpu

#endif /* DS_GPU_BARRIERS_CUH */
