/* SPDX-License-Identifier: MIT */
/*
 * rt_proc.c: the names of the node's own /proc and /sys (docs/LINUX.md,
 * "The node a program sees").  The runtimes a Linux program carries
 * (glibc, libgomp, libgfortran, libstdc++) read these to learn the
 * machine; forwarded to yod they described the service host: its CPUs
 * and memory, yod's own maps, status and environment.  Here they
 * describe the node and the process (rt_procfiles.c says what each file
 * contains; rt_procio.c opens, reads and lists them), and a name under
 * /proc or /sys that is not in the table below is ENOENT, never a
 * request to yod.  /dev/fd, /dev/stdin, /dev/stdout and /dev/stderr lead
 * to the program's own fds, as on Linux: opening one opens the fd's file
 * anew (rt_procio.c).
 *
 * Paths are absolute and taken by name (. and .. lexically); a relative
 * path goes to yod, which refuses the host's /proc and /sys
 * (yod/paths.c).  Results are newlib's -errno, as lwk_io's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rt_proc.h"

/* A name: '%' in it is a number, what its last one counts in `num`: the
   process's pid (p: its own only), a CPU of the node (c), an open fd (f).
   A file's contents and a link's target come from fn, or a link's fixed
   target from `to`. */
struct ent {
    const char *path;
    unsigned char kind;
    char num;
    lx_file_fn *fn;
    const char *to;
};

static lx_file_fn link_self, link_exe, link_fd;

#define D(path, num)    { path, LX_DIR, num, NULL, NULL }
#define F(path, fn)     { path, LX_FILE, 0, fn, NULL }
#define L(path, num, fn) { path, LX_LINK, num, fn, NULL }
#define TO(path, to)    { path, LX_LINK, 0, NULL, to }
static const struct ent ents[] = {
    D("/proc", 0),
    F("/proc/cpuinfo", lx_cpuinfo),
    F("/proc/meminfo", lx_meminfo),
    TO("/proc/mounts", "self/mounts"),
    L("/proc/self", 0, link_self),
    F("/proc/version", lx_version),
    D("/proc/%", 'p'),
    F("/proc/%/auxv", lx_auxv),
    F("/proc/%/cmdline", lx_cmdline),
    F("/proc/%/comm", lx_comm),
    F("/proc/%/environ", lx_environ),
    L("/proc/%/exe", 0, link_exe),
    D("/proc/%/fd", 0),
    L("/proc/%/fd/%", 'f', link_fd),
    F("/proc/%/limits", lx_limits),
    F("/proc/%/maps", lx_maps),
    F("/proc/%/mountinfo", lx_mountinfo),
    F("/proc/%/mounts", lx_mounts),
    F("/proc/%/status", lx_status),
    F("/proc/%/statm", lx_statm),
    D("/sys", 0),
    D("/sys/devices", 0),
    D("/sys/devices/system", 0),
    D("/sys/devices/system/cpu", 0),
    D("/sys/devices/system/cpu/cpu%", 'c'),
    F("/sys/devices/system/cpu/cpu%/online", lx_cpu_one),
    F("/sys/devices/system/cpu/offline", lx_cpu_offline),
    F("/sys/devices/system/cpu/online", lx_cpu_online),
    F("/sys/devices/system/cpu/possible", lx_cpu_possible),
    F("/sys/devices/system/cpu/present", lx_cpu_possible),
    D("/dev", 0),               /* only on the way to these four: the */
    TO("/dev/fd", "/proc/self/fd"),     /* rest of /dev is yod's */
    TO("/dev/stdin", "/proc/self/fd/0"),
    TO("/dev/stdout", "/proc/self/fd/1"),
    TO("/dev/stderr", "/proc/self/fd/2"),
};
#define NENTS   (int)(sizeof(ents) / sizeof(ents[0]))

/* ---- text --------------------------------------------------------------- */

void lx_put(struct lx_text *t, const void *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *p = realloc(t->p, cap);

        if (!p) {
            t->short_of_memory = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
}

void lx_say(struct lx_text *t, const char *fmt, ...)
{
    char line[256], *big;
    va_list ap, again;
    int n;

    va_start(ap, fmt);
    va_copy(again, ap);
    n = lx_vsnprintf(line, sizeof(line), fmt, ap);
    if (n < (int)sizeof(line)) {
        lx_put(t, line, (size_t)n);
    } else if ((big = malloc((size_t)n + 1))) {   /* a long path */
        lx_vsnprintf(big, (size_t)n + 1, fmt, again);
        lx_put(t, big, (size_t)n);
        free(big);
    } else {
        t->short_of_memory = 1;
    }
    va_end(again);
    va_end(ap);
}

/* ---- names ---------------------------------------------------------------- */

/* path with . and .. taken by name, no // and no trailing /, into out
   (LX_PATH bytes); *dir: it ended in / or . (a directory is meant). */
long lx_normalize(const char *path, char *out, int *dir)
{
    size_t n = 0, len = 0;
    const char *p = path;

    while (*p) {                        /* out may be path: never ahead */
        const char *e = strchr(p, '/');

        len = e ? (size_t)(e - p) : strlen(p);
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && out[--n] != '/')
                ;
        } else if (len > 0 && !(len == 1 && p[0] == '.')) {
            if (n + 1 + len + 1 > LX_PATH)
                return -ENAMETOOLONG;
            out[n++] = '/';
            memmove(out + n, p, len);
            n += len;
        }
        p += len + (e != NULL);
    }
    *dir = p > path && (p[-1] == '/' || (p[-1] == '.' && len <= 2 &&
                                         (len == 1 || p[-2] == '.')));
    out[n] = 0;
    if (n == 0)
        strcpy(out, "/");
    return 0;
}

