/* SPDX-License-Identifier: MIT */
/*
 * fileio_srv.h: the file server's own state, shared by its two halves:
 * fileio.c (requests: who may ask what, answers, the server's loop) and
 * transfer.c (moving a request's data: READ, WRITE and their positional
 * and striped forms, GETCWD, GETDENTS).
 */
#ifndef YOD_FILEIO_SRV_H
#define YOD_FILEIO_SRV_H

#include <stdint.h>

#include "portals4.h"
#include "fileio.h"
#include "filecalls.h"

#define CHUNK       (1u << 20)  /* bytes per Get or Put of a transfer */
#define SLOTS_MAX   16          /* chunks one transfer may have in flight */
#define BUF_MAX     (256u << 20)        /* transfer buffers of a server, at
                                           most (each rank's at its first
                                           transfer, freed at its end) */

/* A chunk of a transfer: its bytes are buf + index * CHUNK. */
struct slot {
    int state;                  /* FREE, MOVING (Get or Put under way),
                                   READY (a WRITE's bytes, to write) */
    uint64_t at;                /* its offset in the rank's buffer */
    size_t len;
};
enum { FREE, MOVING, READY };

struct rank {
    unsigned nid;
    unsigned pid;               /* its Portals pid, from its requests */
    int served;                 /* mapped to this server */
    int ended;                  /* it ended (its files are closed) */
    int ans_bound;              /* ans_md bound */
    struct sipkey key;          /* its key: its requests are signed */
    uint32_t last_seq;          /* its last request's number */
    struct files files;         /* its fds and working directory */
    struct yod_file_req q;      /* the request being served */
    int busy;                   /* q is being served */
    int parked;                 /* READ waiting for input on its fd */
    int xfd;                    /* our fd of the transfer */
    int own_xfd;                /* a stripe's (SREAD, SWRITE): to close */
    struct pfs_file *pf;        /* a striped file's transfer, split here */
    int advance;                /* READ or WRITE of pf: move its offset */
    uint64_t noted;             /* the striped file SWRITE last named */
    uint64_t issued;            /* bytes asked for (WRITE) or read (READ) */
    uint64_t done;              /* bytes written (WRITE) or delivered */
    int moving;                 /* slots under way */
    int stop;                   /* issue no more: EOF, short, or err */
    long err;                   /* -errno met, 0 */
    struct slot slot[SLOTS_MAX];
    struct yod_file_ans ans;
    ptl_handle_md_t ans_md;
    char *buf;                  /* F.slots * CHUNK bytes, bound at first use */
    ptl_handle_md_t buf_md;
};

/* The server: its job, and each rank's state. */
struct fileio_server {
    struct fileio_job job;
    int slots;                  /* chunks in flight per transfer */
    int pfs;                    /* a PFS: every rank may send stripes */
    struct rank *ranks;
    int nparked;                /* ranks whose READ is parked */
    char req_buf[2][16 * sizeof(struct yod_file_req)];
};
extern struct fileio_server fileio;

/* fileio.c */
ptl_process_t srv_app(const struct rank *r);    /* the rank's station */
void srv_park(struct rank *r, int on);          /* a READ waits for input */
int srv_rank_no(const struct rank *r);
void srv_reply(struct rank *r, long ret);       /* the result or -errno */

/* transfer.c: a request's data; xfer_chunk_done for each chunk's ACK
   or REPLY; xfer_read_fill again for a parked READ; xfer_end frees what
   a transfer holds (its answer is going, or the rank ended) */
void xfer_start(struct rank *r);
void xfer_getcwd(struct rank *r);
void xfer_getdents(struct rank *r);
void xfer_chunk_done(struct rank *r, struct slot *s, const ptl_event_t *ev);
void xfer_read_fill(struct rank *r);
void xfer_end(struct rank *r);

#endif
