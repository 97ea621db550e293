/* A graph file loaded by the ranks, each its byte range (dfile.h): the
 * header, the parts, one exclusive scan of their lines, the parse, the
 * checks across the parts, the distributed build; whether a file can be read
 * so; and the whole graph's statistics from the parts.
 */
#define _POSIX_C_SOURCE 200809L
#include "dist/dfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* What a rank reports of its parse, in its slot of one all-reduce. */
enum { P_COUNT, P_FAILED, P_MAX_ID, P_FLOAT, P_FIELDS };

static double ms_since(double t0) { return 1e3 * (ds_comm_now() - t0); }

/* The graph's name as the one-process load gives it: the file's name without
 * its folders, a final ".gz" and then its last extension (the graph layer's
 * rule, internal to it, for the one file name that can reach here). */
static void name_of(const char *path, char *out, size_t len) {
  const char *slash = strrchr(path, '/');
  snprintf(out, len, "%s", slash != NULL ? slash + 1 : path);
  size_t k = strlen(out);
  if (k > 3 && strcmp(out + k - 3, ".gz") == 0) out[k -= 3] = '\0';
  char *dot = strrchr(out, '.');
  if (dot != NULL && dot != out) *dot = '\0';
}

/* The first error in file order, as the one-process reader would meet it:
 * the entry past the header's count where it comes before the first rank's
 * parse error (that rank's own entries before its error included), else that
 * error. Every rank returns it. local/lerr: this rank's parse outcome. */
static ds_status first_error(ds_comm *comm, const char *path, const ds_text_layout *lay,
                             const ds_text_part *part, uint64_t first_line, const uint64_t *v,
                             ds_status local, ds_error *lerr, ds_error *err) {
  const int me = ds_comm_rank(comm), ranks = ds_comm_size(comm);
  int failing = ranks;
  for (int r = 0; r < ranks && failing == ranks; r++)
    if (v[(size_t)r * P_FIELDS + P_FAILED]) failing = r;
  int over = -1; /* the rank holding the entry past the declared count */
  uint64_t before = 0;
  if (lay->declared != UINT64_MAX)
    for (int r = 0; r <= failing && r < ranks && over < 0; r++) {
      const uint64_t count = v[(size_t)r * P_FIELDS + P_COUNT];
      if (before + count > lay->declared) over = r;
      else before += count;
    }
  if (over >= 0) { /* that rank parses again, stopping at the entry past the count */
    local = DS_OK;
    if (me == over) {
      ds_text_part_edges again;
      local = ds_text_part_parse(path, lay, part, first_line, lay->declared - before, &again, lerr);
      ds_text_part_edges_free(&again);
      if (local == DS_OK) /* cannot be: the first parse went past that count */
        local = ds_error_set(lerr, DS_ERR_FORMAT, "%s: rank %d's part did not hold the entries "
                             "it held before", path, me);
    }
  } else if (failing == ranks) {
    return DS_OK;
  }
  ds_status st = ds_comm_agree(comm, local, lerr);
  if (err != NULL) *err = *lerr;
  return st;
}

/* The checks of the whole file that the one-process reader makes at its
 * end: every rank holds the totals, so every rank makes the same message. */
static ds_status whole_file(const char *path, const ds_text_layout *lay, uint64_t total,
                            uint64_t last_line, ds_error *err) {
  const unsigned long long line = (unsigned long long)last_line;
  if (lay->declared == UINT64_MAX) {
    if (total == 0) return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: no edges in the file", path, line);
    return DS_OK;
  }
  if (total >= lay->declared) return DS_OK;
  const int mtx = lay->format == DS_FORMAT_MTX;
  return ds_error_set(err, DS_ERR_FORMAT, "%s:%llu: the file ends after %llu %s, but the %s (line "
                      "%llu) gives %llu", path, line, (unsigned long long)total,
                      mtx ? "entries" : "arcs", mtx ? "size line" : "'p' line",
                      (unsigned long long)lay->header_line, (unsigned long long)lay->declared);
}

