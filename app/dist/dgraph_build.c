/* The distributed CSR build (dgraph.h): check, partition, group by owner,
 * exchange, local CSR. The rules of the local CSR are those of the one-graph
 * build (graph/src/csr_build.c): an arc travels as (tail, head, weight bits),
 * a row sorts its (head << 32 | weight bits) keys, whose order for a float
 * weight is that of its value (non-negative floats order like their bits;
 * -0 is sent as +0), and keeps the first key of every head: the least weight.
 * Self-loops never leave their slice. Each step that can fail on one rank is
 * followed by an agreement, so that no rank waits in an exchange that a
 * failed rank will not join.
 * A rank's O(m) steps (the weights' check, the grouping by owner, the local
 * CSR) run on OpenMP threads, their work cut into pieces whose results go in
 * piece order: the arcs sent and the CSR do not depend on the thread count.
 */
#include "dist/dgraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "dist/comm_backend.h" /* ds_comm_now */

#define WEIGHT_BITS 32
#define ARC_WORDS 3                  /* tail, head, weight bits */
#define ARC_BYTES (ARC_WORDS * sizeof(uint32_t))
#define INSERTION_SORT_MAX 24        /* rows up to this length sort by insertion */
#define PARALLEL_MIN_ARCS ((uint64_t)1 << 16) /* below this, threads cost more than they give */
#define BLOCK_ARCS ((uint64_t)1 << 15) /* a block of rows' arcs on average: its keys fit a cache */
#define BLOCKS_MAX 2048 /* at most: a piece of the arcs writes a stream a block */
#define LONG_ROW ((uint64_t)1 << 16) /* rows of this many keys and more sort on all threads */

/* The kinds of weight a slice can hold; the ranks must agree on it. */
enum { KIND_U32 = DS_WEIGHT_U32, KIND_F32 = DS_WEIGHT_F32, KIND_PATTERN = 2 };

static double ms_since(double t0) { return 1e3 * (ds_comm_now() - t0); }

/* The OpenMP threads of a rank's local work on count arcs: OpenMP's default, shared by the
 * ranks of an in-process group (threads of one process, on its cores); one for small inputs. */
static int build_threads(const ds_comm *comm, uint64_t count) {
#ifdef _OPENMP
  if (count < PARALLEL_MIN_ARCS) return 1;
  int threads = omp_get_max_threads();
  if (strcmp(ds_comm_backend_name(comm), "in-process") == 0) threads /= ds_comm_size(comm);
  return threads > 1 ? threads : 1;
#else
  (void)comm, (void)count;
  return 1;
#endif
}

/* The first of len items of piece p of pieces (nearly equal ones, len * p / pieces without
 * overflow). Work cut into pieces, one a task, gives the same result whatever thread runs which. */
static uint64_t piece_start(uint64_t len, int p, int pieces) {
  return len / (uint64_t)pieces * (uint64_t)p +
         len % (uint64_t)pieces * (uint64_t)p / (uint64_t)pieces;
}

static void insertion_sort(uint64_t *k, uint64_t len) {
  for (uint64_t i = 1; i < len; i++) {
    uint64_t x = k[i], j = i;
    for (; j > 0 && k[j - 1] > x; j--) k[j] = k[j - 1];
    k[j] = x;
  }
}

/* The counts of byte `shift`'s digits in k[lo, hi) (256 values). */
static void count_digits(const uint64_t *k, uint64_t lo, uint64_t hi, int shift, uint64_t *count) {
  memset(count, 0, 256 * sizeof *count);
  for (uint64_t i = lo; i < hi; i++) count[(k[i] >> shift) & 0xFF]++;
}

/* src[lo, hi) to dst by byte `shift`, a key of digit d to at[d]++ (a stable pass). */
static void scatter_digits(const uint64_t *src, uint64_t lo, uint64_t hi, int shift, uint64_t *at,
                           uint64_t *dst) {
  for (uint64_t i = lo; i < hi; i++) dst[at[(src[i] >> shift) & 0xFF]++] = src[i];
}

/* LSD radix sort of k by the bytes in which its keys differ (a row's keys share their high head
 * bits, often more), through tmp (len words). */
static void radix_sort(uint64_t *k, uint64_t *tmp, uint64_t len) {
  uint64_t differ = 0;
  for (uint64_t i = 1; i < len; i++) differ |= k[i] ^ k[0];
  uint64_t *src = k, *dst = tmp;
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differ >> shift) & 0xFF) == 0) continue;
    uint64_t at[256], sum = 0;
    count_digits(src, 0, len, shift, at);
    for (int d = 0; d < 256; d++) {
      const uint64_t c = at[d];
      at[d] = sum;
      sum += c;
    }
    scatter_digits(src, 0, len, shift, at, dst);
    uint64_t *t = src;
    src = dst, dst = t;
  }
  if (src != k) memcpy(k, src, (size_t)len * sizeof *k);
}

