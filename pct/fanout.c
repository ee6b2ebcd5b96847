/*
 * fanout.c: fan-out loading (FLOAD, yod/yod_proto.h).  The PCT Gets the
 * program from its parent in the tree (yod or another PCT), then exposes
 * it on its own YOD_PT_DATA and hands it on to its children one at a
 * time, before loading its own copy.  The image lies in a scratch
 * process's region, which the PCT may name to Portals through its window
 * (kernel/proc.c window_ptr); the match entry over it is unlinked before
 * that process is destroyed, so no Get can reach the slot's next owner.
 *
 * Who may send FLOAD: yod (a station of the service partition) to rank
 * 0's node, or a parent PCT (pid YOD_PCT_PID); signed with the job's key
 * like every control message, for an owner of the service partition,
 * naming its sender as the station to Get from, and only once per job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>
#include "serve.h"

#define GOT_WAIT_MS 120000             /* a child Gets the whole image */
#define FAN_MAX     512                /* ranks in a fan-out job (yod.h) */
#define HELD_MAX    8

/* What our children Get from us, and requests of our own job that
   arrived while we waited for a child (handled after the load). */
static struct {
    ptl_handle_me_t image, args;
    uint32_t nids[FAN_MAX];            /* by rank, from PTL_JOB_MAP */
    int queue[FAN_MAX];
    struct yod_msg held[HELD_MAX];
    ptl_process_t held_from[HELD_MAX];
    int nheld;
} fan;

static ptl_process_t station(uint64_t st)
{
    return (ptl_process_t){ .phys = { YOD_STATION_NID(st),
                                      YOD_STATION_PID(st) } };
}

/* Tell the parent whether we have the image (0) or refused (1). */
static void got(const struct yod_msg *m, const struct sipkey *k, int refused)
{
    struct yod_msg g = { .type = YOD_GOT, .job = m->job, .nonce = m->nonce,
                         .rank = m->rank, .status = refused,
                         .asked = YOD_FLOAD };

    reply_send(station(m->src), &g, k, 1);
}

/* Nodes by rank, from the job's PTL_JOB_MAP ("nid:pid,..."). */
static int job_nids(const struct job *j, int size)
{
    for (int i = 0; i < j->envc; i++) {
        const char *p = j->envp[i];
        int n = 0;
        if (strncmp(p, "PTL_JOB_MAP=", 12))
            continue;
        for (p += 12; n < size && *p; n++) {
            char *end;
            fan.nids[n] = (uint32_t)strtoul(p, &end, 10);
            if (!(p = strchr(end, ',')))
                return n + 1;
            p++;
        }
        return n;
    }
    return 0;
}

static int expose(const struct job *j, uint64_t args_len)
{
    ptl_me_t me = { .ct_handle = PTL_CT_NONE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .options = PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE |
                               PTL_ME_EVENT_COMM_DISABLE |
                               PTL_ME_EVENT_UNLINK_DISABLE };

    me.start = (void *)j->image;
    me.length = j->image_size;
    me.match_bits = YOD_MB_IMAGE;
    if (PtlMEAppend(srv.ni, YOD_PT_DATA, &me, PTL_PRIORITY_LIST, NULL,
                    &fan.image) != PTL_OK)
        return -1;
    me.start = args;
    me.length = args_len;
    me.match_bits = YOD_MB_ARGS;
    if (PtlMEAppend(srv.ni, YOD_PT_DATA, &me, PTL_PRIORITY_LIST, NULL,
                    &fan.args) != PTL_OK) {
        PtlMEUnlink(fan.image);
        return -1;
    }
    return 0;
}

/* A request that came while we waited for a child: the child's GOT is
   the answer; another job's request is answered at once (it cannot
   change ours); one of our own job's waits until the load is done. */
static int waiting_for(int rank, const struct yod_msg *m, ptl_process_t from)
{
    ptl_process_t child = { .phys = { fan.nids[rank], YOD_PCT_PID } };
    struct sipkey k;

    if (m->type == YOD_GOT && m->job == job.id && m->nonce == job.nonce &&
        m->rank == rank && same_station(from, child) &&
        auth_verify(m, from, &k) == 0)
        return m->status ? 1 : 0;
    if (m->job != job.id || m->type == YOD_PING || m->type == YOD_STATUS)
        request(m, from);       /* yod's lease pings go on meanwhile */
    else if (m->type != YOD_GOT && m->type != YOD_HELLO &&
             fan.nheld < HELD_MAX) {
        fan.held[fan.nheld] = *m;
        fan.held_from[fan.nheld++] = from;
    }
    return -1;
}

/* Child `rank` has the image (0), refused it (1), or never answered (-1). */
static int wait_got(int rank)
{
    ptl_event_t ev;
    unsigned int which;
    int rc;

    while ((rc = PtlEQPoll(&srv.req_eq, 1, GOT_WAIT_MS, &ev, &which)) ==
           PTL_OK || rc == PTL_EQ_DROPPED) {
        if (ev.type == PTL_EVENT_AUTO_UNLINK) {
            append_req(ev.user_ptr);
        } else if (ev.type == PTL_EVENT_PUT && ev.ni_fail_type == PTL_NI_OK &&
                   ev.mlength == sizeof(struct yod_msg)) {
            struct yod_msg m;
            memcpy(&m, ev.start, sizeof(m));
            if ((rc = waiting_for(rank, &m, ev.initiator)) >= 0)
                return rc;
        }
    }
    return -1;
}

