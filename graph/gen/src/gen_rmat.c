/* R-MAT and Graph500 Kronecker edges.
 *
 * R-MAT (Chakrabarti, Zhan, Faloutsos, SDM 2004): each edge descends
 * `bits` levels of the adjacency matrix, choosing at each level the quadrant
 * top-left (src bit 0, dst bit 0) with probability a, top-right (0,1) with b,
 * bottom-left (1,0) with c and bottom-right (1,1) with d = 1 - a - b - c.
 * The Graph500 Kronecker generator is the same process with n = 2^scale,
 * m = edge_factor * n and a=0.57 b=0.19 c=0.19; its edges are undirected.
 *
 * Invariants and limits:
 *   - edge i uses only the stream ds_rng_stream(seed, DS_TAG_EDGE, i): level
 *     choices two per 64-bit draw, then its weight; so the output does not
 *     depend on the thread count;
 *   - DS_GEN_RMAT takes any n >= 2: the edge is drawn at bits = ceil(log2 n)
 *     and redrawn (from its own stream) while an endpoint is >= n or it is a
 *     self-loop. DS_GEN_KRON keeps self-loops and duplicates, as Graph500
 *     does; ds_csr_build removes them;
 *   - noise (optional): level l's a,b,c,d are each scaled by (1 + noise*u),
 *     u uniform in [-1, 1] drawn once per level, and renormalised; this smooths
 *     the staircase of the degree distribution (Seshadhri, Pinar, Kolda 2013);
 *   - permute: vertex ids are relabelled by a seeded bijection, so that
 *     degree does not follow the id (Graph500 does the same);
 *   - the per-edge math (levels, descent, scramble) is ds/kron_edge.h's, which
 *     the distributed generator and a device kernel share: one stream an edge.
 */
#include "gen_kinds.h"

#include "ds/kron_edge.h"

#define MAX_BITS DS_KRON_MAX_BITS
/* An edge that needs more redraws than this means probabilities that make
 * valid ids vanishingly unlikely (say a = b = 0 with n just above a power of 2). */
#define MAX_REDRAWS (1u << 16)

_Static_assert(DS_KRON_TAG_EDGE == DS_TAG_EDGE && DS_KRON_TAG_PERM == DS_TAG_PERM,
               "kron_edge.h draws the streams of gen_edges.h's tags");

/* The plan of the spec: ds_kron_plan_init's, then, with noise, each level's
 * a,b,c,d scaled by (1 + noise*u) and renormalised. */
static void make_plan(const ds_gen_spec *s, uint32_t bits, uint32_t n, ds_kron_plan *plan) {
  ds_kron_plan_init(plan, s->seed, bits, n, s->a, s->b, s->c, s->permute);
  if (!(s->noise > 0)) return;
  for (uint32_t l = 0; l < bits; l++) {
    double p[4] = {s->a, s->b, s->c, 1.0 - s->a - s->b - s->c};
    if (p[3] < 0) p[3] = 0; /* a + b + c may exceed 1 by rounding */
    ds_rng r = ds_rng_stream(s->seed, DS_TAG_NOISE, l);
    double sum = 0;
    for (int q = 0; q < 4; q++) {
      p[q] *= 1.0 + s->noise * (2.0 * ds_rng_unit(&r) - 1.0);
      sum += p[q];
    }
    for (int q = 0; q < 4; q++) p[q] /= sum;
    ds_kron_level_set(&plan->level[l], p);
  }
}

ds_status ds_gen_rmat_edges(const ds_gen_spec *s, ds_gen_edge_list *out, ds_error *err) {
  const int kron = s->kind == DS_GEN_KRON;
  // 1. sizes: Kronecker 2^scale vertices; R-MAT n vertices drawn at ceil(log2 n) bits
  uint32_t n, bits;
  uint64_t count;
  if (kron) {
    bits = s->scale;
    n = bits == 32 ? UINT32_MAX : (uint32_t)(UINT64_C(1) << bits);
    count = (uint64_t)s->edge_factor << s->scale;
  } else {
    n = s->n;
    bits = 0;
    while (bits < MAX_BITS && (UINT64_C(1) << bits) < n) bits++;
    count = s->m;
  }
  ds_kron_plan plan;
  make_plan(s, bits, n, &plan);

  // 2. memory for the edges
  ds_status st = ds_gen_alloc_edges(out, n, count, s->symmetric, err);
  if (st != DS_OK) return st;

  // 3. the edges, block by block (progress between blocks), each edge from its own stream
  int failed = 0;
  uint32_t *src = out->src, *dst = out->dst, *w = out->w;
  for (uint64_t block = 0; block < count && !failed; block += DS_GEN_BLOCK) {
    const int64_t end = (int64_t)(count - block < DS_GEN_BLOCK ? count : block + DS_GEN_BLOCK);
#pragma omp parallel for schedule(static) reduction(| : failed)
    for (int64_t i = (int64_t)block; i < end; i++) {
      uint32_t u, v;
      uint64_t draw;
      if (kron) {
        draw = ds_kron_edge(&plan, (uint64_t)i, &u, &v);
      } else { /* the kron edge's stream, redrawn while out of range or a self-loop */
        ds_rng r = ds_rng_at(plan.stream, (uint64_t)i);
        ds_kron_descend(&r, &plan, &u, &v);
        uint32_t tries = 0;
        while ((u >= n || v >= n || u == v) && ++tries < MAX_REDRAWS)
          ds_kron_descend(&r, &plan, &u, &v);
        if (tries >= MAX_REDRAWS) {
          failed = 1;
          u = v = 0;
        }
        if (plan.permute) {
          u = ds_kron_scramble(&plan, u);
          v = ds_kron_scramble(&plan, v);
        }
        draw = ds_rng_next(&r);
      }
      src[i] = u;
      dst[i] = v;
      w[i] = ds_weight_shape(s->weight_dist, draw, s->weight_min, s->weight_max);
    }
    ds_gen_report(s, (double)end / (double)count);
  }
  if (failed) {
    ds_gen_edges_free(out);
    return ds_error_set(err, DS_ERR_ARG,
                        "rmat: with a=%g b=%g c=%g almost no edge lands on ids below n = %u "
                        "without being a self-loop; change the probabilities or n",
                        s->a, s->b, s->c, n);
  }
  return DS_OK;
}
