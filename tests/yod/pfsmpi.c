/* SPDX-License-Identifier: MIT */
/*
 * pfsmpi: MPI-IO on a striped file (tests/qemu/suite-io): MPI_File_open
 * of /pfs/NAME with ROMIO's hints striping_factor FACTOR and
 * striping_unit UNIT creates it with that layout; every rank writes its
 * block of BS bytes at rank * BS, then reads the next rank's back, every
 * byte checked.  Prints "rank R: mpi-io ok" or "FAIL ..."; status 0 or 1.
 *
 *   pfsmpi NAME BS FACTOR UNIT
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char byte(long long o)
{
    return (unsigned char)((o % 251 + o / 4096) & 255);
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_File fh;
    MPI_Info info;
    MPI_Status st;
    char path[256];
    unsigned char *buf;
    long long bs, at;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5) {
        fprintf(stderr, "usage: pfsmpi NAME BS FACTOR UNIT\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    bs = atoll(argv[2]);
    snprintf(path, sizeof(path), "/pfs/%s", argv[1]);
    if (!(buf = malloc((size_t)bs)))
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Info_create(&info);
    MPI_Info_set(info, "striping_factor", argv[3]);
    MPI_Info_set(info, "striping_unit", argv[4]);
    at = rank * bs;
    for (long long i = 0; i < bs; i++)
        buf[i] = byte(at + i);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                      info, &fh) != MPI_SUCCESS ||
        MPI_File_write_at(fh, at, buf, (int)bs, MPI_BYTE, &st) != MPI_SUCCESS ||
        MPI_File_close(&fh) != MPI_SUCCESS) {
        printf("rank %d: FAIL write\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    at = (rank + 1) % size * bs;
    memset(buf, 0, (size_t)bs);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS ||
        MPI_File_read_at(fh, at, buf, (int)bs, MPI_BYTE, &st) != MPI_SUCCESS ||
        MPI_File_close(&fh) != MPI_SUCCESS) {
        printf("rank %d: FAIL read\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long long i = 0; i < bs && !bad; i++)
        bad = buf[i] != byte(at + i);
    printf("rank %d: %s\n", rank, bad ? "FAIL bytes" : "mpi-io ok");
    MPI_Info_free(&info);
    MPI_Finalize();
    return bad;
}