/* A row's keys (head << 32 | weight bits) in increasing order: by insertion up to
 * INSERTION_SORT_MAX, else by radix through tmp (RADIX_MIN and more) or quicksort. Kronecker
 * graphs put most arcs in long rows, where qsort's comparisons through a callback took seconds
 * a rank at scale 24. */
#define RADIX_MIN 1024
static void sort_keys(uint64_t *k, uint64_t len, uint64_t *tmp) {
  while (len > INSERTION_SORT_MAX) {
    if (len >= RADIX_MIN && tmp != NULL) {
      radix_sort(k, tmp, len);
      return;
    }
    // quicksort: median of three, the smaller side recursively, the larger in this loop
    uint64_t a = k[0], b = k[len / 2], c = k[len - 1];
    const uint64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
    uint64_t i = 0, j = len - 1;
    for (;;) {
      while (k[i] < pivot) i++;
      while (k[j] > pivot) j--;
      if (i >= j) break;
      const uint64_t t = k[i];
      k[i++] = k[j], k[j--] = t;
    }
    /* [0, j] <= pivot <= [j + 1, len) */
    const uint64_t left = j + 1, right = len - left;
    if (left < right) {
      sort_keys(k, left, tmp);
      k += left, len = right;
    } else {
      sort_keys(k + left, right, tmp);
      len = left;
    }
  }
  insertion_sort(k, len);
}

static uint32_t weight_bits_of(const ds_edge_list *s, const ds_load_options *opt, uint64_t i) {
  if (s->weights == NULL)
    return ds_pattern_weight(opt->seed, s->src[i], s->dst[i], opt->weight_min, opt->weight_max,
                             opt->weight_dist);
  if (s->weight_type == DS_WEIGHT_F32) {
    float w = ((const float *)s->weights)[i];
    if (w == 0.0f) w = 0.0f; /* -0 as +0 */
    uint32_t b;
    memcpy(&b, &w, sizeof b);
    return b;
  }
  return ((const uint32_t *)s->weights)[i];
}

/* 1. the weights of a slice (its ids are checked by the partition); the first bad one named */
static ds_status check_weights(int rank, const ds_edge_list *s, const ds_load_options *opt,
                               int threads, ds_error *err) {
  (void)threads; /* unused without OpenMP */
  if (s->weight_type != DS_WEIGHT_U32 && s->weight_type != DS_WEIGHT_F32)
    return ds_error_set(err, DS_ERR_ARG, "rank %d's edge slice: unknown weight type %d", rank,
                        (int)s->weight_type);
  if (s->weights == NULL) return ds_weight_dist_check(opt->weight_dist, opt->weight_min,
                                                      opt->weight_max, err);
  if (s->weight_type != DS_WEIGHT_F32) return DS_OK;
  const float *w = s->weights;
  uint64_t bad = s->count;
#pragma omp parallel for num_threads(threads) reduction(min : bad)
  for (uint64_t i = 0; i < s->count; i++)
    if ((!(w[i] >= 0.0f) || !isfinite(w[i])) && i < bad) bad = i;
  if (bad < s->count)
    return ds_error_set(err, DS_ERR_ARG, "rank %d's edge %llu (%u, %u) has weight %g: weights "
                        "must be finite and non-negative", rank, (unsigned long long)bad,
                        s->src[bad], s->dst[bad], (double)w[bad]);
  return DS_OK;
}

/* 3a. a piece's arcs (slice edges [lo, hi)) for every owner */
static void count_owners(const ds_partition *part, const ds_edge_list *s, int symmetric,
                         uint64_t lo, uint64_t hi, uint64_t *at) {
  memset(at, 0, (size_t)part->ranks * sizeof *at);
  for (uint64_t i = lo; i < hi; i++) {
    const uint32_t u = s->src[i], v = s->dst[i];
    if (u == v) continue;
    at[ds_partition_owner(part, u)]++;
    if (symmetric) at[ds_partition_owner(part, v)]++;
  }
}

