// The slab hash's operations, served by a whole warp: each lane brings one operation (or none).
//
// 1. Probe: the warp loads the head slab of every lane's operation, PROBE_GROUP loads in flight
//    at once, and each lane learns from its head slab which key lanes match its key, which are
//    empty, and the next index.
// 2. Fast path, each lane on its own: a find, erase or count whose head slab settles it (a match,
//    or an empty slot or no next slab, which end the chain by the invariant of slab.cuh), and an
//    insert that finds its key or an empty slot in the head, finish with at most one atomic.
// 3. Slow path, warp-cooperative work sharing (Ashkiani et al.): the operations left (a chain past
//    the head, a lost CAS, multimap operations) are served one at a time by the whole warp, one
//    coalesced slab load per step.
//
// Why keys stay unique: an insert of k fills the lowest empty slot of the first slab of the
// chain that has one, with a CAS from empty. Suppose two inserts of k both succeed, into slots
// a before b (in chain order). The insert into b saw slot a's key word non-empty when it read it
// (else it would have chosen a or a slot before); a slot is written once, so what it saw was the
// k of the other insert (then it would have found k and not inserted), or a later erased mark of
// that k (then the erase came between: a legal order). Stale head loads of step 1 change nothing
// in this argument, and a CAS that fails re-reads the slab.
#pragma once
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/detail/slab_hash/slab.cuh"

namespace msplit {
namespace detail {
namespace slab {

__device__ __forceinline__ bool is_insert(uint32_t op) { return op <= MSPLIT_HASH_OP_INSERT_DUP; }

template <bool HAS_VALUES, int PROBE_GROUP>
struct warp_ops {
  static_assert(WARP % PROBE_GROUP == 0, "PROBE_GROUP must divide 32");
  static constexpr uint32_t KEY_LANES = key_lanes<HAS_VALUES>();

  view v;
  allocator alloc;
  bool alloc_started = false;
  // This lane's share of the counter updates, added to the table's counters by commit().
  long long size_delta = 0;
  unsigned out_of_slabs = 0, reserved = 0;

