/* SPDX-License-Identifier: MIT */
/*
 * pfs_map.h: where the bytes of a striped file (PFS, docs/io.md) live.
 * A file of stripe factor F and unit U is F stripe files: its logical
 * bytes go round-robin in units of U bytes, unit k to stripe k mod F at
 * offset (k / F) * U of that stripe.  Its size is not recorded anywhere:
 * it is the highest logical end any stripe's bytes reach, so that ranks
 * writing at once need no common record (ftruncate sets every stripe's
 * size to what the new logical size gives it).  Shared by yod's servers
 * (yod/pfs.c), the nodes' libc (libc/pfs.c) and tools/lwk-pfs (which
 * does the same sums in Python).
 *
 * The metadata file (the file's name, beside its siblings) is one line:
 *   lwk-pfs 1 id HEX16 factor F unit U
 * and stripe i of the file with id X is .pfs/I/X under the PFS
 * directory: the storage directory of stripe I (the job's server I mod
 * N serves it).
 */
#ifndef PFS_MAP_H
#define PFS_MAP_H

#include <stdint.h>

#define PFS_MOUNT       "/pfs"          /* where the ranks see the PFS */
#define PFS_STORE       ".pfs"          /* the stripes, under the PFS dir */
#define PFS_FACTOR_MAX  64              /* stripes of a file, at most */
#define PFS_UNIT_MIN    4096u           /* the unit: a multiple of this */
#define PFS_UNIT_MAX    (1ull << 30)
#define PFS_UNIT_DEFAULT (1ull << 20)   /* and the factor: the job's servers */
#define PFS_META_MAX    128             /* bytes of the metadata line */

/* Is (factor, unit) a layout a file may have? */
static inline int pfs_layout_ok(uint64_t factor, uint64_t unit)
{
    return factor >= 1 && factor <= PFS_FACTOR_MAX && unit >= PFS_UNIT_MIN &&
           unit <= PFS_UNIT_MAX && unit % PFS_UNIT_MIN == 0;
}

/* The stripe holding logical offset `off`. */
static inline uint32_t pfs_stripe_of(uint64_t off, uint64_t unit,
                                     uint32_t factor)
{
    return (uint32_t)(off / unit % factor);
}

/* Where logical offset `off` is in its stripe file. */
static inline uint64_t pfs_stripe_off(uint64_t off, uint64_t unit,
                                      uint32_t factor)
{
    return off / unit / factor * unit + off % unit;
}

/* Bytes from `off` to the end of its unit: the most one piece may hold. */
static inline uint64_t pfs_unit_left(uint64_t off, uint64_t unit)
{
    return unit - off % unit;
}

/* The size of stripe i of a file of `size` logical bytes. */
static inline uint64_t pfs_stripe_size(uint64_t size, uint32_t i,
                                       uint64_t unit, uint32_t factor)
{
    uint64_t row = unit * factor, rem = size % row, lo = (uint64_t)i * unit;

    return size / row * unit +
           (rem <= lo ? 0 : rem - lo < unit ? rem - lo : unit);
}

/* The logical end (one past its last byte) of stripe i of `len` bytes:
   0 for an empty stripe.  The file's size is the largest of these. */
static inline uint64_t pfs_logical_end(uint64_t len, uint32_t i,
                                       uint64_t unit, uint32_t factor)
{
    uint64_t last = len - 1;

    if (len == 0)
        return 0;
    return (last / unit * factor + i) * unit + last % unit + 1;
}

#endif
