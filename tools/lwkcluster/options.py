"""The checks of `tools/cluster up`'s options, every one made before
anything is started or stopped: counts, sizes, MTU, NICs, boot kind,
accelerator, images, QEMU, and the --run programs as boot modules.
"""
import os
import re
import shlex
import shutil

import netboot
from clusterdir import Fail, usage_error
from qemu import KEY_MODULE, MODNAME_MAX, module_line

MAX_NODES = 256
MAX_CPUS = 64           # kernel/include/cpu.h
MAX_IO_SERVERS = 16     # yod/yod_proto.h YOD_IO_SERVERS_MAX
NIC_KINDS = ('virtio', 'e1000e')
E1000E_MAX_MTU = 9216   # kernel/e1000e.c: the 82574L's 9234-byte frames


def check_up_options(opts, kernel, pct):
    """Every check before anything is started or stopped."""
    if not 1 <= opts.nodes <= MAX_NODES:
        raise usage_error('-n %d: give 1..%d nodes' % (opts.nodes, MAX_NODES))
    if opts.first_nid < 0 or opts.first_nid + opts.nodes > 1 << 32:
        raise usage_error('--first-nid %d: nids must fit in 32 bits' %
                          opts.first_nid)
    if not re.fullmatch(r'[1-9][0-9]*[MG]?', opts.mem):
        raise usage_error("--mem %s: give a size like 128M or 2G" % opts.mem)
    if not 1 <= opts.cpus <= MAX_CPUS:
        raise usage_error('--cpus %d: give 1..%d CPUs per node (the '
                          'Q-Kernel starts at most %d)' %
                          (opts.cpus, MAX_CPUS, MAX_CPUS))
    if opts.io is not None and not 1 <= opts.io <= MAX_IO_SERVERS:
        raise usage_error('--io %d: give 1..%d I/O servers per job (yod -io '
                          'N; docs/io.md)' % (opts.io, MAX_IO_SERVERS))
    if opts.pfs is not None:
        if not os.path.isdir(opts.pfs) or not os.access(opts.pfs,
                                                        os.W_OK | os.X_OK):
            raise usage_error('--pfs %s: give a directory yod may write (the '
                              'ranks\' /pfs; docs/io.md)' % opts.pfs)
        opts.pfs = os.path.realpath(opts.pfs)
    top = 9000 if opts.net == 'vde' else 65000
    if not 1024 <= opts.mtu <= top:
        raise usage_error('--mtu %d: %s carries 1024..%d (Portals needs '
                          '1024)' % (opts.mtu, opts.net, top))
    opts.nic = (opts.nic or os.environ.get('LWK_NIC') or 'virtio').split(',')
    for kind in opts.nic:
        if kind not in NIC_KINDS:
            raise usage_error('--nic %s: each NIC is one of %s (LWK_NIC too)'
                              % (kind or "''", ', '.join(NIC_KINDS)))
    if 'e1000e' in opts.nic and opts.mtu > E1000E_MAX_MTU:
        raise usage_error('--mtu %d: the e1000e (82574L) carries at most %d'
                          % (opts.mtu, E1000E_MAX_MTU))
    if opts.boot == 'net' and opts.net != 'vde':
        raise usage_error('--boot net: only on a vde segment (the boot '
                          'server plugs into the switch)')
    if opts.boot == 'net' and netboot.missing_tools():
        raise Fail('--boot net needs %s: install dnsmasq-base, vde2 and '
                   'ipxe-qemu (make deps)' % ', '.join(netboot.missing_tools()),
                   2)
    if opts.segment == '':
        raise usage_error("--segment '': give the URL of a vdeplug4 network "
                          "that reaches the other hosts, e.g. vxvde://GROUP")
    if opts.segment and opts.net != 'vde':
        raise usage_error('--net %s: a partition of several hosts (--segment, '
                          '--join) needs --net vde: the switch\'s uplink '
                          'joins the hosts' % opts.net)
    if opts.segment and opts.boot == 'net':
        raise usage_error('--boot net: on one host only (every host\'s boot '
                          'server would answer every node)')
    if opts.timeout is None:
        opts.timeout = 180 if opts.boot == 'net' else 60
    opts.append = shlex.split(' '.join(opts.append))
    if any(w.startswith('nid=') for w in opts.append):
        raise usage_error('--append: nid= is set per node (use --first-nid)')
    opts.accel = os.environ.get('ACCEL') or 'tcg'
    if opts.accel not in ('tcg', 'kvm'):
        raise usage_error('ACCEL=%s: use tcg or kvm' % opts.accel)
    if opts.accel == 'kvm' and not os.access('/dev/kvm', os.R_OK | os.W_OK):
        raise Fail('ACCEL=kvm but /dev/kvm is not usable here; unset ACCEL '
                   'to use TCG', 2)
    for f in (kernel, pct):
        if not os.path.isfile(f):
            raise Fail('%s is missing: build the system first (make)' % f, 2)
    qemu = os.environ.get('QEMU') or 'qemu-system-x86_64'
    if not shutil.which(qemu):
        raise Fail('%s not found: install qemu-system-x86 (make deps)' % qemu,
                   2)
    opts.progs = []
    for spec in opts.run:
        opts.progs.append(check_program(spec, opts,
                                        [n for _, n, _ in opts.progs]))


def check_program(spec, opts, taken):
    """--run 'PROG ARGS': (absolute path, name in boot/, args)."""
    words = shlex.split(spec)
    if not words:
        raise usage_error('--run needs a program')
    prog = os.path.abspath(words[0])
    try:
        with open(prog, 'rb') as f:
            magic = f.read(4)
    except OSError as e:
        raise usage_error('--run %s: %s' % (words[0], e.strerror))
    if magic != b'\x7fELF':
        raise usage_error('--run %s: not an ELF program (build it with '
                          'build/bin/lwkcc)' % words[0])
    if any(' ' in w for w in words[1:]):
        raise usage_error("--run '%s': an argument contains a space; the "
                          "boot loader splits module lines at spaces" % spec)
    name, k = os.path.basename(prog), 2
    while name in taken or name == KEY_MODULE:  # two programs, one name
        name, k = '%d-%s' % (k, os.path.basename(prog)), k + 1
    line = module_line(name, words[1:], opts.first_nid + opts.nodes - 1)
    if len(line) > MODNAME_MAX or name in ('pct.elf', 'pct', 'kernel.elf'):
        raise usage_error("--run '%s': the module line '%s' is %d characters "
                          "and the boot loader passes %d: use a shorter "
                          "program name or fewer arguments" %
                          (spec, line, len(line), MODNAME_MAX))
    return prog, name, words[1:]
