/* SPDX-License-Identifier: MIT */
/*
 * fnmatch.c: POSIX fnmatch (<fnmatch.h>), which newlib declares but does
 * not build for this target: * ? [...] with ranges, negation by ! or ^
 * and the character classes [:alpha:] etc.; backslash quotes unless
 * FNM_NOESCAPE; FNM_PATHNAME (a slash only matches a slash), FNM_PERIOD
 * (a leading period only matches a period), and the GNU FNM_CASEFOLD and
 * FNM_LEADING_DIR.
 */
#define _GNU_SOURCE            /* FNM_CASEFOLD, FNM_LEADING_DIR */
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

static int fold(int c, int flags)
{
    return flags & FNM_CASEFOLD ? tolower(c) : c;
}

static int in_class(const char *name, size_t n, int c)
{
    static const struct { const char *name; int (*is)(int); } classes[] = {
        { "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
        { "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
        { "lower", islower }, { "print", isprint }, { "punct", ispunct },
        { "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
    };

    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
        if (strlen(classes[i].name) == n && !strncmp(classes[i].name, name, n))
            return classes[i].is(c) != 0;
    return 0;
}

/* A bracket expression at p (after '['): the end past ']', or NULL if it
   is not one (then '[' is an ordinary character); *hit if c is in it. */
static const char *bracket(const char *p, int c, int flags, int *hit)
{
    int neg = *p == '!' || *p == '^', first = 1;

    *hit = 0;
    p += neg;
    for (; *p && (first || *p != ']'); first = 0) {
        int lo, hi;

        if (p[0] == '[' && p[1] == ':') {
            const char *end = strstr(p + 2, ":]");
            if (!end)
                return NULL;
            *hit |= in_class(p + 2, (size_t)(end - p - 2), c);
            p = end + 2;
            continue;
        }
        if (*p == '\\' && !(flags & FNM_NOESCAPE) && p[1])
            p++;
        lo = hi = (unsigned char)*p++;
        if (p[0] == '-' && p[1] && p[1] != ']') {
            p++;
            if (*p == '\\' && !(flags & FNM_NOESCAPE) && p[1])
                p++;
            hi = (unsigned char)*p++;
        }
        if ((fold(c, flags) >= fold(lo, flags) && fold(c, flags) <= fold(hi, flags)) ||
            (c >= lo && c <= hi))
            *hit = 1;
    }
    if (*p != ']')
        return NULL;
    *hit ^= neg;
    return p + 1;
}

static int match(const char *p, const char *s, const char *start, int flags)
{
    for (;; p++, s++) {
        int c = (unsigned char)*s, hit;
        const char *end;

        int leading = *s == '.' && (flags & FNM_PERIOD) &&
                      (s == start || ((flags & FNM_PATHNAME) && s[-1] == '/'));
        switch (*p) {
        case 0:
            return *s == 0 || ((flags & FNM_LEADING_DIR) && *s == '/')
                       ? 0 : FNM_NOMATCH;
        case '?':
            if (!c || leading || (c == '/' && (flags & FNM_PATHNAME)))
                return FNM_NOMATCH;
            break;
        case '*':
            if (leading)
                return FNM_NOMATCH;
            while (p[1] == '*')
                p++;
            for (const char *t = s;; t++) {
                if (!match(p + 1, t, start, flags))
                    return 0;
                if (!*t || (*t == '/' && (flags & FNM_PATHNAME)))
                    return FNM_NOMATCH;
            }
            /* not reached */
        case '[':
            if ((end = bracket(p + 1, c, flags, &hit))) {
                if (!c || leading || !hit ||
                    (c == '/' && (flags & FNM_PATHNAME)))
                    return FNM_NOMATCH;
                p = end - 1;
                break;
            }
            __attribute__((fallthrough));   /* an ordinary '[' */
        default:
            if (*p == '\\' && !(flags & FNM_NOESCAPE) && p[1])
                p++;
            if (fold((unsigned char)*p, flags) != fold(c, flags))
                return FNM_NOMATCH;
        }
    }
}

int fnmatch(const char *pattern, const char *string, int flags)
{
    return match(pattern, string, string, flags);
}
