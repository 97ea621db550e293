// The slab hash's operations, served by a whole warp: each lane brings one operation (or none).
//
// 1. The chains are walked together, a round per slab: each round the warp loads the current
//    slab of every pending lane's operation (PROBE_GROUP coalesced 128-byte loads in flight at
//    once) and each lane learns from its slab which key lanes match its key, which are empty, and
//    the next index. Then each lane on its own settles its operation with at most one atomic
//    (a find, erase or count is settled by a match, or by an empty slot or the last slab, which
//    end the chain by the invariant of slab.cuh; an insert by its key or an empty slot), moves to
//    the next slab, or retries the same slab after a lost CAS. Most operations end in round one.
// 2. An insert that finds its chain full to the end needs a new slab: those are served one at a
//    time by the whole warp (warp-cooperative work sharing, after Ashkiani et al.), which
//    allocates a slab, links it with one CAS and inserts there.
//
// Why keys stay unique: an insert of k fills the lowest empty slot of the first slab of the
// chain that has one, with a CAS from empty. Suppose two inserts of k both succeed, into slots
// a before b (in chain order). The insert into b saw slot a's key word non-empty when it read it
// (else it would have chosen a or a slot before); a slot is written once, so what it saw was the
// k of the other insert (then it would have found k and not inserted), or a later erased mark of
// that k (then the erase came between: a legal order). Loads that are stale by the time of the
// CAS change nothing in this argument, and a CAS that fails re-reads the slab.
//
// Why no loop is endless, and what a corrupted table costs: a chain holds at most its head and
// every pool slab, so a walk that moves on more than capacity + 1 times has met a cycle; a lost
// CAS means another operation took or erased a slot of that slab, and a slot is written once per
// key, so a walk loses at most WARP CASes per slab it visits. An operation that passes either
// bound (give_up) ends with MSPLIT_HASH_GAVE_UP, is counted in the table's GAVE_UP counter, and
// the first one records its site, bucket and steps there. The counts cost a register add per
// round; nothing is read that the walk did not read before.
#pragma once
#include "msplit/detail/slab_hash/allocator.cuh"
#include "msplit/detail/slab_hash/slab.cuh"

namespace msplit {
namespace detail {
namespace slab {

__device__ __forceinline__ bool is_insert(uint32_t op) { return op <= MSPLIT_HASH_OP_INSERT_DUP; }

// The key lanes of a slab whose entry holds `key`, given this lane's word w of the slab (all
// lanes call it together). A 64-bit key matches where both of its words do: the low word's lane
// and the high word's lane (the next one) each compare their half.
template <class F>
__device__ __forceinline__ uint32_t lanes_holding(uint32_t w, typename F::key_t key, int lane) {
  if constexpr (F::KEY_WORDS == 1) {
    return __ballot_sync(FULL_MASK, ((F::KEY_LANES >> lane) & 1u) && w == key);
  } else {
    const uint32_t half = lane & 1 ? uint32_t(key >> 32) : uint32_t(key);
    const uint32_t b = __ballot_sync(FULL_MASK, ((F::KEY_WORD_LANES >> lane) & 1u) && w == half);
    return b & (b >> 1) & F::KEY_LANES;
  }
}

// The value of the entry at lane `at` (the key itself for a set), from the lanes' words of one
// slab (all lanes call it together).
template <class F>
__device__ __forceinline__ typename F::value_t entry_value(uint32_t w, int at) {
  constexpr int FIRST = F::HAS_VALUES ? F::VALUE_OFFSET : 0;
  using value_t = typename F::value_t;
  const uint32_t lo = __shfl_sync(FULL_MASK, w, at + FIRST);
  if constexpr (sizeof(value_t) == sizeof(uint32_t)) {
    return lo;
  } else {
    const uint32_t hi = __shfl_sync(FULL_MASK, w, at + FIRST + 1);
    return value_t(lo) | value_t(hi) << 32;
  }
}

template <class F, int PROBE_GROUP>
struct warp_ops {
  static_assert(WARP % PROBE_GROUP == 0, "PROBE_GROUP must divide 32");
  static constexpr bool HAS_VALUES = F::HAS_VALUES;
  using key_t = typename F::key_t;
  using value_t = typename F::value_t;

  view v;
  allocator alloc;
  bool alloc_started = false;
  // This lane's share of the counter updates, added to the table's counters by commit().
  long long size_delta = 0;
  unsigned out_of_slabs = 0, reserved = 0, gave_up = 0;

  // The bounds of one operation's walk (see the top): slabs moved on to, and CASes lost.
  __device__ uint32_t max_hops() const { return v.capacity + 1; }
  __device__ unsigned long long max_retries() const { return (unsigned long long)(v.capacity + 1) * WARP; }

