/* deltasplit GPU SSSP: step profiling, for performance work only
 * (cmake -DDS_GPU_STEP_PROFILE=ON; it slows every round). Off, every macro
 * and function here compiles to nothing, so the kernels are the same as
 * without it.
 *
 * Rounds: thread 0 of the block of rank 0 (stretch_sync::b) stamps clock64 at
 * the steps of each round it takes part in (DS_STEP), and relax_round adds the
 * steps' cycles up per kind of round (0 solo, 1 team, 2 grid): [k][0..4] the
 * steps (entry, frontier and scan, arcs, barrier, exit), [k][5] rounds,
 * [k][6] cycles between rounds. The engines print them with
 * ds_step_prof_report (one copy per translation unit, like the array).
 * Within the rounds, the same thread stamps each tile and local step of
 * relax_frontier (DS_LSTEP_*, ds_lstep_prof_report): its entries and scan, the
 * offsets' barrier, warp 0's arcs and the wait for the other warps, by the
 * step's size.
 *
 * The bucket engine's search kernel: thread 0 of block 0 adds up the cycles of
 * its steps (BK_STAMP): [0] phases, [1] split, bookkeeping and barrier,
 * [2] gathers, [3] rebuilds (up to their bookkeeping), and counts (BK_COUNT)
 * [4] phases, [5] rebuilds, [6] gathers; bk_search_prof_report prints them.
 * Its host-driven loop times its steps on the host (phase_profile).
 */
#ifndef DS_GPU_STEP_PROFILE_CUH
#define DS_GPU_STEP_PROFILE_CUH

#ifdef DS_GPU_STEP_PROFILE
#include <chrono>
#include <cstdio>
#endif

#include <cuda_runtime.h>

