"""The segment the nodes share, for tools/cluster: Debian's vde_switch
(MTU 1500) or vdeplug4's switch, or (--net tap, root) a Linux bridge in a
network namespace with a tap per node; the frames in flight it carries
(segment_window); the service partition's nids and the env file with
which a Linux process joins; and what `status` says of the switch.
"""
import os
import re
import shutil
import socket
import subprocess
from urllib.parse import quote, unquote

from clusterdir import Fail, read_segment, read_text, write_atomic
from processes import proc_alive, proc_argv, wait_for
from switchtable import EXPIRE_S, switch_options

SERVICE_NIDS = 1000     # Linux processes take nids from here (a block of 1000)
STATIONS = 16           # several hosts: service nids per node of a host


def debian_switch(opts):
    """Does Debian's vde_switch carry the segment?  At MTU 1500 or less
    on vde, unless --segment gives the switch an uplink to other hosts:
    only vdeplug4's switch has one."""
    return opts.net == 'vde' and opts.mtu <= 1500 and not opts.segment


def unix_listening(path):
    """Does the stream socket at path take a connection?  (It exists a
    moment before its owner listens on it.)"""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(path)
            return True
        except OSError:
            return False


def switch_command(d, cmd, secs=5):
    """One command on vde_switch's management socket (sw.mgmt); its output,
    or '' if the switch does not answer."""
    out = b''
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(secs)
            s.connect(d.file('sw.mgmt'))
            while b'$ ' not in out:                 # the banner and prompt
                out += s.recv(4096)
            out = b''
            s.sendall(cmd.encode() + b'\n')
            while not re.search(rb'\n1\d\d\d [^\n]*\n', out):
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
    except OSError:
        return ''
    return out.decode('utf-8', 'replace')


def port_attached(d, port):
    """Has a QEMU attached to switch port `port`?"""
    return bool(re.search(r'endpoint ID \d+ module unix prog\s*: QEMU',
                          switch_command(d, 'port/print %d' % port)))


def start_vde_switch(d, nnodes):
    """Debian's vde_switch (vde2), MTU 1500.  Ports 1..N are the nodes' and
    are made non-allocatable, so a Linux process attaching without a port
    number gets a port of its own and never shares one with a node (two
    stations on one port see each other's frames)."""
    if not shutil.which('vde_switch'):
        raise Fail('vde_switch not found: install vde2 (make deps)')
    rc = d.file('sw.rc')
    with open(rc, 'w') as f:
        for port in range(1, nnodes + 1):
            f.write('port/create %d\nport/allocatable %d 0\n' % (port, port))
        # Its table entries expire after 100 s of silence, and a frame
        # for an idle node then goes to every port: keep them while the
        # port is open (switchtable.py).
        f.write('hash/setexpire %d\n' % EXPIRE_S)
    pidfile = d.file('sw.pid')
    # Every yod, showmesh and Linux Portals process takes a port while it
    # runs (one per job, and waiting yods); a switch with none left makes
    # the next one wait (libportals gives up after 10 s).
    subprocess.run(['vde_switch', '-s', d.sw, '-M', d.file('sw.mgmt'),
                    '-p', pidfile, '-d', '-n', str(nnodes + 256), '-f', rc],
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, check=False)
    wait_for(lambda: unix_listening(os.path.join(d.sw, 'ctl')) and
             read_text(pidfile).strip(), 10,
             'vde_switch did not start (no %s/ctl); try it by hand: '
             'vde_switch -s %s' % (d.sw, d.sw))
    return int(read_text(pidfile)), 'vde_switch'


