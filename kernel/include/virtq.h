/*
 * The virtio split virtqueue (virtq.c): descriptor table, available ring
 * (driver -> device) and used ring (device -> driver), and the driver's
 * bookkeeping of free descriptors.  Pure logic on memory the caller gives
 * (unit-tested on the host, tests/unit/test_virtq.c); the transport that
 * tells the device where the rings are and kicks it is in virtio.c.
 * Layouts: virtio 1.x, "Split Virtqueues" (all fields little endian, which
 * is x86's order).
 */
#ifndef VIRTQ_H
#define VIRTQ_H

#include "kernel.h"

#define VIRTQ_DESC_F_NEXT           1   /* chain continues at .next */
#define VIRTQ_DESC_F_WRITE          2   /* device writes (else reads) */
#define VIRTQ_DESC_F_INDIRECT       4
#define VIRTQ_AVAIL_F_NO_INTERRUPT  1
#define VIRTQ_USED_F_NO_NOTIFY      1

/* Queue sizes up to 256 keep each of the three parts within one 4 KiB
   page, so each can come from kpage_alloc. */
#define VIRTQ_MAX_SIZE              256

struct virtq_desc {
    uint64_t addr;              /* guest physical */
    uint32_t len;
    uint16_t flags;
    uint16_t next;
};

struct virtq_avail {
    uint16_t flags;
    uint16_t idx;               /* where the driver puts the next entry */
    uint16_t ring[];            /* then: uint16_t used_event */
};

struct virtq_used_elem {
    uint32_t id;                /* head of the finished chain */
    uint32_t len;               /* bytes the device wrote into it */
};

struct virtq_used {
    uint16_t flags;
    uint16_t idx;
    struct virtq_used_elem ring[];  /* then: uint16_t avail_event */
};

_Static_assert(sizeof(struct virtq_desc) == 16, "virtq_desc is 16 bytes");
_Static_assert(__builtin_offsetof(struct virtq_desc, next) == 14, "desc.next");
_Static_assert(sizeof(struct virtq_avail) == 4, "avail header: flags, idx");
_Static_assert(sizeof(struct virtq_used_elem) == 8, "used element is 8 bytes");
_Static_assert(sizeof(struct virtq_used) == 4, "used header: flags, idx");

/* Bytes of each part for a queue of n entries (with the event word). */
#define VIRTQ_DESC_BYTES(n)     (16u * (n))
#define VIRTQ_AVAIL_BYTES(n)    (6u + 2u * (n))
#define VIRTQ_USED_BYTES(n)     (6u + 8u * (n))

struct virtq {
    uint16_t size;              /* entries, a power of two */
    uint16_t nfree;             /* descriptors on the free list */
    uint16_t free_head;         /* free list, chained through desc.next */
    uint16_t avail_idx;         /* our copy of avail->idx */
    uint16_t last_used;         /* next used entry to consume */
    struct virtq_desc *desc;
    struct virtq_avail *avail;
    struct virtq_used *used;
    uint64_t heads[VIRTQ_MAX_SIZE / 64];    /* heads of outstanding chains */
};

/* One buffer of a chain: physical address, length, and who writes it. */
struct virtq_buf {
    uint64_t addr;
    uint32_t len;
    bool device_writes;
};

/* Set up an empty queue on zeroed memory: desc 16-aligned, avail
   2-aligned, used 4-aligned.  0, or -EINVAL for a bad size. */
int virtq_init(struct virtq *q, unsigned size, void *desc, void *avail,
               void *used);
/* Put a chain of n buffers on the available ring.  The head descriptor's
   index (>= 0), -EINVAL (n < 1 or longer than the queue), or -EAGAIN (not
   enough free descriptors now). */
int virtq_add(struct virtq *q, const struct virtq_buf *b, int n);
/* After adds: must the device be notified?  (Not if it said so.) */
bool virtq_kick_needed(const struct virtq *q);
/* Has the device finished a chain we have not taken yet? */
bool virtq_has_used(const struct virtq *q);
/* Take the next finished chain: its head index (its descriptors are free
   again) and *len, the bytes the device wrote; -EAGAIN if none; -EIO if
   the device returned something that is not an outstanding chain. */
int virtq_get_used(struct virtq *q, uint32_t *len);
/* Ask the device not to interrupt for this queue (or to again). */
void virtq_set_interrupts(struct virtq *q, bool on);

#endif
