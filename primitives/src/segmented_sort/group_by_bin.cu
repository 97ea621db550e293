// Step 2 of the segmented sort: segment ids grouped by length bin with msplit's multisplit,
// instantiated once here for every key type.
#include "msplit/detail/segmented_sort/dispatch.cuh"
#include "msplit/multisplit.cuh"

namespace msplit {
namespace detail {

namespace {
// The multisplit's bucket functor: a segment id's bin.
struct segsort_bin_op {
  const uint8_t *bins;
  __device__ __forceinline__ uint32_t operator()(uint32_t s) const { return bins[s]; }
};
}  // namespace

msplit_status segsort_group_by_bin(void *d_temp, size_t *temp_bytes, const uint32_t *ids, uint32_t *bin_ids,
                                   size_t num_segments, const uint8_t *bins, size_t *bin_offsets, error_record *record,
                                   cudaStream_t stream) {
  const lookback_stall stall{record, MSPLIT_STALL_NS, MSPLIT_PRIMITIVE_SEGMENTED_SORT};
  return multisplit_dispatch<uint32_t, no_value, segsort_bin_op>(
      d_temp, temp_bytes, ids, bin_ids, static_cast<const no_value *>(nullptr), static_cast<no_value *>(nullptr),
      num_segments, uint32_t(tuning::SEGSORT_NUM_BINS), segsort_bin_op{bins}, bin_offsets, stream,
      MSPLIT_VARIANT_AUTO, record ? &stall : nullptr);
}

}  // namespace detail
}  // namespace msplit