/* 3b. a piece's arcs to their places (at: where its first arc of every owner goes) */
static void scatter_owners(const ds_partition *part, const ds_edge_list *s, int symmetric,
                           const ds_load_options *opt, uint64_t lo, uint64_t hi, uint64_t *at,
                           uint32_t *arcs) {
  for (uint64_t i = lo; i < hi; i++) {
    const uint32_t u = s->src[i], v = s->dst[i];
    if (u == v) continue;
    const uint32_t wb = weight_bits_of(s, opt, i);
    uint32_t *a = arcs + ARC_WORDS * at[ds_partition_owner(part, u)]++;
    a[0] = u, a[1] = v, a[2] = wb;
    if (!symmetric) continue;
    a = arcs + ARC_WORDS * at[ds_partition_owner(part, v)]++;
    a[0] = v, a[1] = u, a[2] = wb;
  }
}

/* 3. the slice's arcs grouped by owner, in slice order within an owner (what a grouper must
 *    match): one task a piece of the slice, whose arcs of an owner follow the earlier pieces' */
static ds_status group_by_owner(const ds_partition *part, const ds_edge_list *s, int symmetric,
                                const ds_load_options *opt, int threads, uint64_t *counts,
                                uint32_t **out, ds_error *err) {
  const int ranks = part->ranks, pieces = threads;
  uint64_t *at = malloc((size_t)pieces * (size_t)ranks * sizeof *at);
  if (at == NULL)
    return ds_error_set(err, DS_ERR_NOMEM, "distributed build: out of memory for %d x %d counts",
                        pieces, ranks);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int p = 0; p < pieces; p++)
    count_owners(part, s, symmetric, piece_start(s->count, p, pieces),
                 piece_start(s->count, p + 1, pieces), at + (size_t)p * ranks);
  uint64_t total = 0;
  for (int r = 0; r < ranks; r++) {
    counts[r] = 0;
    for (int p = 0; p < pieces; p++) {
      const uint64_t c = at[(size_t)p * ranks + r];
      at[(size_t)p * ranks + r] = total;
      total += c;
      counts[r] += c;
    }
  }
  uint32_t *arcs = malloc((total ? (size_t)total : 1) * ARC_BYTES);
  if (arcs == NULL) {
    free(at);
    return ds_error_set(err, DS_ERR_NOMEM, "distributed build: out of memory grouping %llu arcs "
                        "by owner", (unsigned long long)total);
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int p = 0; p < pieces; p++)
    scatter_owners(part, s, symmetric, opt, piece_start(s->count, p, pieces),
                   piece_start(s->count, p + 1, pieces), at + (size_t)p * ranks, arcs);
  free(at);
  *out = arcs;
  return DS_OK;
}

/* Keeps the first key of every head of the sorted k[0, len) at its start; returns how many. */
static uint64_t dedup(uint64_t *k, uint64_t len) {
  uint64_t kept = 0;
  for (uint64_t j = 0; j < len; j++)
    if (j == 0 || (k[j] >> WEIGHT_BITS) != (k[j - 1] >> WEIGHT_BITS)) k[kept++] = k[j];
  return kept;
}

/* ---- long rows: one at a time, all threads in each --------------------------------------- */

/* A Kronecker graph's longest rows hold millions of keys: sorted by one thread each, they would
 * leave the others idle at the end. So a row of LONG_ROW keys and more is cut into one piece a
 * thread, for a radix sort whose passes take the pieces' keys of a digit in piece order (stable,
 * hence the one sorted order whatever the pieces), and for the dedup. */
typedef struct {
  int pieces;
  uint64_t *at;   /* pieces x 256: a piece's count of a digit, then where its keys go */
  uint64_t *kept; /* pieces + 1: a piece's first kept keys, then where they go */
  uint64_t *tmp;  /* the longest long row's length */
} long_sort;

static void copy_pieces(uint64_t *dst, const uint64_t *src, uint64_t len, int pieces) {
#pragma omp parallel for num_threads(pieces)
  for (int p = 0; p < pieces; p++) {
    const uint64_t lo = piece_start(len, p, pieces), hi = piece_start(len, p + 1, pieces);
    memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof *dst);
  }
}

static void radix_sort_long(uint64_t *k, uint64_t len, const long_sort *ls) {
  const int pieces = ls->pieces;
  uint64_t differ = 0;
#pragma omp parallel for num_threads(pieces) reduction(| : differ)
  for (uint64_t i = 1; i < len; i++) differ |= k[i] ^ k[0];
  uint64_t *src = k, *dst = ls->tmp;
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differ >> shift) & 0xFF) == 0) continue;
#pragma omp parallel for num_threads(pieces)
    for (int p = 0; p < pieces; p++)
      count_digits(src, piece_start(len, p, pieces), piece_start(len, p + 1, pieces), shift,
                   ls->at + 256 * (size_t)p);
    uint64_t sum = 0;
    for (int d = 0; d < 256; d++)
      for (int p = 0; p < pieces; p++) {
        const uint64_t c = ls->at[256 * (size_t)p + d];
        ls->at[256 * (size_t)p + d] = sum;
        sum += c;
      }
