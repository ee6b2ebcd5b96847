/*
 * forge: the attacks of issue 19 on yod and the PCTs, as a hostile user
 * would make them (tests/qemu/suite-yod checks each one fails).  Built
 * twice from this file: for the nodes (lwkcc: a node program, whose
 * sender its kernel stamps) and for Linux (libportals: a station on the
 * cluster's switch, which may claim any nid and pid: PTL_NID, PTL_PID).
 *
 *   forge status NID              STATUS to node NID's PCT; prints "node
 *                                 NID job J rank R owner O refused N"
 *   forge kill NID                STATUS, then KILL and FREE of the job it
 *                                 names, unsigned
 *   forge hitrun NID              STATUS, and exit at once
 *   forge alloc NID [SECRET]      ALLOC for job 0x41414141: unsigned, or
 *                                 signed with the cluster's secret (the
 *                                 file) from wherever this runs
 *   forge replay NID SECRET       a signed ALLOC, FREE, and the same ALLOC
 *                                 again (a recording played back)
 *   forge exit YNID JOB RANK      EXIT status 0 for RANK to the yod on
 *                                 YNID, as its node's PCT would say it
 *   forge file YNID RANK PATH     a file request to create PATH, as RANK
 *   forge output YNID RANK TEXT   a line of output, as RANK
 *   forge yod YNID JOB RANK PATH TEXT   exit, file and output, in turn
 *   forge pid1                    PtlNIInit with the PCT's pid
 *   forge pingpong NID N SECRET   the cost of the MACs: N STATUS round
 *                                 trips (unsigned) and N PING round trips
 *                                 (signed, checked by the PCT, answered
 *                                 signed, checked here), medians in us
 *   forge mac N                   ns per yod_msg_mac (here: node or Linux)
 *   forge framemac N              ns per MAC of a signed Portals frame
 *                                 (SipHash-2-4 of its 128 bytes: header
 *                                 and born, portals/PROTOCOL.md 2.3)
 *
 * Each prints one line saying what it sent and what came back, and
 * exits 0 once it could send (the test judges the effect).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "portals4.h"
#include "yod_proto.h"
#ifdef __lwk__
#include <lwk/uapi/abi.h>
#else
#include "uapi/abi.h"
#endif

#define FAKE_JOB    0x41414141u

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_handle_md_t md;
static struct yod_msg out, in[1];
static struct yod_file_req req;
static ptl_process_t self;

static void die(const char *what)
{
    printf("forge: %s failed\n", what);
    exit(100);
}

/* A physical NI (PTL_PID on Linux; a pid of its own on a node, where
   libc's channel to yod has PTL_PID), answers on portal YOD_PT_CTL. */
static void open_ni(void)
{
    const char *p = getenv("PTL_PID");
    ptl_pid_t pid = PTL_PID_ANY;
    /* Every answer lands at the start of `in`: they are read one by one. */
    ptl_me_t me = { .start = in, .length = sizeof(in),
                    .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .options = PTL_ME_OP_PUT };
    ptl_md_t d = { .start = &out, .length = sizeof(out) + sizeof(req),
                   .ct_handle = PTL_CT_NONE };
    ptl_handle_me_t h;
    ptl_pt_index_t pt;

#ifndef __lwk__
    if (p)
        pid = (ptl_pid_t)atoi(p);
#endif
    (void)p;
    if (PtlInit() != PTL_OK ||
        PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, pid,
                  NULL, NULL, &ni) != PTL_OK ||
        PtlEQAlloc(ni, 64, &eq) != PTL_OK ||
        PtlPTAlloc(ni, 0, eq, YOD_PT_CTL, &pt) != PTL_OK ||
        PtlMEAppend(ni, YOD_PT_CTL, &me, PTL_PRIORITY_LIST, NULL, &h) !=
        PTL_OK)
        die("opening Portals");
    d.eq_handle = eq;
    if (PtlMDBind(ni, &d, &md) != PTL_OK || PtlGetPhysId(ni, &self) != PTL_OK)
        die("PtlMDBind");
}

/* Put `len` bytes at `off` of the MD to (nid, pid)'s portal `pt`;
   `ack`: wait for it (1 if delivered). */
