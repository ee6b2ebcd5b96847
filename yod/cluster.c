/* SPDX-License-Identifier: MIT */
/*
 * cluster.c: the cluster description tools/cluster writes, as yod and
 * showmesh read it (cluster.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "portals4.h"
#include "cluster.h"

const char *cluster;
int die_status = 1;

void die(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", program_invocation_short_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(die_status);
}

double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static char recorded[4096];     /* the record's path, if it was used */

/* ${XDG_CONFIG_HOME:-$HOME/.config}/lwk/cluster: one line, the directory
   of the cluster `tools/cluster up` booted last (tools/cluster says so). */
static const char *read_record(void)
{
    static char dir[4096];
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    FILE *f;

    if (xdg && *xdg)
        snprintf(recorded, sizeof(recorded), "%s/lwk/cluster", xdg);
    else if (home && *home)
        snprintf(recorded, sizeof(recorded), "%s/.config/lwk/cluster", home);
    else
        return NULL;
    if (!(f = fopen(recorded, "r")))
        return NULL;
    if (!fgets(dir, sizeof(dir), f))
        dir[0] = 0;
    fclose(f);
    dir[strcspn(dir, "\n")] = 0;
    return dir[0] ? dir : NULL;
}

void cluster_find(void)
{
    cluster = getenv("LWK_CLUSTER");
    if (cluster && *cluster)
        return;
    if (!(cluster = read_record()))
        die("no cluster: boot one with tools/cluster up -n N (it becomes "
            "your default, recorded in %s), or set LWK_CLUSTER to a "
            "cluster's directory", recorded[0] ? recorded
                                               : "~/.config/lwk/cluster");
}

FILE *cluster_file(const char *name)
{
    char path[4096];
    int recd = !getenv("LWK_CLUSTER") || !*getenv("LWK_CLUSTER");
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", cluster, name);
    if (!(f = fopen(path, "r")))
        die("no cluster in %s (%s: %s)%s%s; boot one with tools/cluster up "
            "-n N or set LWK_CLUSTER", cluster, path, strerror(errno),
            recd ? ", the default recorded in " : "", recd ? recorded : "");
    return f;
}

/* A partition of several hosts (tools/cluster up --segment, --join) lists
   every host's nodes in `partition`; a host of its own, in `nodes`. */
FILE *cluster_nodes(void)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/partition", cluster);
    return (f = fopen(path, "r")) ? f : cluster_file("nodes");
}

void cluster_env(unsigned *svc_first, unsigned *svc_last)
{
    char line[4096];
    FILE *f = cluster_file("env");

    while (fgets(line, sizeof(line), f)) {
        char *eq = strchr(line, '=');
        line[strcspn(line, "\n")] = 0;
        if (!eq || strncmp(line, "export", 6) == 0)
            continue;
        *eq = 0;
        if (!strcmp(line, "LWK_SERVICE_NID_FIRST"))
            *svc_first = atoi(eq + 1);
        else if (!strcmp(line, "LWK_SERVICE_NID_LAST"))
            *svc_last = atoi(eq + 1);
        else if (!strncmp(line, "PTL_", 4) ||
                 !strcmp(line, "LWK_IO_SERVERS") ||  /* yod's default -io */
                 !strcmp(line, "LWK_PFS"))          /* and -pfs */
            setenv(line, eq + 1, 1);
    }
    fclose(f);
}

/* The lock file stays open (and locked) as long as the process lives. */
unsigned cluster_service_nid(unsigned first, unsigned last)
{
    char path[4096];

    for (unsigned nid = first; nid <= last; nid++) {
        snprintf(path, sizeof(path), "%s/yod-%u.lock", cluster, nid);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            return nid;
        if (fd >= 0)
            close(fd);
    }
    snprintf(path, sizeof(path), "no free service nid in %u..%u "
             "(%s/yod-*.lock)", first, last, cluster);
    die("%s", path);
    return 0;
}

/* secret: 32 hex digits and a newline, readable only by the user who
   booted the cluster (tools/cluster up); yod_proto.h, Authentication. */
void cluster_secret(uint8_t key[16])
{
    char path[4096], text[64];
    struct stat st;
    FILE *f;
    int n = 0;

    snprintf(path, sizeof(path), "%s/secret", cluster);
    if (!(f = fopen(path, "r"))) {
        int e = errno;
        die("cannot read the cluster's secret %s: %s; %s", path, strerror(e),
            e == EACCES && stat(path, &st) == 0
            ? "only the user who booted the cluster (or one it let read the "
              "file) may run jobs on it (docs/SECURITY.md)"
            : "boot the cluster again with tools/cluster up");
    }
    if (fgets(text, sizeof(text), f))
        for (n = 0; n < 16 && sscanf(text + 2 * n, "%2hhx", &key[n]) == 1;)
            n++;
    fclose(f);
    if (n != 16 || strspn(text, "0123456789abcdefABCDEF") != 32)
        die("%s is not a cluster's secret (32 hex digits); boot the cluster "
            "again with tools/cluster up", path);
}

ptl_handle_ni_t cluster_join(unsigned nid, unsigned pid, unsigned peers)
{
    ptl_handle_ni_t ni;
    char s[16];

    snprintf(s, sizeof(s), "%u", peers);
    setenv("PTL_MAX_PEERS", s, 0);      /* the user's own wins */
    snprintf(s, sizeof(s), "%u", nid);
    setenv("PTL_NID", s, 1);
    snprintf(s, sizeof(s), "%u", pid);
    setenv("PTL_PID", s, 1);
    if (PtlInit() != PTL_OK)
        die("cannot join the cluster's network (PTL_IFACE=%s)",
            getenv("PTL_IFACE") ? getenv("PTL_IFACE") : "?");
    if (PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                  (ptl_pid_t)pid, NULL, NULL, &ni) != PTL_OK)
        die("cannot open a Portals NI on nid %u pid %u", nid, pid);
    return ni;
}

/* Entries sorted by their first member, a nid: found by bisection. */
static int by_nid(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

    return x < y ? -1 : x > y;
}

void cluster_sort_nids(void *base, size_t n, size_t size)
{
    qsort(base, n, size, by_nid);
}

void *cluster_find_nid(const void *base, size_t n, size_t size, unsigned nid)
{
    return bsearch(&nid, base, n, size, by_nid);
}
