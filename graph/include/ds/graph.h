/* deltasplit graph layer: read graphs, build CSR, cache, generate.
 *
 * C11. Every function returns a ds_status; on failure the ds_error holds a
 * message naming the file, line and problem ("NY.mtx:12: column index 0 is out
 * of range [1, 264346]"). Nothing here prints (except the optional progress bar
 * on a terminal's stderr), and nothing exits.
 *
 * Types (DESIGN.md): vertex ids uint32_t, arc offsets uint64_t, weights
 * uint32_t (exact) or float, never negative.
 */
#ifndef DS_GRAPH_H
#define DS_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "ds/rng.h" /* ds_weight_dist */
#include "ds/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DS_WEIGHT_U32 = 0, DS_WEIGHT_F32 = 1 } ds_weight_type;

typedef enum {
  DS_FORMAT_AUTO = 0, /* from content, then name */
  DS_FORMAT_MTX = 1,
  DS_FORMAT_DIMACS = 2, /* DIMACS shortest path .gr: p sp / a u v w */
  DS_FORMAT_EL = 3,     /* 0-based edge list: u v        (# comments) */
  DS_FORMAT_WEL = 4,    /* 0-based edge list: u v w      (# comments) */
  DS_FORMAT_CACHE = 5   /* our binary CSR */
} ds_format;

/* A graph in CSR form, rows sorted by column, no self-loops, no duplicate
 * arcs (the smallest weight kept). */
typedef struct {
  uint32_t n;            /* vertices */
  uint64_t m;            /* arcs stored (both directions of undirected edges) */
  uint64_t *row_offsets; /* n + 1 */
  uint32_t *col;         /* m */
  ds_weight_type weight_type;
  void *weights;         /* m values: uint32_t* or float* by weight_type */
  /* description */
  int index_base;        /* 1 for Matrix Market and DIMACS, 0 for edge lists */
  int symmetric;         /* stored with both directions */
  int weights_generated; /* pattern input: weights drawn at random */
  uint32_t weight_min, weight_max; /* range of generated weights */
  ds_weight_dist weight_dist;      /* and their distribution */
  uint64_t weight_seed;
  ds_format format;      /* format of the original input */
  uint64_t input_entries; /* entries read from the input file */
  char name[256];        /* file name without directories and extensions */
} ds_graph;

struct ds_edge_list;
typedef struct ds_load_options {
  ds_format format;      /* DS_FORMAT_AUTO unless forced */
  int undirected;        /* store both directions even for general files */
  uint32_t weight_min;   /* for pattern graphs; default 1 */
  uint32_t weight_max;   /* default 1000 */
  ds_weight_dist weight_dist; /* for pattern graphs; default DS_WEIGHTS_UNIFORM */
  uint64_t seed;         /* default 1 */
  int use_cache;         /* read/write the binary cache; default 1 */
  const char *cache_dir; /* NULL: next to the input */
  int progress;          /* progress bar on stderr when it is a terminal */
  uint64_t max_memory;   /* host bytes a load may use; 0 (default): what the host has
                            available now (ds_host_memory_available) */
  /* the CSR builder of a text load: NULL (default) for ds_csr_build; a program
     with a GPU sets one that builds there (ds/csr_gpu.h), called with
     csr_build_ctx and ds_csr_build's other arguments */
  ds_status (*csr_build)(void *ctx, const struct ds_edge_list *edges, int symmetric,
                         const struct ds_load_options *opt, ds_graph *g, ds_error *err);
  void *csr_build_ctx;
} ds_load_options;

void ds_load_options_default(ds_load_options *opt);

/* How a load used the binary cache. */
typedef enum {
  DS_CACHE_OFF = 0,  /* not used: switched off, or not possible (note says why) */
  DS_CACHE_HIT = 1,  /* the graph came from the cache */
  DS_CACHE_MISS = 2  /* the graph came from the text (cache missing, stale or bad) */
} ds_cache_use;