/* The node's names: /proc, /sys and four of /dev, by absolute path
   (taken by name: "/x/../proc" is /proc). */
int lx_node_path(const char *path)
{
    static const char *const roots[] = { "/proc", "/sys", "/dev/fd",
        "/dev/stdin", "/dev/stdout", "/dev/stderr" };
    static char p[LX_PATH];
    int dir;

    if (path[0] != '/' || lx_normalize(path, p, &dir) < 0)
        return 0;
    for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
        size_t n = strlen(roots[i]);

        if (!strncmp(p, roots[i], n) && (p[n] == 0 || p[n] == '/'))
            return 1;
    }
    return 0;
}

/* "%" in pat matches a number (no leading zeros), kept in *n. */
static int matches(const char *pat, const char *s, long *n)
{
    while (*pat) {
        if (*pat == '%') {
            long v = 0;

            if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' &&
                                         s[1] <= '9'))
                return 0;
            for (; *s >= '0' && *s <= '9'; s++)
                if ((v = v * 10 + (*s - '0')) > 1 << 30)
                    return 0;
            *n = v;
            pat++;
        } else if (*pat++ != *s++) {
            return 0;
        }
    }
    return *s == 0;
}

static int counts(const struct ent *e, long n)
{
    switch (e->num) {
    case 'p': return n == lxrt.pid;
    case 'c': return (uint64_t)n < lx_ncpus();
    case 'f': return n < LX_NFD && lx_fd(n) >= 0;
    default: return 1;
    }
}

/* The entry named `path` (concrete), or -1; *n its number. */
static int entry(const char *path, long *n)
{
    for (int i = 0; i < NENTS; i++)
        if (matches(ents[i].path, path, n) && counts(&ents[i], *n))
            return i;
    return -1;
}

/* A link's target, or an empty text (no target: ENOENT). */
static void target(struct lx_text *t, int e, long n)
{
    if (ents[e].to)
        lx_put(t, ents[e].to, strlen(ents[e].to));
    else
        ents[e].fn(t, n);
}

/* The link at f->path[0..end) leads to its target: the rest of the path
   goes on from there (1), or it leaves the table (0), or -errno. */
static long jump(struct lx_found *f, int e, long n, size_t end, int last)
{
    struct lx_text t = { 0 };
    char *buf = f->fwd, rest[LX_PATH];
    int dir;
    long rc = 1;

    if (ents[e].num == 'f') {           /* /proc/self/fd/N: N itself */
        if (!last)
            return -ENOTDIR;
        f->fd = (int)n;
        return 0;
    }
    target(&t, e, n);
    snprintf(rest, sizeof(rest), "%s", f->path + end);
    if (!t.p || t.short_of_memory) {
        rc = t.short_of_memory ? -ENOMEM : -ENOENT;
    } else if (t.p[0] == '/' && !lx_node_path(t.p)) {
        if (snprintf(f->fwd, sizeof(f->fwd), "%s", t.p) >= LX_PATH)
            rc = -ENAMETOOLONG;
        else
            rc = last ? 0 : -ENOTDIR;
    } else {
        while (t.p[0] != '/' && end > 0 && f->path[--end] != '/')
            ;                   /* relative: from the link's directory */
        if ((size_t)snprintf(buf, LX_PATH, "%.*s%s%s%s", t.p[0] == '/'
                             ? 0 : (int)end, f->path, t.p[0] == '/' ? "" :
                             "/", t.p, rest) >= LX_PATH)
            rc = -ENAMETOOLONG;
        else
            rc = lx_normalize(buf, f->path, &dir) < 0 ? -ENAMETOOLONG : 1;
        f->fwd[0] = 0;
    }
    free(t.p);
    return rc;
}

long lx_find(const char *path, int follow, struct lx_found *f)
{
    int dir, hops = 0;

    f->e = f->fd = -1;
    f->fwd[0] = 0;
    if (lx_normalize(path, f->path, &dir) < 0)
        return -ENAMETOOLONG;
    follow |= dir;
again:
    for (size_t end = 1; f->path[1];) {     /* "/" is yod's: not here */
        char *slash = strchr(f->path + end, '/'), keep = 0;
        int last = slash == NULL, e;
        long n = 0, rc;

        end = last ? strlen(f->path) : (size_t)(slash - f->path);
        keep = f->path[end];
        f->path[end] = 0;
        e = entry(f->path, &n);
        f->path[end] = keep;
        if (e < 0)
            return -ENOENT;
        if (ents[e].kind == LX_LINK && (!last || follow)) {
            if (++hops > 8)
                return -ELOOP;
            if ((rc = jump(f, e, n, end, last)) < 0)
                return rc;
            if (rc == 0)
                return 0;
            goto again;
        }
        if (last) {
            f->e = e;
            f->n = n;
            return dir && ents[e].kind != LX_DIR ? -ENOTDIR : 0;
        }
        if (ents[e].kind != LX_DIR)
            return -ENOTDIR;
        end++;
    }
    return -ENOENT;
}