#pragma omp parallel for num_threads(pieces)
    for (int p = 0; p < pieces; p++)
      scatter_digits(src, piece_start(len, p, pieces), piece_start(len, p + 1, pieces), shift,
                     ls->at + 256 * (size_t)p, dst);
    uint64_t *t = src;
    src = dst, dst = t;
  }
  if (src != k) copy_pieces(k, src, len, pieces);
}

/* dedup of a long sorted row: each piece's kept keys counted, placed in ls->tmp, copied back. */
static uint64_t dedup_long(uint64_t *k, uint64_t len, const long_sort *ls) {
  const int pieces = ls->pieces;
#pragma omp parallel for num_threads(pieces)
  for (int p = 0; p < pieces; p++) {
    uint64_t c = 0;
    for (uint64_t j = piece_start(len, p, pieces); j < piece_start(len, p + 1, pieces); j++)
      c += j == 0 || (k[j] >> WEIGHT_BITS) != (k[j - 1] >> WEIGHT_BITS);
    ls->kept[p + 1] = c;
  }
  ls->kept[0] = 0;
  for (int p = 0; p < pieces; p++) ls->kept[p + 1] += ls->kept[p];
#pragma omp parallel for num_threads(pieces)
  for (int p = 0; p < pieces; p++) {
    uint64_t at = ls->kept[p];
    for (uint64_t j = piece_start(len, p, pieces); j < piece_start(len, p + 1, pieces); j++)
      if (j == 0 || (k[j] >> WEIGHT_BITS) != (k[j - 1] >> WEIGHT_BITS)) ls->tmp[at++] = k[j];
  }
  copy_pieces(k, ls->tmp, ls->kept[pieces], pieces);
  return ls->kept[pieces];
}

/* The long rows, listed by the blocks' sort (longs, n_long of them): their keys sorted, the
 * first of every head kept (kept[r]: the row's length, then its kept keys). Through one buffer
 * of the longest one's length; without the memory, each by the quicksort on one thread. */
static void sort_long_rows(const uint32_t *longs, uint64_t n_long, const uint64_t *off,
                           uint64_t *kept, uint64_t *keys, int threads) {
  if (n_long == 0) return;
  uint64_t longest = 0;
  for (uint64_t i = 0; i < n_long; i++)
    if (kept[longs[i]] > longest) longest = kept[longs[i]];
  long_sort ls = {threads, malloc(256 * (size_t)threads * sizeof *ls.at),
                  malloc(((size_t)threads + 1) * sizeof *ls.kept),
                  malloc((size_t)longest * sizeof *ls.tmp)};
  const int by_radix = ls.at != NULL && ls.kept != NULL && ls.tmp != NULL;
  for (uint64_t i = 0; i < n_long; i++) {
    uint64_t *k = keys + off[longs[i]];
    const uint64_t len = kept[longs[i]];
    if (by_radix) radix_sort_long(k, len, &ls);
    else sort_keys(k, len, NULL);
    kept[longs[i]] = by_radix ? dedup_long(k, len, &ls) : dedup(k, len);
  }
  free(ls.at), free(ls.kept), free(ls.tmp);
}

/* ---- the local CSR: arcs grouped by blocks of rows, then rows ---------------------------- */

/* A scatter of the arcs straight into their rows misses the cache on nearly every arc (most of
 * the build's time on one thread). So build_local first groups the arcs by blocks of
 * consecutive rows, each piece of the arcs writing one stream a block, then counts, places and
 * sorts a block's rows while its keys are in cache. A block's arcs go in piece order, so the
 * grouping does not depend on which thread read which piece. */
typedef struct {
  uint32_t shift;  /* block b holds the local rows [b << shift, (b + 1) << shift) */
  uint32_t blocks;
  int pieces;      /* of the arcs, one a task */
  uint64_t *start; /* blocks + 1: a block's first arc; at the end, its first kept key */
  uint64_t *at;    /* pieces x blocks: a piece's arcs of a block, then where they go */
} row_blocks;

/* The least shift that leaves at most count / BLOCK_ARCS blocks (one at least, BLOCKS_MAX at
 * most). */
