/* The text as it arrives (graph/src/text_check.c through file_read.c): what
 * cannot start a graph stops at its first chunk, and what a text may hold is
 * bounded, in every format and whatever the input is (a file, gzip, a pipe).
 *   1. gzip bombs (first, while the process's peak is small): zeros,
 *      comments after the header, comments before a late header, an edge
 *      list's comments, a DIMACS file's, an edge list's blank-padded lines;
 *      none inflates in full.
 *   2. streams that do not end (a FIFO whose writer keeps it open): NUL
 *      bytes, lines that cannot start a graph (plain and gzip), a line
 *      without end, comments without end, a bad banner, an arc before the
 *      'p' line; each load must return with its error while the writer waits.
 *   3. plain files: comment and blank lines beyond the bound in each format,
 *      refused at the exact line, and within it accepted; the longest line
 *      and one a byte longer, early and late in a file, and in gzip.
 * The limits are the real ones (16 MiB of comments, 1 MiB lines), so the
 * files are tens of MiB of repeated lines, written in a fraction of a second.
 */
#include "graph_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#define MM "%%MatrixMarket matrix coordinate "
#define WRITE_CHUNK ((size_t)1 << 20)
#define LINE 1024                          /* filler lines' bytes; WRITE_CHUNK holds whole ones */
#define BOMB_TEXT_BYTES ((size_t)96 << 20) /* what the bombs would inflate to */
#define BOMB_RSS_LIMIT_KIB (48 * 1024)     /* what their loads may add to the peak */
#define HANG_LIMIT_S 30                    /* a load that waits for a stream's end fails */
#define MIB ((size_t)1 << 20)

/* Repeated filler: lines of line_bytes bytes (line_start, then pad, then '\n'),
 * or pad bytes alone where line_bytes is 0. */
typedef struct {
  const char *line_start;
  char pad;
  size_t line_bytes;
} filler;

static void fill_chunk(char *chunk, const filler *f) {
  memset(chunk, f->pad, WRITE_CHUNK);
  if (f->line_bytes == 0) return;
  for (size_t at = 0; at + f->line_bytes <= WRITE_CHUNK; at += f->line_bytes) {
    memcpy(chunk + at, f->line_start, strlen(f->line_start));
    chunk[at + f->line_bytes - 1] = '\n';
  }
}

/* A file (gzip-compressed when gz) of head, fill_bytes of filler, and tail. */
static void write_text(const char *path, const char *head, const filler *f, size_t fill_bytes,
                       const char *tail, int gz) {
  static char chunk[WRITE_CHUNK];
  fill_chunk(chunk, f);
  gzFile z = gz ? gzopen(path, "wb1") : NULL;
  FILE *plain = gz ? NULL : fopen(path, "wb");
  if (z == NULL && plain == NULL) {
    perror(path);
    exit(2);
  }
  const char *parts[2] = {head, tail};
  for (int k = 0; k < 2; k++) {
    if (k == 1) { /* the filler between head and tail */
      for (size_t done = 0; done < fill_bytes; done += WRITE_CHUNK) {
        const size_t n = fill_bytes - done < WRITE_CHUNK ? fill_bytes - done : WRITE_CHUNK;
        if (z) gzwrite(z, chunk, (unsigned)n);
        else fwrite(chunk, 1, n, plain);
      }
    }
    if (z) gzwrite(z, parts[k], (unsigned)strlen(parts[k]));
    else fwrite(parts[k], 1, strlen(parts[k]), plain);
  }
  if (z) gzclose(z);
  else fclose(plain);
}

static ds_status load(const char *path, ds_graph *g, ds_error *err) {
  ds_load_options opt = options_no_cache();
  memset(g, 0, sizeof *g);
  ds_status st = ds_graph_load(path, &opt, g, err);
  return st;
}

/* ---- 1. gzip bombs ------------------------------------------------------------ */

/* Under AddressSanitizer the peak also holds the quarantine, where freed blocks
 * wait (256 MiB by default) before they are reused, so a load that frees what it
 * inflated as it goes still looks as if it kept it: there the bound is not
 * measured (the plain builds measure it). */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEASURES_LOADS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEASURES_LOADS 0
