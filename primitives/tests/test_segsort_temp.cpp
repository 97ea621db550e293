// The segmented sort's temporary storage against CUB's DeviceSegmentedSort for the same call, by
// size queries alone (no GPU needed). CUB 13.0's storage, as its dispatch lays it out (256-byte
// slots, 255 bytes to align the base): the keys' and the values' second buffers, and above
// PARTITIONING_THRESHOLD (500 segments on sm_90) two arrays of 4 bytes per segment and a group
// count slot. That model gives exactly what CUB asked on the H100 for 2^26 u32 pairs (segsort_bench:
// 603,980,287 bytes with segments of 8 items, 537,002,495 with segments of 4,096, 536,871,167 for
// one segment). msplit must ask no more whenever CUB partitions (more than 500 segments), and for
// up to 8 segments no more than the 48 bytes of the error record (msplit/core.h: CUB has none)
// beyond; from 9 to 500, where CUB keeps no per-segment array, at most 8 bytes a
// segment and 176 more (msplit's binned ids and long-segment tiles, 4 bytes each).
#include <cstdint>
#include <cstdio>

#include "msplit/segmented_sort.h"
#include "msplit_test.h"

namespace {

size_t align256(size_t x) { return (x + 255) / 256 * 256; }

size_t cub_bytes(size_t n, size_t segments, size_t key_bytes, size_t value_bytes) {
  size_t b = align256(n * key_bytes) + align256(n * value_bytes);
  if (segments > 500) b += 2 * align256(4 * segments) + 256;
  return b + 255;
}

size_t msplit_bytes(size_t n, size_t segments, msplit_type key, msplit_type value) {
  // a size query looks at no data pointer
  size_t bytes = 0;
  const msplit_status st = msplit_segmented_sort(nullptr, &bytes, nullptr, nullptr, nullptr, nullptr, n, segments,
                                                 nullptr, nullptr, key, value, MSPLIT_TYPE_U32, 0, nullptr);
  CHECK(st == MSPLIT_SUCCESS, "n=%zu segments=%zu: %s", n, segments, msplit_last_error_message());
  return bytes;
}

void check(size_t n, size_t segments, msplit_type key, size_t key_bytes, msplit_type value, size_t value_bytes) {
  const size_t ours = msplit_bytes(n, segments, key, value);
  const size_t cub = cub_bytes(n, segments, key_bytes, value_bytes);
  const size_t allowed = segments > 8 && segments <= 500 ? cub + 8 * segments + 176
                         : segments <= 8                  ? cub + sizeof(msplit_error_record)
                                                          : cub;
  CHECK(ours <= allowed, "n=%zu segments=%zu key %zu B value %zu B: %zu bytes, CUB %zu, allowed %zu", n, segments,
        key_bytes, value_bytes, ours, cub, allowed);
}

}  // namespace

int main() {
  // the model against CUB's measured sizes (H100, CUB 13.0, 2^26 u32 pairs)
  const size_t n26 = size_t(1) << 26;
  CHECK(cub_bytes(n26, n26 / 8, 4, 4) == 603980287u && cub_bytes(n26, n26 / 4096, 4, 4) == 537002495u &&
            cub_bytes(n26, 1, 4, 4) == 536871167u,
        "the model of CUB's storage does not give its measured sizes");
  const size_t sizes[] = {1000, 4096, 4097, 1000007, size_t(1) << 20, n26, (size_t(1) << 31) + 4097};
  const size_t lengths[] = {1, 2, 8, 32, 128, 512, 2048, 4096, 4097, 65536};
  const size_t counts[] = {1, 2, 8, 9, 16, 300, 500, 501, 1000};
  struct {
    msplit_type type;
    size_t bytes;
  } const keys[] = {{MSPLIT_TYPE_U32, 4}, {MSPLIT_TYPE_U64, 8}}, values[] = {{MSPLIT_TYPE_NONE, 0}, {MSPLIT_TYPE_U32, 4}};
  int calls = 0;
  for (size_t n : sizes)
    for (const auto &k : keys)
      for (const auto &v : values) {
        for (size_t len : lengths)
          if (n / len > 0) check(n, n / len, k.type, k.bytes, v.type, v.bytes), ++calls;
        for (size_t s : counts)
          if (s <= n) check(n, s, k.type, k.bytes, v.type, v.bytes), ++calls;
      }
  return msplit_test_finish("segmented sort storage against CUB's: %d calls", calls);
}