  // Serves each active lane's operation; returns its msplit_hash_result. `out` gets a find's
  // value (MSPLIT_HASH_ABSENT_VALUE if absent) and the count of a count or erase-all. Every lane
  // of the warp calls it together.
  __device__ uint32_t apply(bool active, uint32_t op, uint32_t key, uint32_t value, uint32_t &out) {
    uint32_t result = MSPLIT_HASH_DONE;
    if (active && (op >= MSPLIT_HASH_OP_NOP || key >= ERASED_KEY))
      out = op == MSPLIT_HASH_OP_FIND ? MSPLIT_HASH_ABSENT_VALUE : 0u;
    if (active && op >= MSPLIT_HASH_OP_NOP) {
      result = op == MSPLIT_HASH_OP_NOP ? uint32_t(MSPLIT_HASH_DONE) : uint32_t(MSPLIT_HASH_BAD_OP);
      active = false;
    }
    if (active && key >= ERASED_KEY) {
      result = MSPLIT_HASH_RESERVED_KEY;
      ++reserved;
      active = false;
    }
    const uint32_t bucket = active ? bucket_of(key, v.num_buckets) : 0;
    const uint32_t todo = __ballot_sync(FULL_MASK, active);
    if (todo == 0) return result;

    // 1. probe the head slabs
    const int lane = lane_id();
    const bool key_lane = (KEY_LANES >> lane) & 1u;
    uint32_t match = 0, empty = 0, next = NULL_SLAB, found_value = MSPLIT_HASH_ABSENT_VALUE;
#pragma unroll 1
    for (int g = 0; g < WARP; g += PROBE_GROUP) {
      const uint32_t group = PROBE_GROUP == WARP ? todo : (todo >> g) & ((1u << PROBE_GROUP) - 1u);
      if (group == 0) continue;
      uint32_t w[PROBE_GROUP];
#pragma unroll
      for (int j = 0; j < PROBE_GROUP; ++j) {
        const uint32_t b = __shfl_sync(FULL_MASK, bucket, g + j);
        w[j] = (group >> j) & 1u ? load_word(word_ptr(v, b, lane)) : EMPTY_KEY;
      }
#pragma unroll
      for (int j = 0; j < PROBE_GROUP; ++j) {
        if (((group >> j) & 1u) == 0) continue;
        const uint32_t k = __shfl_sync(FULL_MASK, key, g + j);
        const uint32_t m = __ballot_sync(FULL_MASK, key_lane && w[j] == k);
        const uint32_t e = __ballot_sync(FULL_MASK, key_lane && w[j] == EMPTY_KEY);
        const uint32_t nx = __shfl_sync(FULL_MASK, w[j], NEXT_LANE);
        uint32_t val = 0;
        if constexpr (HAS_VALUES) val = __shfl_sync(FULL_MASK, w[j], m ? first_lane(m) + 1 : 0);
        if (lane == g + j) {
          match = m;
          empty = e;
          next = nx;
          found_value = val;
        }
      }
    }

    // 2. fast path
    bool slow = false;
    if (active) {
      uint32_t *head = word_ptr(v, bucket, 0);
      const bool chain_ends = empty != 0 || next == NULL_SLAB;
      switch (op) {
        case MSPLIT_HASH_OP_FIND:
          if (match) {
            result = MSPLIT_HASH_DONE;
            out = HAS_VALUES ? found_value : key;
          } else if (chain_ends) {
            result = MSPLIT_HASH_NOT_FOUND;
            out = MSPLIT_HASH_ABSENT_VALUE;
          } else {
            slow = true;
          }
          break;
        case MSPLIT_HASH_OP_INSERT:
        case MSPLIT_HASH_OP_INSERT_OR_ASSIGN:
        case MSPLIT_HASH_OP_INSERT_DUP:
          if (match && op != MSPLIT_HASH_OP_INSERT_DUP) {
            result = MSPLIT_HASH_EXISTED;
            if (HAS_VALUES && op == MSPLIT_HASH_OP_INSERT_OR_ASSIGN)
              store_word(head + first_lane(match) + 1, value);
          } else if (empty && claim_slot<HAS_VALUES>(head + first_lane(empty), key, value)) {
            result = MSPLIT_HASH_DONE;
            ++size_delta;
          } else {
            slow = true;
          }
          break;
        case MSPLIT_HASH_OP_ERASE:
          if (match) {
            if (atomicCAS(head + first_lane(match), key, ERASED_KEY) == key) {
              result = MSPLIT_HASH_DONE;
              --size_delta;
            } else {
              slow = true;
            }
          } else if (chain_ends) {
            result = MSPLIT_HASH_NOT_FOUND;
          } else {
            slow = true;
          }
          break;
        case MSPLIT_HASH_OP_COUNT:
          if (chain_ends) {
            out = __popc(match);
            result = match ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
          } else {
            slow = true;
          }
          break;
        default:  // erase-all
          if (!match && chain_ends) {
            out = 0;
            result = MSPLIT_HASH_NOT_FOUND;
          } else {
            slow = true;
          }
      }
    }

    // 3. slow path, one operation at a time
    for (uint32_t pend = __ballot_sync(FULL_MASK, slow); pend; pend &= pend - 1) {
      const int src = first_lane(pend);
      const uint32_t o = __shfl_sync(FULL_MASK, op, src);
      const uint32_t k = __shfl_sync(FULL_MASK, key, src);
      const uint32_t x = __shfl_sync(FULL_MASK, value, src);
      const uint32_t b = __shfl_sync(FULL_MASK, bucket, src);
      uint32_t o_out = 0;
      long long delta = 0;
      const uint32_t r = serve(o, k, x, b, o_out, delta);
      if (lane == src) {
        result = r;
        if (o == MSPLIT_HASH_OP_FIND || o == MSPLIT_HASH_OP_COUNT || o == MSPLIT_HASH_OP_ERASE_ALL)
          out = o_out;
        size_delta += delta;
        if (r == MSPLIT_HASH_OUT_OF_SLABS) ++out_of_slabs;
      }
    }
    return result;
  }

