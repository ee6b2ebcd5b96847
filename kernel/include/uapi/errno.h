/*
 * Error numbers of the Q-Kernel ABI.  Calls return -E*.  The values are
 * newlib's (<sys/errno.h>), so libc passes them to errno unchanged.
 */
#ifndef UAPI_ERRNO_H
#define UAPI_ERRNO_H

#define EPERM           1
#define ENOENT          2
#define ESRCH           3
#define EINTR           4
#define EIO             5
#define E2BIG           7
#define ENOEXEC         8
#define EBADF           9
#define ECHILD          10
#define EAGAIN          11
#define ENOMEM          12
#define EACCES          13
#define EFAULT          14
#define EBUSY           16
#define EEXIST          17
#define ENODEV          19
#define EINVAL          22
#define ENOSPC          28
#define ERANGE          34
#define ENOSYS          88
#define ETIMEDOUT       116

#endif
