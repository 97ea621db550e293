/* deltasplit GPU SSSP: every tuning constant of the engines, with the
 * measurement that chose it (H100, sm_90; times in ms of one search unless
 * said otherwise). Change them here, nowhere else. The ones a user may
 * override for experiments are the defaults of ds_gpu_options (gpu_sssp.h,
 * filled by ds_gpu_options_default in context.cu); the others are compiled
 * into the kernels. Limits that follow from a data layout (the huge-list
 * word's fields, the bucket limit, block ranks) live with that layout.
 */
#ifndef DS_GPU_TUNING_CUH
#define DS_GPU_TUNING_CUH

#include <stdint.h>

namespace dsgpu {
namespace tuning {

/* ---- the relaxation (relax_frontier.cuh, huge_list.cuh) ------------------ */

/* Threads per block of the relaxation and the persistent kernels: one
 * frontier entry per thread in a tile. Not swept on its own; the shared
 * tile arrays, the bookkeeping's one thread per bucket and the grid
 * multisplit's storage are sized by it. */
constexpr int RELAX_BLOCK = 256;
/* Arcs per thread per step of the tile loop, loaded in three stages (arcs,
 * distances, atomics) so that each stage's accesses are in flight together.
 * Against one arc at a time: kron20 5.44 -> 5.14, kron22 20.16 -> 19.74,
 * NY 7.71 -> 7.41, BAY 6.01 -> 5.82, COL 12.07 -> 11.79. */
constexpr int RELAX_ILP = 4;
/* Arcs per lane per warp chunk of the huge list, staged the same way; with 4
 * (to fit 64 registers at 4 blocks per SM) every graph was slower. */
constexpr int HUGE_CHUNK_STEPS = 8;
/* Vertices of at least this degree go to the huge list, which the whole grid
 * expands after a barrier. Against one block per vertex: kron20 8.1 -> 5.6,
 * kron22 21.9 -> 20.4; thresholds 512 and 256 were slower (kron22 12.8 ->
 * 13.0 / 13.1). */
constexpr uint32_t HUGE_DEGREE = 2048;
/* A round on part of the grid lists vertices of at least SOLO_HUGE_DEGREE
 * arcs and hands its huge list to the whole grid if it holds more than
 * SOLO_HUGE_ARCS arcs per block: the solo round of kron22 that met 4
 * vertices of 47K arcs took 374 us on one block, 27 us so. */
constexpr uint32_t SOLO_HUGE_ARCS_PER_BLOCK = 16 * RELAX_BLOCK;
/* A round's frontier of fewer than RELAX_BLOCK entries per block is spread
 * evenly over its blocks in tiles of at least this many entries (256: no
 * spreading). 8 since local steps: 16 and 4 within 1 % of it, 128 13-25 %
 * slower on the road networks. */
constexpr uint32_t MIN_TILE = 8;
/* How a round's tiles are dealt to blocks: 1, by an atomic counter, rather
 * than statically (0) or only on rounds of more than two tiles per block (2).
 * A static deal left blocks waiting at the grid barrier for the unluckiest
 * tile on power-law graphs (kron22 14.0 against 12.8); on the road networks
 * the counter was 4-7 % faster than mode 2. */
constexpr int DYNAMIC_TILES = 1;

/* Hub order (huge_list.cuh; the options hub_order, hub_degree, huge_degree), in the
 * two-block build, on graphs whose vertices of at least HUB_SHARE_DEGREE arcs hold
 * 1 / HUB_SHARE_PART of the arcs or more (kron18 52 %, kron20 64 %; R-MAT of the
 * suite 0 %, road-like graphs 0 %). A round expands the vertices it lists as huge
 * (HUB_HUGE_DEGREE arcs and more, instead of HUGE_DEGREE) only within delta /
 * HUB_ORDER of the least distance listed, and those of HUB_DEGREE arcs and more only
 * within delta / HUB_ORDER of the least distance queued for the round; the others wait
 * for the next round. H100, near-far at delta auto, ms (arcs relaxed), off -> on:
 * kron20 2.83 -> 2.18 (95 M -> 51 M, 13 -> 25 rounds), kron22 11.09 -> 8.95 (343 M ->
 * 212 M, 12 -> 27 rounds). Swept: huge degree 256-2048 (256 best with the order before dense rounds, 2048
 * without), HUB_ORDER 256-2048 (kron22 10.1 at 256 and 9.9 at 2048 for the huge
 * vertices alone; 1024 and 2048 within 2 % with the mid-degree ones), HUB_DEGREE
 * 16-128 (kron20 2.13-2.35, kron22 8.95-9.47; 32 within 3 % of the best on both). On
 * R-MAT of the suite (max degree 411) the order cost 15-70 % (re-listed stragglers
 * kept a huge list in every round), hence the share rule. */
constexpr uint32_t HUB_ORDER = 1024;
/* Dense rounds (queue_pending, frontier_queue.cuh): a grid round of any engine
 * in the two-block build whose frontier holds at least n / DENSE_FRONTIER_DIV
 * vertices (and DENSE_FRONTIER_MIN) claims and queues nothing below its split;
 * one pass over all vertices after it queues those left pending. In the large
 * rounds of Kronecker and R-MAT graphs most relaxed arcs lower their target,
 * and each lowering's stamp exchange and push were a dependent round trip of
 * the arc's chain. Off -> on (DS_GPU_DENSE_DIV=1 against the default, H100,
 * 3 interleaved runs, ms): near-far kron22 8.70 -> 5.74 (its rounds 3-5 2.65 /
 * 2.84 / 1.65 -> 1.70 / 1.57 / 0.99 ms), kron20 2.00 -> 1.82, R-MAT 1.93 ->
 * 1.56, kron20-log 1.54 -> 1.34, kron20-bimodal 2.36 -> 2.02, R-MAT-log 1.74
 * -> 1.41; multisplit and sort alike (kron22 8.70 -> 5.71, 8.72 -> 5.74);
 * Bellman-Ford kron22 10.62 -> 7.39. Swept at n / 8 .. n / 512 (kron22
 * near-far 6.96 / 5.71 / 5.72 / 5.88 / 5.91 at n / 8 / 16 / 32 / 128 / 512;
 * Bellman-Ford 6.57 at n / 128, its rounds differ): n / 32 for every engine. */
constexpr uint32_t DENSE_FRONTIER_DIV = 32;
constexpr uint32_t DENSE_FRONTIER_MIN = 4096;
constexpr uint32_t HUB_DEGREE = 32;
/* With dense rounds a tile's relaxations got cheaper than the huge list's
 * expansion, and listing only vertices of 1,024 arcs or more paid (near-far, two
 * passes at 7dc720a, DS_GPU_HUGE_DEGREE 256 / 384 / 512 / 1024 / 2048): kron22
 * 5.71 / 5.38 / 5.33-5.37 / 5.15-5.16 / 4.95, kron20 1.82 / 1.84 / 1.70 / 1.69 /
 * 1.60, kron20-log 1.34 / 1.35 / 1.27 / 1.26 / 1.35, kron20-bimodal 2.02 / 2.04 /
 * 1.93 / 1.92 / 1.94: 1024 gains on all four, 2048 loses kron20-log. */
constexpr uint32_t HUB_HUGE_DEGREE = 1024;
constexpr uint32_t HUB_SHARE_DEGREE = 256;
constexpr uint64_t HUB_SHARE_PART = 4;

/* ---- local steps (relax_frontier.cuh) ------------------------------------ */

/* Local steps per round of solo, team and grid rounds (one-block-per-SM
 * build only). Near-Far at 64 x the mean weight, none -> 8 team steps -> 16:
 * NY 4.14 -> 2.73 -> 2.69, BAY 3.15 -> 2.03, COL 6.57 -> 4.17 -> 4.06,
 * grid-1000 13.27 -> 9.09 -> 8.68, geo-1M 25.30 -> 17.11 -> 16.93. Fewer team
 * steps are slower (6: 1-2 %, 2: 10-15 %), and so are 16 solo steps (1-5 %),
 * or no grid steps (geo-1M +18 %). */
constexpr uint32_t LOCAL_SOLO = 8, LOCAL_TEAM = 16, LOCAL_GRID = 2;
/* The most local steps an option may ask for (a bound on a round's length,
 * far above the best). */
constexpr uint32_t LOCAL_STEPS_MAX = 64;
/* Vertices a block keeps for its next local step; the rest are queued. One
 * tile's worth: a step is one pass of the tile loop. */
constexpr uint32_t LOCAL_CAP = RELAX_BLOCK;
/* Ordered local steps (the option local_order; relax_frontier.cuh): a local step
 * expands only the vertices within delta / k of its buffer's smallest distance and
 * carries the others to the next step, so that a block's chain follows distance order
 * instead of hop order. By the graph (the option's 0): windows of delta /
 * ORDERED_LOCAL_STEPS on graphs of ORDERED_ARCS_PER_VERTEX arcs per vertex and more
 * (of the sparse ones, the only ones that take local steps), off below. In hop order
 * a vertex of many in-arcs is improved, and its arcs relaxed again, once for each of
 * them that a step reaches first. Measured on the H100 at delta auto: geo-1M (8 arcs
 * per vertex) 13.4 -> 8.2 ms, arcs relaxed 178M -> 35M; grid-1000 (4) 7.4 -> 8.1 ms
 * at 64 (7.3 at 16); the road networks (2.6-2.8) 8-15 % slower at 64 and 1-4 % at
 * 16, for fewer arcs relaxed but more rounds. Three other ways to shorten the team
 * rounds of roads were measured in the same runs and dropped: team blocks that stop
 * their local steps once half the team waits (within 1-3 %), at most 64 vertices
 * kept per step (7-30 % slower), and the targets' rows loaded after the test (1-3 %
 * slower); their code, even switched off, made the roads and grid 5-7 % slower. The
 * ordered steps' own checks cost them 2-3 % when off (NY 1.99 -> 2.05 ms, grid-1000
 * 7.04 -> 7.22), so they have a build of their own (round_schedule.cuh: ORD), which
 * gives the plain times back (NY 2.00, grid-1000 7.04). */
constexpr uint32_t ORDERED_LOCAL_STEPS = 64;
constexpr uint64_t ORDERED_ARCS_PER_VERTEX = 6;

/* ---- the round schedule (round_schedule.cuh, launch.cuh) ----------------- */

/* Blocks per SM of the persistent kernels: more hides the latency of large
 * rounds, fewer makes the small rounds of road-like graphs cheaper. A graph
 * of at most SPARSE_ARCS_PER_VERTEX arcs per vertex gets one block per SM and
 * with it the build with local steps: road networks 4-8 % and grid-1000 1 %
 * faster than at two, geo-1M (8 arcs per vertex) 5 % slower without local
 * steps and ~20 % faster with them, kron20 and R-MAT 35 % slower. 4 and 8
 * blocks per SM were slower everywhere (NY 8.3 / 9.3 / 10.4 at 2 / 3 / 4). */
constexpr int PERSISTENT_BLOCKS_PER_SM = 2;
constexpr uint64_t SPARSE_ARCS_PER_VERTEX = 8;
/* A frontier of at most this many vertices runs on one block alone, with
 * block barriers instead of grid-wide ones. Before local steps 256 was best
 * (5-8 % faster than none on the road networks, 512 and more slower). With
 * them a solo round of 150-250 vertices cost 30-38 us on NY, more than a team
 * round of 400-1000 (28-31 us): its local steps grow to a few hundred
 * vertices, bound by one SM's rate of L1 requests. 256 -> 32, near-far (3
 * interleaved runs): NY 1.74 -> 1.59 ms, BAY 1.29 -> 1.25, COL 2.63 -> 2.49,
 * grid-1000 6.02 -> 5.64, geo-1M 7.38 -> 7.04, kron20 2.15 -> 2.14, R-MAT
 * 2.12 -> 2.09, kron22 8.97 -> 8.97; 16 and 64 within 1 % of 32 on the
 * sparse graphs, 128 2-5 % slower. */
constexpr uint32_t SOLO_MAX_FRONTIER = 32;
/* One that exceeds it but has at most TEAM_MAX_FRONTIER vertices runs on a
 * team of TEAM_BLOCKS blocks with a barrier of its own while the others wait
 * at one grid barrier: a grid barrier of every resident block is most of a
 * small round's cost. 64 blocks and 16384 vertices against 16 / 4096: NY
 * 4.93 -> 4.45, BAY 3.72 -> 3.43, COL 7.35 -> 7.19; with local steps 128 and
 * tiles of 8 against 64 and 64: Near-Far NY 2.20 -> 2.01, COL 3.47 -> 3.14,
 * grid-1000 8.71 -> 7.03, geo-1M 17.19 -> 13.04, R-MAT 2.23 -> 2.12, kron20
 * 2.76 -> 2.78. (A grid of one block per SM has 132 blocks on the H100; the
 * team is kept below the grid.) */
constexpr uint32_t TEAM_BLOCKS = 128;
constexpr uint32_t TEAM_MAX_FRONTIER = 16384;
/* Solo rounds keep the sink's counters, the huge-list word and the next
 * frontier in shared memory (1) rather than global memory (0): 0.6-1.1 %
 * faster on the road networks, equal on Kronecker. */
constexpr int SOLO_LOCAL = 1;
/* The most vertices a local solo round keeps in shared memory as the next
 * round's frontier: SOLO_MAX_FRONTIER, a whole solo frontier. */
constexpr uint32_t SOLO_LOCAL_CAP = SOLO_MAX_FRONTIER;
/* The persistent kernels rank their blocks so that the solo block and the
 * team are first blocks of distinct SMs: unranked, a team of the first 64
 * block ids sat on 56 SMs, two blocks sharing one SM's L1 request rate. */
constexpr int RANK_BLOCKS = 1;
/* A barrier wait of the persistent kernels that lasts longer than this gives
 * up and fails the search (barriers.cuh). A legitimate wait is one round's
 * work on the other blocks: the largest rounds of the suite (Kronecker scale
 * 24 on an H200: 25 ms for all 27 rounds) take a few milliseconds, so 10 s is
 * more than a thousand times any of them, and still ends a stalled search
 * well before a test's or a user's patience. */
constexpr uint32_t STALL_MS = 10000;

/* ---- queues ---------------------------------------------------------------- */

/* Near-Far's far piles hold 2n + FAR_SLACK entries and are compacted when
 * within n of it; the bucket engine's spill and log hold 4n + BUCKET_SLACK.
 * The slack only keeps tiny graphs off the compaction and the early phase end. */
constexpr uint32_t FAR_SLACK = 1024;
constexpr uint64_t BUCKET_SLACK = 1024;
/* Pieces a bucket of the bucket engine may hold before a rebuild empties the
 * lists (a rebuild costs the whole pending pile; no graph of the suite came
 * near it). */
constexpr uint32_t PIECES_PER_BUCKET = 4096;

/* ---- one-shot kernels (context.cu, sort_sssp.cu) ---------------------------- */

/* Threads per block of the reset, upload, unpacking and labelling kernels
 * (grid-stride loops, memory-bound; not swept). */
constexpr int FILL_BLOCK = 256;
constexpr int LABEL_BLOCK = 256;
/* Arcs uploaded per chunk through a staging buffer of 2 words an arc, so that
 * packing them needs no second copy of the graph on the device. */
constexpr uint64_t ARC_CHUNK = 1ull << 22;

} // namespace tuning
} // namespace dsgpu

#endif /* DS_GPU_TUNING_CUH */