def start_plug_switch(d, log, uplink, table):
    """vdeplug4's switch, hosted by a vde_plug whose other side is
    `uplink` (null://: nothing; a --segment URL: the segment's other
    hosts): it carries frames up to 9018 bytes (MTU 9000); no port
    numbers.  `table`: its forwarding table's options (switchtable.py)."""
    if not shutil.which('vde_plug'):
        raise Fail('vde_plug not found: install vdeplug (make deps); it '
                   'provides the switch for MTUs above 1500')
    # Sockets 0666 in a 0700 directory: the directory decides who joins,
    # as with vde_switch (its default 0600 sockets would keep out a user
    # the owner lets in by opening the directory: docs/SECURITY.md).
    p = subprocess.Popen(['vde_plug', uplink,
                          'switch://%s[mode=0666/dirmode=0700/%s]' %
                          (d.sw, table)],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                         start_new_session=True)
    wait_for(lambda: os.path.exists(os.path.join(d.sw, 'ctl')) or
             p.poll() is not None, 10, 'vdeplug4 switch did not start')
    if p.poll() is not None:
        log.flush()
        said = read_text(log.name).strip().splitlines()
        raise Fail('vde_plug %s switch://%s exited with status %d: %s (%s)' %
                   (uplink, d.sw, p.returncode,
                    said[-1] if said else 'no message', log.name))
    return p.pid, 'vdeplug4'


def start_vde(d, opts):
    with open(d.file('sw.log'), 'w') as log:
        if debian_switch(opts):
            pid, kind = start_vde_switch(d, opts.nodes)
        else:
            pid, kind = start_plug_switch(
                d, log, opts.segment or 'null://', switch_options(
                    range(opts.first_nid, opts.first_nid + opts.nodes),
                    station_range(opts)[0]))
    uplink = ' ' + uplink_word(opts.segment) if opts.segment else ''
    write_atomic(d.segment, 'vde %s mtu=%d switch=%s pid=%d%s\n' %
                 (d.sw, opts.mtu, kind, pid, uplink))


def uplink_word(url):
    """The segment file's uplink=URL: the other hosts' side of the switch
    (quoted: a cmd:// URL has spaces)."""
    return 'uplink=' + quote(url, safe="/:=@[]<>,.~-+!*'();&$")


def uplink_of(seg):
    """The --segment URL of a parsed segment file, or None."""
    return unquote(seg[2]['uplink']) if seg and 'uplink' in seg[2] else None


def vde_netdev(d, opts, index):
    port = ',port=%d' % (index + 1) if debian_switch(opts) else ''
    return 'vde,id=net0,sock=%s%s' % (d.sw, port)


# ---- tap: a Linux bridge in a network namespace (root) ---------------------

def netns_name(d):
    return 'lwkc-%08x' % (hash_path(d.path) & 0xffffffff)


def hash_path(path):
    """Stable across runs (str hash is salted): FNV-1a."""
    h = 0x811c9dc5
    for b in path.encode():
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h