/* A binary cache: every rank its exact range of arcs, as the cache stores
 * them (both directions of a symmetric graph, the CSR rules applied). */
static ds_status cache_build(ds_comm *comm, const char *path, const ds_load_options *opt,
                             ds_dgraph *g, ds_dfile_info *mine, ds_error *err) {
  const int me = ds_comm_rank(comm), ranks = ds_comm_size(comm);
  ds_cache_layout lay;
  ds_text_part_edges e;
  memset(&e, 0, sizeof e);
  double t0 = ds_comm_now();
  ds_status st = ds_comm_agree(comm, ds_cache_layout_read(path, &lay, err), err);
  if (st != DS_OK) return st;
  mine->header_ms = ms_since(t0);
  t0 = ds_comm_now();
  uint64_t begin, end;
  ds_partition_share(lay.m, me, ranks, &begin, &end);
  st = ds_comm_agree(comm, ds_cache_part_read(path, &lay, begin, end, &e, err), err);
  if (st != DS_OK) { /* this rank's part may have been read while another rank's failed */
    ds_text_part_edges_free(&e);
    return st;
  }
  mine->read_ms = ms_since(t0);
  /* the part as its range of head records, the body as the heads' array */
  mine->part_offset = lay.col_at + begin * sizeof(uint32_t);
  mine->part_bytes = (end - begin) * sizeof(uint32_t);
  mine->entries = e.count;
  mine->layout.format = DS_FORMAT_CACHE;
  mine->layout.n = lay.n;
  mine->layout.body_offset = lay.col_at;
  mine->layout.file_bytes = lay.weights_at;
  mine->layout.symmetric = lay.symmetric;
  mine->layout.weighted = 1;
  mine->layout.weight_type = lay.weight_type;
  mine->layout.index_base = lay.index_base;
  mine->layout.declared = lay.m;
  snprintf(mine->name, sizeof mine->name, "%s", lay.name);
  const ds_edge_list slice = {lay.n, e.count, e.src, e.dst, lay.weight_type, e.w};
  st = ds_dgraph_build(comm, &slice, 0, opt, g, &mine->build, err);
  ds_text_part_edges_free(&e);
  if (st == DS_OK) g->symmetric = lay.symmetric;
  return st;
}