static int hand_on(const struct yod_msg *m, int rank)
{
    struct yod_msg f = *m;
    ptl_process_t to = { .phys = { fan.nids[rank], YOD_PCT_PID } };
    int rc;

    uint64_t t0 = lwk_sys_clock_ns(0);

    f.rank = rank;
    f.src = YOD_STATION(srv.nid, YOD_PCT_PID);
    auth_sign(&f, &job.key, to);
    rc = put_ctl(to, &f) < 0 ? -1 : wait_got(rank);
    printf("pct: job %u rank %d: rank %d (nid %u) %s (%lu ms)\n", job.id,
           m->rank, rank, fan.nids[rank], rc == 0 ? "got the program from us"
           : rc > 0 ? "refused it; its children get it from us"
           : "does not answer; its children get it from us",
           (unsigned long)((lwk_sys_clock_ns(0) - t0) / 1000000));
    return rc;
}

/* Hand the image on to our subtree, a child at a time; a child that
   refused or is silent is replaced by its own children. */
static void forward(const struct job *j, const struct yod_msg *m)
{
    int head = 0, tail = 0;

    for (int c = yod_tree_child(m->rank, -1, m->size); c >= 0;
         c = yod_tree_child(m->rank, c, m->size))
        fan.queue[tail++] = c;
    if (!tail)
        return;
    if (expose(j, m->args_len) < 0) {
        printf("pct: job %u: cannot expose the program to our children\n",
               job.id);
        return;                 /* they never hear: yod names them */
    }
    while (head < tail) {
        int c = fan.queue[head++], rc = hand_on(m, c);
        if (rc < 0) {
            struct yod_msg lost = { .type = YOD_LOST, .job = job.id,
                                    .rank = c, .asked = YOD_FLOAD };
            snprintf(lost.text, sizeof(lost.text), "does not answer (nid "
                     "%u, forwarding from nid %lu)", fan.nids[c], srv.nid);
            tell_owner(&lost);
        }
        for (int g = rc ? yod_tree_child(c, -1, m->size) : -1; g >= 0;
             g = yod_tree_child(c, g, m->size))
            fan.queue[tail++] = g;
    }
    PtlMEUnlink(fan.args);
    PtlMEUnlink(fan.image);     /* before the scratch process goes */
}

/* May `from` send this FLOAD?  Its sender is yod or a PCT, its owner a
   station of the service partition, its source of the program its sender;
   and a job is loaded once (a recorded FLOAD played again is not). */
static int fload_allowed(const struct yod_msg *m, ptl_process_t from)
{
    ptl_process_t owner = station(m->owner);

    if (!auth_service(from.phys.nid) && from.phys.pid != YOD_PCT_PID)
        auth_refuse(m, from, "neither yod nor a PCT");
    else if (!auth_service(owner.phys.nid))
        auth_refuse(m, from, "its owner nid %u is not a station of the "
                    "service partition", owner.phys.nid);
    else if (!same_station(station(m->src), from))
        auth_refuse(m, from, "it names another station (nid %u pid %u) to "
                    "get the program from", YOD_STATION_NID(m->src),
                    YOD_STATION_PID(m->src));
    else
        return 1;
    return 0;
}

/* Busy with another job, or a program is loaded already: say so to the
   parent (GOT refused) and to the owner. */
static int fload_busy(const struct yod_msg *m, const struct sipkey *k)
{
    struct job *j = &job.j[0];
    struct yod_msg a = { .job = m->job, .nonce = m->nonce, .rank = m->rank,
                         .asked = YOD_FLOAD };

    if (job.id && job.id != m->job) {
        a.type = YOD_BUSY;
        a.job2 = job.id;
    } else if (ranks_live() || j->image || m->size < 1 ||
               m->size > FAN_MAX) {
        a.type = YOD_ERR;
        snprintf(a.text, sizeof(a.text), ranks_live() || j->image
                 ? "a program is loaded already"
                 : "fan-out of %d ranks (1..%d)", m->size, FAN_MAX);
    } else {
        return 0;
    }
    got(m, k, 1);
    reply_send(station(m->owner), &a, k, 0);
    return 1;
}

/* FLOAD: claim, get the program from the parent, hand it on, load it. */
void fan_load(const struct yod_msg *m, ptl_process_t from,
              const struct sipkey *k)
{
    struct job *j = &job.j[0];
    const char *why;

    if (!fload_allowed(m, from) || fload_busy(m, k))
        return;
    if (!auth_fresh(m, AUTH_ONLY_FIRST, auth_service(from.phys.nid))) {
        auth_refuse(m, from, "this job was loaded here before (replayed?)");
        return;
    }
    claim(m, k, station(m->owner));
    memset(j, 0, sizeof(*j));
    j->rank = m->rank;
    j->size = m->size;
    if ((why = fetch(j, m, from)) ||
        (why = job_nids(j, m->size) == m->size ? NULL
               : "no PTL_JOB_MAP with every rank's node")) {
        struct yod_msg e = { .type = YOD_ERR, .asked = YOD_FLOAD };
        pct_release_image(j);
        got(m, k, 1);
        snprintf(e.text, sizeof(e.text), "%s", why);
        tell_owner(&e);
        return;
    }
    got(m, k, 0);
    printf("pct: job %u rank %d: got the program from nid %u pid %u\n",
           job.id, j->rank, from.phys.nid, from.phys.pid);
    forward(j, m);
    finish_load(j, m);
    for (int i = 0, n = fan.nheld; i < n; i++)
        request(&fan.held[i], fan.held_from[i]);
    fan.nheld = 0;
}
