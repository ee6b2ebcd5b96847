/* SPDX-License-Identifier: MIT */
/*
 * glob.c: POSIX glob and globfree over opendir, readdir and fnmatch
 * (newlib declares glob but leaves it out for this target).  The pattern
 * is matched a component at a time: a component with no *, ? or [ is
 * taken as it is, one with them is matched against the names of the
 * directory so far (a leading period only by a period).  Flags: APPEND,
 * DOOFFS, ERR, MARK, NOCHECK, NOSORT, NOESCAPE.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct found {
    char **v;
    size_t n, cap;
};

struct search {
    int flags;
    int (*errfunc)(const char *, int);
    struct found out;
    int status;                 /* 0, GLOB_NOSPACE or GLOB_ABORTED */
};

static int has_magic(const char *p, size_t n, int flags)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' && !(flags & GLOB_NOESCAPE))
            i++;
        else if (p[i] == '*' || p[i] == '?' || p[i] == '[')
            return 1;
    }
    return 0;
}

static void add(struct search *s, const char *path)
{
    struct stat st;
    size_t len = strlen(path);
    int mark = (s->flags & GLOB_MARK) && stat(path, &st) == 0 &&
               S_ISDIR(st.st_mode) && (!len || path[len - 1] != '/');
    char *copy, **v;

    if (s->out.n == s->out.cap) {
        s->out.cap = s->out.cap ? 2 * s->out.cap : 16;
        if (!(v = realloc(s->out.v, s->out.cap * sizeof(*v)))) {
            s->status = GLOB_NOSPACE;
            return;
        }
        s->out.v = v;
    }
    if (!(copy = malloc(len + 2))) {
        s->status = GLOB_NOSPACE;
        return;
    }
    memcpy(copy, path, len);
    strcpy(copy + len, mark ? "/" : "");
    s->out.v[s->out.n++] = copy;
}

/* path[0..plen) is matched so far; rest is the pattern still to match. */
static void expand(struct search *s, char *path, size_t plen, const char *rest)
{
    const char *slash, *comp = rest;
    size_t clen;
    char pat[NAME_MAX + 1];
    struct stat st;
    DIR *d;
    struct dirent *e;

    while (*comp == '/')
        comp++;
    if (!*comp) {                       /* all matched: does it exist? */
        path[plen] = 0;
        if (lstat(plen ? path : ".", &st) == 0)
            add(s, path);
        return;
    }
    slash = strchr(comp, '/');
    clen = slash ? (size_t)(slash - comp) : strlen(comp);
    if (plen + clen + 2 >= PATH_MAX || clen > NAME_MAX)
        return;
    if (plen && path[plen - 1] != '/')
        path[plen++] = '/';
    if (!has_magic(comp, clen, s->flags)) {
        memcpy(path + plen, comp, clen);
        expand(s, path, plen + clen, comp + clen);
        return;
    }
    memcpy(pat, comp, clen);
    pat[clen] = 0;
    path[plen] = 0;
    if (!(d = opendir(plen ? path : "."))) {
        if (errno != ENOENT && errno != ENOTDIR &&
            ((s->errfunc && s->errfunc(plen ? path : ".", errno)) ||
             (s->flags & GLOB_ERR)))
            s->status = GLOB_ABORTED;
        return;
    }
    while (!s->status && (e = readdir(d))) {
        if (fnmatch(pat, e->d_name, FNM_PERIOD |
                    (s->flags & GLOB_NOESCAPE ? FNM_NOESCAPE : 0)))
            continue;
        if (plen + strlen(e->d_name) + 2 >= PATH_MAX)
            continue;
        strcpy(path + plen, e->d_name);
        expand(s, path, plen + strlen(e->d_name), comp + clen);
    }
    closedir(d);
}

static int by_name(const void *a, const void *b)
{
    return strcoll(*(char *const *)a, *(char *const *)b);
}

int glob(const char *pattern, int flags, int (*errfunc)(const char *, int),
         glob_t *g)
{
    struct search s = { .flags = flags, .errfunc = errfunc };
    size_t offs = flags & GLOB_DOOFFS ? (size_t)g->gl_offs : 0;
    size_t old = flags & GLOB_APPEND ? (size_t)g->gl_pathc : 0;
    char path[PATH_MAX], **v;

    if (!(flags & GLOB_APPEND)) {
        g->gl_pathc = 0;
        g->gl_pathv = NULL;
    }
    path[0] = pattern[0] == '/' ? '/' : 0;
    expand(&s, path, path[0] == '/', pattern + (pattern[0] == '/'));
    if (!s.status && !s.out.n && (flags & GLOB_NOCHECK))
        add(&s, pattern);
    if (!s.status && !s.out.n)
        s.status = GLOB_NOMATCH;
    if (s.out.n && !(flags & GLOB_NOSORT))
        qsort(s.out.v, s.out.n, sizeof(char *), by_name);
    if (s.out.n) {
        v = realloc(old ? g->gl_pathv : NULL,
                    (offs + old + s.out.n + 1) * sizeof(*v));
        if (!v) {
            s.status = GLOB_NOSPACE;
        } else {
            if (!old)
                memset(v, 0, offs * sizeof(*v));
            memcpy(v + offs + old, s.out.v, s.out.n * sizeof(*v));
            v[offs + old + s.out.n] = NULL;
            g->gl_pathv = v;
            g->gl_pathc = (int)(old + s.out.n);
            s.out.n = 0;
        }
    }
    while (s.out.n)
        free(s.out.v[--s.out.n]);
    free(s.out.v);
    g->gl_flags = flags;
    return s.status;
}

void globfree(glob_t *g)
{
    size_t offs = g->gl_flags & GLOB_DOOFFS ? (size_t)g->gl_offs : 0;

    for (int i = 0; g->gl_pathv && i < g->gl_pathc; i++)
        free(g->gl_pathv[offs + i]);
    free(g->gl_pathv);
    g->gl_pathv = NULL;
    g->gl_pathc = 0;
}
