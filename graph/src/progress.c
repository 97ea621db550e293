/* Progress bar on stderr for loads that take more than a second, only when
 * the caller asked for it and stderr is a terminal; silent otherwise. The
 * closing line says whether the load succeeded: a failed load's own error
 * follows it, and "loaded" before an error would contradict it. */
#define _POSIX_C_SOURCE 200809L
#include "graph_internal.h"

#include <time.h>
#include <unistd.h>

#define PROGRESS_AFTER_S 1.0   /* nothing shows for loads faster than this */
#define PROGRESS_REDRAW_S 0.2  /* at most five redraws a second */
#define PROGRESS_BAR_WIDTH 30

double ds_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ds_progress_begin(ds_progress *p, int wanted, const char *label) {
  p->enabled = wanted && isatty(STDERR_FILENO);
  p->shown = 0;
  p->start_s = p->enabled ? ds_now_s() : 0.0;
  p->last_s = p->start_s;
  p->label = label;
}

void ds_progress_update(ds_progress *p, const char *what, double fraction) {
  if (p == NULL || !p->enabled) return;
  double now = ds_now_s();
  if (now - p->start_s < PROGRESS_AFTER_S || now - p->last_s < PROGRESS_REDRAW_S) return;
  p->last_s = now;
  if (fraction < 0.0) fraction = 0.0;
  if (fraction > 1.0) fraction = 1.0;
  int filled = (int)(fraction * PROGRESS_BAR_WIDTH + 0.5);
  char bar[PROGRESS_BAR_WIDTH + 1];
  for (int i = 0; i < PROGRESS_BAR_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
  bar[PROGRESS_BAR_WIDTH] = '\0';
  fprintf(stderr, "\r%s: %-10s [%s] %3d%% %5.1fs", p->label, what, bar, (int)(fraction * 100),
          now - p->start_s);
  fflush(stderr);
  p->shown = 1;
}

void ds_progress_end(ds_progress *p, int loaded) {
  if (p == NULL || !p->shown) return;
  fprintf(stderr, "\r%s: %s %.1fs%*s\n", p->label, loaded ? "loaded in" : "failed after",
          ds_now_s() - p->start_s, PROGRESS_BAR_WIDTH + 12, "");
  fflush(stderr);
  p->shown = 0;
}
