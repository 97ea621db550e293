/* Distance keys shared by the CPU algorithms (internal to ds_cpu).
 *
 * A distance is kept as a 32-bit key: integer distances are their own value
 * (DS_INF_U32 = unreached, sums saturate there), float distances are the bit
 * pattern of a non-negative float, whose unsigned order is the order of the
 * values (+inf = 0x7f800000 is above every finite one). One comparison then
 * serves both weight types, and an atomic min on the key is an atomic min on
 * the distance.
 */
#ifndef DS_SSSP_KEYS_H
#define DS_SSSP_KEYS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sssp.h"

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

/* du + w for integer keys, saturating at DS_INF_U32. */
static inline uint32_t ds_key_add_u32(uint32_t du, uint32_t w) {
  uint64_t s = (uint64_t)du + (uint64_t)w;
  return s >= (uint64_t)DS_INF_U32 ? DS_INF_U32 : (uint32_t)s;
}

/* du + w for float keys; +0 for a -0 sum so that the key stays non-negative. */
static inline uint32_t ds_key_add_f32(uint32_t du, float w) {
  float s = ds_key_to_f32(du) + w;
  if (s == 0.0f) s = 0.0f;
  return ds_key_from_f32(s);
}

#endif /* DS_SSSP_KEYS_H */