static int put(unsigned nid, unsigned pid, ptl_pt_index_t pt, size_t off,
               size_t len, uint64_t bits, uint64_t hdr, int ack)
{
    ptl_process_t to = { .phys = { nid, pid } };
    ptl_event_t ev;
    unsigned which;

    if (PtlPut(md, off, len, ack ? PTL_ACK_REQ : PTL_NO_ACK_REQ, to, pt,
               bits, 0, NULL, hdr) != PTL_OK)
        die("PtlPut");
    while (ack && PtlEQPoll(&eq, 1, 5000, &ev, &which) == PTL_OK)
        if (ev.type == PTL_EVENT_ACK)
            return ev.ni_fail_type == PTL_NI_OK;
    return 0;
}

static int ctl(unsigned nid, unsigned pid, int ack)
{
    return put(nid, pid, YOD_PT_CTL, 0, sizeof(out), 0, 0, ack);
}

/* The first answer of `type` within `ms`, or NULL. */
static const struct yod_msg *answer(uint32_t type, int ms)
{
    ptl_event_t ev;
    unsigned which;

    while (PtlEQPoll(&eq, 1, ms, &ev, &which) == PTL_OK)
        if (ev.type == PTL_EVENT_PUT && ev.mlength == sizeof(out) &&
            ((const struct yod_msg *)ev.start)->type == type)
            return ev.start;
    return NULL;
}

static const struct yod_msg *status(unsigned nid)
{
    out = (struct yod_msg){ .type = YOD_STATUS, .job = 7 };
    ctl(nid, YOD_PCT_PID, 1);
    return answer(YOD_STATE, 3000);
}

static int do_status(unsigned nid)
{
    const struct yod_msg *a = status(nid);

    if (!a)
        printf("forge: node %u does not answer STATUS\n", nid);
    else
        printf("node %u job %u rank %d owner %lu refused %u\n", nid, a->job2,
               a->rank, (unsigned long)a->addr, a->refused);
    return 0;
}

/* The job of node `nid` learnt from STATUS, then KILL and FREE of it. */
static int do_kill(unsigned nid)
{
    const struct yod_msg *a = status(nid);
    uint32_t job = a ? a->job2 : 0;
    int k, f;

    out = (struct yod_msg){ .type = YOD_KILL, .job = job };
    k = ctl(nid, YOD_PCT_PID, 1);
    out.type = YOD_FREE;
    f = ctl(nid, YOD_PCT_PID, 1);
    printf("forge: node %u holds job %u; sent KILL (%s) and FREE (%s)\n",
           nid, job, k ? "delivered" : "lost", f ? "delivered" : "lost");
    return 0;
}

static int do_hitrun(unsigned nid)
{
    out = (struct yod_msg){ .type = YOD_STATUS, .job = 7 };
    ctl(nid, YOD_PCT_PID, 0);
    printf("forge: sent STATUS to node %u and left\n", nid);
    fflush(stdout);
    _exit(0);                   /* no PtlFini: gone before the answer */
}

/* 32 hex digits in `path`: the cluster's secret. */
static struct sipkey secret(const char *path)
{
    uint8_t b[16];
    FILE *f = fopen(path, "r");
    int n = 0;

    while (f && n < 16 && fscanf(f, "%2hhx", &b[n]) == 1)
        n++;
    if (f)
        fclose(f);
    if (n != 16)
        die("reading the secret");
    return sipkey_from_bytes(b);
}

static void sign(const struct sipkey *s, unsigned nid)
{
    struct sipkey k = yod_job_key(s, out.job, out.nonce);

    out.mac = yod_msg_mac(&k, &out, self.phys.nid, self.phys.pid, nid,
                          YOD_PCT_PID);
}

static int do_alloc(unsigned nid, const char *secret_file)
{
    const struct yod_msg *a;
    struct sipkey s;

    out = (struct yod_msg){ .type = YOD_ALLOC, .job = FAKE_JOB, .nonce = 1,
                            .seq = 1 };
    if (secret_file) {
        s = secret(secret_file);
        sign(&s, nid);
    }
    ctl(nid, YOD_PCT_PID, 1);
    a = answer(YOD_OK, 1000);
    printf("forge: ALLOC %s from nid %u: %s\n", secret_file ? "signed"
           : "unsigned", self.phys.nid, a ? "OK" : "no OK");
    return 0;
}