namespace dsgpu {

#ifdef DS_GPU_STEP_PROFILE

static __device__ unsigned long long ds_step_prof[3][8];

/* Prints and clears the round profile. */
static inline void ds_step_prof_report(const char *algo) {
  unsigned long long p[3][8], zero[3][8] = {};
  if (cudaMemcpyFromSymbol(p, ds_step_prof, sizeof p) != cudaSuccess ||
      cudaMemcpyToSymbol(ds_step_prof, zero, sizeof zero) != cudaSuccess)
    return;
  for (int k = 0; k < 3; ++k)
    if (p[k][5])
      fprintf(stderr, "step profile %s %s: %llu rounds, cycles/round: entry %.0f frontier+scan %.0f "
              "arcs %.0f barrier %.0f exit %.0f between %.0f\n", algo, k == 0 ? "solo" : k == 1 ? "team" : "grid",
              p[k][5], (double)p[k][0] / p[k][5], (double)p[k][1] / p[k][5], (double)p[k][2] / p[k][5],
              (double)p[k][3] / p[k][5], (double)p[k][4] / p[k][5], (double)p[k][6] / p[k][5]);
}

/* Tiles and local steps of the block of rank 0 (relax_frontier), thread 0's
 * clock: [o][k][i], o = 0 in solo rounds, 1 in team and grid rounds; k = 0 the
 * frontier's tiles, 1..4 local steps of 1-8, 9-32, 33-96 and more entries;
 * i = 0 count, 1 entries, 2 arcs, cycles of 3 the entries and the degree
 * scan, 4 the offsets' barrier, 5 warp 0's arcs, 6 the wait for the block's
 * other warps at the step's end. */
static __device__ unsigned long long ds_lstep_prof[2][5][8];

static inline void ds_lstep_prof_report(const char *algo) {
  unsigned long long p[2][5][8], zero[2][5][8] = {};
  if (cudaMemcpyFromSymbol(p, ds_lstep_prof, sizeof p) != cudaSuccess ||
      cudaMemcpyToSymbol(ds_lstep_prof, zero, sizeof zero) != cudaSuccess)
    return;
  static const char *kind[5] = {"tiles", "steps 1-8", "steps 9-32", "steps 33-96", "steps 97+"};
  for (int o = 0; o < 2; ++o)
    for (int k = 0; k < 5; ++k) {
      const unsigned long long *q = p[o][k];
      if (!q[0]) continue;
      const double c = (double)q[0];
      fprintf(stderr, "local profile %s %s %-11s: %8llu x, entries %6.1f arcs %6.1f, cycles: scan %5.0f "
              "offsets %5.0f arcs %5.0f wait %5.0f\n", algo, o ? "team" : "solo", kind[k], q[0], q[1] / c,
              q[2] / c, q[3] / c, q[4] / c, q[5] / c, q[6] / c);
    }
}
#define DS_LSTEP_VARS long long lt_[4] = {0, 0, 0, 0}
#define DS_LSTEP_MARK(lead, i)                                                                   \
  do {                                                                                           \
    if ((lead) && threadIdx.x == 0) lt_[i] = clock64();                                          \
  } while (0)
#define DS_LSTEP_END(lead, solo, step, n, arcs)                                                  \
  do {                                                                                           \
    if ((lead) && threadIdx.x == 0) {                                                            \
      const long long t_ = clock64();                                                            \
      const int k_ = (step) == 0 ? 0 : (n) <= 8 ? 1 : (n) <= 32 ? 2 : (n) <= 96 ? 3 : 4;         \
      unsigned long long *p_ = ds_lstep_prof[(solo) ? 0 : 1][k_];                                \
      p_[0] += 1;                                                                                \
      p_[1] += (n);                                                                              \
      p_[2] += (arcs);                                                                           \
      p_[3] += lt_[1] - lt_[0];                                                                  \
      p_[4] += lt_[2] - lt_[1];                                                                  \
      p_[5] += lt_[3] - lt_[2];                                                                  \
      p_[6] += t_ - lt_[3];                                                                      \
    }                                                                                            \
  } while (0)

/* The stamps, in relax_smem. */
#define DS_STEP_PROFILE_SMEM long long prof[8];
/* Step i of the round starts now. */
#define DS_STEP(sm, lead, i)                                                                     \
  do {                                                                                           \
    if ((lead) && threadIdx.x == 0) (sm).prof[i] = clock64();                                    \
  } while (0)
/* The lead block took no tile this round: its tile steps take no time. */
#define DS_STEP_NO_TILE(sm, lead)                                                                \
  do {                                                                                           \
    if ((lead) && threadIdx.x == 0) (sm).prof[2] = (sm).prof[3] = (sm).prof[1];                  \
  } while (0)
/* The round ends: add its steps to the profile of its kind. */
#define DS_STEP_ROUND_END(sm, lead, kind)                                                        \
  do {                                                                                           \
    DS_STEP(sm, lead, 5);                                                                        \
    if ((lead) && threadIdx.x == 0) {                                                            \
      unsigned long long *p_ = ds_step_prof[(kind)];                                             \
      for (int i_ = 0; i_ < 5; ++i_) p_[i_] += (sm).prof[i_ + 1] - (sm).prof[i_];                \
      p_[5] += 1;                                                                                \
      const long long gap_ = (sm).prof[0] - (sm).prof[7];                                        \
      if (gap_ > 0 && gap_ < 10000000) p_[6] += gap_;                                            \
      (sm).prof[7] = (sm).prof[5];                                                               \
    }                                                                                            \
  } while (0)

static __device__ unsigned long long bk_prof[8];
/* The clock of the last stamp, a local of the search kernel. */
#define BK_PROF_CLOCK unsigned long long prof_t = 0
#define BK_STAMP(i)                                                                              \
  do {                                                                                           \
    if (blockIdx.x == 0 && threadIdx.x == 0) {                                                   \
      const unsigned long long t_ = clock64();                                                   \
      if ((i) >= 0) bk_prof[(i)] += t_ - prof_t;                                                 \
      prof_t = t_;                                                                               \
    }                                                                                            \
  } while (0)
#define BK_COUNT(i)                                                                              \
  do {                                                                                           \
    if (blockIdx.x == 0 && threadIdx.x == 0) bk_prof[(i)] += 1;                                  \
  } while (0)

/* Prints and clears the search kernel's profile. */
static inline void bk_search_prof_report(const char *name) {
  unsigned long long p[8], zero[8] = {};
  if (cudaMemcpyFromSymbol(p, bk_prof, sizeof p) == cudaSuccess &&
      cudaMemcpyToSymbol(bk_prof, zero, sizeof zero) == cudaSuccess)
    fprintf(stderr, "search profile %s: %llu phases, %llu rebuilds, %llu gathers; kcycles: phases %.0f, split and "
            "book %.0f, gathers %.0f, rebuilds %.0f\n", name, p[4], p[5], p[6], p[0] / 1e3,
            p[1] / 1e3, p[2] / 1e3, p[3] / 1e3);
}

/* Host wall time of each step of the host-driven phase loop, summed. */
struct phase_profile {
  double ms[3] = {0, 0, 0}; /* to the phase's read-back, split and book, gather */
  unsigned phases = 0;
  std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  void phase() { ++phases; }
  void step(int i) {
    const auto now = std::chrono::steady_clock::now();
    ms[i] += std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
  }
  void report(const char *name) const {
    fprintf(stderr, "phase profile %s: %u phase launches, host ms: to the phase's read-back %.3f, split and book "
            "%.3f, gather %.3f\n", name, phases, ms[0], ms[1], ms[2]);
  }
};

#else

static inline void ds_step_prof_report(const char *) {}
static inline void ds_lstep_prof_report(const char *) {}
#define DS_LSTEP_VARS                                                                            \
  do {                                                                                           \
  } while (0)
#define DS_LSTEP_MARK(lead, i) DS_LSTEP_VARS
#define DS_LSTEP_END(lead, solo, step, n, arcs) DS_LSTEP_VARS
#define DS_STEP_PROFILE_SMEM
#define DS_STEP(sm, lead, i)                                                                     \
  do {                                                                                           \
  } while (0)
#define DS_STEP_NO_TILE(sm, lead) DS_STEP(sm, lead, 0)
#define DS_STEP_ROUND_END(sm, lead, kind) DS_STEP(sm, lead, 0)
#define BK_PROF_CLOCK                                                                            \
  do {                                                                                           \
  } while (0)
#define BK_STAMP(i) DS_STEP(0, 0, i)
#define BK_COUNT(i) DS_STEP(0, 0, i)
static inline void bk_search_prof_report(const char *) {}
struct phase_profile {
  void phase() {}
  void step(int) {}
  void report(const char *) const {}
};

#endif

} // namespace dsgpu

#endif /* DS_GPU_STEP_PROFILE_CUH */
