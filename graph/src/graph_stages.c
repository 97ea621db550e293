/* The stages of a load behind ds/graph_stages.h: thin owners of the internal
 * text buffer and edge list, so that a caller outside the graph layer can
 * time each stage without its private header. */
#include <stdlib.h>
#include <string.h>

#include "ds/graph_stages.h"
#include "graph_internal.h"

struct ds_stage_text {
  ds_text text;
};

struct ds_stage_edges {
  ds_edges edges;
};

ds_status ds_stage_read(const char *path, ds_stage_text **text, size_t *bytes, ds_error *err) {
  if (!path || !text) return ds_error_set(err, DS_ERR_ARG, "ds_stage_read: NULL argument");
  *text = NULL;
  ds_stage_text *t = calloc(1, sizeof *t);
  if (!t) return ds_error_set(err, DS_ERR_NOMEM, "ds_stage_read: out of memory");
  ds_status st = ds_text_read_file(path, &t->text, NULL, NULL, err);
  if (st != DS_OK) {
    free(t);
    return st;
  }
  if (bytes) *bytes = t->text.len;
  *text = t;
  return DS_OK;
}

void ds_stage_text_free(ds_stage_text *text) {
  if (!text) return;
  ds_text_free(&text->text);
  free(text);
}

ds_status ds_stage_parse_mtx(const char *path, const ds_stage_text *text, ds_stage_edges **edges,
                             ds_stage_summary *summary, ds_error *err) {
  if (!path || !text || !edges || !summary)
    return ds_error_set(err, DS_ERR_ARG, "ds_stage_parse_mtx: NULL argument");
  *edges = NULL;
  ds_stage_edges *e = calloc(1, sizeof *e);
  if (!e) return ds_error_set(err, DS_ERR_NOMEM, "ds_stage_parse_mtx: out of memory");
  /* no limit beyond the format's and the host's memory: the caller chose the file */
  const ds_read_limits lim = {UINT32_MAX, 0, 0, DS_FORMAT_MTX};
  ds_read_info info;
  memset(&info, 0, sizeof info);
  ds_status st = ds_read_mtx(path, &text->text, &lim, NULL, &e->edges, &info, err);
  if (st != DS_OK) {
    ds_stage_edges_free(e);
    return st;
  }
  summary->n = info.n;
  summary->entries = info.entries;
  summary->weighted = e->edges.weighted;
  summary->weight_type = e->edges.weight_type;
  *edges = e;
  return DS_OK;
}

void ds_stage_edges_free(ds_stage_edges *edges) {
  if (!edges) return;
  ds_edges_free(&edges->edges);
  free(edges);
}
