/*
 * fetch.c: getting a program for yod (yod/yod_proto.h, LOAD and FLOAD):
 * the argv/env block into `args`, the image into a scratch process's
 * region (the PCT's own heap is 256 KiB), Get by Get from yod or, in the
 * fan-out tree, the parent PCT; and put_ctl, the one message the PCT
 * waits to see delivered (FLOAD to a child: a child that never takes it
 * is skipped).  The waits are generous: a node's clock can run several
 * times too fast when its TSC was calibrated on a loaded host
 * (kernel/timer.c), and a loaded host moves as little as 100 KB/s between
 * two nodes.
 */
#include <stdio.h>
#include <string.h>
#include "serve.h"

#define IMAGE_CHUNK (256u << 10)       /* image bytes per Get */
#define GET_WAIT_MS 30000
#define PUT_WAIT_MS 10000              /* a control message's ACK */
#define RELEASE_MS  60000              /* a Get given up on ends by then */

static char ini_why[64];                /* why the last wait_ini failed */

/* Each operation's user_ptr is a new tag, so the event that ends a wait
   is that operation's: never a late one of an operation given up on. */
static void *new_tag(void)
{
    static uintptr_t n;

    return (void *)++n;
}

/* Wait for the initiator event `want` of operation `tag`; 0 if it
   succeeded. */
static int wait_ini(ptl_event_kind_t want, void *tag, int ms)
{
    ptl_event_t ev;
    unsigned int which;
    int rc;

    for (;;) {
        rc = PtlEQPoll(&srv.ini_eq, 1, ms, &ev, &which);
        if (rc == PTL_EQ_EMPTY) {
            snprintf(ini_why, sizeof(ini_why), "no answer in %d s",
                     ms / 1000);
            return -1;
        }
        if ((rc != PTL_OK && rc != PTL_EQ_DROPPED) || ev.type != want ||
            ev.user_ptr != tag)
            continue;
        if (ev.ni_fail_type == PTL_NI_OK)
            return 0;
        snprintf(ini_why, sizeof(ini_why), "failure type %d",
                 ev.ni_fail_type);
        return -1;
    }
}

/* One message to a station's control portal; 0 once it is there. */
int put_ctl(ptl_process_t to, const struct yod_msg *m)
{
    void *tag = new_tag();

    io.out = *m;
    if (PtlPut(srv.md, 0, sizeof(*m), PTL_ACK_REQ, to, YOD_PT_CTL, 0, 0, tag,
               0) != PTL_OK)
        return -1;
    return wait_ini(PTL_EVENT_ACK, tag, PUT_WAIT_MS);
}

/* `len` bytes of `from`'s buffer `bits` (yod's or a parent PCT's), from
   offset `off`, into io.chunk. */
static int get(ptl_process_t from, ptl_match_bits_t bits, uint64_t off,
               uint64_t len)
{
    void *tag = new_tag();

    if (PtlGet(srv.md, offsetof(typeof(io), chunk), len, from, YOD_PT_DATA,
               bits, off, tag) != PTL_OK)
        return -1;
    return wait_ini(PTL_EVENT_REPLY, tag, GET_WAIT_MS);
}

/* An MD with a Get still under way (one given up on) cannot go yet: its
   reply would land in whatever process next has the scratch region's
   slot.  Wait until Portals ends that Get (a reply, or the peer declared
   unreachable), taking in events meanwhile. */
static int release_md(ptl_handle_md_t h)
{
    ptl_event_t ev;
    unsigned int which;

    for (int waited = 0; PtlMDRelease(h) != PTL_OK; waited += 1000) {
        if (waited >= RELEASE_MS) {
            printf("pct: a Get into the image buffer never ended: keeping "
                   "its memory for good\n");
            return -1;
        }
        PtlEQPoll(&srv.ini_eq, 1, 1000, &ev, &which);
    }
    return 0;
}

