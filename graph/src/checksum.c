/* The 64-bit checksum of the graph layer (graph_internal.h: ds_checksum64),
 * beneath its two users: the binary cache (its header and payload, and the
 * name of a cache file) and the input's stamp (the hash of an input's
 * content), which both call down to it.
 */
#include "graph_internal.h"

#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull
#define CHECKSUM_LANES 4

/* FNV-1a over 64-bit words in four independent lanes (four times the speed
 * of one chain); a changed word always changes its lane, and the lanes are
 * folded and mixed at the end. */
uint64_t ds_checksum64(const void *data, size_t len, uint64_t seed) {
  const unsigned char *p = data;
  uint64_t h[CHECKSUM_LANES];
  for (int i = 0; i < CHECKSUM_LANES; i++) h[i] = (FNV_OFFSET ^ seed) + (uint64_t)i;
  size_t blocks = len / (CHECKSUM_LANES * sizeof(uint64_t));
  for (size_t b = 0; b < blocks; b++, p += CHECKSUM_LANES * sizeof(uint64_t)) {
    uint64_t w[CHECKSUM_LANES];
    memcpy(w, p, sizeof w);
    for (int i = 0; i < CHECKSUM_LANES; i++) h[i] = (h[i] ^ w[i]) * FNV_PRIME;
  }
  for (size_t k = blocks * CHECKSUM_LANES * sizeof(uint64_t); k < len; k++, p++)
    h[0] = (h[0] ^ *p) * FNV_PRIME;
  uint64_t x = h[0];
  for (int i = 1; i < CHECKSUM_LANES; i++) x = (x ^ ds_splitmix64(h[i])) * FNV_PRIME;
  return ds_splitmix64(x ^ len);
}
