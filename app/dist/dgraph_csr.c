/* A rank's local CSR from the arcs that arrived (dgraph_local.h), on OpenMP
 * threads: the arcs grouped by blocks of rows, then by row in each block, each
 * row sorted by its (head << 32 | weight bits) keys with the first key of
 * every head kept (the least weight), the long rows after the blocks with all
 * threads in each. Work goes in pieces whose results go in piece order, so the
 * CSR does not depend on the thread count.
 */
#include "dist/dgraph_local.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define ARC_WORDS DS_DGRAPH_ARC_WORDS
#define WEIGHT_BITS 32
#define INSERTION_SORT_MAX 24        /* rows up to this length sort by insertion */
#define BLOCK_ARCS ((uint64_t)1 << 15) /* a block of rows' arcs on average: its keys fit a cache */
#define BLOCKS_MAX 2048 /* at most: a piece of the arcs writes a stream a block */
#define LONG_ROW ((uint64_t)1 << 16) /* rows of this many keys and more sort on all threads */

uint64_t ds_dgraph_piece_start(uint64_t len, int p, int pieces) {
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
    const uint64_t lo = ds_dgraph_piece_start(len, p, pieces), hi = ds_dgraph_piece_start(len, p + 1, pieces);
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
      count_digits(src, ds_dgraph_piece_start(len, p, pieces), ds_dgraph_piece_start(len, p + 1, pieces), shift,
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
      scatter_digits(src, ds_dgraph_piece_start(len, p, pieces), ds_dgraph_piece_start(len, p + 1, pieces), shift,
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
    for (uint64_t j = ds_dgraph_piece_start(len, p, pieces); j < ds_dgraph_piece_start(len, p + 1, pieces); j++)
      c += j == 0 || (k[j] >> WEIGHT_BITS) != (k[j - 1] >> WEIGHT_BITS);
    ls->kept[p + 1] = c;
  }
  ls->kept[0] = 0;
  for (int p = 0; p < pieces; p++) ls->kept[p + 1] += ls->kept[p];
#pragma omp parallel for num_threads(pieces)
  for (int p = 0; p < pieces; p++) {
    uint64_t at = ls->kept[p];
    for (uint64_t j = ds_dgraph_piece_start(len, p, pieces); j < ds_dgraph_piece_start(len, p + 1, pieces); j++)
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
    for (uint64_t i = ds_dgraph_piece_start(count, p, rb->pieces); i < ds_dgraph_piece_start(count, p + 1, rb->pieces);
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
    for (uint64_t i = ds_dgraph_piece_start(count, p, rb->pieces); i < ds_dgraph_piece_start(count, p + 1, rb->pieces);
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

/* The CSR of the arcs that arrived (arcs, this function's to free): arcs grouped by blocks of
 *    rows, then by row in each block, each row sorted with the first key of every head kept
 *    (the long rows after the blocks), keys split into heads and weights. Peak memory: 24 bytes
 *    an arc (the arcs and their grouped copy); the keys take the arcs' memory, the heads and
 *    weights that of the grouped copy. */
ds_status ds_dgraph_build_local(ds_dgraph *g, uint32_t *arcs, uint64_t count, int threads,
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