  // This lane's own operation passed a bound: counted (commit) and recorded.
  __device__ void give_up(msplit_error_site site, key_t key, unsigned long long steps) {
    ++gave_up;
    record_give_up(v, site, bucket_of(key, v.num_buckets), steps);
  }

  // Serves each active lane's operation; returns its msplit_hash_result. `out` gets a find's
  // value (F::ABSENT if absent) and the count of a count or erase-all. Every lane of the warp
  // calls it together.
  __device__ uint32_t apply(bool active, uint32_t op, key_t key, value_t value, value_t &out) {
    uint32_t result = MSPLIT_HASH_DONE;
    if (active && (op >= MSPLIT_HASH_OP_NOP || key >= F::ERASED))
      out = op == MSPLIT_HASH_OP_FIND ? F::ABSENT : value_t(0);
    if (active && op >= MSPLIT_HASH_OP_NOP) {
      result = op == MSPLIT_HASH_OP_NOP ? uint32_t(MSPLIT_HASH_DONE) : uint32_t(MSPLIT_HASH_BAD_OP);
      active = false;
    }
    if (active && key >= F::ERASED) {
      result = MSPLIT_HASH_RESERVED_KEY;
      ++reserved;
      active = false;
    }
    // 1. walk the chains together: each round probes the current slab of every pending lane
    uint32_t cur = active ? bucket_of(key, v.num_buckets) : 0, count = 0, hops = 0, retries = 0;
    bool pending = active, needs_slab = false;
    for (uint32_t todo; (todo = __ballot_sync(FULL_MASK, pending)) != 0;) {
      uint32_t match, empty, next;
      value_t found_value;
      probe(todo, cur, key, match, empty, next, found_value);
      if (pending) {
        const bool moved = step(op, key, value, cur, match, empty, next, found_value, count, result, out,
                                pending, needs_slab);
        if (pending && (moved ? ++hops > max_hops() : ++retries > max_retries())) {
          give_up(moved ? MSPLIT_SITE_HASH_CHAIN : MSPLIT_SITE_HASH_RETRY, key, moved ? hops : retries);
          result = MSPLIT_HASH_GAVE_UP;
          pending = false;
        }
      }
    }
    // 2. inserts at the end of a full chain, one at a time by the whole warp
    for (uint32_t pend = __ballot_sync(FULL_MASK, needs_slab); pend; pend &= pend - 1) {
      const int src = first_lane(pend);
      const uint32_t r =
          insert_at_end(__shfl_sync(FULL_MASK, op, src), __shfl_sync(FULL_MASK, key, src),
                        __shfl_sync(FULL_MASK, value, src), __shfl_sync(FULL_MASK, cur, src));
      if (lane_id() == src) {
        result = r;
        size_delta += r == MSPLIT_HASH_DONE;
        out_of_slabs += r == MSPLIT_HASH_OUT_OF_SLABS;
        gave_up += r == MSPLIT_HASH_GAVE_UP;
      }
    }
    return result;
  }

  // Loads slab cur of every lane in todo, PROBE_GROUP loads in flight at once, and gives each of
  // those lanes the key lanes of its slab that hold its key (match) or are empty, the slab's next
  // index and, for a map, the value after the first match.
  __device__ void probe(uint32_t todo, uint32_t cur, key_t key, uint32_t &match, uint32_t &empty,
                        uint32_t &next, value_t &found_value) const {
    const int lane = lane_id();
    match = empty = 0;
    next = NULL_SLAB;
    found_value = F::ABSENT;
#pragma unroll 1
    for (int g = 0; g < WARP; g += PROBE_GROUP) {
      const uint32_t group = PROBE_GROUP == WARP ? todo : (todo >> g) & ((1u << PROBE_GROUP) - 1u);
      if (group == 0) continue;
      uint32_t w[PROBE_GROUP];
#pragma unroll
      for (int j = 0; j < PROBE_GROUP; ++j) {
        const uint32_t s = __shfl_sync(FULL_MASK, cur, g + j);
        w[j] = (group >> j) & 1u ? load_word(word_ptr(v, s, lane)) : NULL_SLAB;
      }
#pragma unroll
      for (int j = 0; j < PROBE_GROUP; ++j) {
        if (((group >> j) & 1u) == 0) continue;
        const key_t k = __shfl_sync(FULL_MASK, key, g + j);
        const uint32_t m = lanes_holding<F>(w[j], k, lane);
        const uint32_t e = lanes_holding<F>(w[j], F::EMPTY, lane);
        const uint32_t nx = __shfl_sync(FULL_MASK, w[j], NEXT_LANE);
        value_t val = 0;
        if constexpr (HAS_VALUES) val = entry_value<F>(w[j], m ? first_lane(m) : 0);
        if (lane == g + j) {
          match = m;
          empty = e;
          next = nx;
          found_value = val;
        }
      }
    }
  }

