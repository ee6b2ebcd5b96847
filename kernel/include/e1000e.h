/*
 * Intel 82574L (QEMU's e1000e): registers, descriptor layouts, and the
 * descriptor-ring bookkeeping (e1000e_ring.c, pure logic on memory the
 * caller gives, unit-tested on the host against a model controller:
 * tests/unit/test_e1000e_ring.c).  The driver is e1000e.c.
 *
 * Source: Intel 82574 GbE Controller Family Datasheet, chapter 10 (device
 * registers) and sections 7.1 and 7.2 (legacy receive and transmit
 * descriptors).  We use the legacy descriptor formats (RFCTL.EXSTEN = 0,
 * TDESC.DEXT = 0): 16 bytes each, one buffer per receive descriptor.
 */
#ifndef E1000E_H
#define E1000E_H

#include "kernel.h"

#define E1000E_VENDOR       0x8086
#define E1000E_DEV_82574L   0x10D3

/* Registers (byte offsets in BAR 0, the 128 KiB memory space). */
#define E1000_CTRL          0x00000     /* device control */
#define E1000_STATUS        0x00008
#define E1000_CTRL_EXT      0x00018
#define E1000_ICR           0x000C0     /* interrupt cause read */
#define E1000_ITR           0x000C4     /* interrupt throttling */
#define E1000_ICS           0x000C8     /* interrupt cause set */
#define E1000_IMS           0x000D0     /* interrupt mask set/read */
#define E1000_IMC           0x000D8     /* interrupt mask clear */
#define E1000_EIAC          0x000DC     /* extended auto clear (MSI-X) */
#define E1000_IAM           0x000E0     /* interrupt acknowledge auto mask */
#define E1000_IVAR          0x000E4     /* interrupt vector allocation */
#define E1000_EITR(n)       (0x000E8 + 4 * (n)) /* MSI-X vector n throttle */
#define E1000_RCTL          0x00100
#define E1000_TCTL          0x00400
#define E1000_TIPG          0x00410
#define E1000_RDBAL         0x02800     /* receive queue 0 */
#define E1000_RDBAH         0x02804
#define E1000_RDLEN         0x02808
#define E1000_RDH           0x02810
#define E1000_RDT           0x02818
#define E1000_RDTR          0x02820     /* receive delay timer */
#define E1000_RADV          0x0282C     /* receive absolute delay */
#define E1000_TDBAL         0x03800     /* transmit queue 0 */
#define E1000_TDBAH         0x03804
#define E1000_TDLEN         0x03808
#define E1000_TDH           0x03810
#define E1000_TDT           0x03818
#define E1000_MTA           0x05200     /* multicast table, 128 words */
#define E1000_RAL0          0x05400     /* receive address 0 (our MAC) */
#define E1000_RAH0          0x05404
#define E1000_MMIO_SIZE     0x20000

/* The queue registers are laid out alike, queue 1 0x100 above queue 0,
   transmit 0x1000 above receive (the datasheet's register summary). */
_Static_assert(E1000_TDBAL - E1000_RDBAL == 0x1000, "tx regs 4 KiB above rx");
_Static_assert(E1000_RDH - E1000_RDBAL == 0x10 && E1000_RDT - E1000_RDH == 8,
               "RDH, RDT at +0x10, +0x18 of RDBAL");
_Static_assert(E1000_TDT - E1000_TDBAL == E1000_RDT - E1000_RDBAL, "TDT");
_Static_assert(E1000_RAH0 == E1000_RAL0 + 4 && E1000_MTA + 128 * 4 <= E1000_RAL0,
               "RAL0/RAH0 pair above the 128-word MTA");

#define E1000_CTRL_SLU      (1u << 6)   /* set link up */
#define E1000_CTRL_RST      (1u << 26)  /* software reset, self-clearing */
#define E1000_STATUS_LU     (1u << 1)   /* link up */
#define E1000_RAH_AV        (1u << 31)  /* address valid */

#define E1000_RCTL_EN       (1u << 1)
#define E1000_RCTL_LPE      (1u << 5)   /* long packets (above 1522 bytes) */
#define E1000_RCTL_BAM      (1u << 15)  /* accept broadcast */
#define E1000_RCTL_BSIZE_2048   (0u << 16)
#define E1000_RCTL_BSIZE_16384  (1u << 16 | 1u << 25)  /* BSIZE 01, BSEX */
#define E1000_RCTL_SECRC    (1u << 26)  /* strip the Ethernet CRC */

#define E1000_TCTL_EN       (1u << 1)
#define E1000_TCTL_PSP      (1u << 3)   /* pad short packets */
#define E1000_TCTL_CT(x)    ((uint32_t)(x) << 4)
#define E1000_TCTL_COLD(x)  ((uint32_t)(x) << 12)
#define E1000_TIPG_DEFAULT  (8u | 8u << 10 | 6u << 20)  /* IPGT, IPGR1, 2 */

/* ICR/IMS/IMC bits. */
#define E1000_ICR_TXDW      (1u << 0)   /* descriptor written back */
#define E1000_ICR_LSC       (1u << 2)   /* link status change */
#define E1000_ICR_RXDMT0    (1u << 4)
#define E1000_ICR_RXO       (1u << 6)   /* receiver overrun */
#define E1000_ICR_RXT0      (1u << 7)   /* receive timer: a frame is in */
#define E1000_ICR_RXQ0      (1u << 20)  /* MSI-X: receive queue 0 */
#define E1000_ICR_TXQ0      (1u << 22)  /* MSI-X: transmit queue 0 */
#define E1000_ICR_OTHER     (1u << 24)  /* MSI-X: other causes (LSC...) */
#define E1000_ICR_ASSERTED  (1u << 31)