ds_status ds_dfile_build(ds_comm *comm, const char *path, const ds_load_options *opt,
                         ds_dgraph *g, ds_dfile_info *info, ds_error *err) {
  if (comm == NULL || path == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dfile_build: comm, path and g must not be NULL");
  memset(g, 0, sizeof *g);
  ds_load_options defaults;
  if (opt == NULL) {
    ds_load_options_default(&defaults);
    opt = &defaults;
  }
  ds_dfile_info mine;
  memset(&mine, 0, sizeof mine);
  if (info != NULL) mine.build = info->build; /* the caller's arrays */
  const int me = ds_comm_rank(comm), ranks = ds_comm_size(comm);
  ds_text_part part;
  ds_text_part_edges e;
  memset(&part, 0, sizeof part);
  memset(&e, 0, sizeof e);
  uint64_t *v = calloc((size_t)ranks * P_FIELDS, sizeof *v);
  ds_error lerr;
  lerr.msg[0] = '\0';

  // 0. a binary cache: exact ranges of arcs (every rank sees the same file)
  if (v != NULL && (opt->format == DS_FORMAT_CACHE || ds_file_is_cache(path))) {
    free(v);
    ds_status st = cache_build(comm, path, opt, g, &mine, err);
    if (st == DS_OK && info != NULL) *info = mine;
    if (st != DS_OK) ds_dgraph_free(g);
    return st;
  }

  // 1. the header, on every rank
  double t0 = ds_comm_now();
  ds_status local = v != NULL ? ds_text_layout_read(path, opt->format, &mine.layout, &lerr)
                              : ds_error_set(&lerr, DS_ERR_NOMEM, "rank %d: out of memory", me);
  ds_status st = ds_comm_agree(comm, local, &lerr);
  if (st != DS_OK) goto done;
  const ds_text_layout *lay = &mine.layout;
  mine.header_ms = ms_since(t0);
  name_of(path, mine.name, sizeof mine.name);

  // 2. this rank's part of the body
  t0 = ds_comm_now();
  uint64_t begin, end;
  ds_partition_share(lay->file_bytes - lay->body_offset, me, ranks, &begin, &end);
  local = ds_text_part_read(path, lay, lay->body_offset + begin, lay->body_offset + end, me == 0,
                            me == ranks - 1, &part, &lerr);
  if ((st = ds_comm_agree(comm, local, &lerr)) != DS_OK) goto done;
  mine.part_offset = part.offset;
  mine.part_bytes = part.len;
  mine.part_lines = part.lines;
  mine.read_ms = ms_since(t0);

  // 3. the line numbers: the newlines of the parts before this one
  t0 = ds_comm_now();
  v[me] = part.lines;
  if ((st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, v, v, (size_t)ranks, &lerr)) != DS_OK)
    goto done;
  uint64_t first_line = lay->body_line, lines = 0;
  for (int r = 0; r < ranks; r++) {
    if (r < me) first_line += v[r];
    lines += v[r];
  }

  // 4. the part's entries, then what the ranks found, in one all-reduce
  local = ds_text_part_parse(path, lay, &part, first_line, UINT64_MAX, &e, &lerr);
  memset(v, 0, (size_t)ranks * P_FIELDS * sizeof *v);
  uint64_t *slot = v + (size_t)me * P_FIELDS;
  slot[P_COUNT] = e.count;
  slot[P_FAILED] = local != DS_OK;
  slot[P_MAX_ID] = e.max_id;
  slot[P_FLOAT] = e.weight_type == DS_WEIGHT_F32;
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, v, v, (size_t)ranks * P_FIELDS, &lerr);
  if (st != DS_OK) goto done;
  mine.entries = e.count;
  mine.parse_ms = ms_since(t0);

  // 5. the first error in file order, then the whole file's checks
  st = first_error(comm, path, lay, &part, first_line, v, local, &lerr, err);
  if (st != DS_OK) goto fail;
  ds_text_part_free(&part);
  uint64_t total = 0, max_id = 0, any_float = 0;
  for (int r = 0; r < ranks; r++) {
    const uint64_t *q = v + (size_t)r * P_FIELDS;
    total += q[P_COUNT];
    if (q[P_COUNT] > 0 && q[P_MAX_ID] > max_id) max_id = q[P_MAX_ID];
    any_float |= q[P_FLOAT];
  }
  if ((st = whole_file(path, lay, total, lay->body_line + lines - 1, err)) != DS_OK) goto fail;
  if (any_float && e.w != NULL) ds_text_part_edges_to_float(&e); /* an edge list's reals */

  // 6. the graph: the edges to their owners, each rank's CSR
  const uint32_t n = lay->declared == UINT64_MAX ? (uint32_t)(max_id + 1) : lay->n;
  const ds_edge_list slice = {n, e.count, e.src, e.dst,
                              any_float ? DS_WEIGHT_F32 : lay->weight_type, e.w};
  st = ds_dgraph_build(comm, &slice, lay->symmetric || opt->undirected, opt, g, &mine.build, err);
  ds_text_part_edges_free(&e);
  if (st != DS_OK) goto fail;
  if (info != NULL) *info = mine;
  free(v);
  return DS_OK;

done: /* an error agreed in lerr */
  if (err != NULL) *err = lerr;
fail:
  ds_text_part_free(&part);
  ds_text_part_edges_free(&e);
  free(v);
  ds_dgraph_free(g);
  return st;
}

// ---- whether the ranks can read a file in ranges ------------------------------

#define GZIP_MAGIC0 0x1f
#define GZIP_MAGIC1 0x8b

