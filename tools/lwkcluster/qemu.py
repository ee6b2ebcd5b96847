"""A node's QEMU for tools/cluster: the boot directory's links to the
images, the boot modules (PCT, key, --run programs) and kernel command
line, the machine and NIC options, the whole argv, and starting every
node's QEMU.
"""
import os
import shutil
import subprocess

from clusterdir import Node, mac_of, write_atomic
from processes import nice_session, wait_for
from segment import (debian_switch, netns_name, port_attached, segment_window,
                     service_range, vde_netdev)

MODNAME_MAX = 63        # kernel/include/bootinfo.h BOOTINFO_MODNAME_LEN - 1
KEY_MODULE = 'cluster.key'  # the secret, as the PCT finds it (pct/auth.c)


def link_images(d, opts, kernel, pct):
    """QEMU runs in boot/, where short names link to the images: the boot
    loader passes at most 63 characters per module line and the kernel's
    command-line words are short, so no absolute paths go to the node."""
    if os.path.isdir(d.boot):
        shutil.rmtree(d.boot)
    os.makedirs(d.boot)
    os.symlink(kernel, os.path.join(d.boot, 'kernel.elf'))
    os.symlink(pct, os.path.join(d.boot, 'pct.elf'))
    os.symlink(d.secret, os.path.join(d.boot, KEY_MODULE))
    for prog, name, _ in opts.progs:
        os.symlink(prog, os.path.join(d.boot, name))


def initrd(opts, nid):
    mods = ['pct.elf', KEY_MODULE]
    for _, name, args in opts.progs:
        mods.append(module_line(name, args, nid))
    # QEMU separates modules with ',' and reads ',,' as a literal comma.
    return ','.join(m.replace(',', ',,') for m in mods)


def module_line(name, args, nid):
    return ' '.join([name] + args + ['env=LWK_NID=%d' % nid])


def node_nice():
    """The nodes yield the host to the switch, yod and the user's other
    work (LWK_NODE_NICE, default 10)."""
    return int(os.environ.get('LWK_NODE_NICE', '10'))


def qemu_argv(d, opts, index, nid):
    argv = ['nice', '-n', str(node_nice()),
            os.environ.get('QEMU') or 'qemu-system-x86_64',
            '-name', 'lwk-node-%d' % nid,
            ] + machine_args(opts) + ['-m', opts.mem,
            '-nodefaults', '-display', 'none', '-no-reboot',
            '-serial', 'file:' + d.log(nid), '-serial', 'file:' + d.out(nid),
            '-serial', 'file:' + d.err(nid),
            '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04',
            ] + boot_args(opts, index, nid)
    if opts.net == 'tap':
        netdev = ('tap,id=net0,ifname=lwktap%d,script=no,downscript=no' %
                  index)
        argv = ['ip', 'netns', 'exec', netns_name(d)] + argv
    else:
        netdev = vde_netdev(d, opts, index)
    return argv + ['-netdev', netdev, '-device', nic_device(opts, index, nid)]


def kernel_words(opts, index, nid):
    window = segment_window(opts)
    return (['nid=%d' % nid, 'pct.service=%d-%d' % service_range(opts)] +
            nic_append(opts, index) +
            (['ptl.window=%d' % window] if window else []) + opts.append)


def boot_args(opts, index, nid):
    """QEMU loads kernel and modules, or (--boot net) the NIC's iPXE
    fetches them: netboot.py."""
    if opts.boot == 'net':
        return ['-boot', 'n']
    return ['-kernel', 'kernel.elf', '-initrd', initrd(opts, nid),
            '-append', ' '.join(kernel_words(opts, index, nid))]


def nic_kind(opts, index):
    return opts.nic[index % len(opts.nic)]


def nic_device(opts, index, nid):
    """The node's NIC.  An e1000e cannot learn the link's MTU, so its
    kernel is told (e1000e.mtu=, added to the command line by qemu_argv);
    its option ROM (iPXE) is left out unless it boots the node."""
    rom = '' if opts.boot == 'net' else ',romfile='
    if nic_kind(opts, index) == 'e1000e':
        return 'e1000e,netdev=net0,mac=%s%s' % (mac_of(nid), rom)
    return 'virtio-net-pci,netdev=net0,mac=%s,host_mtu=%d%s' % (
        mac_of(nid), opts.mtu, nic_tuning(opts.accel))


def nic_append(opts, index):
    if nic_kind(opts, index) == 'e1000e':
        return ['e1000e.mtu=%d' % opts.mtu]
    return []


def machine_args(opts):
    """More than one CPU under TCG: multi-threaded TCG, one host thread per
    vCPU (the -accel option then replaces -machine's accel=)."""
    if opts.cpus > 1 and opts.accel == 'tcg':
        return ['-machine', 'q35', '-accel', 'tcg,thread=multi',
                '-smp', str(opts.cpus)]
    return ['-machine', 'q35,accel=%s' % opts.accel, '-smp', str(opts.cpus)]


def nic_tuning(accel):
    """Under TCG a doorbell write is handled in the vCPU thread anyway;
    an ioeventfd (made for KVM, to skip an exit to user space) only adds a
    pass of QEMU's main loop per transmitted frame: it wakes to read the
    eventfd, schedules the transmit, and wakes again to run it (3.3 -> 2.2
    main-loop passes per ping-pong round trip).  tests/bench/linuxguest/run
    gives the Linux guests the same device."""
    return ',ioeventfd=off' if accel == 'tcg' else ''


def spawn_nodes(d, opts):
    """Start the QEMUs, each in its own session so a Ctrl-C in the
    terminal that ran `up` does not reach the nodes later.  On Debian's
    vde_switch each attaches to its port before the next starts: when
    several attach at once, the switch now and then files a node's frames
    under another node's port (1 boot in ~20 of 16 nodes: the node's port
    counts no frame in, its MAC is learnt on its neighbour's port, and
    what is sent to it goes there), and the node answers only frames the
    switch floods."""
    procs = {}
    one_by_one = debian_switch(opts)
    for i in range(opts.nodes):
        nid = opts.first_nid + i
        for path in (d.log(nid), d.out(nid), d.err(nid)):
            open(path, 'w').close()
        with open(d.qemu_err(nid), 'w') as err:
            procs[nid] = subprocess.Popen(
                qemu_argv(d, opts, i, nid), cwd=d.boot,
                stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                start_new_session=True)
        nice_session(procs[nid].pid, node_nice())
        if one_by_one:
            wait_for(lambda: port_attached(d, i + 1) or
                     procs[nid].poll() is not None, 30,
                     'node %d did not attach to switch port %d in 30 s '
                     '(see %s)' % (nid, i + 1, d.qemu_err(nid)))
    nodes = [Node(nid, p.pid, d.log(nid), d.out(nid), d.err(nid))
             for nid, p in sorted(procs.items())]
    write_atomic(d.nodes, ''.join(n.line() for n in nodes))
    return procs
