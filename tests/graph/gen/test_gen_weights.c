/* Tests of the generators' weight distributions (ds_weight_dist, ds/rng.h), on a
 * uniform random graph of 2^20 edges over the range 1 .. 2^24:
 *   - log-uniform puts about the same count in every octave of the range
 *     (within 5 standard deviations);
 *   - bimodal puts 1 % (within 5 standard deviations) in the top half and the
 *     rest in the bottom 1/65536 of the range;
 *   - uniform gives the same weights as before the distributions existed (a
 *     checksum).
 * The bad specs of the distributions are in test_gen_edges.c with the others.
 */
#define GEN_TEST_NAME "test_gen_weights"
#include "gen_test_util.h"

/* The uniform weights' checksum of the spec below, from the generator before weight
 * distributions were added (0b4a197): uniform weights must stay what they were. */
#define UNIFORM_WEIGHT_CHECKSUM 18398744613699398702ull
static void test_weight_dists(void) {
  ds_gen_spec s;
  ds_gen_spec_default(&s, DS_GEN_UNIFORM);
  s.seed = 12345;
  s.n = 1u << 16;
  s.m = 1u << 20;
  s.weight_min = 1;
  s.weight_max = 1u << 24;
  ds_gen_edge_list e;
  // log-uniform: 25 octaves [2^k, 2^(k+1)), k = 0..24 (the last holds 2^24 alone)
  s.weight_dist = DS_WEIGHTS_LOG;
  gen_or_die(&s, &e);
  uint64_t oct[32] = {0}, out = 0;
  for (uint64_t i = 0; i < e.count; i++) {
    if (e.w[i] < s.weight_min || e.w[i] > s.weight_max) out++;
    else oct[31 - __builtin_clz(e.w[i])]++;
  }
  CHECK(out == 0, "log weights: %llu outside 1..2^24", (unsigned long long)out);
  const double p = 1.0 / 25, mean = p * (double)e.count, sd = sqrt(mean * (1 - p));
  for (int k = 0; k <= 24; k++)
    CHECK(fabs((double)oct[k] - mean) <= 5 * sd,
          "log weights: octave %d holds %llu, expected %.0f +- %.0f", k,
          (unsigned long long)oct[k], mean, 5 * sd);
  ds_gen_edges_free(&e);
  // bimodal: 1 % in [2^24 - (2^24 - 1) / 2, 2^24], the rest in [1, 1 + (2^24 - 1) / 65536]
  s.weight_dist = DS_WEIGHTS_BIMODAL;
  gen_or_die(&s, &e);
  const uint32_t span = s.weight_max - s.weight_min;
  uint64_t high = 0, low = 0;
  for (uint64_t i = 0; i < e.count; i++) {
    if (e.w[i] >= s.weight_max - span / 2 && e.w[i] <= s.weight_max) high++;
    else if (e.w[i] >= s.weight_min && e.w[i] <= s.weight_min + span / 65536) low++;
  }
  const double hm = 0.01 * (double)e.count, hsd = sqrt(hm * 0.99);
  CHECK(high + low == e.count, "bimodal weights: %llu in neither mode",
        (unsigned long long)(e.count - high - low));
  CHECK(fabs((double)high - hm) <= 5 * hsd, "bimodal weights: %llu high, expected %.0f +- %.0f",
        (unsigned long long)high, hm, 5 * hsd);
  ds_gen_edges_free(&e);
  // uniform: the draw of every edge is unchanged (seeded graphs stay what they were)
  s.weight_dist = DS_WEIGHTS_UNIFORM;
  s.weight_min = 1;
  s.weight_max = 255;
  gen_or_die(&s, &e);
  uint64_t sum = 0;
  for (uint64_t i = 0; i < e.count; i++) sum = sum * 31 + e.w[i];
  CHECK(sum == UNIFORM_WEIGHT_CHECKSUM, "uniform weights: checksum %llu, expected %llu",
        (unsigned long long)sum, (unsigned long long)UNIFORM_WEIGHT_CHECKSUM);
  ds_gen_edges_free(&e);
}

int main(void) {
  test_weight_dists();
  return ds_test_finish(GEN_TEST_NAME);
}
