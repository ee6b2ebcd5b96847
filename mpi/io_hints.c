/* SPDX-License-Identifier: MIT */
/*
 * io_hints.c: the hints of collective buffering, as ROMIO names them
 * (its users' scripts set them), read from the file's info at
 * MPI_File_open and MPI_File_set_info (both collective), and the
 * aggregators they give (io_coll.c does the two phases):
 *
 *   cb_nodes        aggregators, 1..the ranks of the file (default:
 *                   one per I/O server the file's ranks use, LWK_YOD's
 *                   list under yod, docs/io.md; else one per node)
 *   cb_buffer_size  bytes an aggregator moves per round (default 4 MiB)
 *   romio_cb_write  enable, disable or automatic (the default: two
 *   romio_cb_read   phases when some rank's access has holes in it)
 *   striping_unit   file domains start at multiples of it
 *
 * Rank 0's values are every rank's (the hints must agree, as ROMIO
 * requires; this way a rank that differs cannot hang the collective
 * calls).  A value that is not a number in range, or not one of the
 * three words, is ignored (MPI-3.1 13.2.8: hints may be), and
 * MPI_File_get_info gives the values in use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io.h"

#define CB_BUFFER_SIZE (4 << 20)    /* an I/O server's 4 chunks in flight */

static long long hint_num(MPI_Info info, const char *key, long long lo,
                          long long hi, long long dflt)
{
    char v[64], *end;
    int flag = 0;
    long long x;

    if (info == MPI_INFO_NULL ||
        MPI_Info_get(info, key, (int)sizeof(v) - 1, v, &flag) != 0 || !flag)
        return dflt;
    x = strtoll(v, &end, 10);
    return end == v || *end || x < lo || x > hi ? dflt : x;
}

static const char *const modes[] = { "automatic", "enable", "disable" };

static int hint_mode(MPI_Info info, const char *key)
{
    char v[64];
    int flag = 0;

    if (info == MPI_INFO_NULL ||
        MPI_Info_get(info, key, (int)sizeof(v) - 1, v, &flag) != 0 || !flag)
        return CB_AUTO;
    for (int m = 0; m < 3; m++)
        if (strcmp(v, modes[m]) == 0)
            return m;
    return CB_AUTO;
}

/* What this rank's file requests go through: its I/O server's place in
 * LWK_YOD=NID:PID@FIRST-LAST,... (yod_proto.h, "I/O servers": the first
 * entry whose ranks hold it, else yod, the first), or its node. */
static int io_place(void)
{
    const char *p = getenv("LWK_YOD");
    long r = proto_world_rank();

    if (p == NULL)
        return (int)proto_nid();
    for (int k = 0; p != NULL; k++) {
        const char *at = strchr(p, '@'), *comma = strchr(p, ',');
        char *end;
        if (at != NULL && (comma == NULL || at < comma)) {
            long lo = strtol(at + 1, &end, 10);
            long hi = *end == '-' ? strtol(end + 1, &end, 10) : -1;
            if (lo <= r && r <= hi)
                return k;
        }
        p = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

/* The aggregators: n of them (0: one per place), as the first rank of
 * each place, spread evenly when fewer are asked; more than there are
 * places: ranks spread evenly over the file's. */
static int pick_aggregators(MPI_File f, int n)
{
    int size = f->comm->size, place = io_place(), m = 0, rc;
    int *places = malloc((size_t)size * sizeof(int));
    int *first = malloc((size_t)size * sizeof(int));
    int *aggr = NULL;

    rc = places && first ? coll_allgather(&place, 1, MPI_INT, places, 1,
                                          MPI_INT, f->comm)
                         : MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = places[j] == places[i];
        if (!seen)
            first[m++] = i;
    }
    if (n == 0)
        n = m;
    if (rc == MPI_SUCCESS &&
        (aggr = malloc((size_t)n * sizeof(int))) == NULL)
        rc = MPI_ERR_NO_MEM;
    for (int j = 0; rc == MPI_SUCCESS && j < n; j++)
        aggr[j] = n <= m ? first[(long)j * m / n] : (int)((long)j * size / n);
    free(places);
    free(first);
    if (rc != MPI_SUCCESS)
        return rc;
    free(f->cb.aggr);
    f->cb.aggr = aggr;
    f->cb.nodes = n;
    return MPI_SUCCESS;
}

int io_hints(MPI_File f)
{
    long long v[5] = { 0 };
    int rc;

    if (f->comm->rank == 0) {
        v[0] = hint_mode(f->info, "romio_cb_read");
        v[1] = hint_mode(f->info, "romio_cb_write");
        v[2] = hint_num(f->info, "cb_nodes", 1, f->comm->size, 0);
        v[3] = hint_num(f->info, "cb_buffer_size", 1, 1 << 30,
                        CB_BUFFER_SIZE);
        v[4] = hint_num(f->info, "striping_unit", 1, 1ll << 40, 0);
    }
    rc = coll_bcast(v, 5, MPI_OFFSET, 0, f->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    f->cb.read = (int)v[0];
    f->cb.write = (int)v[1];
    f->cb.bufsize = (int)v[3];
    f->cb.unit = v[4];
    return pick_aggregators(f, (int)v[2]);
}

void io_hints_free(MPI_File f)
{
    free(f->cb.aggr);
    f->cb.aggr = NULL;
}

/* The file's info with the values in use (a copy the caller frees). */
int io_hints_give(MPI_File f, MPI_Info *out)
{
    char n[24], b[24];
    int rc = info_give(f->info, out);

    snprintf(n, sizeof(n), "%d", f->cb.nodes);
    snprintf(b, sizeof(b), "%d", f->cb.bufsize);
    if (rc == MPI_SUCCESS)
        rc = info_set(*out, "cb_nodes", n);
    if (rc == MPI_SUCCESS)
        rc = info_set(*out, "cb_buffer_size", b);
    if (rc == MPI_SUCCESS)
        rc = info_set(*out, "romio_cb_read", modes[f->cb.read]);
    if (rc == MPI_SUCCESS)
        rc = info_set(*out, "romio_cb_write", modes[f->cb.write]);
    if (rc != MPI_SUCCESS && *out != MPI_INFO_NULL) {
        info_free(*out);
        *out = MPI_INFO_NULL;
    }
    return rc;
}
