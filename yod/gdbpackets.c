/* SPDX-License-Identifier: MIT */
/*
 * gdbpackets.c: what yod does for each of gdb's packets (the GDB remote
 * serial protocol, gdbrsp.c parses them) for a rank it serves
 * (gdbserver.c): registers from the rank's snapshot (rankdbg.c) and
 * back, memory through the rank's PCT with a small read cache,
 * breakpoints as int3 bytes yod writes, the stop replies, and the
 * resumes (vCont, c, s) as CONT requests.  Each packet is untrusted
 * input: a malformed one is refused (an empty or an error answer).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gdbregs.h"
#include "gdbsession.h"
#include "rankdbg.h"
#include "yod.h"

#define MEM_MAX     ((RSP_MAX - 8) / 2)     /* bytes in an 'm' answer */

/* ---- answers ------------------------------------------------------------- */

void send_raw(struct session *s, const char *p, size_t n)
{
    while (n && s->fd >= 0) {
        ssize_t k = write(s->fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;             /* gdb is gone: its EOF closes the session */
        p += k;
        n -= (size_t)k;
    }
}

static void reply_bin(struct session *s, const void *payload, size_t len)
{
    s->sent_len = rsp_frame(s->sent, sizeof(s->sent), payload, len);
    send_raw(s, s->sent, s->sent_len);
}

void reply(struct session *s, const char *text)
{
    reply_bin(s, text, strlen(text));
}

/* ---- threads and registers ---------------------------------------------- */

static int thread_index(const struct session *s, int cpu)
{
    for (uint32_t i = 0; i < s->info.nthreads; i++)
        if ((int)s->info.cpu[i] == cpu)
            return (int)i;
    return -1;
}

/* gdb's thread id to a CPU: -1 and 0 mean the current thread. */
static int tid_cpu(const struct session *s, int64_t tid)
{
    if (tid <= 0)
        return s->cpu;
    return tid - 1 < 64 && thread_index(s, (int)(tid - 1)) >= 0
           ? (int)(tid - 1) : -1;
}

static struct lwk_dbg_regs *regs_of(struct session *s, int cpu)
{
    int i = thread_index(s, cpu);

    return i < 0 ? NULL : &s->info.regs[i];
}

/* ---- memory ----------------------------------------------------------------- */

static void cache_drop(struct session *s)
{
    for (int i = 0; i < LINES; i++)
        s->cache[i].n = 0;
}

static int bp_find(const struct session *s, uint64_t addr)
{
    for (int i = 0; i < s->nbp; i++)
        if (s->bp[i].addr == addr)
            return i;
    return -1;
}

/* Up to LINE bytes at `a` from the cache line holding it. */
static long cached(struct session *s, uint64_t a, uint8_t *buf, size_t len)
{
    uint64_t base = a & ~(uint64_t)(LINE - 1);
    int i = (int)(base / LINE % LINES);
    long got;
    size_t off = (size_t)(a - base), n;

    if (s->cache[i].base != base || !s->cache[i].n) {
        got = rankdbg_read(s->rank, &s->info, base, s->cache[i].b, LINE);
        if (got <= 0) {
            s->cache[i].n = 0;
            return -1;
        }
        s->cache[i].base = base;
        s->cache[i].n = (size_t)got;
    }
    if (off >= s->cache[i].n)
        return -1;
    n = s->cache[i].n - off < len ? s->cache[i].n - off : len;
    memcpy(buf, s->cache[i].b + off, n);
    return (long)n;
}

/* What the program has at addr: breakpoints show their saved bytes. */
static long mem_read(struct session *s, uint64_t addr, uint8_t *buf,
                     size_t len)
{
    size_t done = 0;
    long k;

    while (done < len && (k = cached(s, addr + done, buf + done,
                                     len - done)) > 0)
        done += (size_t)k;
    for (int i = 0; i < s->nbp; i++)
        if (s->bp[i].addr - addr < done)
            buf[s->bp[i].addr - addr] = s->bp[i].orig;
    return done ? (long)done : -1;
}

/* A write over a breakpoint changes its saved byte; the int3 stays. */
static int mem_write(struct session *s, uint64_t addr, const uint8_t *data,
                     size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    long n;

    if (!copy)
        return -1;
    memcpy(copy, data, len);
    for (int i = 0; i < s->nbp; i++)
        if (s->bp[i].addr - addr < len) {
            s->bp[i].orig = copy[s->bp[i].addr - addr];
            copy[s->bp[i].addr - addr] = 0xCC;
        }
    cache_drop(s);
    n = rankdbg_write(s->rank, &s->info, addr, copy, len);
    free(copy);
    return n == (long)len ? 0 : -1;
}

static int bp_insert(struct session *s, uint64_t addr)
{
    uint8_t orig, cc = 0xCC;

    if (bp_find(s, addr) >= 0)
        return 0;
    if (s->nbp == MAX_BP || mem_read(s, addr, &orig, 1) != 1 ||
        rankdbg_write(s->rank, &s->info, addr, &cc, 1) != 1)
        return -1;
    cache_drop(s);
    s->bp[s->nbp].addr = addr;
    s->bp[s->nbp++].orig = orig;
    return 0;
}

int bp_remove(struct session *s, uint64_t addr)
{
    int i = bp_find(s, addr);

    if (i < 0)
        return 0;
    if (rankdbg_write(s->rank, &s->info, addr, &s->bp[i].orig, 1) != 1)
        return -1;
    cache_drop(s);
    s->bp[i] = s->bp[--s->nbp];
    return 0;
}

/* ---- stops ------------------------------------------------------------------ */

/* The rank stopped: its snapshot, the PC back on a breakpoint of ours,
   and the stop reply gdb waits for. */
void tell_stop(struct session *s, const struct yod_msg *m)
{
    int swbreak = 0, i;
    struct lwk_dbg_regs *r;

    s->running = s->stop_pending = 0;
    if (rankdbg_snap(s->rank, &s->info) < 0)
        fprintf(stderr, "yod: rank %d: %s\n", s->rank, rankdbg_why());
    s->cpu = thread_index(s, (int)m->local) >= 0 ? (int)m->local
                                                 : (int)s->info.main_cpu;
    i = thread_index(s, s->cpu);
    r = regs_of(s, s->cpu);
    if (r && i >= 0 && m->reason == LWK_DBG_TRAPPED &&
        s->info.ev[i].vector == 3 && bp_find(s, r->rip - 1) >= 0) {
        r->rip--;               /* on the breakpoint, as gdb expects */
        s->dirty |= 1ull << s->cpu;
        swbreak = 1;
    }
    snprintf(s->last_stop, sizeof(s->last_stop), "T%02xthread:%x;%s",
             m->status & 0xff, s->cpu + 1, swbreak ? "swbreak:;" : "");
    reply(s, s->last_stop);
}

/* Registers gdb changed go back before the rank runs; memory it saw may
   change. */
int write_back(struct session *s)
{
    for (uint32_t i = 0; i < s->info.nthreads; i++) {
        int cpu = (int)s->info.cpu[i];
        if ((s->dirty >> cpu & 1) &&
            rankdbg_setregs(s->rank, (uint32_t)cpu, &s->info.regs[i]) < 0)
            return -1;
    }
    s->dirty = 0;
    cache_drop(s);
    return 0;
}

static void resume(struct session *s, uint64_t go, uint64_t step, int sig)
{
    if (!go)
        go = s->info.threads;
    if (write_back(s) < 0 ||
        rankdbg_op(s->rank, YOD_DBG_CONT, 0, go, step, sig) < 0) {
        fprintf(stderr, "yod: rank %d: cannot go on: %s\n", s->rank,
                rankdbg_why());
        reply(s, "E01");
        return;
    }
    s->running = 1;
}

/* vCont: each thread takes the action naming it, else the default. */
static void vcont(struct session *s, const char *a)
{
    struct rsp_action act[RSP_ACTIONS];
    int n = rsp_parse_vcont(a, act, RSP_ACTIONS), sig = 0;
    uint64_t go = 0, step = 0;

    if (n < 0) {
        reply(s, "E16");        /* EINVAL */
        return;
    }
    for (uint32_t t = 0; t < s->info.nthreads; t++) {
        int cpu = (int)s->info.cpu[t];
        const struct rsp_action *x = NULL;
        for (int k = 0; k < n && !x; k++)
            if (act[k].tid == cpu + 1)
                x = &act[k];
        for (int k = 0; k < n && !x; k++)
            if (act[k].tid == -1)
                x = &act[k];
        if (!x)
            continue;
        go |= 1ull << cpu;
        if (x->op == 's')
            step |= 1ull << cpu;
        if (x->sig)
            sig = x->sig;
    }
    if (!go) {
        reply(s, "E16");
        return;
    }
    resume(s, go, step, sig);
}

/* c, C, s, S: the current thread steps; c goes with every thread. */
static void legacy_resume(struct session *s, char op, const char *a)
{
    uint64_t sig = 0, addr;
    struct lwk_dbg_regs *r = regs_of(s, s->cpu);
    uint64_t me = 1ull << s->cpu;

    if ((op == 'C' || op == 'S') && rsp_num(&a, &sig) < 0) {
        reply(s, "E16");
        return;
    }
    if (*a == ';')
        a++;
    if (*a) {                   /* resume at addr */
        if (rsp_num(&a, &addr) < 0 || *a || !r) {
            reply(s, "E16");
            return;
        }
        r->rip = addr;
        s->dirty |= me;
    }
    if (op == 's' || op == 'S')
        resume(s, me, me, (int)sig);
    else
        resume(s, 0, 0, (int)sig);
}

/* ---- packets ---------------------------------------------------------------- */

static void xfer(struct session *s, const char *a)
{
    char object[32], annex[64], doc[2048], out[RSP_MAX];
    uint64_t off, len;
    size_t size = 0;

    if (rsp_parse_xfer(a, object, sizeof(object), annex, sizeof(annex), &off,
                       &len) < 0) {
        reply(s, "E16");
        return;
    }
    if (!strcmp(object, "features") && !strcmp(annex, "target.xml")) {
        reply_bin(s, out, rsp_xfer_reply(out, sizeof(out), gdb_target_xml,
                                         strlen(gdb_target_xml), off, len));
        return;
    }
    if (!strcmp(object, "threads")) {
        size = (size_t)snprintf(doc, sizeof(doc), "<threads>");
        for (uint32_t i = 0; i < s->info.nthreads && size < sizeof(doc); i++)
            size += (size_t)snprintf(doc + size, sizeof(doc) - size,
                                     "<thread id=\"%x\" core=\"%u\"/>",
                                     s->info.cpu[i] + 1, s->info.cpu[i]);
        if (size < sizeof(doc))
            size += (size_t)snprintf(doc + size, sizeof(doc) - size,
                                     "</threads>");
    } else if (!strcmp(object, "auxv")) {
        /* Pairs up to AT_NULL's, as the rank has them. */
        long got = s->info.auxv ? mem_read(s, s->info.auxv, (uint8_t *)doc,
                                           sizeof(doc)) : 0;
        for (size = 0; got > 0 && size + 16 <= (size_t)got; size += 16) {
            uint64_t type;
            memcpy(&type, doc + size, 8);
            if (type == 0) {
                size += 16;
                break;
            }
        }
    } else {
        reply(s, "");
        return;
    }
    if (size > sizeof(doc))
        size = sizeof(doc);
    reply_bin(s, out, rsp_xfer_reply(out, sizeof(out), doc, size, off, len));
}

static void query(struct session *s, const char *p)
{
    char buf[RSP_MAX];
    size_t n;

    if (!strncmp(p, "qSupported", 10)) {
        snprintf(buf, sizeof(buf), "PacketSize=%x;qXfer:features:read+;"
                 "qXfer:threads:read+;qXfer:auxv:read+;swbreak+;"
                 "QStartNoAckMode+;vContSupported+", RSP_MAX);
        reply(s, buf);
    } else if (!strcmp(p, "qAttached")) {
        reply(s, s->attached ? "1" : "0");
    } else if (!strcmp(p, "qC")) {
        snprintf(buf, sizeof(buf), "QC%x", s->cpu + 1);
        reply(s, buf);
    } else if (!strcmp(p, "qfThreadInfo")) {
        n = (size_t)snprintf(buf, sizeof(buf), "m");
        for (uint32_t i = 0; i < s->info.nthreads; i++)
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%x",
                                  i ? "," : "", s->info.cpu[i] + 1);
        reply(s, buf);
    } else if (!strcmp(p, "qsThreadInfo")) {
        reply(s, "l");
    } else if (!strncmp(p, "qXfer:", 6)) {
        xfer(s, p + 6);
    } else if (!strncmp(p, "qSymbol:", 8)) {
        reply(s, "OK");
    } else {
        reply(s, "");
    }
}

