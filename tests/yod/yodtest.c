/* SPDX-License-Identifier: MIT */
/*
 * yodtest: a compute-node program for tests/qemu/suite-yod.
 *
 *   yodtest hello           "hello from rank R of N on nid X" (stdout),
 *                           "rank R: stderr line" (stderr); exit 0
 *   yodtest exit R CODE     rank R exits with CODE, the others with 0
 *   yodtest fault R         rank R writes to address 0x10 (page fault)
 *   yodtest spin SECS       print, then spin SECS seconds (kill tests);
 *                           0: forever (a node's clock can run fast, so
 *                           tests that must outlive a kill use 0)
 *   yodtest env             print this rank's job environment
 *   yodtest big BYTES       write BYTES bytes of a pattern in one write
 *   yodtest early R CODE    rank R exits with CODE at once; the others
 *                           print "rank r done" a second later, exit 0
 *   yodtest faultspin R S   rank R faults; the others spin S seconds
 *                           (0: forever), then print "rank r survived"
 *   yodtest mem             "heap H stack S" (bytes, as the PCT gave them)
 *   yodtest getenv NAME...  "NAME=value" or "NAME unset", per name
 *   yodtest orphan          put to a Portals peer that does not exist
 *                           (nid 999), then PtlNIFini: it waits for the
 *                           peer to be given up on (seconds), meanwhile
 *                           the node must keep answering yod; prints
 *                           "orphan: PtlNIFini 0 after S s"
 *   yodtest waitfile F CODE print "waiting", wait until file F exists
 *                           (asking yod every 50 ms), print "saw F", exit
 *                           with CODE: a job whose end the test decides
 *   yodtest ownni PID       open Portals' matching physical NI (the one
 *                           the C library's channel to yod uses) with pid
 *                           PID (-1: yod's PTL_PID), print, finish it,
 *                           print again with the working directory (a
 *                           file request to yod): both lines reach yod
 *   yodtest steady N FILE   N times, half a second apart: a line "rank R
 *                           line i" to stdout and to FILE.R (written and
 *                           flushed); then "rank R: wrote N lines";
 *                           exit 0 only if every write succeeded
 *   yodtest takepid T V     rank T opens Portals with the pid PTL_JOB_MAP
 *                           gives rank V and says what PtlNIInit answered;
 *                           the others wait a second first (so T asks
 *                           before V opens its pid); then every rank says
 *                           "takepid: rank R on pid P done"
 *   yodtest scribble FILE   leave data in the heap sbrk has not handed
 *                           out: its first 4 MiB read from FILE (again
 *                           and again: only the kernel writes them, as
 *                           Portals puts yod's answers there), the rest
 *                           written by the program (0xA5)
 *   yodtest zeroes          check that every byte of that part of the
 *                           heap is zero; "heap zero: K KiB checked, Z
 *                           KiB of M KiB zeroed for this job", else
 *                           "heap not zero at +OFF" and exit 1
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lwk/lwk.h>
#include <lwk/syscall.h>
#include <portals4.h>


/* A physical NI without matching: not the one the C library's channel to
   yod uses (matching, same pid), so finishing it leaves stdout working. */
static int orphan(void)
{
    ptl_handle_ni_t ni;
    ptl_handle_md_t md;
    ptl_md_t d = { .start = NULL, .length = 0, .eq_handle = PTL_EQ_NONE,
                   .ct_handle = PTL_CT_NONE };
    ptl_process_t nobody = { .phys = { .nid = 999, .pid = 33 } };
    struct timespec t0, t1;
    int rc;

    if (PtlInit() != PTL_OK ||
        PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL,
                  (ptl_pid_t)atoi(getenv("PTL_PID") ? getenv("PTL_PID") : "10"),
                  NULL, NULL, &ni) != PTL_OK ||
        PtlMDBind(ni, &d, &md) != PTL_OK) {
        printf("orphan: cannot open Portals\n");
        return 1;
    }
    for (int i = 0; i < 4; i++)
        if (PtlPut(md, 0, 0, PTL_NO_ACK_REQ, nobody, 0, 0, 0, NULL, 0) !=
            PTL_OK) {
            printf("orphan: PtlPut failed\n");
            return 1;
        }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = PtlNIFini(ni);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("orphan: PtlNIFini %d after %ld s\n", rc,
           (long)(t1.tv_sec - t0.tv_sec));
    return rc == PTL_OK ? 0 : 1;
}

