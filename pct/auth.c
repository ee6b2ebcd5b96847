/*
 * auth.c: who may ask this PCT what (yod/yod_proto.h, Authentication).
 * The cluster's secret comes in the boot module cluster.key (tools/cluster
 * writes it; a file, never the command line); every job's key is derived
 * from it and the nonce yod picked, so a message is believed only if its
 * MAC holds under the key of the job it speaks for.  Node programs have
 * no key: their requests to the PCT are dropped whatever they claim.
 * The PCT remembers the last YOD_JOBS_SEEN jobs and the last message
 * number it took from each one's yod, so a recorded ALLOC, PING or KILL
 * cannot be played again.  What is refused is counted and logged, a line
 * a second at most (ratelimit.h): a flood cannot fill the log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>
#include "ratelimit.h"
#include "serve.h"

#define KEY_MODULE  "cluster.key"
#define SECOND_NS   1000000000ull

static struct {
    struct sipkey secret;
    int have_secret;
    uint32_t svc_first, svc_last;
    struct seen {
        uint32_t job;
        uint64_t nonce;
        uint64_t seq[2];               /* the last taken from its yod: of a
                                          request, of a PING */
    } seen[YOD_JOBS_SEEN];
    unsigned nseen;                    /* the ring's next slot */
    uint64_t seq;                      /* our own message numbers */
    uint32_t refused;
    struct ratelimit log;
} A = { .svc_first = 1000, .svc_last = 1999,
        .log = RATELIMIT_INIT(SECOND_NS) };

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* 32 hex digits: the 16 bytes of the secret. */
static int parse_secret(const char *p, uint64_t len)
{
    uint8_t b[16];

    if (len < 32)
        return -1;
    for (int i = 0; i < 16; i++) {
        int hi = hex(p[2 * i]), lo = hex(p[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    A.secret = sipkey_from_bytes(b);
    return 0;
}

/* The kernel signs every Portals frame of the node with the cluster's
   transport key, and heeds only signed frames from peers that sign: a
   station without the secret cannot reset, acknowledge or feed a link
   between yod and a node, or between nodes (portals/PROTOCOL.md 2.3).
   Before any endpoint opens (the PCT's own first of all). */
static void transport_key(void)
{
    struct sipkey t = yod_transport_key(&A.secret);
    uint64_t k[2] = { t.k0, t.k1 };

    if (lwk_sys_ptl_key((long)k) < 0)
        printf("pct: the kernel did not take the transport key: this "
               "node's Portals frames are not signed\n");
}

/* The module's memory goes back to the pools at once: regions are zeroed
   before a program gets them (kernel/proc.c), so no program sees it. */
int pct_auth_module(int i, const struct lwk_module *m)
{
    if (!pct_module_is(m->name, KEY_MODULE))   /* network boot: a URL */
        return 0;
    A.have_secret = parse_secret((const char *)m->pct_va, m->size) == 0;
    lwk_sys_module_release(i);
    if (!A.have_secret)
        printf("pct: boot module %s is not 32 hex digits: yod's requests "
               "will be refused\n", KEY_MODULE);
    else
        transport_key();
    return 1;
}

/* pct.service=FIRST-LAST */
static void service_range(void)
{
    const char *v = pct_opt("pct.service");
    char *end;
    unsigned long a, b;

    if (!v)
        return;
    a = strtoul(v, &end, 10);
    b = *end == '-' ? strtoul(end + 1, &end, 10) : a;
    if (*end || b < a || b > 0xffffffffUL) {
        printf("pct: pct.service=%s is not FIRST-LAST: keeping %u-%u\n", v,
               A.svc_first, A.svc_last);
        return;
    }
    A.svc_first = (uint32_t)a;
    A.svc_last = (uint32_t)b;
}

void pct_auth_setup(void)
{
    service_range();
}

int auth_ready(void)
{
    return A.have_secret;
}

int auth_service(uint32_t nid)
{
    return nid >= A.svc_first && nid <= A.svc_last;
}

int auth_verify(const struct yod_msg *m, ptl_process_t from,
                struct sipkey *k)
{
    if (!A.have_secret)
        return -1;
    *k = yod_job_key(&A.secret, m->job, m->nonce);
    return yod_msg_mac(k, m, from.phys.nid, from.phys.pid, (uint32_t)srv.nid,
                       YOD_PCT_PID) == m->mac ? 0 : -1;
}

void auth_sign(struct yod_msg *m, const struct sipkey *k, ptl_process_t to)
{
    m->seq = ++A.seq;
    m->mac = yod_msg_mac(k, m, (uint32_t)srv.nid, YOD_PCT_PID, to.phys.nid,
                         to.phys.pid);
}

static struct seen *seen_job(const struct yod_msg *m)
{
    for (int i = 0; i < YOD_JOBS_SEEN; i++)
        if (A.seen[i].job == m->job && A.seen[i].nonce == m->nonce)
            return &A.seen[i];
    return NULL;
}

/* PINGs are counted apart: yod's lease PINGs overtake a request a PCT
   holds back while it loads through the tree (fanout.c), and must not
   make it look old. */
int auth_fresh(const struct yod_msg *m, int how, int from_owner)
{
    struct seen *e = seen_job(m);
    int ping = m->type == YOD_PING;

    if (e && (how == AUTH_ONLY_FIRST || m->seq <= e->seq[ping]))
        return 0;
    if (e) {
        e->seq[ping] = m->seq;
        return 1;
    }
    if (how == AUTH_NEXT)
        return 0;
    /* A parent PCT's message numbers are its own: yod's count from 0. */
    e = &A.seen[A.nseen++ % YOD_JOBS_SEEN];
    *e = (struct seen){ .job = m->job, .nonce = m->nonce };
    e->seq[ping] = from_owner ? m->seq : 0;
    return 1;
}

static const char *type_name(uint32_t t)
{
    static const char *const names[] = {
        [YOD_ALLOC] = "ALLOC", [YOD_LOAD] = "LOAD", [YOD_START] = "START",
        [YOD_KILL] = "KILL", [YOD_FREE] = "FREE", [YOD_PING] = "PING",
        [YOD_STATUS] = "STATUS", [YOD_FLOAD] = "FLOAD", [YOD_GOT] = "GOT",
        [YOD_HELLO] = "HELLO",
    };

    return t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t]
                                                           : "a request";
}

void auth_refuse(const struct yod_msg *m, ptl_process_t from,
                 const char *why, ...)
{
    uint64_t missed;
    char text[120];
    va_list ap;

    A.refused++;
    if (!ratelimit_event(&A.log, lwk_sys_clock_ns(0), &missed))
        return;
    va_start(ap, why);
    vsnprintf(text, sizeof(text), why, ap);
    va_end(ap);
    printf("pct: refused %s for job %u from nid %u pid %u: %s", type_name(
           m->type), m->job, from.phys.nid, from.phys.pid, text);
    if (missed)
        printf(" (%lu more refused since the last line)", (unsigned long)missed);
    printf("\n");
}

uint32_t auth_refused(void)
{
    return A.refused;
}
