/*
 * Split virtqueue bookkeeping (see include/virtq.h).  Pure logic: the
 * device is the other side of three shared memory areas, so the order of
 * stores and loads is what matters; x86 keeps stores in order and loads in
 * order, so a compiler barrier separates them except where a store must be
 * seen before a later load (virtq_kick_needed), which takes a full fence.
 */
#include "kernel.h"
#include "virtq.h"

#define barrier()       __asm__ volatile("" ::: "memory")
#define READ_ONCE(x)    (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

int virtq_init(struct virtq *q, unsigned size, void *desc, void *avail,
               void *used)
{
    if (!size || size > VIRTQ_MAX_SIZE || (size & (size - 1)))
        return -EINVAL;
    *q = (struct virtq){ .size = size, .nfree = size, .desc = desc,
                         .avail = avail, .used = used };
    for (unsigned i = 0; i < size; i++)
        q->desc[i].next = i + 1;        /* the last one is never followed */
    return 0;
}

int virtq_add(struct virtq *q, const struct virtq_buf *b, int n)
{
    uint16_t head = q->free_head, i = head;

    if (n < 1 || n > q->size)
        return -EINVAL;
    if (n > q->nfree)
        return -EAGAIN;
    /* The free list is chained through .next, so the chain's links are
       already in place: only the last descriptor's flag ends it. */
    for (int k = 0; k < n; k++) {
        struct virtq_desc *d = &q->desc[i];
        d->addr = b[k].addr;
        d->len = b[k].len;
        d->flags = (b[k].device_writes ? VIRTQ_DESC_F_WRITE : 0) |
                   (k + 1 < n ? VIRTQ_DESC_F_NEXT : 0);
        if (k + 1 < n)
            i = d->next;
    }
    q->free_head = q->desc[i].next;
    q->nfree -= n;
    q->heads[head / 64] |= 1ULL << (head % 64);
    q->avail->ring[q->avail_idx & (q->size - 1)] = head;
    barrier();                  /* the entry before the index that shows it */
    WRITE_ONCE(q->avail->idx, ++q->avail_idx);
    return head;
}

bool virtq_kick_needed(const struct virtq *q)
{
    __sync_synchronize();       /* our avail->idx store before its flags load */
    return !(READ_ONCE(q->used->flags) & VIRTQ_USED_F_NO_NOTIFY);
}

bool virtq_has_used(const struct virtq *q)
{
    return READ_ONCE(q->used->idx) != q->last_used;
}

/* Give chain `head` back to the free list; its length, or 0 if it is not
   a well-formed chain (a loop or a stray index). */
static int free_chain(struct virtq *q, uint16_t head)
{
    uint16_t i = head;
    int n = 1;

    if (!(q->heads[head / 64] & (1ULL << (head % 64))))
        return 0;
    while (q->desc[i].flags & VIRTQ_DESC_F_NEXT) {
        i = q->desc[i].next;
        if (i >= q->size || ++n > q->size - q->nfree)
            return 0;
    }
    q->heads[head / 64] &= ~(1ULL << (head % 64));
    q->desc[i].next = q->free_head;
    q->free_head = head;
    q->nfree += n;
    return n;
}

int virtq_get_used(struct virtq *q, uint32_t *len)
{
    struct virtq_used_elem e;

    if (!virtq_has_used(q))
        return -EAGAIN;
    barrier();                  /* the index before the entry it covers */
    e = q->used->ring[q->last_used & (q->size - 1)];
    q->last_used++;
    if (e.id >= q->size || !free_chain(q, e.id))
        return -EIO;
    *len = e.len;
    return e.id;
}

void virtq_set_interrupts(struct virtq *q, bool on)
{
    WRITE_ONCE(q->avail->flags, on ? 0 : VIRTQ_AVAIL_F_NO_INTERRUPT);
}
