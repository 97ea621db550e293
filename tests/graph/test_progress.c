/* The progress bar of loads (graph/src/progress.c): never enabled when the
 * caller does not want it or stderr is not a terminal; on a terminal, silent
 * during the first second, then a bar, then a closing line.
 *   test_progress quiet   stderr must not be a terminal (progress_case.sh
 *                         checks that nothing reaches it)
 *   test_progress tty     stderr must be a terminal (run under script(1))
 */
#include "graph_test_util.h"

#include "graph_internal.h"

#include <time.h>

#define PAST_THRESHOLD_NS 1200000000L /* sleep past the 1 s after which the bar shows */

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "quiet") != 0 && strcmp(argv[1], "tty") != 0)) {
    printf("usage: test_progress quiet|tty\n");
    return 2;
  }
  const int want_tty = strcmp(argv[1], "tty") == 0;
  CHECK(isatty(STDERR_FILENO) == want_tty, "stderr is%s a terminal", want_tty ? " not" : "");
  ds_progress p;
  // 1. not wanted (sssp --quiet, graphgen --quiet): never enabled
  ds_progress_begin(&p, 0, "g");
  CHECK(!p.enabled, "enabled although not wanted");
  ds_progress_update(&p, "parse", 0.5);
  ds_progress_end(&p);
  // 2. wanted: enabled exactly when stderr is a terminal, and silent for a second
  ds_progress_begin(&p, 1, "g");
  CHECK(p.enabled == want_tty, "enabled = %d with stderr %s", p.enabled,
        want_tty ? "a terminal" : "not a terminal");
  ds_progress_update(&p, "parse", 0.25);
  CHECK(!p.shown, "a bar within the first second");
  struct timespec pause = {0, PAST_THRESHOLD_NS % 1000000000L};
  pause.tv_sec = PAST_THRESHOLD_NS / 1000000000L;
  nanosleep(&pause, NULL);
  ds_progress_update(&p, "parse", 0.5);
  CHECK(p.shown == want_tty, "shown = %d after a second", p.shown);
  ds_progress_update(NULL, "parse", 0.5); /* no bar at all: a no-op */
  ds_progress_end(&p);
  CHECK(!p.shown, "the line was not closed");
  return ds_test_finish("progress bar, %s", argv[1]);
}