static void regs_packet(struct session *s, char op, const char *a)
{
    uint8_t bytes[GDB_G_BYTES];
    char hex[2 * GDB_G_BYTES + 1];
    struct lwk_dbg_regs *r = regs_of(s, s->cpu);
    uint64_t n;
    int size;

    if (!r) {
        reply(s, "E03");        /* ESRCH: no such thread */
        return;
    }
    if (op == 'g') {
        rsp_hex(hex, bytes, gdbregs_all(r, bytes));
        reply(s, hex);
    } else if (op == 'G') {
        size_t len = strlen(a);
        if (len != 2 * GDB_G_BYTES || rsp_unhex(a, len, bytes) < 0 ||
            gdbregs_set_all(r, bytes, GDB_G_BYTES) < 0) {
            reply(s, "E16");
            return;
        }
        s->dirty |= 1ull << s->cpu;
        reply(s, "OK");
    } else if (op == 'p') {
        if (rsp_num(&a, &n) < 0 || *a || n >= GDB_NREGS ||
            (size = gdbregs_get(r, (int)n, bytes)) < 0) {
            reply(s, "E16");
            return;
        }
        rsp_hex(hex, bytes, (size_t)size);
        reply(s, hex);
    } else {                    /* P n=value */
        const char *v;
        if (rsp_num(&a, &n) < 0 || *a != '=' || n >= GDB_NREGS) {
            reply(s, "E16");
            return;
        }
        v = a + 1;
        if (strlen(v) > 2 * sizeof(bytes) ||
            rsp_unhex(v, strlen(v), bytes) < 0 ||
            gdbregs_set(r, (int)n, bytes, strlen(v) / 2) < 0) {
            reply(s, "E16");
            return;
        }
        s->dirty |= 1ull << s->cpu;
        reply(s, "OK");
    }
}