/* IVAR: a 4-bit field per cause, low three bits the MSI-X entry and bit 3
   "valid": RxQ0 [3:0], RxQ1 [7:4], TxQ0 [11:8], TxQ1 [15:12], Other
   [19:16]. */
#define E1000_IVAR_VALID    0x8u
#define E1000_IVAR_RXQ0(v)  ((E1000_IVAR_VALID | (v)) << 0)
#define E1000_IVAR_TXQ0(v)  ((E1000_IVAR_VALID | (v)) << 8)
#define E1000_IVAR_OTHER(v) ((E1000_IVAR_VALID | (v)) << 16)

/* Legacy transmit descriptor (datasheet 7.2). */
struct e1000_tx_desc {
    uint64_t addr;
    uint16_t length;
    uint8_t cso;
    uint8_t cmd;
    uint8_t status;
    uint8_t css;
    uint16_t special;
};
#define E1000_TXD_CMD_EOP   0x01        /* end of packet */
#define E1000_TXD_CMD_IFCS  0x02        /* insert the CRC */
#define E1000_TXD_CMD_RS    0x08        /* report status (write DD back) */
#define E1000_TXD_CMD_DEXT  0x20        /* extended format: never set here */
#define E1000_TXD_STA_DD    0x01        /* descriptor done */

/* Legacy receive descriptor (datasheet 7.1). */
struct e1000_rx_desc {
    uint64_t addr;
    uint16_t length;
    uint16_t csum;
    uint8_t status;
    uint8_t errors;
    uint16_t special;
};
#define E1000_RXD_STA_DD    0x01
#define E1000_RXD_STA_EOP   0x02
#define E1000_RXD_ERR_FRAME 0x97        /* CE, SE, SEQ, CXE, RXE: a bad frame */

_Static_assert(sizeof(struct e1000_tx_desc) == 16, "legacy tx descriptor");
_Static_assert(__builtin_offsetof(struct e1000_tx_desc, length) == 8, "TDESC.length");
_Static_assert(__builtin_offsetof(struct e1000_tx_desc, cmd) == 11, "TDESC.CMD byte 11");
_Static_assert(__builtin_offsetof(struct e1000_tx_desc, status) == 12, "TDESC.STA byte 12");
_Static_assert(sizeof(struct e1000_rx_desc) == 16, "legacy rx descriptor");
_Static_assert(__builtin_offsetof(struct e1000_rx_desc, status) == 12, "RDESC.status");
_Static_assert(__builtin_offsetof(struct e1000_rx_desc, errors) == 13, "RDESC.errors");

/* Ring lengths (RDLEN/TDLEN) are multiples of 128 bytes: 8 descriptors. */
#define E1000E_RING_MIN     8
#define E1000E_RING_MAX     256
#define E1000E_TX_BUFS      8           /* descriptors one frame may take */

/* Transmit ring: the driver fills from `tail`, the controller consumes up
   to TDT and writes DD into the last descriptor of each frame (RS is set
   only there); `clean` is the first descriptor not yet reclaimed.  One
   descriptor stays empty so that TDH == TDT means "empty". */
struct e1000e_txring {
    struct e1000_tx_desc *desc;
    uint16_t size, tail, clean, nfree;
    uint16_t last[E1000E_RING_MAX];     /* frame's first desc -> its last */
};

/* Receive ring: descriptor i always points at buffer i.  `next` is the
   next descriptor the controller fills; `tail` (what RDT should hold) is
   the last one we took back, which stays out of the controller's hands so
   that RDH never catches RDT: the controller owns next..tail-1. */
struct e1000e_rxring {
    struct e1000_rx_desc *desc;
    uint16_t size, next, tail;
    bool skipping;                      /* inside a frame we drop */
    uint64_t bad_frames;                /* errors, or split over buffers */
};

struct e1000e_txbuf {
    uint64_t addr;
    uint16_t len;
};

/* Zeroed descriptor memory, 16-byte aligned (the controller wants 128
   for the base; the caller's memory is page aligned).  0 or -EINVAL. */
int e1000e_tx_init(struct e1000e_txring *r, void *desc, unsigned size);
/* One frame of n buffers (n >= 1, lengths 1..65535): its first
   descriptor's index (>= 0), -EAGAIN (no room now), -EINVAL.  The caller
   then writes TDT = r->tail. */
int e1000e_tx_add(struct e1000e_txring *r, const struct e1000e_txbuf *b,
                  int n);
/* Reclaim frames the controller has sent; how many. */
int e1000e_tx_reclaim(struct e1000e_txring *r);
bool e1000e_tx_idle(const struct e1000e_txring *r);

/* Every descriptor gets buffer i at buf_phys + i * buf_size; the caller
   then writes RDT = r->tail.  0 or -EINVAL. */
int e1000e_rx_init(struct e1000e_rxring *r, void *desc, unsigned size,
                   uint64_t buf_phys, uint32_t buf_size);
/* The next complete good frame: its buffer index (>= 0) and *len;
   -EAGAIN if none.  Bad frames and frames spread over several buffers
   are given back at once and counted.  After using buffer idx the caller
   gives it back with e1000e_rx_release (before the next e1000e_rx_next),
   then writes RDT = r->tail. */
int e1000e_rx_next(struct e1000e_rxring *r, uint32_t *len);
void e1000e_rx_release(struct e1000e_rxring *r, unsigned idx);
/* Has the controller written back a descriptor e1000e_rx_next would look
   at (a frame, or a bad one it would give back)? */
bool e1000e_rx_ready(const struct e1000e_rxring *r);

/* Bring up every 82574L pci_init found and register each with the netdev
   layer (e1000e.c). */
void e1000e_probe(void);

#endif
