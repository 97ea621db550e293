/* The out-of-line half of the lexer (lex.h): real numbers and messages. */
#include "lex.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define TOKEN_SHOWN 40         /* characters of a bad token quoted in a message */
#define MANTISSA_DIGITS 19     /* significant digits kept; the rest only scale */
#define EXACT_POW10_MAX 22     /* 10^k is exact in a double up to k = 22 */
#define EXPONENT_CAP 100000    /* beyond this the value is 0 or inf anyway */

static const double pow10_exact[EXACT_POW10_MAX + 1] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int lower_is(const char *p, const char *word) {
  for (; *word; p++, word++)
    if ((*p | 0x20) != *word) return 0;
  return 1;
}

/* A weight token; real_only: every number is a real (the field of the file
 * says so), integer-looking ones included, so they never overflow uint32. */
static lex_num weight_token(ds_lex *L, int real_only, int *is_real, uint32_t *u, float *f) {
  lex_skip_blanks(L);
  const char *p = L->p;
  if (*p == '\n') return LEX_NUM_MISSING;
  uint64_t short_value;
  unsigned len = swar_short_number(p, &short_value);
  if (len != 0 && lex_is_end(p[len])) { /* a plain integer of at most 7 digits */
    *is_real = real_only;
    if (real_only) *f = (float)short_value;
    else *u = (uint32_t)short_value;
    L->p = p + len;
    return LEX_NUM_OK;
  }
  int negative = 0;
  if (*p == '+' || *p == '-') negative = *p++ == '-';
  if (lower_is(p, "nan") || lower_is(p, "inf")) return LEX_NUM_NOT_FINITE;
  // 1. mantissa: up to 19 significant digits, the rest scale the exponent
  uint64_t mant = 0;
  int kept = 0, any = 0, real = 0;
  long exp10 = 0;
  for (; lex_is_digit(*p); p++, any = 1) {
    if (kept < MANTISSA_DIGITS) {
      mant = mant * 10 + (unsigned)(*p - '0');
      kept += mant != 0;
    } else {
      exp10++;
    }
  }
  if (*p == '.') {
    real = 1;
    for (p++; lex_is_digit(*p); p++, any = 1) {
      if (kept < MANTISSA_DIGITS) {
        mant = mant * 10 + (unsigned)(*p - '0');
        kept += mant != 0;
        exp10--;
      }
    }
  }
  if (!any) return LEX_NUM_BAD;
  // 2. exponent
  if (*p == 'e' || *p == 'E') {
    real = 1;
    p++;
    int eneg = 0;
    if (*p == '+' || *p == '-') eneg = *p++ == '-';
    if (!lex_is_digit(*p)) return LEX_NUM_BAD;
    long e = 0;
    for (; lex_is_digit(*p); p++)
      if (e < EXPONENT_CAP) e = e * 10 + (*p - '0');
    exp10 += eneg ? -e : e;
  }
  if (!lex_is_end(*p)) return LEX_NUM_BAD;
  if (negative && mant != 0) return LEX_NUM_NEGATIVE;
  // 3. value
  if (!real && !real_only) {
    if (kept >= MANTISSA_DIGITS || exp10 != 0 || mant > UINT32_MAX) return LEX_NUM_OVERFLOW;
    *is_real = 0;
    *u = (uint32_t)mant;
  } else {
    double v = (double)mant;
    if (mant != 0 && exp10 != 0) {
      if (exp10 > 0 && exp10 <= EXACT_POW10_MAX) v *= pow10_exact[exp10];
      else if (exp10 < 0 && -exp10 <= EXACT_POW10_MAX) v /= pow10_exact[-exp10];
      else v *= pow(10.0, (double)exp10);
    }
    float x = (float)v;
    if (!isfinite(x)) return LEX_NUM_OVERFLOW;
    *is_real = 1;
    *f = x;
  }
  L->p = p;
  return LEX_NUM_OK;
}

lex_num lex_weight(ds_lex *L, int *is_real, uint32_t *u, float *f) {
  return weight_token(L, 0, is_real, u, f);
}

lex_num lex_real(ds_lex *L, float *f) {
  int is_real;
  uint32_t u;
  return weight_token(L, 1, &is_real, &u, f);
}

void lex_token(const ds_lex *L, char *out, size_t out_len) {
  const char *p = L->p;
  while (lex_is_blank(*p)) p++;
  size_t k = 0;
  while (k + 1 < out_len && *p != '\n' && *p != '\0' && !lex_is_blank(*p)) {
    unsigned char c = (unsigned char)*p++;
    out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  out[k] = '\0';
}

ds_status lex_error(ds_lex *L, ds_status st, const char *fmt, ...) {
  if (L->err == NULL) return st;
  char what[DS_ERROR_MSG_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return ds_error_set(L->err, st, "%s:%llu: %s", L->file, (unsigned long long)L->line, what);
}

ds_status lex_num_error(ds_lex *L, lex_num r, const char *what) {
  char tok[TOKEN_SHOWN + 1];
  lex_token(L, tok, sizeof tok);
  switch (r) {
  case LEX_NUM_MISSING: return lex_error(L, DS_ERR_FORMAT, "missing %s: the line ends early", what);
  case LEX_NUM_OVERFLOW: return lex_error(L, DS_ERR_FORMAT, "%s '%s' is too large", what, tok);
  case LEX_NUM_NEGATIVE: return lex_error(L, DS_ERR_FORMAT, "%s '%s' is negative", what, tok);
  case LEX_NUM_NOT_FINITE:
    return lex_error(L, DS_ERR_FORMAT, "%s '%s' is not a finite number", what, tok);
  case LEX_NUM_BAD:
  default: return lex_error(L, DS_ERR_FORMAT, "%s '%s' is not a number", what, tok);
  }
}