/* m addr,len; M addr,len:hex; X addr,len:binary (len bytes of pkt). */
static void mem_packet(struct session *s, char op, const char *a,
                       size_t pkt_len, const char *pkt)
{
    uint8_t buf[RSP_MAX];
    char hex[RSP_MAX];
    uint64_t addr, len;
    const char *data;
    long got;

    if (op == 'm') {
        if (rsp_parse_mem(a, &addr, &len, NULL) < 0 || len > MEM_MAX) {
            reply(s, "E16");
            return;
        }
        if ((got = mem_read(s, addr, buf, len)) < 0) {
            reply(s, "E0e");    /* EFAULT */
            return;
        }
        rsp_hex(hex, buf, (size_t)got);
        reply(s, hex);
        return;
    }
    if (rsp_parse_mem(a, &addr, &len, &data) < 0 || len > sizeof(buf) ||
        (op == 'M' && (strlen(data) != 2 * len ||
                       rsp_unhex(data, 2 * len, buf) < 0)) ||
        (op == 'X' && (size_t)(pkt + pkt_len - data) != len)) {
        reply(s, "E16");
        return;
    }
    if (op == 'X')
        memcpy(buf, data, len);
    reply(s, !len || mem_write(s, addr, buf, len) == 0 ? "OK" : "E0e");
}

