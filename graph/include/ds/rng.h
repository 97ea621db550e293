/* Random numbers of the project: splitmix64 (Steele, Lea, Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014) and what is built
 * on it. One definition for the graph layer (pattern weights, cache checksum),
 * the generators, the program (random sources) and the tests, so that a seed
 * means the same numbers everywhere and generated graphs stay bit-identical.
 *
 *   ds_mix64(z)            the splitmix64 finaliser: a bijection of 64-bit
 *                          words with good avalanche (a hash)
 *   ds_splitmix64(x)       one generator step's output from state x: the
 *                          finaliser of x + gamma (also used as a hash)
 *   ds_splitmix64_next(&s) advances the state s and returns its output
 *   ds_rng_*               counter-based streams: every item i of a use owns
 *                          the stream ds_rng_stream(seed, tag, i), whose start
 *                          is a bijective hash of (seed, tag, i), so any split
 *                          of the items over threads gives the same numbers
 *
 *   ds_weight_shape        a weight of a distribution (ds_weight_dist) from
 *                          one 64-bit draw: the generators' weights, and the
 *                          log and bimodal weights of pattern edges
 *   ds_pattern_weight      the seeded weight of a pattern edge (graph.h)
 *
 * Header only (static inline), valid C11 and C++; everything is also a
 * device function under CUDA (the GPU CSR build draws pattern weights, a
 * Kronecker kernel the streams of its edges: ds/kron_edge.h).
 */
#ifndef DS_RNG_H
#define DS_RNG_H

#include <stdint.h>

/* splitmix64's increment: 2^64 / golden ratio, odd. */
#define DS_SPLITMIX64_GAMMA UINT64_C(0x9E3779B97F4A7C15)

#ifdef __CUDACC__
#define DS_RNG_HD __host__ __device__
#else
#define DS_RNG_HD
#endif

DS_RNG_HD static inline uint64_t ds_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

DS_RNG_HD static inline uint64_t ds_splitmix64(uint64_t x) {
  return ds_mix64(x + DS_SPLITMIX64_GAMMA);
}

DS_RNG_HD static inline uint64_t ds_splitmix64_next(uint64_t *state) {
  *state += DS_SPLITMIX64_GAMMA;
  return ds_mix64(*state);
}

