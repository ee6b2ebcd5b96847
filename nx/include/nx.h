/* SPDX-License-Identifier: MIT */
/*
 * nx.h: the Paragon NX message-passing calls a C program uses, on
 * Portals 4 (libnx; see nx/README.md for the semantics and the protocol).
 *
 * Nodes are the ranks of the job (mynode() 0..numnodes()-1), one process
 * per node.  Types: a message type is 0..999999999; a type selector is a
 * type or -1 (any type).  Node -1 in a send: every other node.  Node and
 * ptype selectors: a value or -1 (any).  Ptypes are 0..32767.
 *
 * Errors: the plain calls print "NX: <call>: <reason>" and end the job;
 * the underscore forms (_csend, _crecv, ...) instead return -1 and set
 * errno (EINVAL bad argument, EMSGSIZE message longer than the buffer,
 * ENOMEM out of message ids or buffers, EIO transport failure).
 */
#ifndef NX_H
#define NX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Slots of the info array of the *x calls (8 longs). */
#define NX_INFO_TYPE   0
#define NX_INFO_COUNT  1
#define NX_INFO_NODE   2
#define NX_INFO_PTYPE  3
#define NX_INFO_LEN    8

/* ---- point to point ---- */
void csend(long type, const void *buf, long count, long node, long ptype);
void crecv(long typesel, void *buf, long count);
void crecvx(long typesel, void *buf, long count, long nodesel,
            long ptypesel, long info[]);
long isend(long type, const void *buf, long count, long node, long ptype);
long irecv(long typesel, void *buf, long count);
long irecvx(long typesel, void *buf, long count, long nodesel,
            long ptypesel, long info[]);
void msgwait(long mid);
long msgdone(long mid);
void msgcancel(long mid);

/* ---- probes and the last message's description ---- */
void cprobe(long typesel);
long iprobe(long typesel);
void cprobex(long typesel, long nodesel, long ptypesel, long info[]);
long iprobex(long typesel, long nodesel, long ptypesel, long info[]);
long infocount(void);
long infonode(void);
long infotype(void);
long infoptype(void);

/* ---- who and when ---- */
long mynode(void);
long numnodes(void);
long myptype(void);
void setptype(long ptype);
double dclock(void);

/* ---- global operations (every node calls them in the same order) ---- */
void gsync(void);
void gdsum(double x[], long n, double work[]);
void gdprod(double x[], long n, double work[]);
void gdhigh(double x[], long n, double work[]);
void gdlow(double x[], long n, double work[]);
void gssum(float x[], long n, float work[]);
void gsprod(float x[], long n, float work[]);
void gshigh(float x[], long n, float work[]);
void gslow(float x[], long n, float work[]);
void gisum(long x[], long n, long work[]);
void giprod(long x[], long n, long work[]);
void gihigh(long x[], long n, long work[]);
void gilow(long x[], long n, long work[]);
void gcolx(const void *x, const long xlens[], void *y);

/* ---- the same calls returning -1 and errno instead of ending the job ---- */
long _csend(long type, const void *buf, long count, long node, long ptype);
long _crecv(long typesel, void *buf, long count);
long _crecvx(long typesel, void *buf, long count, long nodesel,
             long ptypesel, long info[]);
long _isend(long type, const void *buf, long count, long node, long ptype);
long _irecv(long typesel, void *buf, long count);
long _irecvx(long typesel, void *buf, long count, long nodesel,
             long ptypesel, long info[]);
long _msgwait(long mid);
long _msgdone(long mid);
long _msgcancel(long mid);
long _cprobe(long typesel);
long _iprobe(long typesel);
long _cprobex(long typesel, long nodesel, long ptypesel, long info[]);
long _iprobex(long typesel, long nodesel, long ptypesel, long info[]);
long _setptype(long ptype);
long _gsync(void);
long _gdsum(double x[], long n, double work[]);
long _gdprod(double x[], long n, double work[]);
long _gdhigh(double x[], long n, double work[]);
long _gdlow(double x[], long n, double work[]);
long _gssum(float x[], long n, float work[]);
long _gsprod(float x[], long n, float work[]);
long _gshigh(float x[], long n, float work[]);
long _gslow(float x[], long n, float work[]);
long _gisum(long x[], long n, long work[]);
long _giprod(long x[], long n, long work[]);
long _gihigh(long x[], long n, long work[]);
long _gilow(long x[], long n, long work[]);
long _gcolx(const void *x, const long xlens[], void *y);

#ifdef __cplusplus
}
#endif

#endif /* NX_H */
