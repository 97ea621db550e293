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
                                   size_t num_segments, const uint8_t *bins, size_t *bin_offsets, cudaStream_t stream) {
  return multisplit_keys(d_temp, temp_bytes, ids, bin_ids, num_segments, uint32_t(segsort_tuning::NUM_BINS),
                         segsort_bin_op{bins}, bin_offsets, stream);
}

}  // namespace detail
}  // namespace msplit