#define DS_PATH_LEN 4096
typedef struct {
  ds_cache_use cache;
  int cache_written;          /* MISS: a fresh cache was written for next time */
  char cache_path[DS_PATH_LEN]; /* the cache file used or meant; "" when there is none */
  char note[DS_ERROR_MSG_LEN];  /* "" or, for the user, why the cache was off, rebuilt or not
                                   written ("g.mtx.dscache: ...: rebuilt from the text") */
} ds_load_info;

/* Load any supported file (format from content, then name), through the
 * binary cache when allowed. On success *g owns its arrays (ds_graph_free).
 *
 * [in] path  a .mtx, .gr, .el or .wel file, gzip-compressed or not (gzip is
 *            recognised by its magic bytes), or a .dscache file itself; a
 *            pipe or device (/dev/stdin) is read too, never cached.
 * [in] opt   NULL for ds_load_options_default.
 * [out] g    zeroed on failure.
 * [out] info (ds_graph_load_info; may be NULL) whether the cache served the
 *            graph, and a note when the user should know why it did not.
 * Detection: "%%MatrixMarket" banner -> Matrix Market; a first content line
 * 'c ', 'p ' or 'a ' -> DIMACS; otherwise the name (.mtx, .gr) decides, and
 * lines of numbers are an edge list (.wel by name, else 2 or 3 fields).
 * Cache: with opt->use_cache and a regular input, a ds_cache_path file whose
 * stamp matches the input exactly (ds_input_stamp) and that passes every
 * check is read instead of the text; after a text load the cache is
 * (re)written, unless the input changed while it was read. A cache that
 * cannot be written (read-only folder) is skipped without a note; a missing
 * opt->cache_dir is created (with its parents); a cache_dir that is not a
 * folder switches the cache off with a note; a corrupt or invalid cache is
 * rebuilt with a note.
 * Memory: before allocating, the load's host memory is estimated from the
 * sizes the file declares (the size line, the 'p' line) and refused with
 * DS_ERR_NOMEM when it exceeds opt->max_memory or the available memory:
 * "g.mtx:2: the graph needs about 7.1 GB of host memory to load, 3.2 GB are
 * available". Every input (a file, a pipe, gzip as it inflates) is checked a
 * chunk at a time as it is read, so a stream that cannot be a graph stops at
 * its first chunk: a NUL byte, a first line that is neither a comment nor
 * the header or an edge line of its format, a line longer than
 * DS_TEXT_LINE_BYTES, comment and blank lines beyond DS_TEXT_COMMENT_BYTES
 * plus DS_TEXT_COMMENT_PER_DATA bytes per byte of data lines, and gzip data
 * that inflates to more than DS_GZ_BYTES_PER_ENTRY bytes per entry (declared
 * by the header; an edge list's lines so far) plus DS_GZ_COMMENT_BYTES.
 * Errors: DS_ERR_IO (missing, directory, unreadable), DS_ERR_FORMAT
 * ("FILE:LINE: problem"; gzip damage gives the line that inflation reached
 * and the compressed byte offset; a cache file named as the input that is
 * corrupt or breaks the CSR invariants: "FILE: problem"),
 * DS_ERR_UNSUPPORTED (complex, hermitian, skew-symmetric, array, too many
 * vertices, text beyond the limits above), DS_ERR_NOMEM (above).
 * Example:
 *   ds_load_options opt; ds_load_options_default(&opt);
 *   ds_graph g; ds_load_info info; ds_error err;
 *   if (ds_graph_load_info("NY.mtx.gz", &opt, &g, &info, &err) != DS_OK) puts(err.msg);
 *   else if (info.note[0]) puts(info.note);
 */
ds_status ds_graph_load_info(const char *path, const ds_load_options *opt, ds_graph *g,
                             ds_load_info *info, ds_error *err);
/* ds_graph_load_info without the info. */
ds_status ds_graph_load(const char *path, const ds_load_options *opt, ds_graph *g,
                        ds_error *err);

/* Limits of the text (ds_graph_load_info), far beyond what any graph file
 * holds, and low enough that an input that is not one stops early. */
