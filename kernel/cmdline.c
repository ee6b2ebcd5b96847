/*
 * Kernel command line parser (see include/cmdline.h).  Pure logic.
 */
#include "kernel.h"
#include "cmdline.h"

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    return s;
}

static bool is_end(char c)
{
    return c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copy one token (key: up to '='; value: possibly quoted) into dst. */
static const char *copy_token(const char *s, char *dst, int cap, bool key,
                              bool *truncated)
{
    int n = 0;
    bool quoted = !key && *s == '"';

    if (quoted)
        s++;
    for (; *s; s++) {
        if (quoted ? *s == '"' : (is_end(*s) || (key && *s == '=')))
            break;
        if (n + 1 < cap)
            dst[n++] = *s;
        else
            *truncated = true;
    }
    dst[n] = 0;
    if (quoted && *s == '"')
        s++;
    return s;
}

void cmdline_parse(struct cmdline *cl, const char *s)
{
    cl->n = 0;
    cl->truncated = false;
    for (s = skip_space(s); *s; s = skip_space(s)) {
        char key[CMDLINE_KEY_LEN], val[CMDLINE_VAL_LEN] = "";

        s = copy_token(s, key, sizeof(key), true, &cl->truncated);
        if (*s == '=')
            s = copy_token(s + 1, val, sizeof(val), false, &cl->truncated);
        while (!is_end(*s))     /* junk after a closing quote */
            s++;
        if (cl->n == CMDLINE_MAX_ARGS) {
            cl->truncated = true;
            continue;
        }
        __builtin_memcpy(cl->arg[cl->n].key, key, sizeof(key));
        __builtin_memcpy(cl->arg[cl->n].val, val, sizeof(val));
        cl->n++;
    }
}

static bool streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* The last occurrence wins, so a launcher can append overrides. */
const char *cmdline_get(const struct cmdline *cl, const char *key)
{
    for (int i = cl->n - 1; i >= 0; i--)
        if (streq(cl->arg[i].key, key))
            return cl->arg[i].val;
    return NULL;
}

static int parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0, base = 10;
    int shift = 0;

    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -EINVAL;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F') d = *s - 'A' + 10;
        else break;
        if (v > (~0ULL - d) / base)
            return -EINVAL;     /* overflow */
        v = v * base + d;
    }
    if (*s == 'K' || *s == 'k') shift = 10;
    else if (*s == 'M' || *s == 'm') shift = 20;
    else if (*s == 'G' || *s == 'g') shift = 30;
    else if (*s)
        return -EINVAL;
    if (shift && (s[1] || v > (~0ULL >> shift)))
        return -EINVAL;
    *out = v << shift;
    return 0;
}

int cmdline_get_u64(const struct cmdline *cl, const char *key, uint64_t def,
                    uint64_t *out)
{
    const char *v = cmdline_get(cl, key);

    if (!v) {
        *out = def;
        return 0;
    }
    return parse_u64(v, out);
}

#define PPM_ONE_PERCENT 10000

/* Digits[.digits] scaled by 10^4 (percent to ppm), or plain ppm. */
static int parse_ppm(const char *s, uint64_t *out)
{
    uint64_t whole = 0, frac = 0, scale = PPM_ONE_PERCENT;
    bool digits = false;

    for (; *s >= '0' && *s <= '9'; s++, digits = true)
        if ((whole = whole * 10 + (*s - '0')) > 1000000)
            return -EINVAL;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, digits = true) {
            if (scale == 1)
                return -EINVAL;     /* finer than 1 ppm */
            scale /= 10;
            frac += (uint64_t)(*s - '0') * scale;
        }
    if (!digits)
        return -EINVAL;
    if (s[0] == 'p' && s[1] == 'p' && s[2] == 'm' && !s[3]) {
        if (frac)
            return -EINVAL;
        *out = whole;
        return 0;
    }
    if (*s == '%')
        s++;
    if (*s)
        return -EINVAL;
    *out = whole * PPM_ONE_PERCENT + frac;
    return 0;
}

int cmdline_get_ppm(const struct cmdline *cl, const char *key, uint32_t def,
                    uint32_t *out)
{
    const char *v = cmdline_get(cl, key);
    uint64_t ppm;

    if (!v) {
        *out = def;
        return 0;
    }
    if (parse_ppm(v, &ppm) < 0 || ppm > 100 * PPM_ONE_PERCENT)
        return -EINVAL;
    *out = ppm;
    return 0;
}