int ds_dfile_ranged(const char *path, char *why, size_t why_len) {
  char ignored[1];
  if (why == NULL || why_len == 0) {
    why = ignored;
    why_len = sizeof ignored;
  }
  why[0] = '\0';
  struct stat sb;
  if (path == NULL || stat(path, &sb) != 0) return 1; /* the ranks' load says why */
  if (!S_ISREG(sb.st_mode)) {
    if (S_ISDIR(sb.st_mode)) return 1; /* "is a directory", from the load */
    snprintf(why, why_len, "%s: not a regular file (a pipe or device), which cannot be read at "
             "offsets", path);
    return 0;
  }
  /* O_NONBLOCK: a file replaced by a FIFO since the stat does not block the open */
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return 1;
  unsigned char magic[2] = {0, 0};
  const ssize_t got = pread(fd, magic, sizeof magic, 0);
  close(fd);
  if (got == (ssize_t)sizeof magic && magic[0] == GZIP_MAGIC0 && magic[1] == GZIP_MAGIC1) {
    snprintf(why, why_len, "%s: gzip-compressed, and a compressed stream cannot be entered in "
             "the middle", path);
    return 0;
  }
  return 1;
}

// ---- the whole graph's statistics from the parts --------------------------------

/* What a rank adds to the first all-reduce, in its slot of R. */
enum { S_ARCS, S_WITH_ARCS, S_BOUND, S_FIELDS };

static double weight_at(const ds_dgraph *part, uint64_t e) {
  return part->weight_type == DS_WEIGHT_U32 ? (double)((const uint32_t *)part->weights)[e]
                                            : (double)((const float *)part->weights)[e];
}

static int compare_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

ds_status ds_dgraph_stats_of(ds_comm *comm, const ds_dgraph *part, ds_dgraph_stats *s,
                             ds_error *err) {
  if (comm == NULL || part == NULL || s == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dgraph_stats_of: comm, part and s must not be NULL");
  memset(s, 0, sizeof *s);
  const int me = ds_comm_rank(comm), ranks = ds_comm_size(comm);
  s->n = part->n;
  s->weight_type = part->weight_type;
  // 1. this rank's arcs, rows with arcs, path bound and weights; every rank's counts in its slot
  uint64_t *v = calloc((size_t)ranks * S_FIELDS, sizeof *v);
  ds_status st = ds_comm_agree(comm, v != NULL ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "rank "
                               "%d: out of memory for the graph's statistics", me), err);
  if (st != DS_OK) {
    free(v);
    return st;
  }
  uint64_t *mine = v + (size_t)me * S_FIELDS;
  double sums[2] = {0.0, 0.0}; /* the weights' sum, their largest */
  const uint64_t bound_cap = (uint64_t)DS_DIST_MAX_U32 + 1; /* enough to decide the width */
  for (uint32_t i = 0; i < part->n_local; i++) {
    const uint64_t b = part->row_offsets[i], e = part->row_offsets[i + 1];
    mine[S_WITH_ARCS] += e > b;
    double heaviest = 0.0;
    for (uint64_t k = b; k < e; k++) {
      const double w = weight_at(part, k);
      sums[0] += w;
      if (w > heaviest) heaviest = w;
    }
    if (heaviest > sums[1]) sums[1] = heaviest;
    if (part->weight_type == DS_WEIGHT_U32 && mine[S_BOUND] < bound_cap)
      mine[S_BOUND] += (uint64_t)heaviest; /* < 2^32 + 2^32: no overflow */
  }
  mine[S_ARCS] = part->m_local;
  st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_SUM, v, v, (size_t)ranks * S_FIELDS, err);
  if (st == DS_OK) st = ds_comm_allreduce(comm, DS_COMM_F64, DS_COMM_SUM, &sums[0], &sums[0], 1, err);
  if (st == DS_OK) st = ds_comm_allreduce(comm, DS_COMM_F64, DS_COMM_MAX, &sums[1], &sums[1], 1, err);
  uint64_t first_arc = 0; /* this rank's first arc in the whole CSR: the ranks own increasing rows */
  for (int r = 0; r < ranks && st == DS_OK; r++) {
    const uint64_t *q = v + (size_t)r * S_FIELDS;
    if (r < me) first_arc += q[S_ARCS];
    s->m += q[S_ARCS];
    s->with_arcs += (uint32_t)q[S_WITH_ARCS];
    s->path_bound += q[S_BOUND];
  }
  free(v);
  if (st != DS_OK) return st;
  if (s->path_bound > bound_cap) s->path_bound = bound_cap;
  s->weight_sum = sums[0];
  s->weight_max = sums[1];
  if (s->m == 0) return DS_OK;
  // 2. the median of ds_median_weight's sample: each rank fills the samples of its arcs
  const uint64_t k = s->m < DS_MEDIAN_SAMPLE ? s->m : DS_MEDIAN_SAMPLE;
  double *x = calloc((size_t)k, sizeof *x);
  st = ds_comm_agree(comm, x != NULL ? DS_OK : ds_error_set(err, DS_ERR_NOMEM, "rank %d: out of "
                     "memory for %llu weights of the median's sample", me, (unsigned long long)k),
                     err);
  if (st == DS_OK) {
    for (uint64_t i = 0; i < k; i++) {
      const uint64_t e = (uint64_t)((double)i * (double)s->m / (double)k); /* as ds_median_weight */
      if (e >= first_arc && e - first_arc < part->m_local) x[i] = weight_at(part, e - first_arc);
    }
    /* one rank holds each sample, the others add +0: the sum is that sample exactly */
    st = ds_comm_allreduce(comm, DS_COMM_F64, DS_COMM_SUM, x, x, (size_t)k, err);
  }
  if (st == DS_OK) {
    qsort(x, (size_t)k, sizeof *x, compare_double);
    s->median = k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
  }
  free(x);
  return st;
}