/* The whole image from `from`, straight into its buffer (a scratch
   process's region, seen through the window), IMAGE_CHUNK per Get so a
   stalled transfer is noticed after GET_WAIT_MS, not after all of it.
   A chunk that fails is asked for again (a Get can be repeated). */
static int get_image(ptl_process_t from, char *img, uint64_t len)
{
    ptl_md_t md = { .start = img, .length = len, .eq_handle = srv.ini_eq,
                    .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t h;
    int rc = 0;

    if ((rc = PtlMDBind(srv.ni, &md, &h)) != PTL_OK) {
        snprintf(ini_why, sizeof(ini_why), "PtlMDBind: %d", rc);
        return -1;
    }
    for (uint64_t off = 0; off < len && rc == 0; off += IMAGE_CHUNK) {
        uint64_t n = len - off < IMAGE_CHUNK ? len - off : IMAGE_CHUNK;
        for (int try = 0; try < 3; try++) {
            void *tag = new_tag();
            if ((rc = PtlGet(h, off, n, from, YOD_PT_DATA, YOD_MB_IMAGE, off,
                             tag)) != PTL_OK) {
                snprintf(ini_why, sizeof(ini_why), "PtlGet: %d", rc);
                rc = -1;
                break;
            }
            if ((rc = wait_ini(PTL_EVENT_REPLY, tag, GET_WAIT_MS)) == 0)
                break;
            printf("pct: image bytes %lu.. from nid %u: %s%s\n",
                   (unsigned long)off, from.phys.nid, ini_why,
                   try < 2 ? "; asking again" : "");
        }
    }
    return release_md(h) < 0 ? -2 : rc;
}

/* Split the argv/env block into the job, adding PTL_JOB_RANK. */
static int unpack_args(struct job *j, const struct yod_msg *m)
{
    char *p = args, *end = args + m->args_len;

    if (m->argc < 1 || m->argc > PCT_MAX_ARGS ||
        m->envc + 1 > PCT_MAX_ARGS || end[-1] != 0)
        return -1;
    for (uint32_t i = 0; i < m->argc + m->envc; i++) {
        if (p >= end)
            return -1;
        if (i < m->argc)
            j->argv[j->argc++] = p;
        else
            j->envp[j->envc++] = p;
        p += strlen(p) + 1;
    }
    snprintf(j->rank_env, sizeof(j->rank_env), "PTL_JOB_RANK=%d", m->rank);
    j->envp[j->envc++] = j->rank_env;
    j->argv[j->argc] = j->envp[j->envc] = NULL;
    j->name = j->argv[0];
    for (const char *q = j->name; *q; q++)
        if (*q == '/')
            j->name = q + 1;
    return 0;
}

/* Fetch the image into a scratch region and the block into `args`, from
   yod or (fan-out) the parent PCT. */
const char *fetch(struct job *j, const struct yod_msg *m, ptl_process_t from)
{
    static char why[160];
    char *img;
    int rc;

    if (m->image_len == 0)
        return "empty program image";
    if (m->args_len == 0 || m->args_len > sizeof(args))
        return "argument and environment block too big";
    snprintf(why, sizeof(why), "could not get the arguments from nid %u",
             from.phys.nid);
    if (get(from, YOD_MB_ARGS, 0, m->args_len) < 0)
        return why;
    memcpy(args, io.chunk, m->args_len);
    if (unpack_args(j, m) < 0)
        return "malformed argument block";
    if (!(img = pct_image_buffer(j, m->image_len)))
        return "no memory for the program image";
    if ((rc = get_image(from, img, m->image_len)) == 0)
        return NULL;
    if (rc == -2) {             /* never destroy it: see release_md */
        j->scratch_pid = 0;
        j->image = NULL;
    }
    snprintf(why, sizeof(why), "could not get the program image from nid %u "
             "(%s)", from.phys.nid, ini_why);
    printf("pct: %s\n", why);
    return why;
}