#define DS_TEXT_LINE_BYTES ((uint64_t)1 << 20)     /* one line, its '\n' included */
#define DS_TEXT_COMMENT_BYTES ((uint64_t)16 << 20) /* comment and blank lines, */
#define DS_TEXT_COMMENT_PER_DATA 4u                /* plus this per byte of data lines */
#define DS_GZ_BYTES_PER_ENTRY 256u                 /* inflated text per entry, at most, */
#define DS_GZ_COMMENT_BYTES DS_TEXT_COMMENT_BYTES  /* plus this much (comments) */

/* Host memory available now, in bytes: MemAvailable of /proc/meminfo (free
 * memory plus what the kernel can reclaim without swapping), or the physical
 * memory where that is not known. For callers that estimate their own use
 * before allocating. The loader checks only its own part (ds_graph_load_info's
 * Memory: 16 bytes a declared vertex, 12 an entry plus the text, at the peak
 * of the load) and leaves behind a graph of 8 (n + 1) + 8 m bytes; a program
 * that allocates per-vertex arrays after the load compares its estimate with
 * this value after the load, or lowers ds_load_options.max_memory by it
 * before, so that the two estimates are not counted against the same bytes.
 * Errors: DS_ERR_ARG (bytes NULL), DS_ERR_IO (neither is known). */
ds_status ds_host_memory_available(uint64_t *bytes, ds_error *err);

void ds_graph_free(ds_graph *g);

/* Build a CSR from a list of edges (0-based). weights may be NULL (pattern:
 * seeded weights from opt). Applies the CSR rules: self-loops dropped,
 * duplicates keep the smallest weight, rows sorted; symmetric stores both
 * directions. Does not free the inputs. Uses OpenMP threads for large lists;
 * the result does not depend on the thread count.
 * Generated weights (pattern) depend only on the seed and the unordered pair
 * of 0-based ids, so both directions and repeated lines of an edge agree:
 *   r(u,v) = splitmix64(splitmix64(seed) ^ (min(u,v) << 32 | max(u,v)))
 *   w(u,v) = weight_min + r(u,v) % (weight_max - weight_min + 1)    (uniform)
 *   w(u,v) = ds_weight_shape(weight_dist, r(u,v), weight_min, weight_max)
 *                                                         (log, bimodal; rng.h)
 * where splitmix64(x) adds 0x9E3779B97F4A7C15 to x and applies the splitmix64
 * finaliser (Steele, Lea, Flood 2014).
 * Errors: DS_ERR_ARG (ids >= n, negative/NaN/inf float weights; for pattern
 * edges what ds_weight_dist_check refuses), DS_ERR_NOMEM. */
typedef struct ds_edge_list {
  uint32_t n;
  uint64_t count;
  const uint32_t *src;
  const uint32_t *dst;
  ds_weight_type weight_type;
  const void *weights; /* NULL for pattern */
} ds_edge_list;

ds_status ds_csr_build(const ds_edge_list *edges, int symmetric, const ds_load_options *opt,
                       ds_graph *g, ds_error *err);

/* Checks the CSR invariants (offsets monotone, columns in range and sorted
 * and unique per row, no self-loops). O(n + m). */
ds_status ds_csr_check(const ds_graph *g, ds_error *err);

/* Finds whether a graph read as directed is undirected already: every arc
 * u -> v has its reverse v -> u (a general Matrix Market file or an edge list
 * that lists both directions of every edge). When so, each pair of arcs takes
 * the lighter of its two weights (what ds_csr_build keeps of duplicates) and
 * g->symmetric is set, so g is then exactly what a symmetric build of its arcs
 * gives; otherwise g is left as it was. O(n + m) time, 8 (n + 1) bytes of
 * scratch (a binary search per arc where they cannot be allocated), against
 * a sort and a second CSR for a rebuild.
 * [in,out] g  a valid CSR (ds_csr_check).
 * Returns 1 when g is symmetric (also when it was marked so already), else 0. */
int ds_csr_mark_symmetric(ds_graph *g);

