/* SPDX-License-Identifier: MIT */
/*
 * job.c: a process of a parallel job finds its rank and the job's map in
 * the environment (ptl_job.h), opens the one logical NI that MPI and NX
 * share, and meets the other ranks at barriers on PTL_JOB_PT_BOOT.
 * Portable: portals4.h and libc only (Linux and lwkcc builds).
 *
 * Startup.  A rank cannot know when its peers' NIs exist.  The core's
 * answer to a message that arrives too early depends on how early: a
 * process not yet on the network never acknowledges it (the sender's
 * reliability layer retransmits); a process whose NI or boot portal does
 * not exist yet, or has no entry on it yet, refuses it (the ACK says
 * PTL_NI_TARGET_INVALID or PTL_NI_DROPPED).  So every barrier message asks
 * for an ACK and is sent again, 10 ms later, until an ACK says it was
 * delivered: correct whichever way the target treats it.  A delivery is
 * recorded as a flag (not a count), so a message that arrives twice is
 * harmless.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptl_job.h"
#ifdef __lwk__
#include <lwk/lwk.h>        /* lwk_abort */
#endif

#define EQ_SIZE      256
#define MAX_ROUNDS   32         /* ceil(log2(size)) for size < 2^32 */
#define RETRY_MS     10

/* Barrier messages carry (barrier parity, round) in hdr_data.  A rank can
 * be at most one barrier ahead of any other (it cannot leave barrier i+1
 * before everyone entered it), so the parity of the barrier number tells
 * the current barrier's messages from the next one's. */
static struct {
    int refs;
    struct ptl_job job;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_handle_me_t me;
    unsigned seq;                       /* barriers completed */
    unsigned char seen[2][MAX_ROUNDS];  /* [parity][round] arrived */
    int ack;                            /* last ACK: -1 none, else fail type */
} J;

static char why[240];           /* the last ptl_job_init failure's reason */

static int fail(const char *what, const char *detail, int rc)
{
    snprintf(why, sizeof(why), "ptl_job: %s%s%s", what, detail ? ": " : "",
             detail ? detail : "");
    fprintf(stderr, "%s\n", why);
    return rc;
}

const char *ptl_job_why(void)
{
    return why[0] ? why : "ptl_job: not initialized";
}

static int env_int(const char *name, long *out)
{
    const char *v = getenv(name);
    char *end;

    if (v == NULL || *v == '\0')
        return -1;
    *out = strtol(v, &end, 10);
    return *end == '\0' ? 0 : -1;
}

/* ---- the map: "nid:pid" and "a-b:pid" items, comma separated ---- */

static int parse_item(const char **s, unsigned long *lo, unsigned long *hi,
                      unsigned long *pid)
{
    char *end;

    *lo = *hi = strtoul(*s, &end, 10);
    if (end == *s)
        return -1;
    if (*end == '-') {
        *s = end + 1;
        *hi = strtoul(*s, &end, 10);
        if (end == *s || *hi < *lo)
            return -1;
    }
    if (*end != ':')
        return -1;
    *s = end + 1;
    *pid = strtoul(*s, &end, 10);
    if (end == *s || (*end != ',' && *end != '\0'))
        return -1;
    *s = *end == ',' ? end + 1 : end;
    return 0;
}

/* Fill map[0..size-1]; the map must name exactly size processes. */
static int parse_map(const char *s, ptl_process_t *map, long size)
{
    long n = 0;
    unsigned long lo, hi, pid;

    while (*s != '\0') {
        if (parse_item(&s, &lo, &hi, &pid) != 0)
            return -1;
        for (unsigned long nid = lo; nid <= hi; nid++) {
            if (n == size)
                return -1;
            map[n].phys.nid = (ptl_nid_t)nid;
            map[n].phys.pid = (ptl_pid_t)pid;
            n++;
        }
    }
    return n == size ? 0 : -1;
}

/* ---- the barrier ---- */

static void handle(const ptl_event_t *ev)
{
    unsigned par = (unsigned)(ev->hdr_data >> 8) & 1;
    unsigned round = (unsigned)ev->hdr_data & 0xff;

    if (ev->type == PTL_EVENT_PUT && round < MAX_ROUNDS)
        J.seen[par][round] = 1;
    else if (ev->type == PTL_EVENT_ACK)
        J.ack = (int)ev->ni_fail_type;
}

#define NOT_SENT 1000  /* J.ack: no message slot was free; try again */

/* Our message of this round.  No message slot free (PTL_NO_SPACE: the
 * program's own traffic holds them all) is handled like a refusal: it is
 * sent again a little later. */