static uint32_t block_shift(uint32_t n_local, uint64_t count) {
  uint64_t want = count / BLOCK_ARCS;
  want = want < 1 ? 1 : want > BLOCKS_MAX ? BLOCKS_MAX : want;
  uint32_t shift = 0;
  while ((((uint64_t)n_local + ((uint64_t)1 << shift) - 1) >> shift) > want) shift++;
  return shift;
}

static uint32_t block_begin(const row_blocks *rb, uint32_t b) {
  return (uint32_t)((uint64_t)b << rb->shift);
}
static uint32_t block_end(const ds_dgraph *g, const row_blocks *rb, uint32_t b) {
  const uint64_t e = ((uint64_t)b + 1) << rb->shift;
  return e < g->n_local ? (uint32_t)e : g->n_local;
}

/* 5a. every piece's arcs of every block; returns the first arc whose tail this rank does not
 *     own, or count */
static uint64_t count_blocks(const ds_dgraph *g, const uint32_t *arcs, uint64_t count,
                             row_blocks *rb) {
  uint64_t bad = count;
#pragma omp parallel for num_threads(rb->pieces) schedule(dynamic, 1) reduction(min : bad)
  for (int p = 0; p < rb->pieces; p++) {
    uint64_t *at = rb->at + (size_t)p * rb->blocks;
    memset(at, 0, (size_t)rb->blocks * sizeof *at);
    for (uint64_t i = piece_start(count, p, rb->pieces); i < piece_start(count, p + 1, rb->pieces);
         i++) {
      const uint32_t r = arcs[ARC_WORDS * i] - g->first;
      if (r >= g->n_local) {
        bad = i < bad ? i : bad;
        break;
      }
      at[r >> rb->shift]++;
    }
  }
  return bad;
}

/* 5b. where each piece's arcs of a block go: blocks in row order, a block's pieces in arc order */
static void place_blocks(row_blocks *rb) {
  uint64_t sum = 0;
  for (uint32_t b = 0; b < rb->blocks; b++) {
    rb->start[b] = sum;
    for (int p = 0; p < rb->pieces; p++) {
      uint64_t *a = rb->at + (size_t)p * rb->blocks + b;
      const uint64_t c = *a;
      *a = sum;
      sum += c;
    }
  }
  rb->start[rb->blocks] = sum;
}

/* 5c. each arc's local row and key to its block's place */
static void scatter_blocks(const ds_dgraph *g, const uint32_t *arcs, uint64_t count,
                           row_blocks *rb, uint32_t *rows, uint64_t *keys) {
#pragma omp parallel for num_threads(rb->pieces) schedule(dynamic, 1)
  for (int p = 0; p < rb->pieces; p++) {
    uint64_t *at = rb->at + (size_t)p * rb->blocks;
    for (uint64_t i = piece_start(count, p, rb->pieces); i < piece_start(count, p + 1, rb->pieces);
         i++) {
      const uint32_t *a = arcs + ARC_WORDS * i, r = a[0] - g->first;
      const uint64_t j = at[r >> rb->shift]++;
      rows[j] = r;
      keys[j] = ((uint64_t)a[1] << WEIGHT_BITS) | a[2];
    }
  }
}

/* The long rows, that the blocks' sort leaves to sort_long_rows. */
typedef struct {
  uint32_t *rows; /* room for count / LONG_ROW of them */
  uint64_t count;
  int radix;      /* rows may reach RADIX_MIN: each thread of the blocks' sort takes a buffer */
} long_list;

/* 5d. block b's rows: counted and placed in keys at the block's own range (off[r]: row r's
 *     first key), sorted (through tmp, LONG_ROW words or NULL) with the first key of every head
 *     kept (kept[r]); long rows listed, kept[r] their length */
static void sort_block(const ds_dgraph *g, const row_blocks *rb, uint32_t b, const uint32_t *rows,
                       const uint64_t *part, uint64_t *keys, uint64_t *off, uint64_t *kept,
                       uint64_t *tmp, long_list *longs) {
  const uint32_t r0 = block_begin(rb, b), r1 = block_end(g, rb, b);
  const uint64_t a0 = rb->start[b], a1 = rb->start[b + 1];
  for (uint32_t r = r0; r < r1; r++) kept[r] = 0;
  for (uint64_t i = a0; i < a1; i++) kept[rows[i]]++;
  uint64_t at = a0;
  for (uint32_t r = r0; r < r1; r++) {
    off[r] = at;
    at += kept[r];
    kept[r] = off[r]; /* the row's cursor */
  }
  for (uint64_t i = a0; i < a1; i++) keys[kept[rows[i]]++] = part[i];
  for (uint32_t r = r0; r < r1; r++) {
    const uint64_t len = kept[r] - off[r];
    kept[r] = len;
    if (len >= LONG_ROW) {
      uint64_t slot;
#pragma omp atomic capture
      slot = longs->count++;
      longs->rows[slot] = r;
      continue;
    }
    sort_keys(keys + off[r], len, tmp);
    kept[r] = dedup(keys + off[r], len);
  }
}

