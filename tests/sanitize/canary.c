/* Canaries of the sanitizer build: each mode commits one defect that ASan,
 * UBSan or LeakSanitizer must report, so that a build or a test preset that
 * lost the sanitizers (a dropped flag, an option that no longer reaches the
 * compiler) fails CTest instead of passing quietly.
 * usage: sanitize_canary use-after-free|signed-overflow|leak */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CANARY_LEN 8

/* Written through volatile accesses, so the compiler cannot see the defects
 * and remove them. */
static char *volatile block;
static volatile int big = INT_MAX;

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "use-after-free") == 0) {
    block = calloc(CANARY_LEN, 1);
    free(block);
    return block[0];
  }
  if (strcmp(mode, "signed-overflow") == 0) {
    int x = big;
    x += 1;
    return x < 0;
  }
  if (strcmp(mode, "leak") == 0) {
    block = malloc(CANARY_LEN); /* the only pointer to it is then overwritten */
    block = NULL;
    return 0;
  }
  fprintf(stderr, "usage: sanitize_canary use-after-free|signed-overflow|leak\n");
  return 2;
}