  // One lane's step on its current slab: settle the operation, move on to the next slab
  // (pending stays set, cur changes; returns true), try the same slab again after a lost CAS
  // (neither changes), or hand an insert that found a full chain to insert_at_end (needs_slab).
  __device__ bool step(uint32_t op, key_t key, value_t value, uint32_t &cur, uint32_t match,
                       uint32_t empty, uint32_t next, value_t found_value, uint32_t &count,
                       uint32_t &result, value_t &out, bool &pending, bool &needs_slab) {
    uint32_t *slab = word_ptr(v, cur, 0);
    const bool chain_ends = empty != 0 || next == NULL_SLAB;
    switch (op) {
      case MSPLIT_HASH_OP_FIND:
        if (match || chain_ends) {
          result = match ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
          out = match ? (HAS_VALUES ? found_value : value_t(key)) : F::ABSENT;
          pending = false;
        }
        break;
      case MSPLIT_HASH_OP_INSERT:
      case MSPLIT_HASH_OP_INSERT_OR_ASSIGN:
      case MSPLIT_HASH_OP_INSERT_DUP:
        if (match && op != MSPLIT_HASH_OP_INSERT_DUP) {
          result = MSPLIT_HASH_EXISTED;
          if (HAS_VALUES && op == MSPLIT_HASH_OP_INSERT_OR_ASSIGN)
            store_value<F>(slab + first_lane(match), value);
          pending = false;
        } else if (empty) {
          if (claim_slot<F>(slab + first_lane(empty), key, value)) {
            result = MSPLIT_HASH_DONE;
            ++size_delta;
            pending = false;
          }  // else: lost the slot, look at this slab again
          return false;
        } else if (next == NULL_SLAB) {
          needs_slab = true;
          pending = false;
        }
        break;
      case MSPLIT_HASH_OP_ERASE:
        if (match) {
          if (erase_slot<F>(slab + first_lane(match), key)) {
            result = MSPLIT_HASH_DONE;
            --size_delta;
            pending = false;
          }  // else: another erase took it, look again
          return false;
        }
        if (chain_ends) {
          result = MSPLIT_HASH_NOT_FOUND;
          pending = false;
        }
        break;
      default:  // count, erase-all: every copy up to the end of the chain
        for (uint32_t m = match; m; m &= m - 1) {
          if (op == MSPLIT_HASH_OP_COUNT) {
            ++count;
          } else if (erase_slot<F>(slab + first_lane(m), key)) {
            ++count;
            --size_delta;
          }
        }
        if (chain_ends) {
          out = count;
          result = count ? MSPLIT_HASH_DONE : MSPLIT_HASH_NOT_FOUND;
          pending = false;
        }
    }
    if (!pending) return false;
    cur = next;
    return true;
  }

  // An insert whose walk found every slab up to s full and s the last: the whole warp links a
  // new slab after s (or follows the one another warp linked) and inserts there, re-checking the
  // key on the way (another insert of it may have gone past s meanwhile). The warp's lanes hold
  // the same values here, so the bounds' decisions are the warp's.
  __device__ uint32_t insert_at_end(uint32_t op, key_t k, value_t x, uint32_t s) {
    const int lane = lane_id();
    uint32_t w = load_word(word_ptr(v, s, lane));
    uint32_t hops = 0, retries = 0;
    while (true) {
      const uint32_t m = lanes_holding<F>(w, k, lane);
      const uint32_t e = lanes_holding<F>(w, F::EMPTY, lane);
      uint32_t next = __shfl_sync(FULL_MASK, w, NEXT_LANE);
      if (m && op != MSPLIT_HASH_OP_INSERT_DUP) {
        if (HAS_VALUES && op == MSPLIT_HASH_OP_INSERT_OR_ASSIGN && lane == first_lane(m))
          store_value<F>(word_ptr(v, s, lane), x);
        return MSPLIT_HASH_EXISTED;
      }
      if (e) {
        const int l = first_lane(e);
        bool ok = false;
        if (lane == l) ok = claim_slot<F>(word_ptr(v, s, lane), k, x);
        if (__shfl_sync(FULL_MASK, ok, l)) return MSPLIT_HASH_DONE;
        if (++retries > max_retries()) return give_up_warp(MSPLIT_SITE_HASH_RETRY, k, retries);
        w = load_word(word_ptr(v, s, lane));  // lost the slot: look again
        continue;
      }
      if (next == NULL_SLAB) {
        if (!alloc_started) {
          alloc.start(v, (blockIdx.x * blockDim.x + threadIdx.x) / WARP);
          alloc_started = true;
        }
        const uint32_t fresh = alloc.allocate(v);
        if (fresh == NULL_SLAB && alloc.gave_up) return give_up_warp(MSPLIT_SITE_HASH_RETRY, k, alloc.steps);
        if (fresh == NULL_SLAB) return MSPLIT_HASH_OUT_OF_SLABS;
        uint32_t old = NULL_SLAB;
        if (lane == NEXT_LANE) old = atomicCAS(word_ptr(v, s, NEXT_LANE), NULL_SLAB, fresh);
        old = __shfl_sync(FULL_MASK, old, NEXT_LANE);
        if (old != NULL_SLAB && lane == 0) free_slab(v, fresh);  // another warp linked one
        next = old != NULL_SLAB ? old : fresh;
      }
      if (++hops > max_hops()) return give_up_warp(MSPLIT_SITE_HASH_CHAIN, k, hops);
      s = next;
      w = load_word(word_ptr(v, s, lane));
    }
  }