/* 5d on every block, dynamically: blocks of Kronecker rows differ much in size */
static void sort_blocks(const ds_dgraph *g, const row_blocks *rb, const uint32_t *rows,
                        const uint64_t *part, uint64_t *keys, uint64_t *off, uint64_t *kept,
                        long_list *longs, int threads) {
  (void)threads; /* unused without OpenMP */
#pragma omp parallel num_threads(threads)
  {
    uint64_t *tmp = longs->radix ? malloc(LONG_ROW * sizeof *tmp) : NULL; /* NULL: quicksort */
#pragma omp for schedule(dynamic, 1)
    for (uint32_t b = 0; b < rb->blocks; b++)
      sort_block(g, rb, b, rows, part, keys, off, kept, tmp, longs);
    free(tmp);
  }
}

/* 5e. where each block's kept keys go (rb->start); returns the rank's arcs */
static uint64_t place_kept(const ds_dgraph *g, row_blocks *rb, const uint64_t *kept,
                           int threads) {
  (void)threads; /* unused without OpenMP */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (uint32_t b = 0; b < rb->blocks; b++) {
    uint64_t sum = 0;
    for (uint32_t r = block_begin(rb, b); r < block_end(g, rb, b); r++) sum += kept[r];
    rb->start[b] = sum;
  }
  uint64_t total = 0;
  for (uint32_t b = 0; b < rb->blocks; b++) {
    const uint64_t c = rb->start[b];
    rb->start[b] = total;
    total += c;
  }
  return total;
}

/* 5f. the kept keys of the rows, in row order, split into heads and weights; off becomes the
 *     CSR's offsets */
static void split_rows(const ds_dgraph *g, const row_blocks *rb, uint64_t *off,
                       const uint64_t *kept, const uint64_t *keys, uint32_t *col, uint32_t *w,
                       int threads) {
  (void)threads; /* unused without OpenMP */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (uint32_t b = 0; b < rb->blocks; b++) {
    uint64_t out = rb->start[b];
    for (uint32_t r = block_begin(rb, b); r < block_end(g, rb, b); r++) {
      const uint64_t *k = keys + off[r];
      off[r] = out;
      for (uint64_t j = 0; j < kept[r]; j++, out++) {
        col[out] = (uint32_t)(k[j] >> WEIGHT_BITS);
        w[out] = (uint32_t)k[j];
      }
    }
  }
}

/* p cut to bytes, or p itself where realloc fails (it is big enough). The build's big arrays
 * take the memory of those it is done with: fresh memory costs a page fault a page, about a
 * third of a second a gigabyte on one thread. */
static void *shrink(void *p, size_t bytes) {
  void *q = realloc(p, bytes ? bytes : 1);
  return q != NULL ? q : p;
}

/* 5. the CSR of the arcs that arrived (arcs, build_local's to free): arcs grouped by blocks of
 *    rows, then by row in each block, each row sorted with the first key of every head kept
 *    (the long rows after the blocks), keys split into heads and weights. Peak memory: 24 bytes
 *    an arc (the arcs and their grouped copy); the keys take the arcs' memory, the heads and
 *    weights that of the grouped copy. */