#endif
#endif
#ifndef RSS_MEASURES_LOADS
#define RSS_MEASURES_LOADS 1
#endif

static long peak_rss_kib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static void gzip_bombs(const char *dir) {
  static const struct {
    const char *file, *head;
    filler fill;
    const char *tail;
    ds_status want;
    const char *says;
  } bombs[] = {
      {"zeros.mtx.gz", "", {"", '\0', 0}, "", DS_ERR_FORMAT, ":1: a NUL byte at column 1"},
      {"comments.mtx.gz", MM "integer general\n3 3 1\n1 2 1\n", {"%", '%', LINE}, "",
       DS_ERR_UNSUPPORTED, "more comment and blank lines than a graph file holds"},
      {"late_header.mtx.gz", MM "integer general\n", {"%", '%', LINE}, "3 3 1\n1 2 1\n",
       DS_ERR_UNSUPPORTED, "more comment and blank lines than a graph file holds"},
      {"comments.el.gz", "0 1\n", {"#", '#', LINE}, "1 2\n", DS_ERR_UNSUPPORTED,
       "more comment and blank lines than a graph file holds"},
      {"comments.gr.gz", "p sp 3 2\na 1 2 3\n", {"c", ' ', LINE}, "a 2 3 1\n", DS_ERR_UNSUPPORTED,
       "more comment and blank lines than a graph file holds"},
      {"padded.el.gz", "", {"0 1", ' ', LINE}, "", DS_ERR_UNSUPPORTED,
       "the gzip data inflates to more than"},
  };
  for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, bombs[i].file);
    write_text(path, bombs[i].head, &bombs[i].fill, BOMB_TEXT_BYTES, bombs[i].tail, 1);
    ds_graph g;
    ds_error err = {{0}};
    long before = peak_rss_kib();
    ds_status st = load(path, &g, &err);
    long grew = peak_rss_kib() - before;
    CHECK(st == bombs[i].want && strncmp(err.msg, path, strlen(path)) == 0 &&
              strstr(err.msg, bombs[i].says),
          "%s: status %s, message '%s'", bombs[i].file, ds_status_name(st), err.msg);
    if (RSS_MEASURES_LOADS)
      CHECK(grew < BOMB_RSS_LIMIT_KIB, "%s: the load grew the peak by %ld KiB (of %zu MiB of text)",
            bombs[i].file, grew, BOMB_TEXT_BYTES >> 20);
    else
      printf("%s: the load grew the peak by %ld KiB: not checked under AddressSanitizer\n",
             bombs[i].file, grew);
    if (st == DS_OK) ds_graph_free(&g);
    unlink(path);
  }
}

/* ---- 2. streams that do not end ---------------------------------------------- */

/* A child that writes head and fill_bytes of filler into the FIFO at path
 * (gzip-compressed and flushed when gz) and then keeps it open, as a stream
 * that has not ended. It dies when the reader goes (SIGPIPE) or is killed. */
static pid_t open_stream(const char *path, const char *head, const filler *f, size_t fill_bytes,
                         int gz) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  signal(SIGPIPE, SIG_DFL);
  signal(SIGALRM, SIG_DFL);
  alarm(HANG_LIMIT_S + 5); /* never outlives the test */
  static char chunk[WRITE_CHUNK];
  fill_chunk(chunk, f);
  int fd = open(path, O_WRONLY);
  gzFile z = gz ? gzdopen(fd, "wb1") : NULL;
  if (z) gzwrite(z, head, (unsigned)strlen(head));
  else if (write(fd, head, strlen(head)) < 0) _exit(0);
  for (size_t done = 0; done < fill_bytes; done += WRITE_CHUNK) {
    const size_t n = fill_bytes - done < WRITE_CHUNK ? fill_bytes - done : WRITE_CHUNK;
    if (z) gzwrite(z, chunk, (unsigned)n);
    else if (write(fd, chunk, n) < 0) _exit(0);
  }
  if (z) gzflush(z, Z_SYNC_FLUSH);
  for (;;) pause();
}

