"""Network boot of diskless nodes for tools/cluster (`up --boot net`).

The service side serves the boot files the way a real diskless cluster's
does: dnsmasq (DHCP and TFTP) runs in a private user and network namespace
(no root needed) whose tap device is plugged into the cluster's VDE switch
by vde_plug2tap, at SERVER on NET.  Each node's QEMU has no -kernel: its
NIC's iPXE ROM (Debian's ipxe-qemu) asks DHCP, which names the node's own
iPXE script by its MAC; the script fetches the kernel (multiboot, with the
node's command line), the PCT, the cluster key and any --run programs by
TFTP and boots.  The files sit in the cluster directory's tftp/ (mode 0700,
so only the cluster's owner reads them locally; on the segment the key
crosses in the clear, as it would on a real network: docs/hardware.md).
"""
import os
import shutil
import subprocess

from processes import pids_where

SERVER = '10.77.0.1'
PREFIX = 24
POOL = ('10.77.0.10', '10.77.0.250')
TAP = 'lwkboot0'
URL = 'tftp://%s/' % SERVER


def tftp_dir(d):
    return d.file('tftp')


def conf_path(d):
    return d.file('netboot.conf')


def prepare(d, kernel, pct, progs, nodes, modname_max):
    """The TFTP root and dnsmasq's configuration.  nodes: (nid, mac,
    kernel command-line words) for each node; progs: (path, name, args)."""
    root = tftp_dir(d)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root, mode=0o700)
    os.chmod(root, 0o700)
    # dnsmasq runs as root in its namespace, and then serves only
    # world-readable files: copies, readable inside a 0700 directory.
    for src, name in [(kernel, 'kernel.elf'), (pct, 'pct.elf'),
                      (d.secret, 'cluster.key')] + \
                     [(p, n) for p, n, _ in progs]:
        shutil.copyfile(src, os.path.join(root, name))
        os.chmod(os.path.join(root, name), 0o644)
    conf = ['port=0', 'interface=' + TAP, 'bind-interfaces',
            'dhcp-range=%s,%s,1h' % POOL, 'leasefile-ro',
            'enable-tftp', 'tftp-root=' + root, 'log-dhcp']
    for nid, mac, words in nodes:
        script = ['#!ipxe', 'kernel %skernel.elf %s' % (URL, ' '.join(words)),
                  'module %spct.elf' % URL, 'module %scluster.key' % URL]
        for _, name, args in progs:
            line = ' '.join(['%s%s' % (URL, name)] + args +
                            ['env=LWK_NID=%d' % nid])
            if len(line) > modname_max:
                raise ValueError("--run %s: over the network its module line "
                                 "'%s' is %d characters and the boot loader "
                                 "passes %d: use a shorter name or fewer "
                                 "arguments" % (name, line, len(line),
                                                modname_max))
            script.append('module ' + line)
        script.append('boot')
        with open(os.path.join(root, 'node-%d.ipxe' % nid), 'w') as f:
            f.write('\n'.join(script) + '\n')
        conf += ['dhcp-host=%s,set:n%d' % (mac, nid),
                 'dhcp-boot=tag:n%d,node-%d.ipxe,,%s' % (nid, nid, SERVER)]
    with open(conf_path(d), 'w') as f:
        f.write('\n'.join(conf) + '\n')


# Inside the namespace: the tap, its address and MTU, the plug to the
# switch, then dnsmasq in the foreground (the process `stop` ends).
SCRIPT = '''set -e
ip tuntap add %(tap)s mode tap
ip link set %(tap)s mtu "$2"
ip addr add %(server)s/%(prefix)d dev %(tap)s
ip link set %(tap)s up
vde_plug2tap -s "$1" %(tap)s &
exec dnsmasq --no-daemon --conf-file="$3" --user=root --pid-file=
''' % {'tap': TAP, 'server': SERVER, 'prefix': PREFIX}


def missing_tools():
    return [t for t in ('unshare', 'ip', 'vde_plug2tap', 'dnsmasq')
            if not shutil.which(t) and
            not os.path.exists(os.path.join('/usr/sbin', t))]


def start(d, mtu, wait_for):
    """Start the server; its pid (its session's leader) goes to
    netboot.pid.  dnsmasq is in /usr/sbin, which a user's PATH may lack."""
    log = open(d.file('netboot.log'), 'w')
    env = dict(os.environ, PATH=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')
    p = subprocess.Popen(['unshare', '-Urn', 'sh', '-c', SCRIPT, 'netboot',
                          d.sw, str(mtu), conf_path(d)],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                         env=env, start_new_session=True)
    with open(d.file('netboot.pid'), 'w') as f:
        f.write('%d\n' % p.pid)

    def started():
        with open(d.file('netboot.log')) as f:
            return 'DHCP, sockets bound' in f.read() or p.poll() is not None
    wait_for(started, 10, 'the network boot server did not start (see %s)'
             % d.file('netboot.log'))
    if p.poll() is not None:
        raise RuntimeError('the network boot server exited with status %d: '
                           '%s' % (p.returncode, last_line(d)))
    return p.pid


def last_line(d):
    try:
        with open(d.file('netboot.log')) as f:
            lines = [l.strip() for l in f if l.strip()]
        return lines[-1] if lines else '(no output)'
    except OSError:
        return '(no log)'


def our_pids(d):
    """The server's processes, found by the paths on their command lines
    (dnsmasq's configuration, the plug's switch socket) or the session."""
    return pids_where(lambda prog: prog in ('dnsmasq', 'vde_plug2tap',
                                            'unshare', 'sh'),
                      (conf_path(d), d.sw))


def stop(d, stop_pids):
    """End the server (and so its namespace and tap); True if it ran."""
    pids = our_pids(d)
    stop_pids(pids)
    for path in (d.file('netboot.pid'), conf_path(d)):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    shutil.rmtree(tftp_dir(d), ignore_errors=True)
    return bool(pids)