static ds_status build_local(ds_dgraph *g, uint32_t *arcs, uint64_t count, int threads,
                             ds_error *err) {
  const size_t n = (size_t)g->n_local, c = count ? (size_t)count : 1;
  row_blocks rb = {block_shift(g->n_local, count), 0, threads, NULL, NULL};
  rb.blocks = (uint32_t)(((uint64_t)g->n_local + ((uint64_t)1 << rb.shift) - 1) >> rb.shift);
  long_list longs = {malloc((size_t)(count / LONG_ROW + 1) * sizeof *longs.rows), 0,
                     count >= RADIX_MIN};
  rb.start = malloc(((size_t)rb.blocks + 1) * sizeof *rb.start);
  rb.at = malloc(((size_t)rb.blocks * (size_t)threads + 1) * sizeof *rb.at);
  uint64_t *off = malloc((n + 1) * sizeof *off), *kept = malloc((n ? n : 1) * sizeof *kept);
  uint32_t *rows = malloc(c * sizeof *rows);
  uint64_t *part = malloc(c * sizeof *part);
  ds_status st = DS_OK;
  if (longs.rows == NULL || rb.start == NULL || rb.at == NULL || off == NULL || kept == NULL ||
      rows == NULL || part == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory building the CSR of %u "
                      "vertices and %llu arcs", g->rank, g->n_local, (unsigned long long)count);
    goto done;
  }
  const uint64_t bad = count_blocks(g, arcs, count, &rb);
  if (bad < count) {
    st = ds_error_set(err, DS_ERR_ARG, "rank %d received an arc of vertex %u, which it does not "
                      "own ([%u, %u)): the ranks disagree on the partition", g->rank,
                      arcs[ARC_WORDS * bad], g->first, g->first + g->n_local);
    goto done;
  }
  place_blocks(&rb);
  scatter_blocks(g, arcs, count, &rb, rows, part);
  uint64_t *keys = shrink(arcs, (size_t)count * sizeof *keys);
  arcs = NULL;
  sort_blocks(g, &rb, rows, part, keys, off, kept, &longs, threads);
  sort_long_rows(longs.rows, longs.count, off, kept, keys, threads);
  const uint64_t m_local = place_kept(g, &rb, kept, threads);
  uint32_t *col = shrink(rows, (size_t)m_local * sizeof *col);
  uint32_t *w = shrink(part, (size_t)m_local * sizeof *w);
  rows = NULL, part = NULL;
  split_rows(g, &rb, off, kept, keys, col, w, threads);
  free(keys);
  off[g->n_local] = m_local;
  g->row_offsets = off;
  g->col = col;
  g->weights = w;
  g->m_local = m_local;
  off = NULL;
done:
  free(arcs), free(longs.rows), free(rb.start), free(rb.at), free(off), free(kept), free(rows);
  free(part);
  return st;
}

ds_status ds_dgraph_build(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                          const ds_load_options *opt, ds_dgraph *g, ds_dgraph_build_info *info,
                          ds_error *err) {
  return ds_dgraph_build_grouped(comm, slice, symmetric, opt, NULL, g, info, err);
}

ds_status ds_dgraph_build_grouped(ds_comm *comm, const ds_edge_list *slice, int symmetric,
                                  const ds_load_options *opt, const ds_dgraph_grouper *grouper,
                                  ds_dgraph *g, ds_dgraph_build_info *info, ds_error *err) {
  ds_load_options defaults;
  uint64_t *counts = NULL;
  uint32_t *send = NULL;
  void *recv = NULL;
  size_t recv_cap = 0;
  ds_status st;
  if (comm == NULL || slice == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_build: comm, slice and g must not be NULL");
  memset(g, 0, sizeof *g);
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  const int rank = ds_comm_rank(comm), ranks = ds_comm_size(comm);
  const int threads = build_threads(comm, slice->count);
  g->rank = rank;
  g->ranks = ranks;
  g->symmetric = symmetric != 0;
  double t0 = ds_comm_now();

  // 1. the weights of every slice, of one kind on all ranks
  st = ds_comm_agree(comm, check_weights(rank, slice, opt, threads, err), err);
  if (st != DS_OK) return st;
  const uint64_t kind = slice->weights == NULL ? KIND_PATTERN : (uint64_t)slice->weight_type;
  uint64_t kinds[2] = {kind, ~kind};
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_MIN, kinds, kinds, 2, err);
  if (st != DS_OK) return st;
  if (kinds[0] != ~kinds[1])
    return ds_error_set(err, DS_ERR_ARG, "the ranks' edge slices hold different kinds of weight "
                        "(integer, float, none)");
  g->weight_type = kind == KIND_F32 ? DS_WEIGHT_F32 : DS_WEIGHT_U32;

  // 2. the partition (checks the ids, and that the slices agree on n)
  st = ds_partition_by_arcs(comm, slice, symmetric, &g->part, err);
  if (st != DS_OK) return st;
  g->n = g->part.n;
  g->first = g->part.bounds[rank];
  g->n_local = g->part.bounds[rank + 1] - g->first;
  if (info != NULL) info->partition_ms = ms_since(t0);

  // 3. group the slice's arcs by owner: the grouper's (unless it declines), else the CPU's
  t0 = ds_comm_now();
  ds_status local = DS_OK;
  const int by_grouper = grouper != NULL && grouper->run != NULL && kind != KIND_PATTERN;
  counts = malloc(2 * (size_t)ranks * sizeof *counts);
  if (counts == NULL)
    local = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %d counts", rank, ranks);
  else if (by_grouper)
    local = grouper->run(grouper->ctx, &g->part, slice, symmetric, counts, &send, err);
  const int grouped = send != NULL;
  if (local == DS_OK && send == NULL)
    local = group_by_owner(&g->part, slice, symmetric, opt, threads, counts, &send, err);
  st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto fail;
  if (info != NULL) {
    info->group_ms = ms_since(t0);
    info->grouped_by_grouper = grouped;
    info->slice_arcs = 0;
    for (int r = 0; r < ranks; r++) info->slice_arcs += counts[r];
    if (info->arcs_to != NULL) memcpy(info->arcs_to, counts, (size_t)ranks * sizeof *counts);
  }

  // 4. one exchange: counts, then the arcs
  t0 = ds_comm_now();
  uint64_t *bytes = counts + ranks;
  for (int r = 0; r < ranks; r++) bytes[r] = counts[r] * ARC_BYTES;
  st = ds_comm_exchange(comm, send, bytes, &recv, &recv_cap, bytes, err);
  free(send);
  send = NULL;
  if (st != DS_OK) goto fail;
  uint64_t arrived = 0;
  for (int r = 0; r < ranks; r++) {
    if (info != NULL && info->arcs_from != NULL) info->arcs_from[r] = bytes[r] / ARC_BYTES;
    arrived += bytes[r] / ARC_BYTES;
  }
  if (info != NULL) info->exchange_ms = ms_since(t0);

  // 5. the local CSR, and the whole graph's arc count
  t0 = ds_comm_now();
  local = build_local(g, recv, arrived, build_threads(comm, arrived), err);
  recv = NULL; /* build_local's to free */
  st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) goto fail;
  g->m = g->m_local;
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, &g->m, &g->m, 1, err);
  if (st != DS_OK) goto fail;
  if (info != NULL) info->build_ms = ms_since(t0);
  free(counts);
  return DS_OK;