/* Uniform double in [0, 1) from the top 53 bits of a 64-bit draw. */
DS_RNG_HD static inline double ds_unit_double(uint64_t r64) {
  return (double)(r64 >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct {
  uint64_t s;
} ds_rng;

/* The streams of one (seed, tag) pair: ds_rng_at(ds_rng_base(seed, tag), i)
 * equals ds_rng_stream(seed, tag, i); hoist the base out of hot loops. */
DS_RNG_HD static inline uint64_t ds_rng_base(uint64_t seed, uint64_t tag) {
  return ds_mix64(seed ^ ds_mix64(tag * DS_SPLITMIX64_GAMMA + UINT64_C(0x632BE59BD9B4E019)));
}

DS_RNG_HD static inline ds_rng ds_rng_at(uint64_t base, uint64_t index) {
  ds_rng r;
  r.s = ds_mix64(base + index * DS_SPLITMIX64_GAMMA);
  return r;
}

DS_RNG_HD static inline ds_rng ds_rng_stream(uint64_t seed, uint64_t tag, uint64_t index) {
  return ds_rng_at(ds_rng_base(seed, tag), index);
}

DS_RNG_HD static inline uint64_t ds_rng_next(ds_rng *r) { return ds_splitmix64_next(&r->s); }

/* Uniform double in [0, 1) with 53 random bits. */
DS_RNG_HD static inline double ds_rng_unit(ds_rng *r) { return ds_unit_double(ds_rng_next(r)); }

/* Uniform integer in [0, range) for 1 <= range <= 2^32, by a multiply-shift
 * of 32 random bits (bias below range / 2^32). */
DS_RNG_HD static inline uint32_t ds_rng_below(uint64_t r64, uint64_t range) {
  return (uint32_t)(((r64 >> 32) * range) >> 32);
}

/* Weight uniform in [wmin, wmax] from a 64-bit draw. */
DS_RNG_HD static inline uint32_t ds_rng_weight(uint64_t r64, uint32_t wmin, uint32_t wmax) {
  return wmin + ds_rng_below(r64, (uint64_t)wmax - wmin + 1);
}

/* How integer weights in [min, max] are drawn: by the generators (ds_gen_spec)
 * and for pattern graphs (ds_load_options). Heavy-tailed weights are where the
 * bucket count of delta-stepping decides the work: with uniform weights a
 * search at the automatic delta fits in a few buckets. The names are
 * ds_weight_dist_name's (graph.h). */
typedef enum {
  DS_WEIGHTS_UNIFORM = 0, /* uniform over [min, max] */
  DS_WEIGHTS_LOG = 1,     /* log-uniform by octaves: an octave [2^k, 2^(k+1)) within the
                             range chosen uniformly, then a weight uniform within it (the
                             range's share of it); needs min >= 1 */
  DS_WEIGHTS_BIMODAL = 2, /* 99 %: uniform over [min, min + (max - min) / 65536];
                             1 %: uniform over [max - (max - min) / 2, max] */
  DS_WEIGHT_DISTS = 3     /* how many there are */
} ds_weight_dist;

/* The percentage of bimodal weights in the top half of the range, and the
 * fraction of the range (1 / DS_BIMODAL_LOW_DIVISOR) the others keep to. */
#define DS_BIMODAL_HIGH_PERCENT 1u
#define DS_BIMODAL_LOW_DIVISOR 65536u

/* floor(log2 x) for x >= 1. */
DS_RNG_HD static inline int ds_floor_log2(uint32_t x) {
#ifdef __CUDA_ARCH__
  return 31 - __clz((int)x);
#else
  return 31 - __builtin_clz(x);
#endif
}

/* A weight of distribution dist in [lo, hi] from one 64-bit draw r64: the
 * high 32 bits choose (the octave of log, the mode of bimodal), the low 32
 * the weight within; uniform takes the high 32 bits alone (ds_rng_weight).
 * Integer arithmetic only, so a seed gives the same weights on every machine
 * and on the device. Preconditions (ds_weight_dist_check): lo <= hi, dist
 * known, lo >= 1 for log. */
DS_RNG_HD static inline uint32_t ds_weight_shape(ds_weight_dist dist, uint64_t r64, uint32_t lo,
                                                 uint32_t hi) {
  switch (dist) {
    case DS_WEIGHTS_LOG: {
      /* octaves floor(log2 lo) .. floor(log2 hi); the high 32 bits pick one, the low the weight */
      const int k_lo = ds_floor_log2(lo), k_hi = ds_floor_log2(hi);
      const int k = k_lo + (int)ds_rng_below(r64, (uint64_t)(k_hi - k_lo + 1));
      const uint64_t first = (uint64_t)1 << k, last = ((uint64_t)1 << (k + 1)) - 1;
      const uint32_t a = first > lo ? (uint32_t)first : lo, b = last < hi ? (uint32_t)last : hi;
      return ds_rng_weight(r64 << 32, a, b);
    }
    case DS_WEIGHTS_BIMODAL: {
      const uint32_t span = hi - lo;
      if (ds_rng_below(r64, 100) < DS_BIMODAL_HIGH_PERCENT)
        return ds_rng_weight(r64 << 32, hi - span / 2, hi);
      return ds_rng_weight(r64 << 32, lo, lo + span / DS_BIMODAL_LOW_DIVISOR);
    }
    default: return ds_rng_weight(r64, lo, hi);
  }
}

/* The weight of a pattern edge depends only on the seed and the unordered
 * pair {u, v} (0-based ids): both directions of an edge, and repeated lines
 * of it, get the same weight whatever the file order (graph.h gives the
 * formula). Uniform weights are the hash modulo the range (bias below 2^-32
 * for any range), not ds_weight_shape's multiply-shift: they predate the
 * distributions, and caches, results and tests hold them. Log and bimodal
 * shape the same hash with ds_weight_shape. Preconditions as ds_weight_shape's. */
DS_RNG_HD static inline uint32_t ds_pattern_weight(uint64_t seed, uint32_t u, uint32_t v,
                                                   uint32_t lo, uint32_t hi,
                                                   ds_weight_dist dist) {
  uint32_t a = u < v ? u : v, b = u < v ? v : u;
  uint64_t key = ((uint64_t)a << 32) | b;
  uint64_t r = ds_splitmix64(ds_splitmix64(seed) ^ key);
  if (dist != DS_WEIGHTS_UNIFORM) return ds_weight_shape(dist, r, lo, hi);
  uint64_t span = (uint64_t)hi - lo + 1;
  return lo + (uint32_t)(r % span);
}

#endif /* DS_RNG_H */
