/* The virtio-net driver (virtio_net.c). */
#ifndef VIRTIO_NET_H
#define VIRTIO_NET_H

/* Bring up every virtio-net device pci_init found and register each with
   the netdev layer.  A node without one is left as it was. */
void virtio_net_probe(void);

#endif
