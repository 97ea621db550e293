/* The progress bar of loads (graph/src/progress.c): never enabled when the
 * caller does not want it or stderr is not a terminal; on a terminal, silent
 * during the first second, then a bar, then a closing line that says whether
 * the load succeeded ("g: loaded in", "h: failed after"); and on a terminal a
 * load that fails after its bar showed closes it as failed ("slow: failed
 * after": a FIFO whose writer waits past the second before a bad entry).
 *   test_progress quiet   stderr must not be a terminal (progress_case.sh
 *                         checks that nothing reaches it)
 *   test_progress tty     stderr must be a terminal (run under script(1))
 */
#include "graph_test_util.h"

#include "graph_internal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#define PAST_THRESHOLD_NS 1200000000L /* sleep past the 1 s after which the bar shows */
#define SLOW_HEAD "%%MatrixMarket matrix coordinate integer general\n3 3 1\n"
#define SLOW_BAD_ENTRY "1 x 1\n"

static void sleep_past_threshold(void) {
  struct timespec pause = {PAST_THRESHOLD_NS / 1000000000L, PAST_THRESHOLD_NS % 1000000000L};
  nanosleep(&pause, NULL);
}

/* A load through ds_graph_load that fails after its bar showed: the writer of
 * a FIFO sends the header, waits past the second, then a bad entry. */
static void failing_load(void) {
  char dir[1024], path[1200];
  scratch_make(dir, sizeof dir, "progress");
  snprintf(path, sizeof path, "%s/slow.mtx", dir);
  REQUIRE(mkfifo(path, 0600) == 0, "mkfifo %s", path);
  pid_t writer = fork();
  if (writer == 0) {
    int fd = open(path, O_WRONLY);
    ssize_t ignored = write(fd, SLOW_HEAD, strlen(SLOW_HEAD));
    sleep_past_threshold();
    ignored = write(fd, SLOW_BAD_ENTRY, strlen(SLOW_BAD_ENTRY));
    (void)ignored;
    _exit(0);
  }
  ds_load_options opt = options_no_cache();
  opt.progress = 1;
  ds_graph g;
  ds_error err;
  ds_status st = ds_graph_load(path, &opt, &g, &err);
  CHECK(st == DS_ERR_FORMAT && strstr(err.msg, ":3: column index 'x'"), "the slow load: %s (%s)",
        ds_status_name(st), err.msg);
  if (st == DS_OK) ds_graph_free(&g);
  waitpid(writer, NULL, 0);
  scratch_remove(dir);
}

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
  ds_progress_end(&p, 1);
  // 2. wanted: enabled exactly when stderr is a terminal, and silent for a second
  ds_progress_begin(&p, 1, "g");
  CHECK(p.enabled == want_tty, "enabled = %d with stderr %s", p.enabled,
        want_tty ? "a terminal" : "not a terminal");
  ds_progress_update(&p, "parse", 0.25);
  CHECK(!p.shown, "a bar within the first second");
  sleep_past_threshold();
  ds_progress_update(&p, "parse", 0.5);
  CHECK(p.shown == want_tty, "shown = %d after a second", p.shown);
  ds_progress_update(NULL, "parse", 0.5); /* no bar at all: a no-op */
  ds_progress_end(&p, 1);
  CHECK(!p.shown, "the line was not closed");
  // 3. a load that fails after its bar showed: the closing line must not say "loaded"
  //    (its start moved back instead of a second sleep)
  ds_progress_begin(&p, 1, "h");
  p.start_s -= (double)PAST_THRESHOLD_NS * 1e-9;
  p.last_s = p.start_s;
  ds_progress_update(&p, "parse", 0.75);
  CHECK(p.shown == want_tty, "shown = %d for the failing load", p.shown);
  ds_progress_end(&p, 0);
  // 4. the same through a load, on a terminal only (elsewhere nothing shows to check)
  if (want_tty) failing_load();
  return ds_test_finish("progress bar, %s", argv[1]);
}
