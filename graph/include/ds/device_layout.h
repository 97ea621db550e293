/* Buffers of a GPU run carved from one allocation (C++): the same walk
 * gives the size (base NULL) and, over the allocated block, the pointers.
 *
 *   ds_layout l(base);            // base NULL: measure only
 *   keys = l.take<uint64_t>(n);   // 256-byte aligned
 *   ... l.bytes()                 // what the block must hold
 */
#ifndef DS_DEVICE_LAYOUT_H
#define DS_DEVICE_LAYOUT_H

#include <stdint.h>

struct ds_layout {
  static constexpr uint64_t ALIGN = 256; /* cudaMalloc's alignment, kept for every buffer */
  char *base;
  uint64_t at = 0;
  explicit ds_layout(char *b) : base(b) {}
  template <typename T> T *take(uint64_t count) {
    T *p = base ? reinterpret_cast<T *>(base + at) : nullptr;
    at += (count * sizeof(T) + ALIGN - 1) / ALIGN * ALIGN;
    return p;
  }
  uint64_t bytes() const { return at; }
};

#endif /* DS_DEVICE_LAYOUT_H */