/* A graph of s's size and weight type, without arrays: what the one-graph
 * rules read besides the weights. */
static ds_graph shape_of(const ds_dgraph_stats *s) {
  ds_graph g;
  memset(&g, 0, sizeof g);
  g.n = s->n;
  g.m = s->m;
  g.weight_type = s->weight_type;
  return g;
}

double ds_dgraph_delta_auto(const ds_dgraph_stats *s) {
  const ds_graph g = shape_of(s);
  const double mean = s->n > 0 && s->m > 0 ? s->weight_sum / (double)s->m : 0.0;
  if (!(mean > 0.0)) return 1.0;
  // ds_delta_auto's heavy-tail branch, on graphs neither sparse nor dense: DS_DELTA_AUTO_SCALE_HEAVY
  // x the median. ds_delta_auto_of_mean takes such a graph's DS_DELTA_AUTO_SCALE x its argument,
  // and the scales are powers of two, so the argument scaled by their ratio gives that width exactly
  const int sparse = (double)s->m < DS_DELTA_AUTO_SPARSE_DEGREE * (double)s->n;
  if (!sparse && (double)s->m < DS_DELTA_AUTO_MEDIAN_DEGREE * (double)s->n && s->median > 0.0 &&
      DS_DELTA_AUTO_HEAVY_TAIL * s->median < mean)
    return ds_delta_auto_of_mean(&g, s->median * (DS_DELTA_AUTO_SCALE_HEAVY / DS_DELTA_AUTO_SCALE));
  return ds_delta_auto_of_mean(&g, mean);
}

uint32_t ds_dgraph_buckets_auto(const ds_dgraph_stats *s, double delta) {
  // ds_buckets_auto reads the largest weight alone: a graph of one arc of that weight
  const uint32_t as_u32 = (uint32_t)s->weight_max;
  const float as_f32 = (float)s->weight_max; /* exact: it was a float */
  ds_graph one = shape_of(s);
  one.m = s->m > 0 ? 1 : 0;
  one.weights = s->weight_type == DS_WEIGHT_U32 ? (void *)&as_u32 : (void *)&as_f32;
  return ds_buckets_auto(&one, delta);
}

ds_dist_width ds_dgraph_dist_width(const ds_dgraph_stats *s) {
  if (s->weight_type != DS_WEIGHT_U32) return DS_DIST_NATURAL;
  return s->path_bound > DS_DIST_MAX_U32 ? DS_DIST_WIDE : DS_DIST_NATURAL;
}
