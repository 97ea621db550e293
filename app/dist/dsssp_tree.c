/* Rule 4 of the distributed validation (dsssp_validate.c): the predecessors
 * of every reached vertex lead to the source. Pointer jumping: rank r asks the
 * owner of anc(v) for anc(anc(v)), so after round k anc(v) is the 2^k-th
 * ancestor, or the source is known to be on v's path; log2(n) + 1 rounds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsssp_check.h"

/* ---- rule 4: the predecessors reach the source (pointer jumping) --------- */

typedef struct {
  uint32_t anc, fin;
} jump_answer;

ds_status dsssp_check_tree(checker *c, uint32_t source, const uint32_t *pred, ds_error *err) {
  const ds_dgraph *g = c->g;
  const int ranks = g->ranks;
  uint32_t *anc = NULL, *ask = NULL, *asked = NULL, *who = NULL;
  unsigned char *fin = NULL;
  jump_answer *answers = NULL, *got = NULL;
  uint64_t *bytes = NULL, *pos = NULL;
  size_t asked_cap = 0, got_cap = 0;
  const size_t nl = g->n_local ? g->n_local : 1;
  ds_status local = DS_OK, st;

  // 1. anc = pred; the source, unreached vertices and bad predecessors are not followed
  anc = malloc(nl * sizeof *anc);
  fin = malloc(nl);
  ask = malloc(nl * sizeof *ask);
  who = malloc(nl * sizeof *who);
  answers = NULL;
  bytes = malloc(2 * (size_t)ranks * sizeof *bytes);
  pos = malloc((size_t)ranks * sizeof *pos);
  if (anc == NULL || fin == NULL || ask == NULL || who == NULL || bytes == NULL || pos == NULL)
    local = nomem(c, "the predecessor tree", err);
  else
    for (uint32_t i = 0; i < g->n_local; i++) {
      const int followed = g->first + i != source && !local_dist(c, i).inf && pred[i] < g->n;
      anc[i] = followed ? pred[i] : g->first + i;
      fin[i] = !followed || pred[i] == source;
    }
  st = ds_comm_agree(c->comm, local, err);
  if (st != DS_OK) goto done;

  // 2. rounds: ask anc(v)'s owner for (anc(anc(v)), whether anc(v) reaches the source)
  uint32_t limit = 1;
  while (limit < 40 && ((uint64_t)1 << limit) < (uint64_t)g->n) limit++;
  uint64_t open = 1;
  for (uint32_t round = 0; open > 0 && round <= limit; round++) {
    uint64_t *in = bytes + ranks;
    size_t n = 0;
    memset(bytes, 0, (size_t)ranks * sizeof *bytes);
    for (uint32_t i = 0; i < g->n_local; i++)
      if (!fin[i]) bytes[ds_partition_owner(&g->part, anc[i])] += sizeof *ask, n++;
    uint64_t at = 0;
    for (int p = 0; p < ranks; p++) pos[p] = at, at += bytes[p] / sizeof *ask;
    for (uint32_t i = 0; i < g->n_local; i++)
      if (!fin[i]) {
        const uint64_t k = pos[ds_partition_owner(&g->part, anc[i])]++;
        ask[k] = anc[i];
        who[k] = i;
      }
    st = ds_comm_exchange(c->comm, ask, bytes, (void **)&asked, &asked_cap, in, err);
    if (st != DS_OK) goto done;
    size_t m = 0;
    for (int p = 0; p < ranks; p++) m += in[p] / sizeof *asked;
    jump_answer *grown = realloc(answers, (m ? m : 1) * sizeof *answers);
    local = grown == NULL ? nomem(c, "the answers of a jump", err) : DS_OK;
    if (grown != NULL) answers = grown;
    for (size_t j = 0; j < m && local == DS_OK; j++) { /* from the state before this round */
      const uint32_t x = asked[j];
      if (!ds_dgraph_owns(g, x)) {
        answers[j] = (jump_answer){x, 0};
        continue;
      }
      const uint32_t xi = x - g->first;
      answers[j] = (jump_answer){anc[xi], fin[xi] && !local_dist(c, xi).inf};
    }
    st = ds_comm_agree(c->comm, local, err);
    if (st != DS_OK) goto done;
    for (int p = 0; p < ranks; p++) in[p] = in[p] / sizeof *asked * sizeof *answers;
    st = ds_comm_exchange(c->comm, answers, in, (void **)&got, &got_cap, NULL, err);
    if (st != DS_OK) goto done;
    open = 0;
    for (size_t k = 0; k < n; k++) {
      const uint32_t i = who[k];
      if (got[k].fin) fin[i] = 1;
      else anc[i] = got[k].anc, open++;
    }
    st = ds_comm_allreduce(c->comm, DS_COMM_U64, DS_COMM_SUM, &open, &open, 1, err);
    if (st != DS_OK) goto done;
  }
  // 3. what is still open after log2(n) + 1 doublings never reaches the source
  for (uint32_t i = 0; i < g->n_local; i++)
    if (!fin[i])
      VIOLATION(c, g->first + i, "the predecessors of vertex %u do not lead to the source %u "
                "(a cycle, or a chain through an unreached vertex)", g->first + i, source);
done:
  free(anc);
  free(fin);
  free(ask);
  free(who);
  free(asked);
  free(answers);
  free(got);
  free(bytes);
  free(pos);
  return st;
}

