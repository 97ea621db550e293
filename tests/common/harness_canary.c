/* The harness (ds_test.h) on itself: each mode makes one kind of outcome, and
 * tests/common/CMakeLists.txt checks its exit code and output, so that a failed
 * check can never pass for a success. Built as C11, and as C++17 through
 * harness_canary_cxx.cpp.
 * usage: harness_canary pass|fail|require|skip
 */
#include "ds_test.h"

static int after_require = 0;

/* A REQUIRE that fails must leave the rest of its function unrun. */
static void stops_at_require(void) {
  REQUIRE(1 + 1 == 3, "required %d == 3", 1 + 1);
  after_require = 1;
}

int main(int argc, char **argv) {
  const char *mode = argc == 2 ? argv[1] : "";
  if (strcmp(mode, "pass") == 0) {
    CHECK(1 + 1 == 2, "1 + 1 is not 2");
  } else if (strcmp(mode, "fail") == 0) {
    CHECK(1 + 1 == 2, "1 + 1 is not 2");
    if (!CHECK(1 + 1 == 3, "%d is not 3", 1 + 1)) printf("CHECK gave 0\n");
  } else if (strcmp(mode, "require") == 0) {
    stops_at_require();
    CHECK(after_require == 0, "the code after a failed REQUIRE ran");
  } else if (strcmp(mode, "skip") == 0) {
    return ds_test_skip("the canary skips on request");
  } else {
    fprintf(stderr, "usage: harness_canary pass|fail|require|skip\n");
    return 2;
  }
  return ds_test_finish("canary %s", mode);
}