  // An operation that the whole warp serves passed a bound (its caller counts the result).
  __device__ uint32_t give_up_warp(msplit_error_site site, key_t key, unsigned long long steps) const {
    if (lane_id() == 0) record_give_up(v, site, bucket_of(key, v.num_buckets), steps);
    return MSPLIT_HASH_GAVE_UP;
  }

  // The values of every copy of each active lane's key, written to out[begin, end) in chain
  // order (the first end - begin of them). Every lane calls it together. A chain longer than the
  // pool (a cycle) ends the walk, counted as a give-up.
  __device__ void find_all(bool active, key_t key, value_t *out, uint32_t begin, uint32_t end) {
    if (active && key >= F::ERASED) {
      ++reserved;
      active = false;
    }
    const int lane = lane_id();
    // the lane of this lane's entry, whose value it reads (lanes past the entries read lane 0)
    const int entry = lane < F::ENTRIES * F::STRIDE ? lane - lane % F::STRIDE : 0;
    for (uint32_t pend = __ballot_sync(FULL_MASK, active); pend; pend &= pend - 1) {
      const int src = first_lane(pend);
      const key_t k = __shfl_sync(FULL_MASK, key, src);
      uint32_t pos = __shfl_sync(FULL_MASK, begin, src);
      const uint32_t stop = __shfl_sync(FULL_MASK, end, src);
      uint32_t s = bucket_of(k, v.num_buckets), hops = 0;
      while (true) {
        const uint32_t w = load_word(word_ptr(v, s, lane));
        value_t val;
        if constexpr (HAS_VALUES || F::KEY_WORDS == 2)
          val = entry_value<F>(w, entry);
        else
          val = w;  // a set's key lane holds its whole key
        const uint32_t m = lanes_holding<F>(w, k, lane);
        const uint32_t at = pos + __popc(m & ((1u << lane) - 1u));
        if (((m >> lane) & 1u) && at < stop) out[at] = val;
        pos += __popc(m);
        const bool ends = lanes_holding<F>(w, F::EMPTY, lane) != 0;
        s = __shfl_sync(FULL_MASK, w, NEXT_LANE);
        if (ends || s == NULL_SLAB) break;
        if (++hops > max_hops()) {
          give_up_warp(MSPLIT_SITE_HASH_CHAIN, k, hops);
          if (lane_id() == src) ++gave_up;
          break;
        }
      }
    }
  }

  // Adds this warp's counter updates to the table (one atomic per counter that changed). Every
  // lane calls it together.
  __device__ void commit() {
    long long d = size_delta;
    unsigned long long f = out_of_slabs, r = reserved, g = gave_up;
#pragma unroll
    for (int o = WARP / 2; o > 0; o /= 2) {
      d += __shfl_xor_sync(FULL_MASK, d, o);
      f += __shfl_xor_sync(FULL_MASK, f, o);
      r += __shfl_xor_sync(FULL_MASK, r, o);
      g += __shfl_xor_sync(FULL_MASK, g, o);
    }
    if (lane_id() == 0) {
      if (d) atomicAdd(v.counters + SIZE, static_cast<unsigned long long>(d));
      if (f) atomicAdd(v.counters + OUT_OF_SLABS, f);
      if (r) atomicAdd(v.counters + RESERVED, r);
      if (g) atomicAdd(v.counters + GAVE_UP, g);
    }
    size_delta = 0;
    out_of_slabs = reserved = gave_up = 0;
  }
};

}  // namespace slab
}  // namespace detail
}  // namespace msplit