  // One operation along its chain by the whole warp; *delta: its change to the size.
  __device__ uint32_t serve(uint32_t op, uint32_t k, uint32_t x, uint32_t s, uint32_t &out,
                            long long &delta) {
    const int lane = lane_id();
    const bool key_lane = (KEY_LANES >> lane) & 1u;
    uint32_t count = 0;
    uint32_t w = load_word(word_ptr(v, s, lane));
    while (true) {
      const uint32_t m = __ballot_sync(FULL_MASK, key_lane && w == k);
      const uint32_t e = __ballot_sync(FULL_MASK, key_lane && w == EMPTY_KEY);
      uint32_t next = __shfl_sync(FULL_MASK, w, NEXT_LANE);
      if (op == MSPLIT_HASH_OP_FIND && m) {
        out = HAS_VALUES ? __shfl_sync(FULL_MASK, w, first_lane(m) + 1) : k;
        return MSPLIT_HASH_DONE;
      }
      if (m && (op == MSPLIT_HASH_OP_INSERT || op == MSPLIT_HASH_OP_INSERT_OR_ASSIGN)) {
        if (HAS_VALUES && op == MSPLIT_HASH_OP_INSERT_OR_ASSIGN && lane == first_lane(m) + 1)
          store_word(word_ptr(v, s, lane), x);
        return MSPLIT_HASH_EXISTED;
      }
      if (m && op == MSPLIT_HASH_OP_ERASE) {
        const int l = first_lane(m);
        bool ok = false;
        if (lane == l) ok = atomicCAS(word_ptr(v, s, lane), k, ERASED_KEY) == k;
        if (__shfl_sync(FULL_MASK, ok, l)) {
          delta = -1;
          return MSPLIT_HASH_DONE;
        }
        w = load_word(word_ptr(v, s, lane));  // another erase took it: look again
        continue;
      }
      if (m && op == MSPLIT_HASH_OP_ERASE_ALL) {
        const bool ok = ((m >> lane) & 1u) && atomicCAS(word_ptr(v, s, lane), k, ERASED_KEY) == k;
        count += __popc(__ballot_sync(FULL_MASK, ok));
      }
      if (op == MSPLIT_HASH_OP_COUNT) count += __popc(m);
      if (is_insert(op)) {
        if (e) {
          const int l = first_lane(e);
          bool ok = false;
          if (lane == l) ok = claim_slot<HAS_VALUES>(word_ptr(v, s, lane), k, x);
          if (__shfl_sync(FULL_MASK, ok, l)) {
            delta = 1;
            return MSPLIT_HASH_DONE;
          }
          w = load_word(word_ptr(v, s, lane));  // lost the slot: look again
          continue;
        }
        if (next == NULL_SLAB) {
          if (!alloc_started) {
            alloc.start(v, (blockIdx.x * blockDim.x + threadIdx.x) / WARP);
            alloc_started = true;
          }
          const uint32_t fresh = alloc.allocate(v);
          if (fresh == NULL_SLAB) return MSPLIT_HASH_OUT_OF_SLABS;
          uint32_t old = NULL_SLAB;
          if (lane == NEXT_LANE) old = atomicCAS(word_ptr(v, s, NEXT_LANE), NULL_SLAB, fresh);
          old = __shfl_sync(FULL_MASK, old, NEXT_LANE);
          if (old != NULL_SLAB && lane == 0) free_slab(v, fresh);  // another warp linked one
          next = old != NULL_SLAB ? old : fresh;
        }
      } else if (e || next == NULL_SLAB) {
        break;
      }
      s = next;
      w = load_word(word_ptr(v, s, lane));
    }
    if (op == MSPLIT_HASH_OP_FIND) {
      out = MSPLIT_HASH_ABSENT_VALUE;
      return MSPLIT_HASH_NOT_FOUND;
    }
    if (op == MSPLIT_HASH_OP_ERASE) return MSPLIT_HASH_NOT_FOUND;
    out = count;
    if (op == MSPLIT_HASH_OP_ERASE_ALL) delta = -static_cast<long long>(count);
    return count ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
  }

  // The values of every copy of each active lane's key, written to out[begin, end) in chain
  // order (the first end - begin of them). Every lane calls it together.
  __device__ void find_all(bool active, uint32_t key, uint32_t *out, uint32_t begin, uint32_t end) {
    if (active && key >= ERASED_KEY) {
      ++reserved;
      active = false;
    }
    const int lane = lane_id();
    const bool key_lane = (KEY_LANES >> lane) & 1u;
    for (uint32_t pend = __ballot_sync(FULL_MASK, active); pend; pend &= pend - 1) {
      const int src = first_lane(pend);
      const uint32_t k = __shfl_sync(FULL_MASK, key, src);
      uint32_t pos = __shfl_sync(FULL_MASK, begin, src);
      const uint32_t stop = __shfl_sync(FULL_MASK, end, src);
      uint32_t s = bucket_of(k, v.num_buckets);
      while (true) {
        const uint32_t w = load_word(word_ptr(v, s, lane));
        const uint32_t val = HAS_VALUES ? __shfl_down_sync(FULL_MASK, w, 1) : w;
        const uint32_t m = __ballot_sync(FULL_MASK, key_lane && w == k);
        const uint32_t at = pos + __popc(m & ((1u << lane) - 1u));
        if (((m >> lane) & 1u) && at < stop) out[at] = val;
        pos += __popc(m);
        const bool ends = __ballot_sync(FULL_MASK, key_lane && w == EMPTY_KEY) != 0;
        s = __shfl_sync(FULL_MASK, w, NEXT_LANE);
        if (ends || s == NULL_SLAB) break;
      }
    }
  }

  // Adds this warp's counter updates to the table (one atomic per counter that changed). Every
  // lane calls it together.
  __device__ void commit() {
    long long d = size_delta;
    unsigned long long f = out_of_slabs, r = reserved;
#pragma unroll
    for (int o = WARP / 2; o > 0; o /= 2) {
      d += __shfl_xor_sync(FULL_MASK, d, o);
      f += __shfl_xor_sync(FULL_MASK, f, o);
      r += __shfl_xor_sync(FULL_MASK, r, o);
    }
    if (lane_id() == 0) {
      if (d) atomicAdd(v.counters + SIZE, static_cast<unsigned long long>(d));
      if (f) atomicAdd(v.counters + OUT_OF_SLABS, f);
      if (r) atomicAdd(v.counters + RESERVED, r);
    }
    size_delta = 0;
    out_of_slabs = reserved = 0;
  }
};

}  // namespace slab
}  // namespace detail
}  // namespace msplit
