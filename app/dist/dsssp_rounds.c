/* The rounds of distributed delta-stepping over any communicator and any
 * engine (dsssp_engine.h). Invariants: every rank runs the same number of
 * rounds and makes the same collective calls in each, failed or not (a rank
 * whose relaxation failed sends nothing, still receives, and reports the
 * failure in the round's all-reduce), so that no rank is left waiting in a
 * collective that another has skipped.
 */
#include "dist/dsssp_engine.h"

#include <stdlib.h>
#include <string.h>


#define UPDATE_BYTES sizeof(ds_dsssp_update)

_Static_assert(sizeof(ds_dsssp_update) == 16, "an update is 16 bytes on the wire");

/* Step 5's all-reduce: {next bucket, ~status}: the min of ~status is ~ the
 * largest status, so one MIN carries both. */
static ds_status agree_next(ds_comm *comm, uint64_t mine, ds_status local, uint64_t *next,
                            ds_status *any_failed, ds_error *err) {
  uint64_t v[2] = {local == DS_OK ? mine : DS_DSSSP_NO_BUCKET, ~(uint64_t)local};
  ds_status st = ds_comm_allreduce(comm, DS_COMM_U64, DS_COMM_MIN, v, v, 2, err);
  *next = v[0];
  *any_failed = (ds_status)~v[1];
  return st;
}

ds_status ds_dsssp_rounds(ds_comm *comm, const ds_dsssp_engine *e, ds_dsssp_round_stats *stats,
                          ds_error *err) {
  ds_dsssp_round_stats s;
  memset(&s, 0, sizeof s);
  if (comm == NULL || e == NULL)
    return ds_error_set(err, DS_ERR_ARG, "ds_dsssp_rounds: comm and engine must not be NULL");
  const int ranks = ds_comm_size(comm), me = ds_comm_rank(comm);
  ds_error lerr; /* this rank's failure, until the ranks agree on it */
  lerr.msg[0] = '\0';
  ds_status local = DS_OK, st, failed;

  // 1. the count and offset arrays of the exchange, and the first bucket
  uint64_t *a = malloc(6 * (size_t)ranks * sizeof *a);
  if (a == NULL)
    local = ds_error_set(&lerr, DS_ERR_NOMEM, "rank %d: out of memory for %d counts", me, 6 * ranks);
  uint64_t *send_n = a, *recv_n = a + ranks, *send_b = a + 2 * ranks, *send_off = a + 3 * ranks,
           *recv_b = a + 4 * ranks, *recv_off = a + 5 * ranks;
  uint64_t bucket = DS_DSSSP_NO_BUCKET, current = DS_DSSSP_NO_BUCKET;
  double t0 = ds_comm_now();
  st = agree_next(comm, local == DS_OK ? e->next_bucket(e->self) : 0, local, &bucket, &failed, err);
  s.reduce_ms += 1e3 * (ds_comm_now() - t0);

  while (st == DS_OK && failed == DS_OK && bucket != DS_DSSSP_NO_BUCKET) {
    if (bucket != current) s.buckets++, current = bucket;
    // 2. relax this rank's vertices of the bucket
    t0 = ds_comm_now();
    const void *send = NULL;
    local = e->relax(e->self, bucket, &send, send_n, &lerr);
    if (local != DS_OK) memset(send_n, 0, (size_t)ranks * sizeof *send_n);
    send_n[me] = 0;
    s.relax_ms += 1e3 * (ds_comm_now() - t0);

    // 3. one exchange: the counts, then the updates
    t0 = ds_comm_now();
    st = ds_comm_alltoall_u64(comm, send_n, recv_n, err);
    if (st != DS_OK) break;
    uint64_t out = 0, in = 0;
    for (int p = 0; p < ranks; p++) {
      send_b[p] = send_n[p] * UPDATE_BYTES;
      send_off[p] = out * UPDATE_BYTES;
      out += send_n[p];
      recv_b[p] = recv_n[p] * UPDATE_BYTES;
      recv_off[p] = in * UPDATE_BYTES;
      in += recv_n[p];
    }
    void *recv = NULL;
    if (in > 0) {
      ds_status got = e->receive_buffer(e->self, in, &recv, &lerr);
      if (got != DS_OK) { /* the others are sending: only an abort stops them waiting */
        ds_comm_abort(comm, lerr.msg);
        if (err != NULL) *err = lerr;
        st = got;
        break;
      }
    }
    st = ds_comm_alltoallv(comm, send, send_b, send_off, recv, recv_b, recv_off, err);
    if (st != DS_OK) break;
    s.updates_sent += out;
    s.updates_received += in;
    s.exchange_ms += 1e3 * (ds_comm_now() - t0);

    // 4. apply what arrived
    t0 = ds_comm_now();
    if (local == DS_OK && in > 0) local = e->apply(e->self, recv, in, &lerr);
    uint64_t mine = local == DS_OK ? e->next_bucket(e->self) : DS_DSSSP_NO_BUCKET;
    s.relax_ms += 1e3 * (ds_comm_now() - t0);

    // 5. one all-reduce: the next bucket, and whether a rank failed
    t0 = ds_comm_now();
    st = agree_next(comm, mine, local, &bucket, &failed, err);
    s.reduce_ms += 1e3 * (ds_comm_now() - t0);
    s.rounds++;
  }
  // a failure that the all-reduce reported: its message to every rank
  if (st == DS_OK && failed != DS_OK) {
    st = ds_comm_agree(comm, local, &lerr);
    if (err != NULL) *err = lerr;
  }
  free(a);
  if (stats != NULL) *stats = s;
  return st;
}