static void open_streams(const char *dir) {
  static const struct {
    const char *file, *head;
    filler fill;
    size_t fill_bytes;
    int gz;
    ds_status want;
    const char *says; /* after the path */
  } streams[] = {
      {"zeros", "", {"", '\0', 0}, 64 << 10, 0, DS_ERR_FORMAT, ":1: a NUL byte at column 1"},
      {"yes", "", {"y", '?', 2}, MIB, 0, DS_ERR_FORMAT, ":1: cannot tell the format"},
      {"yes_gz", "", {"y", '?', 2}, MIB, 1, DS_ERR_FORMAT, ":1: cannot tell the format"},
      {"no_newline", "", {"", 'x', 0}, 2 * MIB, 0, DS_ERR_UNSUPPORTED,
       ":1: a line of more than 1048576 bytes"},
      {"comments", "", {"#", '#', LINE}, 24 * MIB, 0, DS_ERR_UNSUPPORTED,
       ":16385: more comment and blank lines"},
      {"edge_comments", "0 1\n", {"#", '#', LINE}, 24 * MIB, 0, DS_ERR_UNSUPPORTED,
       ":16386: more comment and blank lines"},
      {"late_header.mtx", MM "integer general\n", {"%", '%', LINE}, 24 * MIB, 1,
       DS_ERR_UNSUPPORTED, ":16385: more comment and blank lines"},
      {"banner.mtx", "%%MatrixMarkt matrix coordinate real general\n", {"%", '%', LINE}, MIB, 0,
       DS_ERR_FORMAT, ":1: the banner must start with"},
      {"arc_first", "c road\na 1 2 3\n", {"a 1 2 3", ' ', 16}, MIB, 0, DS_ERR_FORMAT,
       ":2: an arc before the 'p sp N M' line"},
  };
  hang_guard("FAIL: a load waited for the end of a stream that cannot be a graph\n");
  for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++) {
    char path[1200], want[1400];
    snprintf(path, sizeof path, "%s/%s", dir, streams[i].file);
    snprintf(want, sizeof want, "%s%s", path, streams[i].says);
    if (!CHECK(mkfifo(path, 0600) == 0, "mkfifo %s", path)) continue;
    pid_t writer = open_stream(path, streams[i].head, &streams[i].fill, streams[i].fill_bytes,
                               streams[i].gz);
    ds_graph g;
    ds_error err = {{0}};
    alarm(HANG_LIMIT_S);
    ds_status st = load(path, &g, &err);
    alarm(0);
    CHECK(st == streams[i].want && strncmp(err.msg, want, strlen(want)) == 0,
          "%s: status %s, message '%s' (want '%s...')", streams[i].file, ds_status_name(st),
          err.msg, want);
    if (st == DS_OK) ds_graph_free(&g);
    kill(writer, SIGKILL);
    waitpid(writer, NULL, 0);
    unlink(path);
  }
}

/* ---- 3. plain files ----------------------------------------------------------- */

/* The line at which comment lines of LINE bytes after data_bytes of data
 * pass the bound, counted from first_line. */
static unsigned long long refused_at(uint64_t first_line, uint64_t comment_before,
                                     uint64_t data_bytes) {
  const uint64_t allowed = DS_TEXT_COMMENT_BYTES + DS_TEXT_COMMENT_PER_DATA * data_bytes;
  return (unsigned long long)(first_line + (allowed - comment_before) / LINE);
}

