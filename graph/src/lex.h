/* The text lexer the readers share: a cursor over a NUL-terminated buffer
 * whose last line ends with '\n' (ds_text), hand-written number parsing, and
 * "FILE:LINE: problem" messages.
 *
 * Numbers: unsigned integers with overflow detection (no sign, no leading
 * '+'); weights as unsigned 32-bit integers or as reals ([+-]digits[.digits]
 * [e[+-]digits]) rounded to float, where NaN, infinity, negative values and
 * values beyond float's range are errors. A number must end at a blank or at
 * the end of the line ("12x" is not a number). Blanks are ' ', '\t', '\r'.
 * Reals are converted through double (exact powers of ten up to 1e22, libm's
 * pow beyond) then rounded to float: within one float ulp of the exact value.
 * Speed: numbers of up to 7 digits (nearly all ids and weights) are scanned 8
 * bytes at a time (SWAR); longer ones take a byte loop with overflow checks.
 */
#ifndef DS_LEX_H
#define DS_LEX_H

#include "graph_internal.h"

#include <string.h>

typedef struct {
  const char *p;     /* cursor */
  const char *begin; /* text start (for progress) */
  const char *end;   /* text end: the '\0' after the final '\n' */
  const char *file;  /* name for messages */
  uint64_t line;     /* 1-based line of the cursor */
  uint64_t comment_bytes; /* of the comment and blank lines passed (read_common.h) */
  ds_error *err;
} ds_lex;

/* Result of parsing one number. */
typedef enum {
  LEX_NUM_OK = 0,
  LEX_NUM_MISSING,     /* end of line where a number should be */
  LEX_NUM_BAD,         /* not a number */
  LEX_NUM_OVERFLOW,    /* does not fit */
  LEX_NUM_NEGATIVE,    /* a minus sign */
  LEX_NUM_NOT_FINITE   /* nan, inf */
} lex_num;

#define LEX_U64_SAFE_DIGITS 19 /* any 19-digit number fits in 64 bits */

static inline int lex_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static inline int lex_is_digit(char c) { return (unsigned)(c - '0') < 10u; }
static inline int lex_is_end(char c) { return c == '\n' || lex_is_blank(c); }

static inline void lex_skip_blanks(ds_lex *L) {
  while (lex_is_blank(*L->p)) L->p++;
}

/* After the fields of a line: is the rest of the line blank? */
static inline int lex_at_eol(ds_lex *L) {
  lex_skip_blanks(L);
  return *L->p == '\n';
}

/* Moves to the start of the next line (the text ends with '\n'). */
static inline void lex_next_line(ds_lex *L) {
  const char *nl = memchr(L->p, '\n', (size_t)(L->end - L->p));
  L->p = nl ? nl + 1 : L->end;
  L->line++;
}

static inline int lex_eof(const ds_lex *L) { return L->p >= L->end; }

/* SWAR digit scanning (the text is padded, so reading 8 bytes at any
 * position inside it is safe): a byte is a digit when its high nibble is 3
 * both before and after adding 6. A carry out of a byte (only from bytes
 * >= 0xFA, which are not digits) can only disturb bytes after a non-digit. */
#define SWAR_HIGH_NIBBLES 0xF0F0F0F0F0F0F0F0ull
#define SWAR_ASCII_ZERO 0x3030303030303030ull
#define SWAR_ADD_SIX 0x0606060606060606ull

static inline uint64_t swar_non_digits(uint64_t w) {
  return ((w & SWAR_HIGH_NIBBLES) ^ SWAR_ASCII_ZERO) |
         (((w + SWAR_ADD_SIX) & SWAR_HIGH_NIBBLES) ^ SWAR_ASCII_ZERO);
}

/* The value of 8 ASCII digits (or zero bytes standing for leading zeros),
 * first character most significant (Lemire's three-multiply conversion). */
static inline uint64_t swar_eight_digits(uint64_t w) {
  w = ((w & 0x0F0F0F0F0F0F0F0Full) * 2561) >> 8;
  w = ((w & 0x00FF00FF00FF00FFull) * 6553601) >> 16;
  return ((w & 0x0000FFFF0000FFFFull) * 42949672960001ull) >> 32;
}

/* Length (1..7) and value of a short digit run at p; 0 when the run is
 * empty or has 8 or more digits (the caller takes the byte loop). */
static inline unsigned swar_short_number(const char *p, uint64_t *value) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t w;
  memcpy(&w, p, sizeof w);
  uint64_t nd = swar_non_digits(w);
  if (nd == 0) return 0;
  unsigned len = (unsigned)__builtin_ctzll(nd) >> 3;
  if (len == 0) return 0;
  *value = swar_eight_digits(w << (8 * (8 - len)));
  return len;
#else
  (void)p;
  (void)value;
  return 0;
#endif
}

/* Unsigned integer token. */
static inline lex_num lex_u64(ds_lex *L, uint64_t *out) {
  lex_skip_blanks(L);
  const char *p = L->p, *s = p;
  if (*p == '\n') return LEX_NUM_MISSING;
  if (*p == '-') return LEX_NUM_NEGATIVE;
  uint64_t x = 0;
  unsigned len = swar_short_number(p, &x);
  if (len != 0) { /* the common case: 1 to 7 digits */
    if (!lex_is_end(p[len])) return LEX_NUM_BAD;
    L->p = p + len;
    *out = x;
    return LEX_NUM_OK;
  }
  unsigned d;
  while ((d = (unsigned)(*p - '0')) < 10u) {
    if (p - s >= LEX_U64_SAFE_DIGITS && x > (UINT64_MAX - d) / 10) return LEX_NUM_OVERFLOW;
    x = x * 10 + d;
    p++;
  }
  if (p == s || !lex_is_end(*p)) return LEX_NUM_BAD;
  L->p = p;
  *out = x;
  return LEX_NUM_OK;
}

/* Unsigned 32-bit integer weight. */
static inline lex_num lex_u32(ds_lex *L, uint32_t *out) {
  const char *start = L->p;
  uint64_t x;
  lex_num r = lex_u64(L, &x);
  if (r == LEX_NUM_OK && x > UINT32_MAX) {
    L->p = start; /* the cursor stays on the token, so the message can quote it */
    return LEX_NUM_OVERFLOW;
  }
  if (r == LEX_NUM_OK) *out = (uint32_t)x;
  return r;
}

/* Any weight: *is_real says which of *u (integer token) or *f (real token)
 * holds it. Defined in lex.c (the real path is not hot for integer files). */
lex_num lex_weight(ds_lex *L, int *is_real, uint32_t *u, float *f);
/* A weight of a file whose weights are all real (Matrix Market 'real'):
 * integer-looking tokens ("4294967296") are reals too, rounded to float. */
lex_num lex_real(ds_lex *L, float *f);

/* Sets L->err to "FILE:LINE: <what> <problem>" for a failed number and
 * returns DS_ERR_FORMAT. what names the field ("row index", "weight"). */
ds_status lex_num_error(ds_lex *L, lex_num r, const char *what);
/* "FILE:LINE: " followed by the message. */
ds_status lex_error(ds_lex *L, ds_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Copies the token at the cursor (at most out_len - 1 chars) for messages. */
void lex_token(const ds_lex *L, char *out, size_t out_len);

#endif /* DS_LEX_H */
