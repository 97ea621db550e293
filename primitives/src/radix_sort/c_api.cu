// msplit C API for radix sort: a switch over the type tags onto the library's instantiations
// (src/radix_sort/instantiate_*.cu).
#include "msplit/radix_sort.cuh"
#include "msplit/radix_sort.h"

namespace {

using msplit::detail::key_codec;
using msplit::detail::key_kind;
using msplit::detail::no_value;

constexpr const char *FN = "msplit_radix_sort";

// Bytes of a value type (0: no values, -1: not a value type).
int value_bytes(msplit_type t) {
  switch (t) {
    case MSPLIT_TYPE_NONE: return 0;
    case MSPLIT_TYPE_U32:
    case MSPLIT_TYPE_I32:
    case MSPLIT_TYPE_F32: return 4;
    case MSPLIT_TYPE_U64:
    case MSPLIT_TYPE_I64:
    case MSPLIT_TYPE_F64: return 8;
    default: return -1;
  }
}

template <typename U>
msplit_status run(void *d_temp, size_t *temp_bytes, const void *keys_in, void *keys_out, const void *values_in,
                  void *values_out, size_t n, key_kind kind, int vbytes, bool descending, int begin_bit, int end_bit,
                  cudaStream_t s) {
  const key_codec<U> codec{kind, descending ? ~U(0) : U(0)};
  const U *kin = static_cast<const U *>(keys_in);
  U *kout = static_cast<U *>(keys_out);
  switch (vbytes) {
    case 0:
      return msplit::detail::radix_sort_run<U, no_value>(FN, d_temp, temp_bytes, kin, kout, nullptr, nullptr, nullptr,
                                                        nullptr, n, begin_bit, end_bit, codec, s);
    case 4:
      return msplit::detail::radix_sort_run<U, uint32_t>(
          FN, d_temp, temp_bytes, kin, kout, static_cast<const uint32_t *>(values_in),
          static_cast<uint32_t *>(values_out), nullptr, nullptr, n, begin_bit, end_bit, codec, s);
    default:
      return msplit::detail::radix_sort_run<U, uint64_t>(
          FN, d_temp, temp_bytes, kin, kout, static_cast<const uint64_t *>(values_in),
          static_cast<uint64_t *>(values_out), nullptr, nullptr, n, begin_bit, end_bit, codec, s);
  }
}

}  // namespace

extern "C" msplit_status msplit_radix_sort(void *d_temp, size_t *temp_bytes, const void *d_keys_in, void *d_keys_out,
                                           const void *d_values_in, void *d_values_out, size_t n,
                                           msplit_type key_type, msplit_type value_type, int descending,
                                           int begin_bit, int end_bit, void *stream) {
  using msplit::detail::set_error;
  const int vbytes = value_bytes(value_type);
  if (vbytes < 0)
    return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: value type %d is not supported (none, or 32-bit or 64-bit)", FN,
                     int(value_type));
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  const bool desc = descending != 0;
  switch (key_type) {
    case MSPLIT_TYPE_U32:
      return run<uint32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                           key_kind::UNSIGNED, vbytes, desc, begin_bit, end_bit, s);
    case MSPLIT_TYPE_I32:
      return run<uint32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, key_kind::SIGNED,
                           vbytes, desc, begin_bit, end_bit, s);
    case MSPLIT_TYPE_F32:
      return run<uint32_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, key_kind::FLOAT,
                           vbytes, desc, begin_bit, end_bit, s);
    case MSPLIT_TYPE_U64:
      return run<uint64_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                           key_kind::UNSIGNED, vbytes, desc, begin_bit, end_bit, s);
    case MSPLIT_TYPE_I64:
      return run<uint64_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, key_kind::SIGNED,
                           vbytes, desc, begin_bit, end_bit, s);
    case MSPLIT_TYPE_F64:
      return run<uint64_t>(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, key_kind::FLOAT,
                           vbytes, desc, begin_bit, end_bit, s);
    default:
      return set_error(MSPLIT_ERROR_UNSUPPORTED, "%s: key type %d is not supported (u32, i32, f32, u64, i64, f64)", FN,
                       int(key_type));
  }
}
