/* libFuzzer target for the graph readers and the binary cache: the first
 * byte picks the format (auto, mtx, dimacs, el, wel), the file name the
 * detector sees, and the undirected option; the rest is the file's bytes
 * (gzip included: the text layer inflates by magic; with auto, bytes that
 * start with the cache magic are decoded as a cache, as a cache that comes
 * through a pipe is). Every accepted input must give a CSR that passes
 * ds_csr_check; everything else must fail with a status and a message that
 * names the file. Sizes are bounded (2^20 vertices, 16 MiB of text, 1 GiB
 * of estimated memory) so a size line cannot make the fuzzer allocate
 * gigabytes. The build defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, so
 * the cache's payload checksum does not stop mutated caches before the
 * checks of their arrays; the seeds cache_* (valid, and one per invariant
 * broken with the checksums resealed: tests/graph/test_cache_crafted --write-seeds
 * DIR writes them) start it there.
 *
 * Build and run (WORK_CORPUS: an empty scratch folder that collects the
 * inputs found; graph/fuzz/corpus holds the small seed set, which CTest
 * replays in every build through tests/graph/fuzz_replay.c):
 *   cmake -S . -B build-fuzz -DDS_BUILD_FUZZ=ON -DDS_ENABLE_CUDA=OFF \
 *         -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
 *   cmake --build build-fuzz --target fuzz_readers
 *   build-fuzz/graph/fuzz/fuzz_readers -dict=graph/fuzz/readers.dict \
 *         -max_total_time=600 WORK_CORPUS graph/fuzz/corpus
 * An input that crashes goes into graph/fuzz/corpus as regression_<what>
 * once fixed, so that every build replays it. Runs so far (clang 14, ASan +
 * UBSan): 2026-11-22, the text readers, 15 minutes, 2.3 million inputs; 2026-11-23,
 * with the cache format and the gzip stream checks, 150 s, 386,000 inputs; no crash.
 */
#include "graph_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_VERTICES ((uint64_t)1 << 20)
#define FUZZ_MAX_TEXT ((size_t)1 << 24)
#define FUZZ_MAX_MEMORY ((uint64_t)1 << 30) /* a fixed budget: no /proc read per input */
#define SELECTOR_FORMATS 5
#define SELECTOR_UNDIRECTED 0x80

static const ds_format formats[SELECTOR_FORMATS] = {DS_FORMAT_AUTO, DS_FORMAT_MTX,
                                                    DS_FORMAT_DIMACS, DS_FORMAT_EL, DS_FORMAT_WEL};
static const char *const names[] = {"fuzz", "fuzz.mtx", "fuzz.gr", "fuzz.el", "fuzz.wel",
                                    "fuzz.mtx.gz"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const uint8_t sel = data[0];
  const ds_format fmt = formats[(sel & 0x7) % SELECTOR_FORMATS];
  const char *name = names[((sel >> 3) & 0x7) % (sizeof names / sizeof names[0])];
  ds_load_options opt;
  ds_load_options_default(&opt);
  opt.undirected = (sel & SELECTOR_UNDIRECTED) != 0;
  opt.use_cache = 0;
  opt.progress = 0;
  ds_text text;
  ds_graph g;
  ds_error err;
  memset(&g, 0, sizeof g);
  err.msg[0] = '\0';
  const ds_read_limits lim = {FUZZ_MAX_VERTICES, FUZZ_MAX_MEMORY, opt.undirected, fmt};
  ds_status st = ds_text_from_memory(name, data + 1, size - 1, FUZZ_MAX_TEXT, &lim, &text, &err);
  if (st == DS_OK && text.len == 0) {
    ds_text_free(&text);
    return 0;
  }
  if (st == DS_OK) {
    st = ds_parse_text(name, &text, fmt, &opt, &lim, NULL, &g, &err); /* frees the text */
  }
  if (st == DS_OK) {
    ds_error cerr;
    if (ds_csr_check(&g, &cerr) != DS_OK) {
      fprintf(stderr, "accepted input gave a bad CSR: %s\n", cerr.msg);
      abort();
    }
    ds_graph_free(&g);
  } else if (strncmp(err.msg, name, strlen(name)) != 0 || err.msg[strlen(name)] != ':') {
    fprintf(stderr, "error message does not start with the file name: '%s'\n", err.msg);
    abort();
  }
  return 0;
}