/* ---- the process's links -------------------------------------------------- */

static void link_self(struct lx_text *t, long n)
{
    lx_say(t, "%ld", lxrt.pid);
}

static void link_exe(struct lx_text *t, long n)
{
    const char *exe = lx_exe();

    if (exe)
        lx_put(t, exe, strlen(exe));
}

static void link_fd(struct lx_text *t, long n)
{
    lx_fd_name(t, lx_fd(n));
}

/* ---- what a name is -------------------------------------------------------- */

void lx_stat_of(int e, long n, struct stat *st)
{
    int sys = !strncmp(ents[e].path, "/sys", 4);
    struct timespec now;

    clock_gettime(CLOCK_REALTIME, &now);
    memset(st, 0, sizeof(*st));
    st->st_dev = sys ? 0x15 : 0x16;     /* as Linux numbers its sysfs, proc */
    st->st_ino = (ino_t)(e * 4096 + n + 1);
    st->st_mode = ents[e].kind == LX_DIR ? S_IFDIR | 0555 :
                  ents[e].kind == LX_FILE ? S_IFREG | 0444 : S_IFLNK | 0777;
    st->st_nlink = ents[e].kind == LX_DIR ? 2 : 1;
    st->st_size = sys && ents[e].kind == LX_FILE ? 4096 : 0;
    st->st_blksize = sys ? 4096 : 1024;
    st->st_atim = st->st_mtim = st->st_ctim = now;
}

static void dirent(struct lx_text *t, uint64_t ino, unsigned char type,
                   const char *name)
{
    size_t len = strlen(name);
    struct lx_dirent64 d = {
        .ino = ino,
        .reclen = (uint16_t)((sizeof(d) + len + 1 + 7) & ~(size_t)7),
        .type = type,
    };
    static const char zero[8];

    d.off = (int64_t)(t->len + d.reclen);   /* where the next one starts */
    lx_put(t, &d, sizeof(d));
    lx_put(t, name, len);
    lx_put(t, zero, d.reclen - sizeof(d) - len);
}

/* The entries of directory `path` (entry e): ., .., then each name of
   the table in it, with a '%' one for each number it counts. */
static void list(struct lx_text *t, int e)
{
    static const unsigned char types[] = { [LX_DIR] = 4, [LX_FILE] = 8,
                                            [LX_LINK] = 10 };
    size_t plen = strlen(ents[e].path);

    dirent(t, (uint64_t)e + 1, 4, ".");
    dirent(t, 1, 4, "..");
    for (int i = 0; i < NENTS; i++) {
        const char *name = ents[i].path + plen + 1, *pct;
        char buf[64];
        long lo = 0, hi = 0;

        if (strncmp(ents[i].path, ents[e].path, plen) ||
            ents[i].path[plen] != '/' || strchr(name, '/'))
            continue;
        pct = strchr(name, '%');
        switch (ents[i].num) {
        case 'p': lo = hi = lxrt.pid; break;
        case 'c': hi = (long)lx_ncpus() - 1; break;
        case 'f': hi = LX_NFD - 1; break;
        }
        for (long k = lo; k <= hi; k++) {
            if (!counts(&ents[i], k))
                continue;
            if (pct)
                snprintf(buf, sizeof(buf), "%.*s%ld", (int)(pct - name),
                         name, k);
            else
                snprintf(buf, sizeof(buf), "%s", name);
            dirent(t, (uint64_t)i * 4096 + (uint64_t)k + 1,
                   types[ents[i].kind], buf);
        }
    }
}

int lx_kind(int e)
{
    return ents[e].kind;
}

/* A file's contents, or a directory's records. */
void lx_contents(struct lx_text *t, int e, long n)
{
    if (ents[e].kind == LX_DIR)
        list(t, e);
    else
        ents[e].fn(t, n);
}

long lx_node_readlink(const char *path, char *buf, size_t len)
{
    static struct lx_found f;
    struct lx_text t = { 0 };
    long rc = lx_find(path, 0, &f);

    if (rc < 0)
        return rc;
    if (f.fwd[0] || f.fd >= 0 || ents[f.e].kind != LX_LINK || len == 0)
        return -EINVAL;
    target(&t, f.e, f.n);
    if (!t.p)
        rc = t.short_of_memory ? -ENOMEM : -ENOENT;
    else
        memcpy(buf, t.p, (size_t)(rc = (long)(t.len < len ? t.len : len)));
    free(t.p);
    return rc;
}