static void send_round(int to, unsigned par, unsigned round)
{
    ptl_process_t p = { .rank = (ptl_rank_t)to };
    int rc;

    J.ack = -1;
    rc = PtlPut(J.md, 0, 0, PTL_ACK_REQ, p, PTL_JOB_PT_BOOT, 0, 0, NULL,
                (ptl_hdr_data_t)(par << 8 | round));
    if (rc == PTL_NO_SPACE)
        J.ack = NOT_SENT;
    else if (rc != PTL_OK)
        ptl_job_abort(1, "ptl_job_barrier: PtlPut failed");
}

/* Our message to `to` could not be delivered.  In the start-up barrier
 * that is a peer not there yet (it is sent again); once every rank has
 * passed one barrier it is a peer that is gone (its node answered for the
 * incarnation that left, or it stopped answering): waiting for it would
 * be for ever. */
static void check_gone(int to)
{
    char why[96];

    if (J.ack != PTL_NI_UNDELIVERABLE || J.seq == 0)
        return;
    snprintf(why, sizeof(why), "ptl_job_barrier: rank %d is gone (a "
             "message to it was undeliverable)", to);
    ptl_job_abort_peer(1, to, why);
}

/* One round: our message delivered (resent until an ACK says so) and the
 * message from our partner of this round arrived. */
static void barrier_round(unsigned par, unsigned round, int to)
{
    ptl_event_t ev;
    unsigned which;
    int rc;

    send_round(to, par, round);
    while (J.ack != PTL_NI_OK || !J.seen[par][round]) {
        int retry = J.ack > 0;      /* refused, or not sent: again later */
        check_gone(to);
        rc = PtlEQPoll(&J.eq, 1, retry ? RETRY_MS : PTL_TIME_FOREVER, &ev,
                       &which);
        if (rc == PTL_OK || rc == PTL_EQ_DROPPED)
            handle(&ev);
        else if (rc == PTL_EQ_EMPTY && retry)
            send_round(to, par, round);
        else if (rc != PTL_EQ_EMPTY)
            ptl_job_abort(1, "ptl_job_barrier: PtlEQPoll failed");
    }
}

void ptl_job_barrier(void)
{
    int n = J.job.size, r = J.job.rank;
    unsigned par = J.seq & 1, round = 0;

    if (J.refs == 0)
        ptl_job_abort(1, "ptl_job_barrier called before ptl_job_init");
    for (int d = 1; d < n; d <<= 1, round++)
        barrier_round(par, round, (r + d) % n);
    /* Nothing of barrier seq+2 (same parity) can arrive before every rank
     * has entered seq+1, which needs us: clearing now is safe. */
    memset(J.seen[par], 0, sizeof(J.seen[par]));
    J.seq++;
}

/* ---- setup and teardown ---- */

/* Under tools/ptlrun, PTL_JOB_STATE names a file that exists while this
 * process is in the job: when it ends, ptlrun knows whether it left
 * without finalizing, and then ends the job (its peers would wait for
 * it).  On the nodes the kernel knows it without help (docs/yod.md). */
static void mark_in_job(int in)
{
    const char *path = getenv("PTL_JOB_STATE");
    FILE *f;

    if (path == NULL)
        return;
    if (!in)
        remove(path);
    else if ((f = fopen(path, "w")) != NULL)
        fclose(f);
}

static int read_env(long *rank, long *size, ptl_process_t **map)
{
    long jid = 0;
    const char *m = getenv("PTL_JOB_MAP");

    if (env_int("PTL_JOB_RANK", rank) != 0 ||
        env_int("PTL_JOB_SIZE", size) != 0 || m == NULL)
        return fail("PTL_JOB_RANK, PTL_JOB_SIZE and PTL_JOB_MAP must be set",
                    "start the program with tools/ptlrun or yod", PTL_FAIL);
    if (*size < 1 || *rank < 0 || *rank >= *size)
        return fail("PTL_JOB_RANK must be in 0..PTL_JOB_SIZE-1", NULL,
                    PTL_ARG_INVALID);
    if (getenv("PTL_JOB_ID") != NULL && env_int("PTL_JOB_ID", &jid) != 0)
        return fail("PTL_JOB_ID is not a number", getenv("PTL_JOB_ID"),
                    PTL_ARG_INVALID);
    J.job.jid = (ptl_jid_t)jid;
    *map = malloc(sizeof(**map) * (size_t)*size);
    if (*map == NULL)
        return fail("out of memory for the job map", NULL, PTL_NO_SPACE);
    if (parse_map(m, *map, *size) != 0) {
        free(*map);
        return fail("PTL_JOB_MAP does not name exactly PTL_JOB_SIZE "
                    "processes as nid:pid or a-b:pid items", m,
                    PTL_ARG_INVALID);
    }
    return PTL_OK;
}

