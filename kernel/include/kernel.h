/* Small things every kernel file uses. */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "errno.h"

#define ARRAY_SIZE(a)       (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)      (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)    ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)    (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define MIN(a, b)           ((a) < (b) ? (a) : (b))
#define MAX(a, b)           ((a) > (b) ? (a) : (b))
#define KiB(x)              ((uint64_t)(x) << 10)
#define MiB(x)              ((uint64_t)(x) << 20)
#define GiB(x)              ((uint64_t)(x) << 30)
#define likely(x)           __builtin_expect(!!(x), 1)
#define unlikely(x)         __builtin_expect(!!(x), 0)
#define __noreturn          __attribute__((noreturn))
#define __packed            __attribute__((packed))

#endif
