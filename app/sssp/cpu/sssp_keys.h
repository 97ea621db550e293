/* Distance keys shared by the CPU algorithms (internal to ds_cpu).
 *
 * A distance is kept as an unsigned key whose order is the order of the
 * distances, so one comparison serves both weight types and an atomic min on
 * the key is an atomic min on the distance:
 *   - integer distances are their own value; 32-bit keys saturate at
 *     DS_KEY_SAT_U32, one below DS_INF_U32 (unreached), so a sum that does not
 *     fit is told apart from an unreached vertex; 64-bit keys are exact;
 *   - float distances are the bit pattern of a non-negative float (+inf =
 *     0x7f800000 is above every finite one); a finite sum that overflows
 *     saturates at FLT_MAX, again told apart from unreached.
 * A search ends with DS_ERR_RANGE if a saturated key is left.
 */
#ifndef DS_SSSP_KEYS_H
#define DS_SSSP_KEYS_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sssp.h"

#define DS_KEY_SAT_U32 (DS_INF_U32 - 1u) /* an integer sum beyond DS_DIST_MAX_U32 */

static inline uint32_t ds_key_from_f32(float f) {
  uint32_t k;
  memcpy(&k, &f, sizeof(k));
  return k;
}

static inline float ds_key_to_f32(uint32_t k) {
  float f;
  memcpy(&f, &k, sizeof(f));
  return f;
}

static inline uint32_t ds_key_inf(int is_float) {
  return is_float ? ds_key_from_f32(INFINITY) : DS_INF_U32;
}

/* The key that marks a distance too large for the narrow width. */
static inline uint32_t ds_key_sat(int is_float) {
  return is_float ? ds_key_from_f32(FLT_MAX) : DS_KEY_SAT_U32;
}

/* du + w for 32-bit integer keys, saturating at DS_KEY_SAT_U32. */
static inline uint32_t ds_key_add_u32(uint32_t du, uint32_t w) {
  uint64_t s = (uint64_t)du + (uint64_t)w;
  return s >= (uint64_t)DS_KEY_SAT_U32 ? DS_KEY_SAT_U32 : (uint32_t)s;
}

/* du + w for float keys: +0 for a -0 sum so that the key stays non-negative,
 * FLT_MAX for a sum that overflowed. */
static inline uint32_t ds_key_add_f32(uint32_t du, float w) {
  float s = ds_key_to_f32(du) + w;
  if (s == 0.0f) s = 0.0f;
  if (s > FLT_MAX) s = FLT_MAX;
  return ds_key_from_f32(s);
}

/* key / width for every 32-bit key by a multiply and shifts (Granlund and Montgomery,
 * "Division by invariant integers using multiplication", 1994: with l = ceil(log2 width) and
 * magic = floor(2^(32 + l) / width) + 1, a 33-bit number, (key * magic) >> (32 + l) is exact).
 * A relaxation that lowers a key divides it by the bucket width to find its bucket, and a
 * hardware division costs 10-40 cycles and does not pipeline. magic lies in [2^32, 2^33), so
 * it is kept as its low 32 bits, low: key * magic >> 32 = key + (key * low >> 32) fits 64 bits,
 * where the 128-bit product needed a shift by a variable count of 32 or more (shrd, shr, a
 * test and a conditional move on x86-64). */
typedef struct {
  uint64_t low;   /* magic - 2^32 */
  unsigned shift; /* l */
} ds_key_divider;

static inline ds_key_divider ds_key_divider_of(uint32_t width) { /* width >= 1 */
  unsigned l = 0;
  while (l < 32 && ((uint64_t)1 << l) < width) l++;
  const uint64_t magic = (uint64_t)(((unsigned __int128)1 << (32 + l)) / width) + 1;
  ds_key_divider d = {magic - ((uint64_t)1 << 32), l};
  return d;
}

static inline uint32_t ds_key_quotient(uint32_t key, ds_key_divider d) {
  return (uint32_t)(((uint64_t)key + (((uint64_t)key * d.low) >> 32)) >> d.shift);
}

#endif /* DS_SSSP_KEYS_H */
