// The bucket functor of the C API: one device functor for every built-in kind of
// msplit_bucket_desc (msplit/bucket.h), built and checked here for each primitive's C entry.
#pragma once
#include <type_traits>

#include "common/status_impl.cuh"
#include "msplit/bucket.cuh"
#include "msplit/bucket.h"

namespace msplit {
namespace detail {

// One functor for every built-in kind: the kind is uniform across the grid, so the switch costs a
// predictable branch per key and saves three quarters of the instantiations.
template <typename Key>
struct desc_bucket {
  msplit_bucket_kind kind;
  delta_bucket<Key> delta;
  splitter_bucket<Key> splitters;
  bitfield_bucket<Key> bitfield;

  using msplit_staged = void;
  size_t shared_bytes() const { return kind == MSPLIT_BUCKET_SPLITTERS ? splitters.shared_bytes() : 0; }
  __device__ desc_bucket stage(void *smem, unsigned tid, unsigned nthreads) const {
    desc_bucket s = *this;
    if (kind == MSPLIT_BUCKET_SPLITTERS) s.splitters = splitters.stage(smem, tid, nthreads);
    return s;
  }
  __device__ __forceinline__ uint32_t operator()(const Key &k) const {
    switch (kind) {
      case MSPLIT_BUCKET_DELTA: return delta(k);
      case MSPLIT_BUCKET_SPLITTERS: return splitters(k);
      case MSPLIT_BUCKET_BITFIELD: return bitfield(k);
      default: return identity_bucket()(k);
    }
  }
};

// base (or delta) of a DELTA description, read through the key type.
template <typename Key>
Key desc_scalar(const msplit_bucket_desc &d, bool base) {
  if constexpr (std::is_floating_point_v<Key>) return Key(base ? d.base.f : d.delta.f);
  else if constexpr (std::is_signed_v<Key>) return Key(base ? d.base.i : d.delta.i);
  else return Key(base ? d.base.u : d.delta.u);
}

// Builds *op for num_buckets buckets from `desc`, checking its parameters; `who` (the C entry's
// name) starts the error message. *op is written only on success. A size query (query = true)
// does not look at d_splitters, which it never reads.
template <typename Key>
msplit_status make_desc_bucket(const char *who, const msplit_bucket_desc &desc, uint32_t m, desc_bucket<Key> *op_out,
                               bool query = false) {
  desc_bucket<Key> op{};
  op.kind = desc.kind;
  switch (desc.kind) {
    case MSPLIT_BUCKET_DELTA: {
      const Key delta = desc_scalar<Key>(desc, false);
      if (!(delta > Key(0))) return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: delta must be > 0", who);
      op.delta = delta_bucket<Key>(desc_scalar<Key>(desc, true), delta, m);
      break;
    }
    case MSPLIT_BUCKET_SPLITTERS:
      if (!query && m > 1 && !desc.d_splitters)
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: d_splitters is NULL with %u buckets", who, m);
      op.splitters.splitters = static_cast<const Key *>(desc.d_splitters);
      op.splitters.num_splitters = m - 1;
      break;
    case MSPLIT_BUCKET_BITFIELD:
      if (desc.bits > 32 || desc.shift >= 8 * sizeof(Key))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: bit field shift %u bits %u out of range for a %zu-byte key",
                         who, desc.shift, desc.bits, sizeof(Key));
      op.bitfield.shift = desc.shift;
      op.bitfield.bits = desc.bits;
      break;
    case MSPLIT_BUCKET_IDENTITY: break;
    default:
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "%s: unknown bucket kind %d", who, int(desc.kind));
  }
  *op_out = op;
  return MSPLIT_SUCCESS;
}

}  // namespace detail
}  // namespace msplit