static void bp_packet(struct session *s, char op, const char *a)
{
    uint64_t type, addr, kind;

    if (rsp_parse_bp(a, &type, &addr, &kind) < 0) {
        reply(s, "E16");
        return;
    }
    if (type != 0) {
        reply(s, "");           /* hardware ones: gdb does without */
        return;
    }
    if ((op == 'Z' ? bp_insert(s, addr) : bp_remove(s, addr)) < 0)
        reply(s, "E0e");
    else
        reply(s, "OK");
}

static void detach(struct session *s)
{
    if (write_back(s) < 0 || rankdbg_op(s->rank, YOD_DBG_DETACH, 0, 0, 0,
                                        0) < 0) {
        reply(s, "E01");
        return;
    }
    reply(s, "OK");
    fprintf(stderr, "yod: rank %d: gdb detached; the rank runs on\n",
            s->rank);
    session_close(s);
}

void handle(struct session *s, const char *p, size_t len)
{
    int64_t tid;
    int cpu;

    switch (p[0]) {
    case '?': reply(s, s->last_stop); break;
    case 'q': query(s, p); break;
    case 'Q':
        if (!strcmp(p, "QStartNoAckMode")) {
            reply(s, "OK");
            s->noack = 1;
        } else {
            reply(s, "");
        }
        break;
    case 'H':
        if ((p[1] != 'g' && p[1] != 'c') || rsp_parse_tid(p + 2, &tid) < 0 ||
            (cpu = tid_cpu(s, tid)) < 0) {
            reply(s, "E03");
            break;
        }
        if (p[1] == 'g')
            s->cpu = cpu;
        reply(s, "OK");
        break;
    case 'T':
        reply(s, rsp_parse_tid(p + 1, &tid) == 0 && tid_cpu(s, tid) >= 0
                 ? "OK" : "E03");
        break;
    case 'g': case 'G': case 'p': case 'P': regs_packet(s, p[0], p + 1); break;
    case 'm': case 'M': case 'X': mem_packet(s, p[0], p + 1, len, p); break;
    case 'Z': case 'z': bp_packet(s, p[0], p + 1); break;
    case 'c': case 'C': case 's': case 'S': legacy_resume(s, p[0], p + 1); break;
    case 'v':
        if (!strcmp(p, "vCont?"))
            reply(s, "vCont;c;C;s;S");
        else if (!strncmp(p, "vCont;", 6))
            vcont(s, p + 5);
        else
            reply(s, "");
        break;
    case 'D': detach(s); break;
    case 'k':
        fprintf(stderr, "yod: gdb killed rank %d: killing the job\n", s->rank);
        stop_signal = SIGKILL;
        session_close(s);
        break;
    default: reply(s, ""); break;
    }
}
