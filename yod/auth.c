/* SPDX-License-Identifier: MIT */
/*
 * auth.c: yod's side of yod_proto.h's Authentication.  yod reads the
 * cluster's secret, picks a nonce for each job (each fan-out attempt is
 * a job of its own), signs what it sends the PCTs, and takes from the
 * nodes only what the job's key vouches for: a PCT's message from pid
 * YOD_PCT_PID of one of its nodes, a rank's output and file requests from
 * that rank's node under its rank key; every number only growing.  The
 * rest is dropped and counted, and said in one line at the end of the
 * job (a node program of another job, or a station on the switch forging
 * a node's address, cannot make yod write a file or end a rank).
 */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "cluster.h"
#include "ptl_host.h"
#include "ptl_linux.h"
#include "yod.h"
#include "yod_debug.h"

static struct {
    struct sipkey secret, job;
    uint64_t nonce, seq;
    unsigned dropped[AUTH_KINDS];
} A;

static const char *const kind_names[AUTH_KINDS] = {
    [AUTH_CONTROL] = "node control", [AUTH_OUTPUT] = "output",
    [AUTH_FILE] = "file request",
};

void auth_init(void)
{
    uint8_t b[16];

    cluster_secret(b);
    A.secret = sipkey_from_bytes(b);
    memset(b, 0, sizeof(b));
}

/* yod's frames are signed with the cluster's transport key, and only
   signed frames may change what a node that signs owns on yod's side
   (portals/PROTOCOL.md 2.3): a station without the secret that claims a
   rank's address cannot reset yod's link to it, or acknowledge what yod
   sent, or feed it frames. */
struct sipkey auth_transport_key(void)
{
    return yod_transport_key(&A.secret);
}

struct sipkey auth_job_key(void)
{
    return A.job;
}

void auth_transport(void)
{
    struct sipkey t = yod_transport_key(&A.secret);
    uint64_t k[2] = { t.k0, t.k1 };

    if (ptl_linux_auth(0, k) != PTL_OK)
        die("cannot sign Portals frames (no interface 0)");
}

/* A new job id (or fan-out attempt): a new nonce, a new key. */
void auth_job(void)
{
    if (getrandom(&A.nonce, sizeof(A.nonce), 0) != sizeof(A.nonce))
        die("no random numbers for the job's key (getrandom failed)");
    A.job = yod_job_key(&A.secret, jobid, A.nonce);
    for (int i = 0; i < nnodes; i++)
        nodes[i].seq_in = 0;
}

void auth_sign(struct yod_msg *m, unsigned nid)
{
    m->job = jobid;
    m->nonce = A.nonce;
    m->seq = ++A.seq;
    m->mac = yod_msg_mac(&A.job, m, self_nid, YOD_PID, nid, YOD_PCT_PID);
}

struct sipkey auth_rank_key(int rank)
{
    return yod_rank_key(&A.job, rank);
}

uint64_t auth_dbg_bits(int local, int what)
{
    return yod_dbg_bits(&A.job, local, what);
}

int auth_drop(enum auth_kind kind)
{
    A.dropped[kind]++;
    return 0;
}

void auth_dropped(enum auth_kind kind, unsigned n)
{
    A.dropped[kind] += n;
}

int auth_pct(const ptl_event_t *ev, const struct yod_msg *m, struct node *n)
{
    if (ev->initiator.phys.pid != YOD_PCT_PID || m->nonce != A.nonce ||
        yod_msg_mac(&A.job, m, n->nid, YOD_PCT_PID, self_nid, YOD_PID) !=
        m->mac || m->seq <= n->seq_in)
        return auth_drop(AUTH_CONTROL);
    n->seq_in = m->seq;
    return 1;
}

/* Messages of a rank come from its node, from one pid (the first signed
   message fixes it), never the PCT's. */
int auth_rank_sender(const ptl_event_t *ev, unsigned nid, unsigned *pid)
{
    unsigned from = ev->initiator.phys.pid;

    return ev->initiator.phys.nid == nid && from != YOD_PCT_PID &&
           (!*pid || *pid == from);
}

int auth_output(const ptl_event_t *ev, struct node *n)
{
    uint64_t seq = ev->hdr_data >> 32;

    if (!auth_rank_sender(ev, n->nid, &n->out_pid) || seq <= n->out_seq ||
        yod_output_mac(&n->rank_key, ev->hdr_data, ev->start, ev->mlength)
        != ev->match_bits)
        return auth_drop(AUTH_OUTPUT);
    n->out_pid = ev->initiator.phys.pid;
    n->out_seq = seq;
    return 1;
}

/* Frames the transport refused: a wrong MAC, none from a node that signs,
   an old incarnation played back.  They changed nothing (PROTOCOL.md
   2.3); said so the user knows someone tried. */
static void transport_report(void)
{
    struct ptl_lib_stats st;

    ptl_lib_get_stats(ptl_linux_lib(0), &st);
    if (st.rx_forged)
        fprintf(stderr, "yod: refused %lu Portals frame%s claiming a node's "
                "address without the cluster's key, or played back: forged? "
                "see docs/SECURITY.md\n", (unsigned long)st.rx_forged,
                st.rx_forged == 1 ? "" : "s");
}

/* "yod: dropped 2 messages not from this job's nodes and ranks (1 node
   control, 1 file request): forged? see docs/SECURITY.md" */
void auth_report(void)
{
    char list[160];
    unsigned all = 0;
    size_t len = 0;

    list[0] = 0;
    for (int k = 0; k < AUTH_KINDS; k++) {
        if (!A.dropped[k])
            continue;
        all += A.dropped[k];
        len += snprintf(list + len, sizeof(list) - len, "%s%u %s%s",
                        len ? ", " : "", A.dropped[k], kind_names[k],
                        A.dropped[k] == 1 || k == AUTH_OUTPUT ? "" : "s");
    }
    if (all)
        fprintf(stderr, "yod: dropped %u message%s not from this job's nodes "
                "and ranks (%s): forged? see docs/SECURITY.md\n", all,
                all == 1 ? "" : "s", list);
    transport_report();
}
