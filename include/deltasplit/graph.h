/* deltasplit: graphs, loaded from a file or wrapped around CSR arrays the
 * caller has.
 *
 * A dsp_graph is a directed graph in CSR form with non-negative weights: rows
 * sorted by column, no self loops, no duplicate arcs. An undirected graph
 * stores both directions of every edge. Vertex ids in the API are 0-based;
 * the file's numbering (1-based for Matrix Market and DIMACS) is id +
 * index_base (dsp_graph_info). Once made, a graph is read-only: any number of
 * threads may use one graph at once.
 *
 * Example:
 *   dsp_graph *g = NULL;
 *   dsp_error err;
 *   if (dsp_graph_load("NY.mtx.gz", NULL, &g, &err) != DSP_OK) fprintf(stderr, "%s\n", err.msg);
 *   ...
 *   dsp_graph_free(g);
 */
#ifndef DELTASPLIT_GRAPH_H
#define DELTASPLIT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "deltasplit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dsp_graph dsp_graph;

typedef enum { DSP_WEIGHT_U32 = 0, DSP_WEIGHT_F32 = 1 } dsp_weight_type;

typedef enum {
  DSP_FORMAT_AUTO = 0,   /* from the content (banner, DIMACS lines, gzip magic), then the name */
  DSP_FORMAT_MTX = 1,    /* Matrix Market coordinate, .mtx or .mtx.gz, 1-based */
  DSP_FORMAT_DIMACS = 2, /* DIMACS shortest path .gr, 1-based */
  DSP_FORMAT_EL = 3,     /* edge list "u v", 0-based */
  DSP_FORMAT_WEL = 4,    /* weighted edge list "u v w", 0-based */
  DSP_FORMAT_CACHE = 5   /* the binary cache (.dscache) itself */
} dsp_format;

/* The seeded random weights of a pattern (unweighted) file, as the programs'
 * --weight-dist draws them. */
typedef enum { DSP_WEIGHTS_UNIFORM = 0, DSP_WEIGHTS_LOG = 1, DSP_WEIGHTS_BIMODAL = 2 } dsp_weight_dist;

/* How a file is loaded; dsp_load_options_init gives the programs' defaults. */
typedef struct {
  dsp_format format;          /* DSP_FORMAT_AUTO */
  int undirected;             /* 1: store both directions of every arc, also of general files
                                 (what kcore and tc do with a directed file); 0 */
  uint32_t weight_min;        /* pattern files' weights: 1 */
  uint32_t weight_max;        /* 1000 */
  dsp_weight_dist weight_dist; /* DSP_WEIGHTS_UNIFORM */
  uint64_t seed;              /* 1 */
  int use_cache;              /* read and write the binary cache FILE.dscache: 1 */
  const char *cache_dir;      /* where the cache lives; NULL: beside the input */
  int build_device;           /* -1: a text file's CSR is built on the CPU (the default);
                                 a CUDA device: built there, arc for arc the same, on the
                                 CPU where the device cannot (no room, no device) */
  uint64_t max_memory;        /* host bytes the load may use; 0: what is available now */
} dsp_load_options;

void dsp_load_options_init(dsp_load_options *opt);

/* Loads a graph file into *g.
 * [in]  path  .mtx, .mtx.gz, .gr, .el, .wel (gzip or not) or a .dscache file; a pipe
 *             (/dev/stdin) too, never cached.
 * [in]  opt   NULL: dsp_load_options_init's.
 * [out] g     the graph (dsp_graph_free); NULL on failure.
 * Cache: a cache that matches the input exactly (size, times, inode, a hash of the
 * content, the load options it depends on) is read instead of the text, and a text
 * load writes one for next time, as the programs do (docs/usage.md, "Formats read");
 * dsp_graph_info says whether it was used and, in `note`, why not.
 * Memory: estimated from the sizes the file declares and refused before allocating.
 * Errors: DSP_ERR_ARG (NULL path or g, bad options), DSP_ERR_IO, DSP_ERR_FORMAT
 * ("FILE:LINE: problem"), DSP_ERR_UNSUPPORTED, DSP_ERR_NOMEM. */
dsp_status dsp_graph_load(const char *path, const dsp_load_options *opt, dsp_graph **g,
                          dsp_error *err);

/* CSR arrays the caller has, in host memory. */
typedef struct {
  uint32_t vertices;            /* n */
  uint64_t arcs;                /* m */
  const uint64_t *row_offsets;  /* n + 1: row v's arcs are [row_offsets[v], row_offsets[v+1]) */
  const uint32_t *col;          /* m heads, each row sorted ascending, no repeats, no v -> v */
  const void *weights;          /* m weights: uint32_t or float (finite, >= 0) by weight_type */
  dsp_weight_type weight_type;
  int undirected;               /* 1: both directions of every edge are stored (checked) */
  int index_base;               /* the numbering messages use (0 or 1) */
  const char *name;             /* for messages; NULL: "csr" */
} dsp_csr;

/* Wraps the caller's CSR arrays into *g without copying them: they must stay
 * unchanged until dsp_graph_free(*g) (and the close of any GPU context over it).
 * Every rule is checked first, in O(n + m) (the graph layer's check of a cache
 * file), so that no engine meets a graph it was not written for.
 * Errors: DSP_ERR_ARG (NULL arrays, offsets that do not start at 0, end at m or
 * go down, a column out of range, unsorted or repeated in its row, a self loop,
 * a negative or non-finite float weight, under `undirected` an arc without its
 * reverse of the same weight; the message names the vertex or arc),
 * DSP_ERR_NOMEM. */
dsp_status dsp_graph_wrap_csr(const dsp_csr *csr, dsp_graph **g, dsp_error *err);

/* Frees a graph (its arrays if the library made them; wrapped ones stay the
 * caller's). NULL is fine. Close GPU contexts over g first. */
void dsp_graph_free(dsp_graph *g);

/* How a load used the binary cache. */
typedef enum { DSP_CACHE_OFF = 0, DSP_CACHE_HIT = 1, DSP_CACHE_MISS = 2 } dsp_cache_use;

/* What a graph is; pointers stay valid while g lives. */
typedef struct {
  uint32_t vertices;
  uint64_t arcs;                /* both directions of an undirected edge count */
  dsp_weight_type weight_type;
  int undirected;
  int index_base;               /* file numbering = 0-based id + index_base */
  int weights_generated;        /* a pattern file's weights were drawn */
  const char *name;             /* file name without folders and extensions */
  const uint64_t *row_offsets;  /* the CSR, read-only */
  const uint32_t *col;
  const void *weights;
  dsp_cache_use cache;          /* loads only */
  const char *note;             /* "" or why the cache was off, rebuilt or not written, and
                                   where the CSR was built on the CPU in place of build_device */
} dsp_graph_info;

/* Errors: DSP_ERR_ARG (NULL g or info). */
dsp_status dsp_graph_describe(const dsp_graph *g, dsp_graph_info *info, dsp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DELTASPLIT_GRAPH_H */
