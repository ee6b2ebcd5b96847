/*
 * A program's boot module command line: "PATH WORD ...", words apart by
 * spaces (QEMU: -initrd "pct.elf,prog a b"; tools/lwkrun writes them).
 * PATH is the file the loader read, as it is.  Each WORD is "prio=N" (the
 * program's priority, pct.together), "mode=M" (how it uses the node's
 * CPUs: pct/cpus.c), "env=" and an environment entry, or an argument.  Entries and arguments are percent-encoded so that any
 * byte can pass (spaces, commas, quotes, '%', '=', UTF-8): "%XX" with two
 * hex digits is the byte XX, the word "%00" is the empty string, and any
 * other byte stands for itself, so hand-written words without '%' need
 * no encoding.  A '%' that is not one of these is refused, not guessed at.
 */
#include <stdlib.h>
#include <string.h>
#include "pct.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Every '%' starts "%XX", and a NUL byte (%00) only as the whole word. */
static int well_formed(const char *w)
{
    for (const char *p = w; (p = strchr(p, '%')); p += 3)
        if (hexval(p[1]) < 0 || hexval(p[2]) < 0 ||
            (p[1] == '0' && p[2] == '0' && strcmp(w, "%00") != 0))
            return 0;
    return 1;
}

/* Decode a well-formed word in place ("%00" becomes ""). */
static void decode(char *w)
{
    char *out = w;

    for (const char *p = w; *p; p++) {
        if (*p == '%') {
            *out++ = (char)(hexval(p[1]) << 4 | hexval(p[2]));
            p += 2;
        } else {
            *out++ = *p;
        }
    }
    *out = 0;
}

/* The word after "env=" goes to envp, any other to argv (32 of each). */
static int add_word(struct job *j, char *w)
{
    int env = j->argc > 0 && !strncmp(w, "env=", 4);
    char *v = env ? w + 4 : w;

    if ((env ? j->envc : j->argc) == PCT_MAX_ARGS) {
        pct_cannot_run(j, "more than %d %s on its module line",
                       PCT_MAX_ARGS, env ? "environment entries"
                                         : "arguments");
        return -1;
    }
    if (j->argc > 0 && !well_formed(v)) {
        pct_cannot_run(j, "bad %%-escape in \"%.60s\" on its module line "
                       "(%%XX is a byte; write '%%' as %%25)", v);
        return -1;
    }
    if (j->argc > 0)
        decode(v);
    if (env)
        j->envp[j->envc++] = v;
    else
        j->argv[j->argc++] = v;
    return 0;
}

int pct_module_is(const char *line, const char *file)
{
    size_t n = strcspn(line, " ");
    const char *base = line;

    for (size_t i = 0; i < n; i++)
        if (line[i] == '/')
            base = line + i + 1;
    n -= base - line;
    return n == strlen(file) && !strncmp(base, file, n);
}

int pct_parse_module(struct job *j, char *line)
{
    char *save, *w;

    j->name = "?";
    for (w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (j->argc == 0) {         /* the path: named by its last part */
            const char *slash = strrchr(w, '/');
            j->name = slash ? slash + 1 : w;
        } else if (!strncmp(w, "prio=", 5)) {
            j->prio = atoi(w + 5);
            continue;
        } else if (!strncmp(w, "mode=", 5)) {
            j->mode_word = w + 5;
            continue;
        }
        if (add_word(j, w) < 0)
            return -1;
    }
    j->argv[j->argc] = NULL;
    j->envp[j->envc] = NULL;
    return 0;
}
