// What the architecture being compiled allows, for the values that shape only a kernel's
// compilation (its launch bounds), in the way CUB keys its tuning by the PTX architecture: in a
// device pass the architecture of that pass (__CUDA_ARCH__); in the host pass, which launches
// nothing by these values, sm_90's. Launch configurations and storage sizes never use them: those
// are read from the device at run time (cudaDeviceGetAttribute, the occupancy calculator).
#pragma once
#include <stddef.h>

#ifdef __CUDA_ARCH__
#define MSPLIT_COMPILED_ARCH __CUDA_ARCH__
#else
#define MSPLIT_COMPILED_ARCH 900
#endif

namespace msplit {
namespace detail {

// Shared memory per SM (bytes) of compute capability arch / 100 . (arch % 100) / 10, from the CUDA
// C++ Programming Guide's table of technical specifications.
constexpr size_t shared_bytes_per_sm(int arch) {
  return arch >= 1200   ? size_t(100) * 1024   // sm_120: consumer Blackwell
         : arch >= 1000 ? size_t(228) * 1024   // sm_100, sm_103, sm_110
         : arch >= 900  ? size_t(228) * 1024   // sm_90
         : arch == 800 || arch == 870 ? size_t(164) * 1024
         : arch >= 860  ? size_t(100) * 1024   // sm_86, sm_89
         : arch >= 750  ? size_t(64) * 1024
         : arch >= 700  ? size_t(96) * 1024
                        : size_t(64) * 1024;
}

}  // namespace detail
}  // namespace msplit
