/* Replays the fuzz corpus (graph/fuzz/corpus) through the libFuzzer entry
 * point of graph/fuzz/fuzz_readers.c without libFuzzer, so that every CI
 * build (gcc, no sanitizers needed) keeps the corpus passing: each input must
 * either load into a CSR that passes ds_csr_check or fail with a message
 * that names the file (the entry point aborts otherwise). */
#include "graph_test_util.h"

#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT ((size_t)1 << 20)

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fuzz_replay CORPUS_DIR\n");
    return 2;
  }
  DIR *d = opendir(argv[1]);
  if (d == NULL) {
    perror(argv[1]);
    return 2;
  }
  static uint8_t buf[MAX_INPUT];
  struct dirent *e;
  int runs = 0;
  while ((e = readdir(d)) != NULL) {
    char path[4096 + sizeof e->d_name + 2];
    if (e->d_name[0] == '.') continue;
    if (snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name) >= (int)sizeof path) continue;
    FILE *f = fopen(path, "rb");
    if (f == NULL) continue;
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, len);
    runs++;
  }
  closedir(d);
  CHECK(runs > 0, "no inputs in %s", argv[1]);
  return ds_test_finish("fuzz corpus: %d inputs replayed", runs);
}