static int ownni(long pid)
{
    ptl_handle_ni_t ni;
    int rc = PtlInit();

    if (rc == PTL_OK)
        rc = PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                       (ptl_pid_t)(pid < 0 ? atol(getenv("PTL_PID")) : pid),
                       NULL, NULL, &ni);
    printf("ownni: PtlNIInit %d\n", rc);       /* opens the channel */
    fflush(stdout);
    if (rc == PTL_OK)
        rc = PtlNIFini(ni);
    char cwd[256];
    printf("ownni: after PtlNIFini %d, cwd %s\n", rc,
           getcwd(cwd, sizeof(cwd)) ? cwd : "unknown");
    return rc == PTL_OK ? 0 : 1;
}

static void spin(long secs);

/* The Portals pid PTL_JOB_MAP gives rank r (its "nid:pid" item). */
static long map_pid(long r)
{
    const char *m = getenv("PTL_JOB_MAP");

    for (long i = 0; m && i < r; i++)
        if ((m = strchr(m, ',')) != NULL)
            m++;
    m = m ? strchr(m, ':') : NULL;
    return m ? atol(m + 1) : -1;
}

static int takepid(long rank, long thief, long victim)
{
    ptl_handle_ni_t ni;
    int rc;

    if (rank == thief) {
        if ((rc = PtlInit()) == PTL_OK)
            rc = PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING |
                           PTL_NI_PHYSICAL, (ptl_pid_t)map_pid(victim),
                           NULL, NULL, &ni);
        printf("takepid: rank %ld asked for rank %ld's pid %ld: %s\n",
               rank, victim, map_pid(victim), rc == PTL_OK ? "PTL_OK"
               : rc == PTL_PID_IN_USE ? "PTL_PID_IN_USE"
               : rc == PTL_ARG_INVALID ? "PTL_ARG_INVALID" : "another error");
    } else {
        spin(1);
    }
    printf("takepid: rank %ld on pid %s done\n", rank, getenv("PTL_PID"));
    return 0;
}

/* Output and file data over N half seconds: a job that something may
   disturb meanwhile (suite-yod's forgeries). */
static int steady(long rank, int n, const char *base)
{
    struct timespec pause = { 0, 500000000 };
    char path[256];
    FILE *f;
    int bad = 0;

    snprintf(path, sizeof(path), "%s.%ld", base, rank);
    if (!(f = fopen(path, "w")))
        return 1;
    for (int i = 0; i < n; i++) {
        bad |= printf("rank %ld line %d\n", rank, i) < 0 || fflush(stdout);
        bad |= fprintf(f, "rank %ld line %d\n", rank, i) < 0 || fflush(f);
        nanosleep(&pause, NULL);
    }
    bad |= fclose(f) != 0;
    printf("rank %ld: wrote %d lines%s\n", rank, n, bad ? ", some failed" : "");
    return bad;
}

static void spin(long secs)
{
    struct timespec t0, t;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while (!secs || t.tv_sec - t0.tv_sec < secs);
}

/* Inlined, so a fault report names main. */
static inline __attribute__((always_inline)) void fault(void)
{
    /* The address comes from a string so the compiler cannot see it. */
    volatile int *bad = (volatile int *)strtoul("0x10", NULL, 0);

    *bad = 1;
}

/* The part of the heap sbrk has not handed out: [*from, *to). */
static void heap_rest(char **from, char **to)
{
    *from = (char *)(((unsigned long)sbrk(0) + 4095) & ~4095UL);
    *to = (char *)(lwk_proc->heap_base + lwk_proc->heap_size);
}

static int scribble(const char *file)
{
    char *from, *to, *at;
    int fd = open(file, O_RDONLY);

    heap_rest(&from, &to);
    if (fd < 0 || to - from < (8 << 20)) {
        printf("scribble: cannot open %s or heap too small\n", file);
        return 1;
    }
    for (at = from; at < from + (4 << 20);) {
        long n = read(fd, at, (size_t)(from + (4 << 20) - at));
        if (n < 0 || (n == 0 && at == from)) {
            printf("scribble: reading %s failed\n", file);
            return 1;
        }
        if (n == 0)
            lseek(fd, 0, SEEK_SET);
        at += n;
    }
    close(fd);
    memset(at, 0xA5, (size_t)(to - at));
    printf("scribbled %ld KiB by read, %ld KiB by stores\n",
           (long)(4 << 10), (long)((to - at) >> 10));
    return 0;
}

