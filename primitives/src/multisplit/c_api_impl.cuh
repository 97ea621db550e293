// C API over the multisplit templates: the run-time bucket functor built from msplit_bucket_desc,
// and the per-key-type entry (instantiated in c_api_<key>.cu, one small file per key type so
// that they compile in parallel).
#pragma once
#include "msplit/multisplit.cuh"

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

template <typename Key>
Key desc_scalar(const msplit_bucket_desc &d, bool base) {
  if constexpr (std::is_floating_point_v<Key>) return Key(base ? d.base.f : d.delta.f);
  else if constexpr (std::is_signed_v<Key>) return Key(base ? d.base.i : d.delta.i);
  else return Key(base ? d.base.u : d.delta.u);
}

template <typename Key>
msplit_status c_multisplit(void *d_temp, size_t *temp_bytes, const void *keys_in, void *keys_out,
                           const void *values_in, void *values_out, size_t n, uint32_t m,
                           const msplit_bucket_desc &desc, msplit_type value_type, size_t *offsets,
                           cudaStream_t stream, msplit_variant variant) {
  // 1. build the functor (checking its parameters)
  desc_bucket<Key> op{};
  op.kind = desc.kind;
  switch (desc.kind) {
    case MSPLIT_BUCKET_DELTA: {
      const Key delta = desc_scalar<Key>(desc, false);
      if (!(delta > Key(0)))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_multisplit: delta must be > 0");
      op.delta = delta_bucket<Key>(desc_scalar<Key>(desc, true), delta, m);
      break;
    }
    case MSPLIT_BUCKET_SPLITTERS:
      if (m > 1 && !desc.d_splitters)
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_multisplit: d_splitters is NULL with %u buckets", m);
      op.splitters.splitters = static_cast<const Key *>(desc.d_splitters);
      op.splitters.num_splitters = m - 1;
      break;
    case MSPLIT_BUCKET_BITFIELD:
      if (desc.bits > 32 || desc.shift >= 8 * sizeof(Key))
        return set_error(MSPLIT_ERROR_INVALID_ARGUMENT,
                         "msplit_multisplit: bit field shift %u bits %u out of range for a %zu-byte key",
                         desc.shift, desc.bits, sizeof(Key));
      op.bitfield.shift = desc.shift;
      op.bitfield.bits = desc.bits;
      break;
    case MSPLIT_BUCKET_IDENTITY: break;
    default:
      return set_error(MSPLIT_ERROR_INVALID_ARGUMENT, "msplit_multisplit: unknown bucket kind %d", int(desc.kind));
  }
  // 2. dispatch on the value type
  const Key *kin = static_cast<const Key *>(keys_in);
  Key *kout = static_cast<Key *>(keys_out);
  switch (value_type) {
    case MSPLIT_TYPE_NONE:
      return multisplit_keys(d_temp, temp_bytes, kin, kout, n, m, op, offsets, stream, variant);
    case MSPLIT_TYPE_U32:
      return multisplit_pairs(d_temp, temp_bytes, kin, kout, static_cast<const uint32_t *>(values_in),
                              static_cast<uint32_t *>(values_out), n, m, op, offsets, stream, variant);
    case MSPLIT_TYPE_U64:
      return multisplit_pairs(d_temp, temp_bytes, kin, kout, static_cast<const uint64_t *>(values_in),
                              static_cast<uint64_t *>(values_out), n, m, op, offsets, stream, variant);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED, "msplit_multisplit: value type %d is not supported (none, u32, u64)",
                       int(value_type));
  }
}

#define MSPLIT_DECLARE_C_MULTISPLIT(Key)                                                                   \
  extern template msplit_status c_multisplit<Key>(void *, size_t *, const void *, void *, const void *,   \
                                                  void *, size_t, uint32_t, const msplit_bucket_desc &,  \
                                                  msplit_type, size_t *, cudaStream_t, msplit_variant);
#define MSPLIT_INSTANTIATE_C_MULTISPLIT(Key)                                                        \
  template msplit_status c_multisplit<Key>(void *, size_t *, const void *, void *, const void *,   \
                                           void *, size_t, uint32_t, const msplit_bucket_desc &,  \
                                           msplit_type, size_t *, cudaStream_t, msplit_variant);

}  // namespace detail
}  // namespace msplit
