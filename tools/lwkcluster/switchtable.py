"""The forwarding table of vdeplug4's switch, for tools/cluster: its
size, seed and expiry, chosen so that the switch sends a frame to one
port, never to all of them.

The switch (libvdeplug_switch, hosted by `vde_plug null:// switch://`)
learns the port of each MAC in a table with one MAC per entry: two MACs
that hash to one entry evict each other, and a frame for the one evicted
goes to every port (so does one for a MAC not heard from for
`expiretime`, 120 s by default).  Every QEMU node then wakes for it, and
its guest too (without a receive filter virtio-net is promiscuous).  On
the default 256 entries 25 of the 131 stations of a 128-node cluster
(its nodes and the first service nids) share an entry, yod's nid 1000
among them, and 96% of the frames the nodes received were for others
(docs/PERFORMANCE.md, "Many nodes").  So `up` gives the switch a table
of at least stations^2 entries (a pair shares one with odds under 1/2)
and the first seed under which every node and the first
SERVICE_STATIONS service nids have an entry of their own, checked with
the switch's own hash (libvdeplug_mod's table functions, not a copy of
them); and entries that do not expire while their port is open (the
switch drops a port's entries when it closes).
"""
import ctypes
import ctypes.util
import time

SERVICE_STATIONS = 64   # yod, showmesh, Linux processes at once, each a nid
# Ten years: entries stay while their port is open.  Not more: the switch
# compares last_seen >= now - expiretime, and an entry it has dropped has
# last_seen 0, which a cut-off below the epoch would make current again.
EXPIRE_S = 10 * 365 * 86400
SEEDS = 100             # seeds tried before settling for the fewest shared


def mac_bytes(nid):
    return bytes([0x02, 0x50]) + nid.to_bytes(4, 'big')


def table_size(nstations):
    """A power of two, at least 256 (the switch's default) and
    nstations^2: the expected number of pairs sharing an entry is then
    under 1/2, so a seed without any is found in a few tries."""
    size = 256
    while size < nstations * nstations:
        size *= 2
    return size


def _library():
    name = ctypes.util.find_library('vdeplug_mod') or 'libvdeplug_mod.so.2'
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    lib._vde_hash_init.restype = ctypes.c_void_p
    lib._vde_hash_init.argtypes = [ctypes.c_size_t, ctypes.c_uint,
                                   ctypes.c_uint64]
    lib.vde_find_in_hash.restype = ctypes.POINTER(ctypes.c_int)
    lib.vde_find_in_hash.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                     ctypes.c_int, ctypes.c_long]
    lib.vde_find_in_hash_update.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                            ctypes.c_int, ctypes.c_void_p,
                                            ctypes.c_long]
    lib.vde_hash_fini.argtypes = [ctypes.c_void_p]
    return lib


def shared_entries(lib, nids, size, seed):
    """How many of `nids` lose their entry to another in the switch's
    table of `size` entries under `seed`: each learnt in turn (its index
    as the port), then each looked up."""
    table = lib._vde_hash_init(ctypes.sizeof(ctypes.c_int), size, seed)
    now = int(time.time())
    try:
        for i, nid in enumerate(nids):
            port = ctypes.c_int(i)
            lib.vde_find_in_hash_update(table, mac_bytes(nid), 0,
                                        ctypes.byref(port), now)
        lost = 0
        for i, nid in enumerate(nids):
            hit = lib.vde_find_in_hash(table, mac_bytes(nid), 0, now - 1)
            lost += not hit or hit[0] != i
        return lost
    finally:
        lib.vde_hash_fini(table)


def switch_table(nids):
    """(hashsize, hashseed, stations sharing an entry) for the stations
    `nids`; the sharing is None when the library is not there to ask."""
    size = table_size(len(nids))
    lib = _library()
    if not lib:
        return size, 0, None
    best = (len(nids) + 1, 0)
    for seed in range(SEEDS):
        lost = shared_entries(lib, nids, size, seed)
        if lost == 0:
            return size, seed, 0
        best = min(best, (lost, seed))
    return size, best[1], best[0]


def switch_options(node_nids, service_first):
    """The switch:// URL's table options for a cluster whose nodes are
    `node_nids` and whose service nids start at `service_first`."""
    nids = list(node_nids) + list(range(service_first,
                                        service_first + SERVICE_STATIONS))
    size, seed, _ = switch_table(nids)
    return 'hashsize=%d/hashseed=%d/expiretime=%d' % (size, seed, EXPIRE_S)
