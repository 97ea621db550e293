// Host-only test of AUTO's variant choice (multisplit_resolve_variant): runs without a GPU.
// The table it checks is the one measured on the H100 (detail/multisplit/dispatch.cuh).
#include <cstdio>

#include "msplit/multisplit.cuh"
#include "msplit_test.h"

namespace {
// One check, described for the reader.
void expect(msplit_variant got, msplit_variant want, const char *what, unsigned m, size_t vb, size_t n) {
  CHECK(got == want, "%s: m = %u, value bytes = %zu, n = %zu: got %s, want %s", what, m, vb, n,
        msplit_variant_name(got), msplit_variant_name(want));
}
}  // namespace

int main() {
  using msplit::multisplit_resolve_variant;
  const size_t small = size_t(1) << 20, huge = (size_t(1) << 32) + 1;
  for (unsigned m = 2; m <= 300; ++m) {
    for (size_t vb : {size_t(0), size_t(4), size_t(8)}) {
      msplit_variant want;
      if (m > 256)
        want = MSPLIT_VARIANT_SORT;
      else if (m <= 2)
        want = MSPLIT_VARIANT_DIRECT;
      else
        want = MSPLIT_VARIANT_ONEPASS;
      expect(multisplit_resolve_variant(MSPLIT_VARIANT_AUTO, m, 4, vb, small), want, "auto", m, vb, small);
      expect(multisplit_resolve_variant(MSPLIT_VARIANT_AUTO, m, 4, vb), want, "auto, n unknown", m, vb, 0);
      // n >= 2^32: only the one-pass variant (or the sort above 256) counts that far
      expect(multisplit_resolve_variant(MSPLIT_VARIANT_AUTO, m, 4, vb, huge),
             m > 256 ? MSPLIT_VARIANT_SORT : MSPLIT_VARIANT_ONEPASS, "auto, n > 2^32", m, vb, huge);
      // an explicit request is kept up to 256 buckets
      expect(multisplit_resolve_variant(MSPLIT_VARIANT_DIRECT, m, 4, vb, small),
             m > 256 ? MSPLIT_VARIANT_SORT : MSPLIT_VARIANT_DIRECT, "direct requested", m, vb, small);
    }
  }
  return msplit_test_finish("multisplit AUTO table");
}
