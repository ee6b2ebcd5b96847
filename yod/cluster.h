/* SPDX-License-Identifier: MIT */
/*
 * cluster.h: what yod and showmesh read of a cluster tools/cluster booted
 * ($LWK_CLUSTER, else the one tools/cluster recorded as the user's
 * default in ${XDG_CONFIG_HOME:-~/.config}/lwk/cluster): its files, the
 * service nid range and the libportals settings in `env`, and a service
 * nid of their own (a lock file per nid, held while the process lives).
 * Failures print one line naming the program and exit die_status (die,
 * also the programs' own).
 */
#ifndef YOD_CLUSTER_H
#define YOD_CLUSTER_H

#include <stdint.h>
#include <stdio.h>
#include "portals4.h"

extern const char *cluster;     /* the cluster's directory */

void cluster_find(void);                        /* sets `cluster`, or dies */
FILE *cluster_file(const char *name);           /* opened for reading */
/* The compute nodes, "NID ..." per line: `partition` or `nodes`. */
FILE *cluster_nodes(void);
/* env: the service nid range; PTL_* and LWK_IO_SERVERS put into our
   environment. */
void cluster_env(unsigned *svc_first, unsigned *svc_last);
unsigned cluster_service_nid(unsigned first, unsigned last);
/* Join the cluster's network as station (nid, pid), keeping links with
   up to `peers` processes: a matching physical NI (PTL_* from `env` set
   already), or a one-line error. */
ptl_handle_ni_t cluster_join(unsigned nid, unsigned pid, unsigned peers);
/* Tables of nodes whose entries (`size` bytes) begin with an unsigned
   nid: sort one by nid, and find a nid in it in O(log n) (yod and
   showmesh look one up for every message a node sends). */
void cluster_sort_nids(void *base, size_t n, size_t size);
void *cluster_find_nid(const void *base, size_t n, size_t size, unsigned nid);
/* The cluster's secret (the file `secret`), or a one-line error. */
void cluster_secret(uint8_t key[16]);

/* "PROGRAM: message" on stderr, then exit die_status (1; yod's 125). */
extern int die_status;
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
double now_ms(void);                            /* monotonic clock */

#endif
