/* Graph500's SSSP validation run by the ranks on their own arcs (dsssp.h's
 * rules 1-5), with the comparisons of ds_sssp_validate (validate.c): integer
 * distances exactly in 64 bits, float ones as doubles within
 * DS_FLOAT_REL_TOL.
 *
 * What crosses ranks: the distances of the heads of a rank's arcs that other
 * ranks own (one exchange of requests, one of answers: at most one request
 * per distinct head), the predecessor checks (sent to the predecessor's
 * owner, which holds the arc), and the pointer-jumping rounds over the
 * predecessors (rank r asks the owner of anc(v) for anc(anc(v)), so after
 * round k anc(v) is the 2^k-th ancestor, or the source is known to be on v's
 * path). A violation does not stop a rank: the first one it found is agreed
 * at the end, so the ranks keep making the same collective calls.
 * Vertex ids in messages are global and 0-based.
 */
#include "dist/dsssp.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsssp_check.h"

/* ---- values -------------------------------------------------------------- */


/* A value on the wire: the integer (UINT64_MAX for inf) or the double's bits. */
static uint64_t encode(const checker *c, dval d) {
  if (!c->is_float) return d.inf ? UINT64_MAX : d.i;
  uint64_t b;
  double f = d.inf ? INFINITY : d.f;
  memcpy(&b, &f, sizeof b);
  return b;
}

static dval decode(const checker *c, uint64_t b) {
  dval d = {0, 0, 0.0};
  if (!c->is_float) {
    d.i = b;
    d.inf = b == UINT64_MAX;
  } else {
    memcpy(&d.f, &b, sizeof b);
    d.inf = isinf(d.f);
  }
  return d;
}