def ip(*args):
    r = subprocess.run(['ip'] + list(args), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        raise Fail('ip %s: %s' % (' '.join(args),
                                  r.stderr.decode().strip() or 'failed'))


def start_tap(d, opts):
    """A bridge in a private network namespace, one tap per node, and, for
    MTUs a VDE switch carries, a vdeplug4 switch plugged into the bridge
    through a tap, so Linux processes join with PTL_IFACE=vde:// from
    anywhere; with larger MTUs they run in the namespace on veth lwksvc0
    (PTL_IFACE=packet:lwksvc0)."""
    if os.geteuid() != 0:
        raise Fail('--net tap needs root (network namespace, bridge, taps); '
                   'use --net vde')
    if not shutil.which('ip'):
        raise Fail('ip not found: install iproute2 (make deps)')
    ns, mtu = netns_name(d), str(opts.mtu)
    ip('netns', 'add', ns)
    # No IPv6 autoconfiguration chatter: only the cluster's frames on the
    # segment.
    ip('netns', 'exec', ns, 'sh', '-c',
       'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6; '
       'echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6')
    ip('-n', ns, 'link', 'add', 'lwkbr0', 'mtu', mtu, 'type', 'bridge')
    # Forward at once: no STP listening delay, no learning ageing surprises.
    ip('-n', ns, 'link', 'set', 'lwkbr0', 'type', 'bridge', 'stp_state', '0',
       'forward_delay', '0')
    for i in range(opts.nodes):
        tap = 'lwktap%d' % i
        ip('-n', ns, 'tuntap', 'add', 'dev', tap, 'mode', 'tap')
        ip('-n', ns, 'link', 'set', tap, 'mtu', mtu, 'master', 'lwkbr0', 'up')
    ip('-n', ns, 'link', 'add', 'lwksvc0', 'mtu', mtu, 'type', 'veth', 'peer',
       'name', 'lwksvc0br', 'mtu', mtu)
    ip('-n', ns, 'link', 'set', 'lwksvc0br', 'master', 'lwkbr0', 'up')
    ip('-n', ns, 'link', 'set', 'lwksvc0', 'up')
    ip('-n', ns, 'link', 'set', 'lwkbr0', 'up')
    seg = 'tap %s mtu=%d bridge=lwkbr0' % (ns, opts.mtu)
    if opts.mtu <= 9000:
        seg += ' vde=%s pid=%d' % (d.sw, start_tap_vde(d, ns, mtu))
    write_atomic(d.segment, seg + '\n')


def start_tap_vde(d, ns, mtu):
    if not shutil.which('vde_plug'):
        raise Fail('vde_plug not found: install vdeplug (make deps)')
    log = open(d.file('sw.log'), 'w')
    p = subprocess.Popen(['ip', 'netns', 'exec', ns, 'vde_plug',
                          'tap://lwkvde0', 'switch://' + d.sw],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                         start_new_session=True)
    log.close()
    wait_for(lambda: os.path.exists(os.path.join(d.sw, 'ctl')) or
             p.poll() is not None, 10, 'vde_plug tap://lwkvde0 did not start')
    if p.poll() is not None:
        raise Fail('vde_plug tap://lwkvde0 exited; see %s' % d.file('sw.log'))
    wait_for(lambda: subprocess.run(
        ['ip', '-n', ns, 'link', 'show', 'lwkvde0'], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0, 10, 'tap lwkvde0 missing')
    ip('-n', ns, 'link', 'set', 'lwkvde0', 'mtu', mtu, 'master', 'lwkbr0',
       'up')
    return p.pid


def stop_tap(d):
    ns = netns_name(d)
    if os.path.exists('/run/netns/' + ns):
        subprocess.run(['ip', 'netns', 'del', ns], stderr=subprocess.DEVNULL)


# ---- what the nodes and Linux processes are told -----------------------

def segment_window(opts):
    """Frames in flight per peer that a vdeplug4 segment carries without
    loss (None: the kernel's and libportals' own choice).  Each hop is a
    unix datagram socket, and Linux drops a frame once its sender has
    SO_SNDBUF (net.core.wmem_default, 212992 bytes) of frames its reader
    has not taken, each counted at its allocation: the frame and 320
    bytes rounded up to a power of two, and ~256 bytes more (16.6 KiB for
    a 9018-byte frame, so 12).  Two nodes streaming with a window of 32
    resent 1.3% of their frames and with 12 0.04%, at the same bandwidth
    (docs/PERFORMANCE.md); with wmem_default raised to 4 MiB a window of
    64 lost none."""
    if opts.net != 'vde' or debian_switch(opts):
        return None         # vde_switch: libportals and the kernel use 8
    try:
        with open('/proc/sys/net/core/wmem_default') as f:
            sndbuf = int(f.read())
    except (OSError, ValueError):
        sndbuf = 212992
    alloc = 1 << (opts.mtu + 18 + 320 - 1).bit_length()
    return max(4, min(32, sndbuf // (alloc + 256)))


def service_range(opts):
    """The service partition's nids, those every node accepts: a block of
    SERVICE_NIDS clear of the nodes'.  On a partition of several hosts
    (--segment) the nodes' nids are below SERVICE_NIDS and the block is
    STATIONS times bigger, STATIONS per node nid."""
    if opts.segment:
        return SERVICE_NIDS, SERVICE_NIDS * (STATIONS + 1) - 1
    first, last = opts.first_nid, opts.first_nid + opts.nodes - 1
    svc = SERVICE_NIDS
    while svc <= last and svc + SERVICE_NIDS - 1 >= first:
        svc += SERVICE_NIDS
    return svc, svc + SERVICE_NIDS - 1


def station_range(opts):
    """The service nids this host's Linux processes (yod, showmesh) take.
    On a partition of several hosts, the host whose nodes are F..L takes
    the STATIONS nids of each, SERVICE_NIDS + STATIONS * F ..
    SERVICE_NIDS + STATIONS * (L + 1) - 1: no two hosts ever take the
    same one, and none has to ask the others."""
    if not opts.segment:
        return service_range(opts)
    last = opts.first_nid + opts.nodes
    return (SERVICE_NIDS + STATIONS * opts.first_nid,
            SERVICE_NIDS + STATIONS * last - 1)


def write_env(d, opts):
    first = opts.first_nid
    svc, svc_last = station_range(opts)
    kind, where, kv = read_segment(d)
    if kind == 'vde':
        iface = 'vde://' + where
    elif 'vde' in kv:
        iface = 'vde://' + kv['vde']
    else:
        iface = 'packet:lwksvc0'
    env = [('LWK_CLUSTER', d.path), ('LWK_NID_FIRST', first),
           ('LWK_NNODES', opts.nodes), ('LWK_SERVICE_NID_FIRST', svc),
           ('LWK_SERVICE_NID_LAST', svc_last),
           ('PTL_IFACE', iface), ('PTL_MTU', opts.mtu)]
    if opts.io:         # yod's default -io (docs/io.md)
        env.append(('LWK_IO_SERVERS', opts.io))
    if getattr(opts, 'pfs', None):      # and -pfs
        env.append(('LWK_PFS', opts.pfs))
    if segment_window(opts):
        env.append(('PTL_WINDOW', segment_window(opts)))
    if kind == 'tap':
        env.append(('LWK_NETNS', where))
    if opts.slurm:      # the cluster's own Slurm (slurm.py)
        env.append(('SLURM_CONF', os.path.join(d.path, 'slurm',
                                                'slurm.conf')))
    text = ''.join('%s=%s\n' % kv for kv in env)
    text += 'export ' + ' '.join(k for k, _ in env) + '\n'
    write_atomic(d.env, text)


# ---- status -------------------------------------------------------------

def switch_miswired(d, nodes):
    """Nodes whose MAC Debian's vde_switch has learnt on another port than
    their own (port = place in `nodes` + 1): {nid: (learnt, own)}.  A node
    that has sent nothing yet is not in the switch's table."""
    seg = read_segment(d)
    if not seg or seg[2].get('switch') != 'vde_switch':
        return {}
    learnt = {}
    for m in re.finditer(r'Addr: 02:50:(\w\w):(\w\w):(\w\w):(\w\w) VLAN '
                         r'\d+ to port: (\d+)',
                         switch_command(d, 'hash/print')):
        learnt[int(''.join(m.group(1, 2, 3, 4)), 16)] = int(m.group(5))
    return {n.nid: (learnt[n.nid], i + 1) for i, n in enumerate(nodes)
            if learnt.get(n.nid, i + 1) != i + 1}


def segment_status(d):
    """The segment's line, and whether its switch is alive."""
    seg = read_segment(d)
    if not seg:
        return 'segment: none (no segment file)', False
    kind, where, kv = seg
    extra, alive = '', True
    if 'pid' in kv:
        pid = int(kv['pid'])
        alive = proc_alive(pid) and any(d.sw in a for a in proc_argv(pid))
        extra = ', %s pid %d %s' % (kv.get('switch', 'vde_plug'), pid,
                                    'running' if alive else 'GONE')
    if uplink_of(seg):
        extra += ', uplink %s' % uplink_of(seg)
    return 'segment: %s %s (MTU %s%s)' % (kind, where, kv.get('mtu', '?'),
                                          extra), alive
