/*
 * virtio 1.x over PCI (see include/virtio.h).  Only the modern interface:
 * every structure is found through a vendor capability and reached by
 * MMIO; the legacy I/O-port interface of transitional devices is unused.
 */
#define LOG_PREFIX "virtio"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "virtio.h"

#define CAP_FIELD(p, f)   ((p) + __builtin_offsetof(struct virtio_pci_cap, f))

/* Map the structure one capability describes. */
static volatile void *map_cap(struct pci_dev *d, uint8_t cap, uint32_t *len)
{
    uint8_t bar = pci_read8(d, CAP_FIELD(cap, bar));
    uint32_t off = pci_read32(d, CAP_FIELD(cap, offset));

    *len = pci_read32(d, CAP_FIELD(cap, length));
    return pci_bar_map(d, bar, off, *len);
}

/* The first capability of each type is the one to use (the spec lets a
   device offer alternatives after it). */
static void find_caps(struct virtio_dev *vd)
{
    struct pci_dev *d = vd->pci;
    uint32_t len;

    for (uint8_t c = pci_find_cap(d, PCI_CAP_VENDOR, 0); c;
         c = pci_find_cap(d, PCI_CAP_VENDOR, c)) {
        uint8_t type = pci_read8(d, CAP_FIELD(c, cfg_type));
        if (type == VIRTIO_PCI_CAP_COMMON_CFG && !vd->common)
            vd->common = map_cap(d, c, &len);
        else if (type == VIRTIO_PCI_CAP_NOTIFY_CFG && !vd->notify) {
            vd->notify = map_cap(d, c, &len);
            vd->notify_mult = pci_read32(d, c + VIRTIO_PCI_NOTIFY_MULT_OFF);
        } else if (type == VIRTIO_PCI_CAP_ISR_CFG && !vd->isr)
            vd->isr = map_cap(d, c, &len);
        else if (type == VIRTIO_PCI_CAP_DEVICE_CFG && !vd->config) {
            vd->config = map_cap(d, c, &len);
            vd->config_len = len;
        }
    }
}

static void set_status(struct virtio_dev *vd, uint8_t bits)
{
    vd->common->device_status = vd->common->device_status | bits;
}

static void reset(struct virtio_dev *vd)
{
    vd->common->device_status = 0;
    while (vd->common->device_status)   /* reset done when it reads 0 */
        __asm__ volatile("pause");
}

int virtio_pci_init(struct virtio_dev *vd, struct pci_dev *pci)
{
    *vd = (struct virtio_dev){ .pci = pci };
    if (pci->vendor != VIRTIO_PCI_VENDOR)
        return -ENODEV;
    pci_enable(pci);
    find_caps(vd);
    if (!vd->common || !vd->notify || !vd->isr)
        return -ENODEV;
    reset(vd);
    set_status(vd, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
    return 0;
}

static uint64_t device_features(struct virtio_dev *vd)
{
    uint64_t f;

    vd->common->device_feature_select = 1;
    f = (uint64_t)vd->common->device_feature << 32;
    vd->common->device_feature_select = 0;
    return f | vd->common->device_feature;
}

int virtio_negotiate(struct virtio_dev *vd, uint64_t want, uint64_t need)
{
    uint64_t have = device_features(vd);

    need |= 1ULL << VIRTIO_F_VERSION_1;
    if ((have & need) != need)
        return -ENODEV;
    vd->features = have & (want | need);
    vd->common->driver_feature_select = 0;
    vd->common->driver_feature = (uint32_t)vd->features;
    vd->common->driver_feature_select = 1;
    vd->common->driver_feature = vd->features >> 32;
    set_status(vd, VIRTIO_STATUS_FEATURES_OK);
    if (!(vd->common->device_status & VIRTIO_STATUS_FEATURES_OK))
        return -ENODEV;         /* the device did not accept our subset */
    return 0;
}

static void write64(volatile uint32_t *lo, volatile uint32_t *hi, uint64_t v)
{
    *lo = (uint32_t)v;
    *hi = v >> 32;
}

/* Three pages, one per part: each fits a page at VIRTQ_MAX_SIZE. */
static int alloc_rings(uint64_t pa[3])
{
    for (int i = 0; i < 3; i++) {
        pa[i] = kpage_alloc();  /* zeroed */
        if (!pa[i]) {
            while (i--)
                kpage_free(pa[i]);
            return -ENOMEM;
        }
    }
    return 0;
}

static void free_rings(const uint64_t pa[3])
{
    for (int i = 0; i < 3; i++)
        kpage_free(pa[i]);
}

int virtio_queue_setup(struct virtio_dev *vd, struct virtio_queue *q,
                       int index, unsigned max, unsigned msix)
{
    volatile struct virtio_pci_common_cfg *c = vd->common;
    unsigned size;
    uint64_t pa[3];

    c->queue_select = index;
    size = c->queue_size;
    if (!size || c->queue_enable)
        return -ENODEV;
    size = MIN(size, MIN(max, VIRTQ_MAX_SIZE));
    if (alloc_rings(pa) < 0)
        return -ENOMEM;
    if (virtq_init(&q->vq, size, phys_to_virt(pa[0]), phys_to_virt(pa[1]),
                   phys_to_virt(pa[2])) < 0) {
        free_rings(pa);
        return -ENODEV;         /* the device's size is not a power of 2 */
    }
    q->index = index;
    q->notify = (volatile uint16_t *)(vd->notify +
                                      c->queue_notify_off * vd->notify_mult);
    c->queue_size = size;
    write64(&c->queue_desc_lo, &c->queue_desc_hi, pa[0]);
    write64(&c->queue_driver_lo, &c->queue_driver_hi, pa[1]);
    write64(&c->queue_device_lo, &c->queue_device_hi, pa[2]);
    c->queue_msix_vector = msix;
    if (c->queue_msix_vector != msix) {
        write64(&c->queue_desc_lo, &c->queue_desc_hi, 0);
        free_rings(pa);
        return -EIO;
    }
    c->queue_enable = 1;
    return 0;
}

int virtio_config_vector(struct virtio_dev *vd, unsigned msix)
{
    vd->common->msix_config = msix;
    return vd->common->msix_config == msix ? 0 : -EIO;
}

void virtio_driver_ok(struct virtio_dev *vd)
{
    set_status(vd, VIRTIO_STATUS_DRIVER_OK);
}

void virtio_fail(struct virtio_dev *vd)
{
    if (!vd->common)
        return;
    reset(vd);
    vd->common->device_status = VIRTIO_STATUS_FAILED;
}

bool virtio_kick(struct virtio_queue *q)
{
    if (!virtq_kick_needed(&q->vq))
        return false;
    *q->notify = q->index;
    return true;
}

void virtio_config_read(struct virtio_dev *vd, uint32_t off, void *dst,
                        uint32_t len)
{
    uint8_t gen, *p = dst;

    if (off > vd->config_len || len > vd->config_len - off) {
        memset(dst, 0, len);
        return;
    }
    do {
        gen = vd->common->config_generation;
        for (uint32_t i = 0; i < len; i++)
            p[i] = vd->config[off + i];
    } while (gen != vd->common->config_generation);
}