/* ALLOC, FREE, and the first ALLOC once more, all signed: the last must
   not claim the node again. */
static int do_replay(unsigned nid, const char *secret_file)
{
    struct sipkey s = secret(secret_file);
    struct yod_msg alloc;
    const struct yod_msg *a1, *a2;

    out = (struct yod_msg){ .type = YOD_ALLOC, .job = FAKE_JOB, .nonce = 2,
                            .seq = 10 };
    sign(&s, nid);
    alloc = out;
    ctl(nid, YOD_PCT_PID, 1);
    a1 = answer(YOD_OK, 2000);
    out = (struct yod_msg){ .type = YOD_FREE, .job = FAKE_JOB, .nonce = 2,
                            .seq = 11 };
    sign(&s, nid);
    ctl(nid, YOD_PCT_PID, 1);
    out = alloc;
    ctl(nid, YOD_PCT_PID, 1);
    a2 = answer(YOD_OK, 1000);
    printf("forge: ALLOC %s, FREE, the same ALLOC again %s\n",
           a1 ? "OK" : "no OK", a2 ? "OK" : "no OK");
    return 0;
}

static int do_exit(unsigned ynid, unsigned job, int rank)
{
    out = (struct yod_msg){ .type = YOD_EXIT, .job = job, .rank = rank,
                            .reason = LWK_STOP_EXIT, .seq = 1000000 };
    printf("forge: EXIT of rank %d job %u to nid %u: %s\n", rank, job, ynid,
           ctl(ynid, YOD_PID, 1) ? "delivered" : "lost");
    return 0;
}

static int do_file(unsigned ynid, int rank, const char *path)
{
    size_t n = strlen(path) + 1;

    req = (struct yod_file_req){ .op = YOD_F_OPEN, .seq = 1000000,
                                 .rank = rank, .flags = YOD_O_CREAT | 1,
                                 .mode = 0644, .path_len = (uint32_t)n };
    memcpy(req.path, path, n);
    printf("forge: file request to create %s as rank %d: %s\n", path, rank,
           put(ynid, YOD_PID, YOD_PT_FILE, sizeof(out), YOD_FILE_REQ_HDR + n,
               0, 0, 1) ? "delivered" : "lost");
    return 0;
}

static int do_output(unsigned ynid, int rank, const char *text)
{
    size_t n = strlen(text);

    memcpy(&req, text, n);
    ((char *)&req)[n] = '\n';
    printf("forge: output as rank %d: %s\n", rank,
           put(ynid, YOD_PID, YOD_PT_IO, sizeof(out), n + 1, 0,
               (uint64_t)1000000 << 32 | (uint64_t)rank << 8 | 1, 1)
           ? "delivered" : "lost");
    return 0;
}

