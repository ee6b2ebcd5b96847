/*
 * 82574L descriptor rings (see include/e1000e.h).  Pure logic: the
 * controller is the other side of the descriptor memory and of the head
 * and tail registers the driver writes.  As in virtq.c, x86 keeps stores
 * in order and loads in order, so compiler barriers suffice: descriptors
 * are complete before the caller's tail write (an uncached store, which
 * also orders), and a descriptor's DD bit is read before its other fields.
 */
#include "kernel.h"
#include "e1000e.h"

#define barrier()       __asm__ volatile("" ::: "memory")
#define READ_ONCE(x)    (*(const volatile __typeof__(x) *)&(x))

static bool size_ok(unsigned size)
{
    return size >= E1000E_RING_MIN && size <= E1000E_RING_MAX &&
           size % E1000E_RING_MIN == 0;
}

int e1000e_tx_init(struct e1000e_txring *r, void *desc, unsigned size)
{
    if (!size_ok(size) || ((uintptr_t)desc & 15))
        return -EINVAL;
    *r = (struct e1000e_txring){ .desc = desc, .size = size,
                                 .nfree = size - 1 };
    return 0;
}

int e1000e_tx_add(struct e1000e_txring *r, const struct e1000e_txbuf *b,
                  int n)
{
    uint16_t first = r->tail, i = first;

    if (n < 1 || n > E1000E_TX_BUFS)
        return -EINVAL;
    for (int k = 0; k < n; k++)
        if (!b[k].len)
            return -EINVAL;
    if (n > r->nfree)
        return -EAGAIN;
    for (int k = 0; k < n; k++) {
        bool end = k + 1 == n;
        r->desc[i] = (struct e1000_tx_desc){
            .addr = b[k].addr, .length = b[k].len,
            .cmd = E1000_TXD_CMD_IFCS |
                   (end ? E1000_TXD_CMD_EOP | E1000_TXD_CMD_RS : 0) };
        if (end)
            r->last[first] = i;
        i = (i + 1) % r->size;
    }
    barrier();                  /* descriptors before the tail that shows them */
    r->tail = i;
    r->nfree -= n;
    return first;
}

int e1000e_tx_reclaim(struct e1000e_txring *r)
{
    int frames = 0;

    while (r->clean != r->tail) {
        uint16_t last = r->last[r->clean];
        if (!(READ_ONCE(r->desc[last].status) & E1000_TXD_STA_DD))
            break;
        r->nfree += (uint16_t)((last - r->clean + r->size) % r->size + 1);
        r->clean = (last + 1) % r->size;
        frames++;
    }
    return frames;
}

bool e1000e_tx_idle(const struct e1000e_txring *r)
{
    return r->clean == r->tail;
}

int e1000e_rx_init(struct e1000e_rxring *r, void *desc, unsigned size,
                   uint64_t buf_phys, uint32_t buf_size)
{
    if (!size_ok(size) || ((uintptr_t)desc & 15) || !buf_size)
        return -EINVAL;
    *r = (struct e1000e_rxring){ .desc = desc, .size = size,
                                 .tail = size - 1 };
    for (unsigned i = 0; i < size; i++)
        r->desc[i] = (struct e1000_rx_desc){
            .addr = buf_phys + (uint64_t)i * buf_size };
    return 0;
}

bool e1000e_rx_ready(const struct e1000e_rxring *r)
{
    return r->next != r->tail &&
           (READ_ONCE(r->desc[r->next].status) & E1000_RXD_STA_DD);
}

void e1000e_rx_release(struct e1000e_rxring *r, unsigned idx)
{
    struct e1000_rx_desc *d = &r->desc[idx % r->size];

    d->status = 0;              /* DD clear before the controller owns it */
    d->errors = 0;
    d->length = 0;
    barrier();
    r->tail = idx % r->size;
}

int e1000e_rx_next(struct e1000e_rxring *r, uint32_t *len)
{
    for (;;) {
        struct e1000_rx_desc *d = &r->desc[r->next];
        uint16_t idx = r->next;
        uint8_t st;

        if (idx == r->tail || !((st = READ_ONCE(d->status)) & E1000_RXD_STA_DD))
            return -EAGAIN;
        barrier();              /* DD before the length and errors it covers */
        r->next = (idx + 1) % r->size;
        if (r->skipping || !(st & E1000_RXD_STA_EOP) ||
            (d->errors & E1000_RXD_ERR_FRAME) || !d->length) {
            if (!r->skipping)
                r->bad_frames++;
            r->skipping = !(st & E1000_RXD_STA_EOP);
            e1000e_rx_release(r, idx);
            continue;
        }
        *len = d->length;
        return idx;
    }
}
