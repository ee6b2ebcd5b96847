/*
 * The virtio 1.x PCI transport (virtio.c): finding the device's
 * configuration structures through its vendor capabilities, the status
 * handshake, feature negotiation, queue setup and notification.  The
 * rings themselves are virtq.h.  Layouts and numbers follow the virtio
 * 1.x specification, "Virtio Over PCI Bus"; the asserts below pin them.
 */
#ifndef VIRTIO_H
#define VIRTIO_H

#include "kernel.h"
#include "pci.h"
#include "virtq.h"

#define VIRTIO_PCI_VENDOR           0x1AF4
#define VIRTIO_PCI_MODERN_BASE      0x1040  /* + device type */
#define VIRTIO_ID_NET               1

/* virtio_pci_cap.cfg_type */
#define VIRTIO_PCI_CAP_COMMON_CFG   1
#define VIRTIO_PCI_CAP_NOTIFY_CFG   2
#define VIRTIO_PCI_CAP_ISR_CFG      3
#define VIRTIO_PCI_CAP_DEVICE_CFG   4
#define VIRTIO_PCI_CAP_PCI_CFG      5

/* device_status */
#define VIRTIO_STATUS_ACKNOWLEDGE   1
#define VIRTIO_STATUS_DRIVER        2
#define VIRTIO_STATUS_DRIVER_OK     4
#define VIRTIO_STATUS_FEATURES_OK   8
#define VIRTIO_STATUS_NEEDS_RESET   64
#define VIRTIO_STATUS_FAILED        128

/* Device-independent feature bits. */
#define VIRTIO_F_INDIRECT_DESC      28
#define VIRTIO_F_RING_EVENT_IDX     29
#define VIRTIO_F_VERSION_1          32

#define VIRTIO_MSI_NO_VECTOR        0xFFFF

struct virtio_pci_cap {
    uint8_t cap_vndr;           /* PCI_CAP_VENDOR */
    uint8_t cap_next;
    uint8_t cap_len;
    uint8_t cfg_type;
    uint8_t bar;
    uint8_t id;
    uint8_t padding[2];
    uint32_t offset;            /* within the BAR */
    uint32_t length;
};
/* The notify capability adds notify_off_multiplier after the above. */
#define VIRTIO_PCI_NOTIFY_MULT_OFF  16

struct virtio_pci_common_cfg {
    uint32_t device_feature_select;
    uint32_t device_feature;
    uint32_t driver_feature_select;
    uint32_t driver_feature;
    uint16_t msix_config;
    uint16_t num_queues;
    uint8_t device_status;
    uint8_t config_generation;
    uint16_t queue_select;      /* the fields below are this queue's */
    uint16_t queue_size;
    uint16_t queue_msix_vector;
    uint16_t queue_enable;
    uint16_t queue_notify_off;
    uint32_t queue_desc_lo, queue_desc_hi;
    uint32_t queue_driver_lo, queue_driver_hi;  /* the available ring */
    uint32_t queue_device_lo, queue_device_hi;  /* the used ring */
};

#define VIRTIO_OFF(f) __builtin_offsetof(struct virtio_pci_common_cfg, f)
_Static_assert(sizeof(struct virtio_pci_cap) == 16, "virtio_pci_cap");
_Static_assert(__builtin_offsetof(struct virtio_pci_cap, offset) == 8, "cap.offset");
_Static_assert(VIRTIO_OFF(msix_config) == 16, "common.msix_config");
_Static_assert(VIRTIO_OFF(device_status) == 20, "common.device_status");
_Static_assert(VIRTIO_OFF(queue_select) == 22, "common.queue_select");
_Static_assert(VIRTIO_OFF(queue_msix_vector) == 26, "common.queue_msix_vector");
_Static_assert(VIRTIO_OFF(queue_notify_off) == 30, "common.queue_notify_off");
_Static_assert(VIRTIO_OFF(queue_desc_lo) == 32, "common.queue_desc");
_Static_assert(VIRTIO_OFF(queue_driver_lo) == 40, "common.queue_driver");
_Static_assert(VIRTIO_OFF(queue_device_lo) == 48, "common.queue_device");
_Static_assert(sizeof(struct virtio_pci_common_cfg) == 56, "common config");

struct virtio_dev {
    struct pci_dev *pci;
    volatile struct virtio_pci_common_cfg *common;
    volatile uint8_t *notify;   /* notification area base */
    uint32_t notify_mult;       /* bytes per queue_notify_off */
    volatile uint8_t *isr;
    volatile uint8_t *config;   /* device-specific configuration */
    uint32_t config_len;
    uint64_t features;          /* negotiated */
};

struct virtio_queue {
    struct virtq vq;
    uint16_t index;
    volatile uint16_t *notify;
};

/* Map the modern capabilities of `pci`, reset the device and announce a
   driver.  0, or -ENODEV (not a modern virtio device, or a capability
   that cannot be mapped). */
int virtio_pci_init(struct virtio_dev *vd, struct pci_dev *pci);
/* Offer `want` (which must include `need` and VERSION_1); fails with
   -ENODEV if the device lacks something in `need` or refuses the set. */
int virtio_negotiate(struct virtio_dev *vd, uint64_t want, uint64_t need);
static inline bool virtio_has(const struct virtio_dev *vd, int bit)
{
    return vd->features & (1ULL << bit);
}
/* Set up queue `index` with at most `max` entries (rings from
   kpage_alloc), interrupts through MSI-X table entry `msix` (or
   VIRTIO_MSI_NO_VECTOR).  0, -ENODEV (no such queue), -ENOMEM, -EIO (the
   device would not take the vector). */
int virtio_queue_setup(struct virtio_dev *vd, struct virtio_queue *q,
                       int index, unsigned max, unsigned msix);
/* Route configuration-change interrupts (VIRTIO_MSI_NO_VECTOR: none). */
int virtio_config_vector(struct virtio_dev *vd, unsigned msix);
void virtio_driver_ok(struct virtio_dev *vd);
/* Give up on the device: it stops using our memory (reset), FAILED set. */
void virtio_fail(struct virtio_dev *vd);
/* Notify the device that queue q has new available buffers, if it
   wants to know; true if it was notified. */
bool virtio_kick(struct virtio_queue *q);
/* Copy len bytes of device configuration at off, consistently (retried
   while the device changes it under us). */
void virtio_config_read(struct virtio_dev *vd, uint32_t off, void *dst,
                        uint32_t len);

#endif
