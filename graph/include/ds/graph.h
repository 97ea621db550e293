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

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DS_OK = 0,
  DS_ERR_IO = 1,      /* file missing, unreadable, a directory, write failed */
  DS_ERR_FORMAT = 2,  /* malformed content: banner, size line, tokens, ranges */
  DS_ERR_UNSUPPORTED = 3, /* valid but unsupported (complex, dense, skew...) */
  DS_ERR_ARG = 4,     /* bad argument from the caller */
  DS_ERR_NOMEM = 5,
  DS_ERR_STALE = 6,   /* cache exists but does not match: rebuild */
  DS_ERR_DEVICE = 7,  /* CUDA error or no usable device */
  DS_ERR_VALIDATION = 8, /* a result failed validation */
  DS_ERR_RANGE = 9    /* a distance does not fit the distance type asked for */
} ds_status;

#define DS_ERROR_MSG_LEN 1024
typedef struct {
  char msg[DS_ERROR_MSG_LEN];
} ds_error;

/* printf-style helper that fills err (may be NULL) and returns status. */
ds_status ds_error_set(ds_error *err, ds_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

typedef enum { DS_WEIGHT_U32 = 0, DS_WEIGHT_F32 = 1 } ds_weight_type;

typedef enum {
  DS_FORMAT_AUTO = 0, /* from content, then name */
  DS_FORMAT_MTX = 1,
  DS_FORMAT_DIMACS = 2, /* DIMACS shortest path .gr: p sp / a u v w */
  DS_FORMAT_EL = 3,     /* 0-based edge list: u v        (# comments) */
  DS_FORMAT_WEL = 4,    /* 0-based edge list: u v w      (# comments) */
  DS_FORMAT_CACHE = 5   /* our binary CSR */
} ds_format;

#define DS_INF_U32 UINT32_MAX /* distance of an unreached vertex */
#define DS_NO_PRED UINT32_MAX /* predecessor of the source / unreached */

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
  uint64_t weight_seed;
  ds_format format;      /* format of the original input */
  uint64_t input_entries; /* entries read from the input file */
  char name[256];        /* file name without directories and extensions */
} ds_graph;

typedef struct {
  ds_format format;      /* DS_FORMAT_AUTO unless forced */
  int undirected;        /* store both directions even for general files */
  uint32_t weight_min;   /* for pattern graphs; default 1 */
  uint32_t weight_max;   /* default 1000 */
  uint64_t seed;         /* default 1 */
  int use_cache;         /* read/write the binary cache; default 1 */
  const char *cache_dir; /* NULL: next to the input */
  int progress;          /* progress bar on stderr when it is a terminal */
} ds_load_options;

void ds_load_options_default(ds_load_options *opt);

/* Load any supported file (format from content, then name), through the
 * binary cache when allowed. On success *g owns its arrays (ds_graph_free).
 *
 * [in] path  a .mtx, .gr, .el or .wel file, gzip-compressed or not (gzip is
 *            recognised by its magic bytes), or a .dscache file itself.
 * [in] opt   NULL for ds_load_options_default.
 * [out] g    zeroed on failure.
 * Detection: "%%MatrixMarket" banner -> Matrix Market; a first content line
 * 'c ', 'p ' or 'a ' -> DIMACS; otherwise the name (.mtx, .gr) decides, and
 * lines of numbers are an edge list (.wel by name, else 2 or 3 fields).
 * Cache: with opt->use_cache, a valid ds_cache_path file is read instead of
 * the text; after a text load the cache is (re)written; a cache that cannot
 * be written (read-only folder) is silently skipped.
 * Errors: DS_ERR_IO (missing, directory, unreadable), DS_ERR_FORMAT
 * ("FILE:LINE: problem"; gzip damage gives the line that inflation reached
 * and the compressed byte offset),
 * DS_ERR_UNSUPPORTED (complex, hermitian, skew-symmetric, array, too many
 * vertices), DS_ERR_NOMEM (including a graph larger than physical memory).
 * Example:
 *   ds_load_options opt; ds_load_options_default(&opt);
 *   ds_graph g; ds_error err;
 *   if (ds_graph_load("NY.mtx.gz", &opt, &g, &err) != DS_OK) puts(err.msg);
 */
ds_status ds_graph_load(const char *path, const ds_load_options *opt, ds_graph *g,
                        ds_error *err);

void ds_graph_free(ds_graph *g);

/* Build a CSR from a list of edges (0-based). weights may be NULL (pattern:
 * seeded weights from opt). Applies the CSR rules: self-loops dropped,
 * duplicates keep the smallest weight, rows sorted; symmetric stores both
 * directions. Does not free the inputs. Uses OpenMP threads for large lists;
 * the result does not depend on the thread count.
 * Generated weights (pattern) depend only on the seed and the unordered pair
 * of 0-based ids, so both directions and repeated lines of an edge agree:
 *   w(u,v) = weight_min + splitmix64(splitmix64(seed) ^ (min(u,v) << 32 | max(u,v)))
 *            % (weight_max - weight_min + 1)
 * where splitmix64(x) adds 0x9E3779B97F4A7C15 to x and applies the splitmix64
 * finaliser (Steele, Lea, Flood 2014).
 * Errors: DS_ERR_ARG (ids >= n, negative/NaN/inf float weights, min > max),
 * DS_ERR_NOMEM. */
typedef struct {
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

/* Binary cache: versioned, checksummed, written to a temporary name and
 * renamed. ds_cache_path gives where the cache of an input lives:
 * "<input>.dscache", or with opt->cache_dir "<cache_dir>/<name>.<hash of the
 * input's absolute path>.dscache". A cache records the input's size and
 * mtime, the undirected option, and the weight range and seed when the
 * weights were generated; any difference makes it stale. */
ds_status ds_cache_path(const char *input_path, const ds_load_options *opt, char *out,
                        size_t out_len, ds_error *err);
ds_status ds_cache_write(const char *cache_path, const ds_graph *g, const ds_load_options *opt,
                         uint64_t input_size, int64_t input_mtime, ds_error *err);
/* Returns DS_ERR_STALE when the cache does not match the input (size, mtime,
 * load parameters) and DS_ERR_FORMAT when it is corrupt. */
ds_status ds_cache_read(const char *cache_path, const ds_load_options *opt, uint64_t input_size,
                        int64_t input_mtime, ds_graph *g, ds_error *err);

/* Write a graph as a Matrix Market coordinate file (general, integer or real)
 * through ds_out_open (out_file.h): a regular file is replaced atomically
 * (a link's target, not the link), a FIFO or device is written through. */
ds_status ds_mtx_write(const char *path, const ds_graph *g, ds_error *err);

const char *ds_format_name(ds_format f);
const char *ds_status_name(ds_status s);

#ifdef __cplusplus
}
#endif
#endif /* DS_GRAPH_H */