static int zeroes(void)
{
    char *from, *to;
    struct lwk_usage u = { 0 };

    heap_rest(&from, &to);
    for (const unsigned long *w = (const unsigned long *)from;
         w < (const unsigned long *)to; w++)
        if (*w) {
            printf("heap not zero at +%ld: %#lx (an earlier job's data)\n",
                   (long)((const char *)w - from), *w);
            return 1;
        }
    lwk_sys_usage((long)&u);
    printf("heap zero: %ld KiB checked, %lu KiB of %lu KiB zeroed for this "
           "job\n", (long)((to - from) >> 10), u.zeroed_bytes >> 10,
           u.mem_bytes >> 10);
    return 0;
}

int main(int argc, char **argv)
{
    long rank = lwk_rank(), size = lwk_size();

    if (argc < 2)
        return 2;
    if (!strcmp(argv[1], "hello")) {
        printf("hello from rank %ld of %ld on nid %ld\n", rank, size,
               lwk_nid());
        fprintf(stderr, "rank %ld: stderr line\n", rank);
        return 0;
    }
    if (!strcmp(argv[1], "exit") && argc == 4)
        return rank == atol(argv[2]) ? atoi(argv[3]) : 0;
    if (!strcmp(argv[1], "fault") && argc == 3) {
        if (rank == atol(argv[2]))
            fault();
        return 0;
    }
    if (!strcmp(argv[1], "waitfile") && argc == 4) {
        struct timespec pause = { 0, 50000000 };
        printf("rank %ld waiting\n", rank);
        fflush(stdout);
        while (access(argv[2], F_OK) != 0)
            nanosleep(&pause, NULL);
        printf("rank %ld saw %s\n", rank, argv[2]);
        return atoi(argv[3]);
    }
    if (!strcmp(argv[1], "spin") && argc == 3) {
        printf("rank %ld spinning\n", rank);
        fflush(stdout);
        spin(atol(argv[2]));
        return 0;
    }
    if (!strcmp(argv[1], "early") && argc == 4) {
        if (rank == atol(argv[2]))
            return atoi(argv[3]);
        spin(1);
        printf("rank %ld done\n", rank);
        return 0;
    }
    if (!strcmp(argv[1], "faultspin") && argc == 4) {
        if (rank == atol(argv[2])) {
            spin(1);            /* the others are running by now */
            fault();
        }
        printf("rank %ld spinning\n", rank);
        fflush(stdout);
        spin(atol(argv[3]));
        printf("rank %ld survived\n", rank);
        return 0;
    }
    if (!strcmp(argv[1], "mem")) {
        printf("heap %lu stack %lu\n", lwk_proc->heap_size,
               lwk_proc->stack_size);
        return 0;
    }
    if (!strcmp(argv[1], "scribble") && argc == 3)
        return scribble(argv[2]);
    if (!strcmp(argv[1], "zeroes"))
        return zeroes();
    if (!strcmp(argv[1], "getenv")) {
        for (int i = 2; i < argc; i++)
            if (getenv(argv[i]))
                printf("%s=%s\n", argv[i], getenv(argv[i]));
            else
                printf("%s unset\n", argv[i]);
        return 0;
    }
    if (!strcmp(argv[1], "orphan"))
        return orphan();
    if (!strcmp(argv[1], "ownni") && argc == 3)
        return ownni(atol(argv[2]));
    if (!strcmp(argv[1], "steady") && argc == 4)
        return steady(rank, atoi(argv[2]), argv[3]);
    if (!strcmp(argv[1], "takepid") && argc == 4)
        return takepid(rank, atol(argv[2]), atol(argv[3]));
    if (!strcmp(argv[1], "env")) {
        const char *v[] = { "PTL_JOB_RANK", "PTL_JOB_SIZE", "PTL_JOB_MAP",
                            "PTL_JOB_ID", "PTL_PID", "LWK_YOD" };
        for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
            printf("%s=%s\n", v[i], getenv(v[i]) ? getenv(v[i]) : "(unset)");
        return 0;
    }
    if (!strcmp(argv[1], "big") && argc == 3) {
        size_t n = strtoul(argv[2], NULL, 0);
        char *b = malloc(n + 1);
        for (size_t i = 0; i < n; i++)
            b[i] = (i % 64 == 63) ? '\n' : 'a' + (char)(i % 26);
        return write(1, b, n) == (long)n ? 0 : 1;
    }
    return 2;
}