static void comment_bounds(const char *dir) {
  static const struct {
    const char *file, *head;
    filler fill;
    size_t fill_bytes;
    const char *tail;
    uint64_t head_lines;
    int data_head; /* the head counts as data (the readers' count); else as comments (the
                      check of the lines before the first content line) */
  } files[] = {
      {"mid.mtx", MM "integer general\n3 3 2\n1 2 1\n", {"%", '%', LINE}, 17 * MIB, "2 3 1\n", 3, 1},
      {"mid.el", "0 1\n", {"#", '#', LINE}, 17 * MIB, "1 2\n", 1, 1},
      {"mid.gr", "p sp 3 2\na 1 2 1\n", {"c", ' ', LINE}, 17 * MIB, "a 2 3 1\n", 2, 1},
      {"blank.wel", "0 1 5\n", {"", ' ', LINE}, 17 * MIB, "1 2 5\n", 1, 1},
      {"front.mtx", MM "integer general\n", {"%", '%', LINE}, 17 * MIB, "3 3 1\n1 2 1\n", 1, 0},
      {"within.el", "0 1\n", {"#", '#', LINE}, 15 * MIB, "1 2\n", 1, 1},
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[1200], want[1400];
    snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
    write_text(path, files[i].head, &files[i].fill, files[i].fill_bytes, files[i].tail, 0);
    ds_graph g;
    ds_error err = {{0}};
    ds_status st = load(path, &g, &err);
    const uint64_t head = strlen(files[i].head);
    const int refused = files[i].fill_bytes > DS_TEXT_COMMENT_BYTES;
    snprintf(want, sizeof want, "%s:%llu: more comment and blank lines", path,
             refused_at(files[i].head_lines + 1, files[i].data_head ? 0 : head,
                        files[i].data_head ? head : 0));
    if (refused)
      CHECK(st == DS_ERR_UNSUPPORTED && strncmp(err.msg, want, strlen(want)) == 0,
            "%s: status %s, message '%s' (want '%s...')", files[i].file, ds_status_name(st),
            err.msg, want);
    else
      CHECK(st == DS_OK && g.m == 2, "%s: status %s (%s)", files[i].file, ds_status_name(st),
            err.msg);
    if (st == DS_OK) ds_graph_free(&g);
    unlink(path);
  }
}

static void line_lengths(const char *dir) {
  static const struct {
    const char *file, *head; /* head NULL: LATE_LINES edge lines */
    size_t line;     /* bytes of the long comment line, its '\n' included */
    int gz;
    const char *says; /* NULL: accepted; else after the path */
  } files[] = {
      {"longest.el", "0 1\n", (size_t)DS_TEXT_LINE_BYTES, 0, NULL},
      {"too_long.el", "0 1\n", (size_t)DS_TEXT_LINE_BYTES + 1, 0, ":2: a line of more than"},
      {"too_long.el.gz", "0 1\n", (size_t)DS_TEXT_LINE_BYTES + 1, 1, ":2: a line of more than"},
      {"longest_late.el", NULL, (size_t)DS_TEXT_LINE_BYTES, 0, NULL},
      {"too_long_late.el", NULL, (size_t)DS_TEXT_LINE_BYTES + 1, 0,
       ":786433: a line of more than"},
  };
  enum { LATE_LINES = 786432 }; /* 3 MiB of "0 1\n" before the long line: windows hop first */
  static char late[LATE_LINES * 4 + 1];
  for (size_t k = 0; k < LATE_LINES; k++) memcpy(late + 4 * k, "0 1\n", 4);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[1200], want[1400];
    snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
    const filler hashes = {"", '#', 0};
    write_text(path, files[i].head ? files[i].head : late, &hashes, files[i].line - 1, "\n1 2\n",
               files[i].gz);
    ds_graph g;
    ds_error err = {{0}};
    ds_status st = load(path, &g, &err);
    if (files[i].says == NULL) {
      CHECK(st == DS_OK && g.m == 2, "%s: status %s (%s)", files[i].file, ds_status_name(st),
            err.msg);
    } else {
      snprintf(want, sizeof want, "%s%s", path, files[i].says);
      CHECK(st == DS_ERR_UNSUPPORTED && strncmp(err.msg, want, strlen(want)) == 0,
            "%s: status %s, message '%s' (want '%s...')", files[i].file, ds_status_name(st),
            err.msg, want);
    }
    if (st == DS_OK) ds_graph_free(&g);
    unlink(path);
  }
}

int main(void) {
  char dir[1024];
  scratch_make(dir, sizeof dir, "text_limits");
  gzip_bombs(dir);
  open_streams(dir);
  comment_bounds(dir);
  line_lengths(dir);
  scratch_remove(dir);
  return ds_test_finish("text limits");
}