static double now_us(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* The median of n round trips of `out` to node `nid` answered `type`
   (with `s`: each signed with a new number, the answer checked). */
static double round_trips(unsigned nid, int n, uint32_t type,
                          const struct sipkey *s)
{
    double *t = calloc((size_t)n, sizeof(*t)), med;
    struct sipkey k = s ? yod_job_key(s, out.job, out.nonce) : (struct sipkey){0, 0};

    for (int i = 0; i < n; i++) {
        const struct yod_msg *a;
        double t0 = now_us();
        out.seq = (uint64_t)i + 1;
        if (s)
            sign(s, nid);
        ctl(nid, YOD_PCT_PID, 0);
        if (!(a = answer(type, 2000)) ||
            (s && yod_msg_mac(&k, a, nid, YOD_PCT_PID, self.phys.nid,
                              self.phys.pid) != a->mac)) {
            printf("forge: round trip %d of %d: %s\n", i + 1, n,
                   a ? "a wrong MAC" : "no answer in 2 s");
            exit(100);
        }
        t[i] = now_us() - t0;
    }
    qsort(t, (size_t)n, sizeof(*t), cmp_double);
    med = t[n / 2];
    free(t);
    return med;
}

static int do_pingpong(unsigned nid, int n, const char *secret_file)
{
    struct sipkey s = secret(secret_file);
    double st, pg;

    out = (struct yod_msg){ .type = YOD_STATUS, .job = 7 };
    st = round_trips(nid, n, YOD_STATE, NULL);
    out = (struct yod_msg){ .type = YOD_PING, .job = FAKE_JOB, .nonce = 3 };
    pg = round_trips(nid, n, YOD_ALIVE, &s);
    printf("forge: node %u, %d round trips each: STATUS (unsigned) %.0f us, "
           "PING (signed both ways) %.0f us (medians)\n", nid, n, st, pg);
    return 0;
}

static int do_mac(int n)
{
    struct sipkey k = { 1, 2 };
    volatile uint64_t sink = 0;
    double t0 = now_us();

    out = (struct yod_msg){ .type = YOD_PING };
    for (int i = 0; i < n; i++) {
        out.seq = (uint64_t)i;
        sink += yod_msg_mac(&k, &out, 1, 2, 3, 4);
    }
    printf("forge: %.0f ns per yod_msg_mac (%zu bytes), %d of them\n",
           (now_us() - t0) * 1e3 / n, sizeof(out) + 16, n);
    return (int)(sink & 0);
}

static int do_framemac(int n)
{
    struct sipkey k = { 3, 4 };
    static uint8_t hdr[128];
    volatile uint64_t sink = 0;
    double t0 = now_us();

    for (int i = 0; i < n; i++) {
        hdr[28] = (uint8_t)i;           /* the sequence number moves */
        sink += siphash24(&k, hdr, sizeof(hdr));
    }
    printf("forge: %.0f ns per signed frame's MAC (%zu bytes), %d of them\n",
           (now_us() - t0) * 1e3 / n, sizeof(hdr), n);
    return (int)(sink & 0);
}

static int do_pid1(void)
{
    ptl_handle_ni_t h;
    int rc;

    if (PtlInit() != PTL_OK)
        die("PtlInit");
    rc = PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                   YOD_PCT_PID, NULL, NULL, &h);
    printf("forge: PtlNIInit with pid %d: %s\n", YOD_PCT_PID,
           rc == PTL_PID_IN_USE ? "PTL_PID_IN_USE" : rc == PTL_OK ? "PTL_OK"
           : "another error");
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    unsigned a = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!strcmp(cmd, "pid1"))
        return do_pid1();
    if (argc == 3 && !strcmp(cmd, "mac"))
        return do_mac(atoi(argv[2]));
    if (argc == 3 && !strcmp(cmd, "framemac"))
        return do_framemac(atoi(argv[2]));
    open_ni();
    if (argc == 3 && !strcmp(cmd, "status"))
        return do_status(a);
    if (argc == 3 && !strcmp(cmd, "kill"))
        return do_kill(a);
    if (argc == 3 && !strcmp(cmd, "hitrun"))
        return do_hitrun(a);
    if ((argc == 3 || argc == 4) && !strcmp(cmd, "alloc"))
        return do_alloc(a, argc == 4 ? argv[3] : NULL);
    if (argc == 4 && !strcmp(cmd, "replay"))
        return do_replay(a, argv[3]);
    if (argc == 5 && !strcmp(cmd, "exit"))
        return do_exit(a, (unsigned)strtoul(argv[3], NULL, 0), atoi(argv[4]));
    if (argc == 5 && !strcmp(cmd, "file"))
        return do_file(a, atoi(argv[3]), argv[4]);
    if (argc == 5 && !strcmp(cmd, "output"))
        return do_output(a, atoi(argv[3]), argv[4]);
    if (argc == 5 && !strcmp(cmd, "pingpong"))
        return do_pingpong(a, atoi(argv[3]), argv[4]);
    if (argc == 7 && !strcmp(cmd, "yod")) {
        do_exit(a, (unsigned)strtoul(argv[3], NULL, 0), atoi(argv[4]));
        do_file(a, atoi(argv[4]), argv[5]);
        return do_output(a, atoi(argv[4]), argv[6]);
    }
    fprintf(stderr, "usage: forge status|kill|hitrun|alloc|replay|exit|file|"
            "output|yod|pid1|pingpong|mac|framemac ...\n");
    return 2;
}