fail:
  free(counts);
  free(send);
  free(recv);
  ds_dgraph_free(g);
  return st;
}

void ds_dgraph_free(ds_dgraph *g) {
  if (g == NULL) return;
  ds_partition_free(&g->part);
  free(g->row_offsets);
  free(g->col);
  free(g->weights);
  memset(g, 0, sizeof *g);
}

ds_status ds_dgraph_view(const ds_graph *whole, int rank, int ranks, ds_dgraph *g,
                         ds_error *err) {
  if (g != NULL) memset(g, 0, sizeof *g);
  if (whole == NULL || g == NULL || (whole->n > 0 && whole->row_offsets == NULL))
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_view: whole and g must not be NULL");
  if (ranks < 1 || ranks > DS_COMM_MAX_RANKS || rank < 0 || rank >= ranks)
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_view: rank %d of %d ranks (1..%d)", rank,
                        ranks, DS_COMM_MAX_RANKS);
  // 1. the partition, the one every rank computes from the same degrees
  static const uint64_t no_arcs[1] = {0};
  const uint64_t *off = whole->n > 0 ? whole->row_offsets : no_arcs;
  ds_status st = ds_partition_from_offsets(ranks, whole->n, off, &g->part, err);
  if (st != DS_OK) return st;
  // 2. the rank's rows: offsets rebased, heads and weights shared with whole
  g->rank = rank;
  g->ranks = ranks;
  g->n = whole->n;
  g->m = whole->m;
  g->first = g->part.bounds[rank];
  g->n_local = g->part.bounds[rank + 1] - g->first;
  const uint64_t base = off[g->first];
  g->m_local = off[g->first + g->n_local] - base;
  g->row_offsets = malloc(((size_t)g->n_local + 1) * sizeof *g->row_offsets);
  if (g->row_offsets == NULL) {
    st = ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of memory for %u row offsets", rank,
                      g->n_local + 1);
    ds_dgraph_view_free(g);
    return st;
  }
  for (uint32_t v = 0; v <= g->n_local; v++) g->row_offsets[v] = off[g->first + v] - base;
  g->col = whole->col != NULL ? whole->col + base : NULL;
  g->weight_type = whole->weight_type;
  g->weights = whole->weights != NULL ? (char *)whole->weights + base * sizeof(uint32_t) : NULL;
  g->symmetric = whole->symmetric;
  return DS_OK;
}

void ds_dgraph_view_free(ds_dgraph *g) {
  if (g == NULL) return;
  ds_partition_free(&g->part);
  free(g->row_offsets);
  memset(g, 0, sizeof *g);
}