static int open_ni(long rank, long size, const ptl_process_t *map)
{
    ptl_process_t me;
    int rc;

    rc = PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
                   map[rank].phys.pid, NULL, &J.job.limits, &J.job.ni);
    if (rc == PTL_NO_SPACE)     /* a node: no memory left for its tables */
        return fail("PtlNIInit failed: no memory for this process's "
                    "Portals tables (PTL_NO_SPACE); give each rank more "
                    "memory (fewer ranks a node, or a smaller -heap)",
                    NULL, rc);
    if (rc != PTL_OK)
        return fail("PtlNIInit failed (is PTL_PID different from the "
                    "map's pid?)", NULL, rc);
    if ((rc = PtlGetPhysId(J.job.ni, &me)) != PTL_OK ||
        me.phys.nid != map[rank].phys.nid) {
        PtlNIFini(J.job.ni);
        return fail("this process's nid (PTL_NID) is not the one "
                    "PTL_JOB_MAP gives its rank", NULL, PTL_ARG_INVALID);
    }
    if ((rc = PtlSetMap(J.job.ni, (ptl_size_t)size, map)) != PTL_OK) {
        PtlNIFini(J.job.ni);
        return fail("PtlSetMap failed", NULL, rc);
    }
    return PTL_OK;
}

/* The boot portal: one persistent entry takes every barrier message. */
static int open_boot(void)
{
    ptl_md_t md = { .start = NULL, .length = 0, .eq_handle = J.eq,
                    .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE };
    ptl_me_t me = { .start = NULL, .length = 0, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY,
                    .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                    .match_id = { .rank = PTL_RANK_ANY },
                    .match_bits = 0, .ignore_bits = ~(ptl_match_bits_t)0 };
    ptl_pt_index_t pt;

    if (PtlEQAlloc(J.job.ni, EQ_SIZE, &J.eq) != PTL_OK)
        return fail("PtlEQAlloc failed", NULL, PTL_NO_SPACE);
    md.eq_handle = J.eq;
    if (PtlPTAlloc(J.job.ni, 0, J.eq, PTL_JOB_PT_BOOT, &pt) != PTL_OK ||
        PtlMDBind(J.job.ni, &md, &J.md) != PTL_OK ||
        PtlMEAppend(J.job.ni, PTL_JOB_PT_BOOT, &me, PTL_PRIORITY_LIST,
                    NULL, &J.me) != PTL_OK)
        return fail("cannot set up the boot portal (index 1 in use?)",
                    NULL, PTL_FAIL);
    return PTL_OK;
}

int ptl_job_init(struct ptl_job *job)
{
    ptl_process_t *map;
    long rank, size;
    int rc;

    if (J.refs > 0) {
        J.refs++;
        *job = J.job;
        return PTL_OK;
    }
    if ((rc = read_env(&rank, &size, &map)) != PTL_OK)
        return rc;
    if ((rc = PtlInit()) != PTL_OK) {
        free(map);
        return fail("PtlInit failed (check PTL_IFACE and PTL_NID)", NULL, rc);
    }
    rc = open_ni(rank, size, map);
    free(map);
    if (rc == PTL_OK && (rc = open_boot()) != PTL_OK)
        PtlNIFini(J.job.ni);
    if (rc != PTL_OK) {
        PtlFini();
        return rc;
    }
    J.job.rank = (int)rank;
    J.job.size = (int)size;
    J.refs = 1;
    J.seq = 0;
    mark_in_job(1);
    ptl_job_barrier();
    *job = J.job;
    return PTL_OK;
}

void ptl_job_fini(void)
{
    if (J.refs == 0 || --J.refs > 0)
        return;
    PtlMEUnlink(J.me);
    PtlMDRelease(J.md);
    PtlPTFree(J.job.ni, PTL_JOB_PT_BOOT);
    PtlEQFree(J.eq);
    PtlNIFini(J.job.ni);
    PtlFini();
    mark_in_job(0);
}

/* On a node the kernel's abort ends the job: yod kills every rank and
 * prints the reason once.  On Linux the launcher (tools/ptlrun) ends the
 * job when a rank exits nonzero, so the rank says why itself. */
void ptl_job_abort_peer(int code, int peer, const char *why)
{
    code = code & 0xff ? code & 0xff : 1;   /* what an exit status holds */
#ifdef __lwk__
    lwk_abort_peer(code, peer, why);
#else
    (void)peer;
    if (J.refs > 0)
        fprintf(stderr, "rank %d: %s\n", J.job.rank, why);
    else
        fprintf(stderr, "%s\n", why);
    fflush(stdout);
    exit(code);
#endif
}

void ptl_job_abort(int code, const char *why)
{
    ptl_job_abort_peer(code, -1, why);
}
