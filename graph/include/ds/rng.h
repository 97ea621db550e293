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
 *   ds_pattern_weight      the seeded weight of a pattern edge (graph.h)
 *
 * Header only (static inline), valid C11 and C++; the hash functions are also
 * device functions under CUDA (the GPU CSR build draws pattern weights).
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

/* The weight of a pattern edge depends only on the seed and the unordered
 * pair {u, v} (0-based ids): both directions of an edge, and repeated lines
 * of it, get the same weight whatever the file order (graph.h gives the
 * formula). Modulo bias is below 2^-32 for any range. */
DS_RNG_HD static inline uint32_t ds_pattern_weight(uint64_t seed, uint32_t u, uint32_t v,
                                                   uint32_t lo, uint32_t hi) {
  uint32_t a = u < v ? u : v, b = u < v ? v : u;
  uint64_t key = ((uint64_t)a << 32) | b;
  uint64_t r = ds_splitmix64(ds_splitmix64(seed) ^ key);
  uint64_t span = (uint64_t)hi - lo + 1;
  return lo + (uint32_t)(r % span);
}

static inline uint64_t ds_splitmix64_next(uint64_t *state) {
  *state += DS_SPLITMIX64_GAMMA;
  return ds_mix64(*state);
}

/* Uniform double in [0, 1) from the top 53 bits of a 64-bit draw. */
static inline double ds_unit_double(uint64_t r64) {
  return (double)(r64 >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct {
  uint64_t s;
} ds_rng;

/* The streams of one (seed, tag) pair: ds_rng_at(ds_rng_base(seed, tag), i)
 * equals ds_rng_stream(seed, tag, i); hoist the base out of hot loops. */
static inline uint64_t ds_rng_base(uint64_t seed, uint64_t tag) {
  return ds_mix64(seed ^ ds_mix64(tag * DS_SPLITMIX64_GAMMA + UINT64_C(0x632BE59BD9B4E019)));
}

static inline ds_rng ds_rng_at(uint64_t base, uint64_t index) {
  ds_rng r;
  r.s = ds_mix64(base + index * DS_SPLITMIX64_GAMMA);
  return r;
}

static inline ds_rng ds_rng_stream(uint64_t seed, uint64_t tag, uint64_t index) {
  return ds_rng_at(ds_rng_base(seed, tag), index);
}

static inline uint64_t ds_rng_next(ds_rng *r) { return ds_splitmix64_next(&r->s); }

/* Uniform double in [0, 1) with 53 random bits. */
static inline double ds_rng_unit(ds_rng *r) { return ds_unit_double(ds_rng_next(r)); }

/* Uniform integer in [0, range) for 1 <= range <= 2^32, by a multiply-shift
 * of 32 random bits (bias below range / 2^32). */
static inline uint32_t ds_rng_below(uint64_t r64, uint64_t range) {
  return (uint32_t)(((r64 >> 32) * range) >> 32);
}

/* Weight uniform in [wmin, wmax] from a 64-bit draw. */
static inline uint32_t ds_rng_weight(uint64_t r64, uint32_t wmin, uint32_t wmax) {
  return wmin + ds_rng_below(r64, (uint64_t)wmax - wmin + 1);
}

#endif /* DS_RNG_H */