/* Binary cache: versioned, checksummed, written to a temporary name and
 * renamed. ds_cache_path gives where the cache of an input lives:
 * "<input>.dscache", or with opt->cache_dir "<cache_dir>/<name>.<hash of the
 * input's absolute path>.dscache". A cache records the input's stamp, the
 * undirected option, and the weight range and seed when the weights were
 * generated; any difference makes it stale.
 *
 * The stamp of an input: size, modification time to the nanosecond, inode,
 * device, a content hash: of the whole file up to DS_STAMP_WHOLE_MAX bytes,
 * of its first and last DS_STAMP_PART_BYTES beyond (so a cache load reads at
 * most 2 MiB of the text), and the inode change time to the nanosecond. The
 * hash misses an edit in the middle of a large file, and the mtime can be set
 * back after one (touch -r, rsync --inplace -t); the change time cannot: the
 * kernel sets it at every write, and no call sets it back. (It also moves on
 * chmod, chown, a new hard link or a rename of the input, which then rebuild
 * the cache once.) Only regular files have a stamp: a pipe, a device or a name
 * of an open stream (/dev/stdin, /dev/fd/N, /proc/...) is DS_ERR_UNSUPPORTED,
 * and is never cached. */
#define DS_STAMP_WHOLE_MAX ((uint64_t)4 << 20)
#define DS_STAMP_PART_BYTES ((size_t)1 << 20)
typedef struct {
  uint64_t size;
  int64_t mtime_s, mtime_ns;
  uint64_t inode, device;
  uint64_t content_hash;
  int64_t ctime_s, ctime_ns; /* st_ctim: the inode's last change */
} ds_input_stamp;

ds_status ds_input_stamp_of(const char *input_path, ds_input_stamp *stamp, ds_error *err);
int ds_input_stamp_equal(const ds_input_stamp *a, const ds_input_stamp *b);

ds_status ds_cache_path(const char *input_path, const ds_load_options *opt, char *out,
                        size_t out_len, ds_error *err);
/* Writes g's cache for an input of that stamp. Never replaces anything but a
 * regular file at cache_path (DS_ERR_IO); removes the temporaries that killed
 * writers left next to it. */
ds_status ds_cache_write(const char *cache_path, const ds_graph *g, const ds_load_options *opt,
                         const ds_input_stamp *input, ds_error *err);
/* Returns DS_ERR_STALE when the cache does not match the input (stamp, load
 * parameters, version), DS_ERR_FORMAT when it is corrupt or does not hold a
 * valid CSR (every array is checked: ds_csr_check), DS_ERR_IO when it is
 * missing, unreadable or not a regular file (a FIFO is never opened for
 * long: the open does not block). */
ds_status ds_cache_read(const char *cache_path, const ds_load_options *opt,
                        const ds_input_stamp *input, ds_graph *g, ds_error *err);

/* Write a graph as a Matrix Market coordinate file, integer or real: general
 * with every arc, or, for a symmetric graph, symmetric with each edge once (the
 * lower triangle), which loads back into the same graph, marked symmetric.
 * Through ds_out_open (out_file.h): a regular file is replaced atomically
 * (a link's target, not the link), a FIFO or device is written through. */
ds_status ds_mtx_write(const char *path, const ds_graph *g, ds_error *err);

const char *ds_format_name(ds_format f);

/* "uniform", "log", "bimodal" (the names of the command lines); "unknown"
 * for another value. */
const char *ds_weight_dist_name(ds_weight_dist d);
/* The distribution named text (ds_weight_dist_name's names, exactly).
 * Errors: DS_ERR_ARG "'TEXT' is not a weight distribution (uniform, log or
 * bimodal)"; *d is left alone. */
ds_status ds_weight_dist_parse(const char *text, ds_weight_dist *d, ds_error *err);
/* Whether weights of distribution d over [lo, hi] can be drawn (ds_weight_shape's
 * preconditions). Errors: DS_ERR_ARG "weight range 9:2 is empty (min > max)",
 * "unknown weight distribution 7", "log-uniform weights need a minimum of at
 * least 1 (the range is 0:100)". */
ds_status ds_weight_dist_check(ds_weight_dist d, uint32_t lo, uint32_t hi, ds_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DS_GRAPH_H */