/* The distance of any head of this rank's arcs: its own, or a ghost's. */
static dval dist_of(const checker *c, uint32_t v) {
  if (ds_dgraph_owns(c->g, v)) return local_dist(c, v - c->g->first);
  size_t lo = 0, hi = c->ghosts;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->ghost[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  dval none = {1, 0, 0.0}; /* not asked for: only heads of reached tails are */
  return lo < c->ghosts && c->ghost[lo] == v ? decode(c, c->ghost_val[lo]) : none;
}

static dval plus_weight(const checker *c, dval d, uint64_t arc) {
  return ds_dist_plus(d, c->g->weights, c->is_float, arc);
}
static int is_tight(const checker *c, dval dv, dval s) { return ds_dist_tight(dv, s, c->is_float, c->tol); }
static int is_feasible(const checker *c, dval dv, dval s) { return ds_dist_feasible(dv, s, c->is_float, c->tol); }
static void format_value(const checker *c, char *buf, size_t len, dval d) { ds_dist_format(d, c->is_float, buf, len); }

/* Arc u -> v (u local) by binary search in u's sorted row; UINT64_MAX if absent. */
static uint64_t find_arc(const ds_dgraph *g, uint32_t u_local, uint32_t v) {
  uint64_t lo = g->row_offsets[u_local], end = g->row_offsets[u_local + 1], hi = end;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (g->col[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < end && g->col[lo] == v ? lo : UINT64_MAX;
}

static int compare_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* ids[0..*n) sorted, each once. Where a bit per vertex of the whole graph takes no more memory
 * than the ids themselves, by a bitmap (one pass over the ids, one over the bitmap's words): a
 * rank of a scale-24 Kronecker graph asks for some 10^8 heads, and qsort took tens of seconds
 * over them. Returns 0 when the bitmap cannot be allocated (the caller reports it). */
static int sort_distinct(uint32_t n_vertices, uint32_t *ids, size_t *n) {
  const size_t words = ((size_t)n_vertices + 63) / 64;
  if (words * sizeof(uint64_t) > *n * sizeof *ids) {
    qsort(ids, *n, sizeof *ids, compare_u32);
    size_t u = 0;
    for (size_t j = 0; j < *n; j++)
      if (j == 0 || ids[j] != ids[j - 1]) ids[u++] = ids[j];
    *n = u;
    return 1;
  }
  uint64_t *bits = calloc(words ? words : 1, sizeof *bits);
  if (bits == NULL) return 0;
  for (size_t j = 0; j < *n; j++) bits[ids[j] / 64] |= (uint64_t)1 << (ids[j] % 64);
  size_t u = 0;
  for (size_t w = 0; w < words; w++)
    for (uint64_t b = bits[w]; b != 0; b &= b - 1) ids[u++] = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(b));
  free(bits);
  *n = u;
  return 1;
}


/* Byte counts per owner of a sorted id list (ids grouped by owner, since
 * owners hold increasing ranges), record bytes each. */
static void bytes_per_owner(const ds_partition *p, const uint32_t *ids, size_t n, size_t rec,
                            uint64_t *bytes) {
  memset(bytes, 0, (size_t)p->ranks * sizeof *bytes);
  for (size_t i = 0; i < n; i++) bytes[ds_partition_owner(p, ids[i])] += rec;
}

/* ---- rule 1: the source, the values, the predecessors' shape ------------- */

static void check_local(checker *c, uint32_t source, const uint32_t *pred) {
  const ds_dgraph *g = c->g;
  char a[64];
  for (uint32_t i = 0; i < g->n_local; i++) {
    const uint32_t v = g->first + i;
    dval d = local_dist(c, i);
    if (c->is_float && (isnan(d.f) || d.f < 0.0))
      VIOLATION(c, v, "vertex %u has invalid distance %g", v, d.f);
    if (v == source) {
      format_value(c, a, sizeof a, d);
      if (d.inf || (c->is_float ? d.f != 0.0 : d.i != 0))
        VIOLATION(c, v, "source %u has distance %s, not 0", v, a);
      if (pred != NULL && pred[i] != DS_NO_PRED)
        VIOLATION(c, v, "source %u has predecessor %u, expected none", v, pred[i]);
      continue;
    }
    if (pred == NULL) continue;
    if (d.inf && pred[i] != DS_NO_PRED)
      VIOLATION(c, v, "unreached vertex %u has predecessor %u", v, pred[i]);
    if (!d.inf && pred[i] == DS_NO_PRED) VIOLATION(c, v, "reached vertex %u has no predecessor", v);
    if (!d.inf && pred[i] != DS_NO_PRED && pred[i] >= g->n)
      VIOLATION(c, v, "vertex %u has predecessor %u out of range", v, pred[i]);
  }
}

/* ---- the ghosts: distances of the heads other ranks own ----------------- */

static ds_status fetch_ghosts(checker *c, ds_error *err) {
  const ds_dgraph *g = c->g;
  const int ranks = g->ranks;
  uint32_t *ids = NULL, *asked = NULL;
  uint64_t *bytes = NULL, *answers = NULL, *got = NULL;
  size_t asked_cap = 0, got_cap = 0;
  ds_status local = DS_OK, st;

  // 1. the distinct remote heads of arcs from reached tails, sorted
  size_t n = 0;
  for (uint32_t i = 0; i < g->n_local; i++)
    if (!local_dist(c, i).inf)
      for (uint64_t a = g->row_offsets[i]; a < g->row_offsets[i + 1]; a++) n += !ds_dgraph_owns(g, g->col[a]);
  ids = malloc((n ? n : 1) * sizeof *ids);
  bytes = malloc(2 * (size_t)ranks * sizeof *bytes);
  if (ids == NULL || bytes == NULL) local = nomem(c, "the heads of other ranks", err);
  else {
    n = 0;
    for (uint32_t i = 0; i < g->n_local; i++)
      if (!local_dist(c, i).inf)
        for (uint64_t a = g->row_offsets[i]; a < g->row_offsets[i + 1]; a++)
          if (!ds_dgraph_owns(g, g->col[a])) ids[n++] = g->col[a];
    if (!sort_distinct(g->n, ids, &n)) local = nomem(c, "the heads of other ranks", err);
    else bytes_per_owner(&g->part, ids, n, sizeof *ids, bytes);
  }
  st = ds_comm_agree(c->comm, local, err);
  if (st != DS_OK) goto done;

  // 2. ask the owners, who answer in the order asked
  uint64_t *in = bytes + ranks;
  st = ds_comm_exchange(c->comm, ids, bytes, (void **)&asked, &asked_cap, in, err);
  if (st != DS_OK) goto done;
  size_t m = 0;
  for (int p = 0; p < ranks; p++) m += in[p] / sizeof *asked;
  answers = malloc((m ? m : 1) * sizeof *answers);
  local = answers == NULL ? nomem(c, "the answers", err) : DS_OK;
  for (size_t j = 0; j < m && local == DS_OK; j++) {
    if (!ds_dgraph_owns(g, asked[j]))
      local = ds_error_set(err, DS_ERR_ARG, "validation: rank %d was asked for vertex %u, which "
                           "it does not own", g->rank, asked[j]);
    else answers[j] = encode(c, local_dist(c, asked[j] - g->first));
  }
  st = ds_comm_agree(c->comm, local, err);
  if (st != DS_OK) goto done;
  for (int p = 0; p < ranks; p++) in[p] = in[p] / sizeof *asked * sizeof *answers;
  st = ds_comm_exchange(c->comm, answers, in, (void **)&got, &got_cap, NULL, err);
  if (st != DS_OK) goto done;
  c->ghost = ids;
  c->ghost_val = got;
  c->ghosts = n;
  ids = NULL;
  got = NULL;
done:
  free(ids);
  free(bytes);
  free(asked);
  free(answers);
  free(got);
  return st;
}

/* ---- rule 2: every arc from a reached tail is feasible; rule 5's marks ---- */

static void check_arcs(checker *c, unsigned char *tight_in, uint32_t *tight_remote,
                       size_t *n_tight_remote) {
  const ds_dgraph *g = c->g;
  char a[64], b[64];
  size_t nr = 0;
  for (uint32_t i = 0; i < g->n_local; i++) {
    const dval du = local_dist(c, i);
    if (du.inf) continue;
    for (uint64_t e = g->row_offsets[i]; e < g->row_offsets[i + 1]; e++) {
      const uint32_t v = g->col[e];
      const dval s = plus_weight(c, du, e), dv = dist_of(c, v);
      if (!is_feasible(c, dv, s)) {
        format_value(c, a, sizeof a, dv);
        format_value(c, b, sizeof b, s);
        VIOLATION(c, v, "vertex %u has distance %s but the arc from %u gives %s", v, a,
                  g->first + i, b);
      }
      if (tight_in == NULL || !is_tight(c, dv, s)) continue;
      if (ds_dgraph_owns(g, v)) tight_in[v - g->first] = 1;
      else tight_remote[nr++] = v;
    }
  }
  if (n_tight_remote != NULL) *n_tight_remote = nr;
}

/* ---- rule 3: tight predecessor arcs, checked where the arc lives ---------- */

typedef struct {
  uint32_t pred, v;
  uint64_t dv; /* encoded */
} pred_query;

static ds_status check_pred_arcs(checker *c, uint32_t source, const uint32_t *pred,
                                 ds_error *err) {
  const ds_dgraph *g = c->g;
  const int ranks = g->ranks;
  pred_query *q = NULL, *got = NULL;
  uint64_t *bytes = NULL, *pos = NULL;
  size_t got_cap = 0, n = 0;
  ds_status local = DS_OK, st;
  char a[64], b[64];

  // 1. a query per reached vertex with a predecessor in range, grouped by the predecessor's owner
  for (uint32_t i = 0; i < g->n_local; i++)
    n += g->first + i != source && pred[i] < g->n && !local_dist(c, i).inf;
  q = malloc((n ? n : 1) * sizeof *q);
  bytes = malloc((size_t)ranks * sizeof *bytes);
  pos = malloc((size_t)ranks * sizeof *pos);
  if (q == NULL || bytes == NULL || pos == NULL) local = nomem(c, "the predecessor checks", err);
  else {
    memset(bytes, 0, (size_t)ranks * sizeof *bytes);
    for (uint32_t i = 0; i < g->n_local; i++)
      if (g->first + i != source && pred[i] < g->n && !local_dist(c, i).inf)
        bytes[ds_partition_owner(&g->part, pred[i])] += sizeof *q;
    uint64_t at = 0;
    for (int p = 0; p < ranks; p++) pos[p] = at, at += bytes[p] / sizeof *q;
    for (uint32_t i = 0; i < g->n_local; i++)
      if (g->first + i != source && pred[i] < g->n && !local_dist(c, i).inf)
        q[pos[ds_partition_owner(&g->part, pred[i])]++] =
            (pred_query){pred[i], g->first + i, encode(c, local_dist(c, i))};
  }
  st = ds_comm_agree(c->comm, local, err);
  if (st != DS_OK) goto done;
  // 2. to the owners of the predecessors, who hold the arcs
  st = ds_comm_exchange(c->comm, q, bytes, (void **)&got, &got_cap, bytes, err);
  if (st != DS_OK) goto done;
  size_t m = 0;
  for (int p = 0; p < ranks; p++) m += bytes[p] / sizeof *got;
  for (size_t j = 0; j < m; j++) {
    const uint32_t p = got[j].pred, v = got[j].v;
    const dval dv = decode(c, got[j].dv);
    if (!ds_dgraph_owns(g, p)) {
      VIOLATION(c, v, "validation: rank %d was asked about predecessor %u, which it does not own",
                g->rank, p);
      continue;
    }
    const uint64_t e = find_arc(g, p - g->first, v);
    if (e == UINT64_MAX) {
      VIOLATION(c, v, "vertex %u has predecessor %u but there is no arc %u -> %u", v, p, p, v);
      continue;
    }
    const dval s = plus_weight(c, local_dist(c, p - g->first), e);
    if (!is_tight(c, dv, s)) {
      format_value(c, a, sizeof a, dv);
      format_value(c, b, sizeof b, s);
      VIOLATION(c, v, "vertex %u has distance %s but its predecessor %u gives %s", v, a, p, b);
    }
  }
done:
  free(q);
  free(got);
  free(bytes);
  free(pos);
  return st;
}

/* ---- rule 5, without predecessors: every reached vertex has a tight in-arc */

static ds_status check_tight_in(checker *c, uint32_t source, ds_error *err) {
  const ds_dgraph *g = c->g;
  const int ranks = g->ranks;
  unsigned char *tight = calloc(g->n_local ? g->n_local : 1, 1);
  uint32_t *remote = NULL, *got = NULL;
  uint64_t *bytes = malloc(2 * (size_t)ranks * sizeof *bytes);
  size_t got_cap = 0, nr = 0;
  ds_status local = DS_OK, st;
  remote = malloc((g->m_local ? (size_t)g->m_local : 1) * sizeof *remote);
  if (tight == NULL || remote == NULL || bytes == NULL) local = nomem(c, "the tight arcs", err);
  else {
    check_arcs(c, tight, remote, &nr); /* marks only: rule 2 ran already */
    if (!sort_distinct(g->n, remote, &nr)) local = nomem(c, "the tight arcs", err);
    else bytes_per_owner(&g->part, remote, nr, sizeof *remote, bytes);
  }
  st = ds_comm_agree(c->comm, local, err);
  if (st != DS_OK) goto done;
  uint64_t *in = bytes + ranks;
  st = ds_comm_exchange(c->comm, remote, bytes, (void **)&got, &got_cap, in, err);
  if (st != DS_OK) goto done;
  size_t m = 0;
  for (int p = 0; p < ranks; p++) m += in[p] / sizeof *got;
  for (size_t j = 0; j < m; j++)
    if (ds_dgraph_owns(g, got[j])) tight[got[j] - g->first] = 1;
  char a[64];
  for (uint32_t i = 0; i < g->n_local; i++) {
    const dval d = local_dist(c, i);
    if (d.inf || tight[i] || g->first + i == source) continue;
    format_value(c, a, sizeof a, d);
    VIOLATION(c, g->first + i, "vertex %u has distance %s but no arc into it is tight",
              g->first + i, a);
  }
done:
  free(tight);
  free(remote);
  free(got);
  free(bytes);
  return st;
}

ds_status ds_dsssp_validate(ds_comm *comm, const ds_dgraph *g, uint32_t source, const void *dist,
                            ds_dist_width width, const uint32_t *pred, uint32_t *bad_vertex,
                            ds_error *err) {
  if (comm == NULL || g == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_validate: comm and g must not be NULL");
  checker c;
  memset(&c, 0, sizeof c);
  c.comm = comm;
  c.g = g;
  c.dist = dist;
  c.is_float = g->weight_type == DS_WEIGHT_F32;
  c.width = c.is_float ? DS_DIST_NATURAL : width;
  c.tol = c.is_float ? DS_FLOAT_REL_TOL : 0.0;

  // 1. arguments, then rule 1
  ds_status local = DS_OK;
  if (g->ranks != ds_comm_size(comm) || g->rank != ds_comm_rank(comm))
    local = ds_error_set(err, DS_ERR_ARG, "validation: rank %d of %d holds the part of rank %d of "
                         "a graph over %d ranks", ds_comm_rank(comm), ds_comm_size(comm), g->rank,
                         g->ranks);
  else if (source >= g->n)
    local = ds_error_set(err, DS_ERR_ARG, "source %u is out of range: the graph has %u vertices",
                         source, g->n);
  else if (g->n_local > 0 && dist == NULL)
    local = ds_error_set(err, DS_ERR_ARG, "validation on rank %d: dist is NULL", g->rank);
  ds_status st = ds_comm_agree(comm, local, err);
  if (st != DS_OK) return st;
  check_local(&c, source, pred);

  // 2. the ghosts' distances, then rule 2 on every arc
  st = fetch_ghosts(&c, err);
  if (st != DS_OK) goto done;
  check_arcs(&c, NULL, NULL, NULL);

  // 3. rules 3 and 4 with predecessors, rule 5 without
  if (pred != NULL) {
    st = check_pred_arcs(&c, source, pred, err);
    if (st == DS_OK) st = dsssp_check_tree(&c, source, pred, err);
  } else {
    st = check_tight_in(&c, source, err);
  }
  if (st != DS_OK) goto done;

  // 4. the first violation of the least rank that found one, on every rank
  uint64_t bad = c.bad;
  if (c.verdict != DS_OK && err != NULL) *err = c.msg;
  st = ds_comm_agree_detail(comm, c.verdict, &bad, err);
  if (st == DS_ERR_VALIDATION && bad_vertex != NULL) *bad_vertex = (uint32_t)bad;
done:
  free(c.ghost);
  free(c.ghost_val);
  return st;
}
