/* SPDX-License-Identifier: MIT */
/*
 * sys/dirent.h: DIR and struct dirent for newlib's <dirent.h> (newlib's
 * own file for this target is an #error).  A directory is read through
 * yod (Linux's getdents64 records, yod_proto.h YOD_F_GETDENTS); the entry
 * has Linux's fields (libc/dirent.c).
 */
#ifndef LWK_SYS_DIRENT_H
#define LWK_SYS_DIRENT_H

#include <sys/types.h>

#define MAXNAMLEN       255

#define DT_UNKNOWN      0
#define DT_FIFO         1
#define DT_CHR          2
#define DT_DIR          4
#define DT_BLK          6
#define DT_REG          8
#define DT_LNK          10
#define DT_SOCK         12

struct dirent {
    ino_t d_ino;
    off_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;       /* DT_* */
    char d_name[MAXNAMLEN + 1];
};

typedef struct lwk_dir DIR;

#endif
