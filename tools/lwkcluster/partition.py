"""One compute partition over several hosts, for tools/cluster: each host
boots its own nodes on its own switch, and the switches' uplinks (--segment
URL, any vdeplug4 network) make one segment of them.  The first host (the
head, `up --segment URL`) makes the cluster's secret; a host that joins
(`up --join HEAD`) takes the head's secret, segment and MTU, and tells every
host of the partition which nodes it runs.

Each host's directory keeps the partition in `partition`, one line per
node, "NID HOST", HOST being "HOSTNAME:DIR" of the host that runs it.
Another host's directory is reached as a path when its HOSTNAME is ours
(the same machine, or a filesystem both share), else through ssh
($LWK_RSH, default `ssh -o BatchMode=yes`).

The service nids every node accepts and each host's own share of them:
segment.py.
"""
import os
import re
import shlex
import socket
import subprocess

from clusterdir import (Fail, mac_of, parse_segment, read_text, usage_error,
                        write_atomic)
from segment import SERVICE_NIDS, uplink_of

LOCK_WAIT = 60          # seconds to wait for another host's `up` or `down`
MESH_MS = 2000          # status: how long the other hosts' nodes may take


def host_id(d):
    """How the partition names this host: HOSTNAME:DIR."""
    return '%s:%s' % (socket.gethostname(), d.path)


def host_id_of(host):
    return '%s:%s' % (host.host or socket.gethostname(), host.dir)


# ---- another host's cluster directory -------------------------------------

class Host:
    """A cluster directory on this host or another: `DIR` (a path here),
    `HOST:DIR`, or `HOST` alone (the cluster HOST recorded as its user's
    default, as yod finds it)."""

    def __init__(self, spec):
        self.spec = spec
        if '/' in spec.split(':', 1)[0]:
            self.host, self.dir = None, os.path.abspath(spec)
        else:
            host, _, path = spec.partition(':')
            self.host = None if host == socket.gethostname() else host
            self.dir = (path if self.host else os.path.abspath(path)) \
                if path else None
            if not self.host and not path:
                raise usage_error('--join %s: that is this host; give the '
                                  'cluster directory to join' % spec)
        if not self.dir:
            self.dir = self.sh('cat "${XDG_CONFIG_HOME:-$HOME/.config}'
                               '/lwk/cluster"', 'find its cluster').strip()
            if not self.dir:
                raise Fail('%s has no cluster recorded: give --join %s:DIR'
                           % (spec, spec))

    def __str__(self):
        return '%s:%s' % (self.host, self.dir) if self.host else self.dir

    def sh(self, script, what, stdin=''):
        """Run a shell script there: its output, or Fail naming what it
        was for."""
        argv = ['sh', '-c', script]
        if self.host:
            rsh = shlex.split(os.environ.get('LWK_RSH') or
                              'ssh -o BatchMode=yes')
            argv = rsh + [self.host, ' '.join(map(shlex.quote, argv))]
        try:
            r = subprocess.run(argv, input=stdin.encode(),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=LOCK_WAIT + 30)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise Fail('cannot %s in %s: %s' % (what, self.spec, e))
        if r.returncode:
            err = r.stderr.decode('utf-8', 'replace').strip().splitlines()
            raise Fail('cannot %s in %s: %s' % (
                what, self.spec, err[-1] if err else 'status %d' %
                r.returncode))
        return r.stdout.decode('utf-8', 'replace')

    def read(self):
        """The head's secret, segment line and partition."""
        q = shlex.quote(self.dir)
        out = self.sh(
            'cd %s && if [ ! -f partition ]; then echo "no partition there '
            '(the first host boots one with tools/cluster up --segment URL)" '
            '>&2; exit 1; fi && cat secret && echo --- && cat segment && '
            'echo --- && cat partition' % q, 'read the partition')
        parts = out.split('---\n')
        if len(parts) != 3:
            raise Fail('%s: the partition files are not as tools/cluster '
                       'writes them' % self.spec)
        return parts

    def locked(self, script, what, stdin=''):
        """Run a shell script in that host's directory under its lock (one
        `up` or `down` at a time): its output."""
        return self.sh('cd %s && exec 9>>.lock && flock -w %d 9 && %s' % (
            shlex.quote(self.dir), LOCK_WAIT, script), what, stdin)

    def add(self, me, lines):
        """Under that host's lock: its partition without our old lines,
        with our new ones; the result."""
        return self.locked(
            'test -f partition && { awk -v me=%s "\\$2 != me" partition; '
            'cat; } | sort -n >partition.tmp && mv partition.tmp partition '
            '&& cat partition' % shlex.quote(me), 'add our nodes', lines)


# ---- the partition file --------------------------------------------------

def read_partition(d):
    """[(nid, host)] in nid order, or [] on a host of its own."""
    return parse_partition(read_text(d.file('partition')))


def parse_partition(text):
    nodes = []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2 and f[0].isdigit():
            nodes.append((int(f[0]), f[1]))
    return sorted(nodes)


def own_lines(d, opts):
    me = host_id(d)
    return ''.join('%d %s\n' % (opts.first_nid + i, me)
                   for i in range(opts.nodes))


# ---- up --segment (the head) and up --join -------------------------------

def prepare_join(d, opts):
    """Before anything starts: the head's secret, segment and nodes (the
    other hosts' nodes returned); our first nid (after the partition's
    last, if not given), MTU and segment (the head's, if not given)."""
    if not opts.join:
        raise usage_error("--join '': give the first host's cluster "
                          "directory, HOST:DIR or HOST")
    head = Host(opts.join)
    if host_id_of(head) == host_id(d):
        raise usage_error('--join %s: that is the directory this host boots '
                          'in (LWK_CLUSTER); give the first host\'s' % head)
    secret, seg_line, part = head.read()
    if not re.fullmatch(r'[0-9a-f]{32}\n', secret):
        raise Fail('%s/secret is not a cluster\'s secret (32 hex digits)' %
                   head)
    seg = parse_segment(seg_line)
    if not seg or seg[0] != 'vde' or not uplink_of(seg):
        raise Fail('%s is not a cluster other hosts can join: boot it with '
                   'tools/cluster up --segment URL' % head)
    mtu = int(seg[2].get('mtu', 0))
    if opts.mtu is not None and opts.mtu != mtu:
        raise usage_error('--mtu %d: the partition in %s has MTU %d (every '
                          'node of a segment takes the same frames)' %
                          (opts.mtu, head, mtu))
    opts.mtu = mtu
    opts.segment = opts.segment or uplink_of(seg)
    opts.secret = secret.strip()
    others = [(nid, h) for nid, h in parse_partition(part)
              if h != host_id(d)]      # a host joining again replaces its own
    if opts.first_nid is None:
        opts.first_nid = max(nid for nid, _ in others) + 1 if others else 0
    opts.head = head
    return others


def check_nids(opts, others):
    """Our nids below the service nids, and no other host's."""
    last = opts.first_nid + opts.nodes - 1
    if last >= SERVICE_NIDS:
        raise usage_error('--first-nid %d -n %d: on a partition of several '
                          'hosts node nids are 0..%d (%d and up are the '
                          'hosts\' service nids)' % (
                              opts.first_nid, opts.nodes, SERVICE_NIDS - 1,
                              SERVICE_NIDS))
    taken = [(nid, h) for nid, h in others if opts.first_nid <= nid <= last]
    if taken:
        raise usage_error('--first-nid %d -n %d: nid %d is already host %s\'s '
                          '(pick nids after %d)' % (
                              opts.first_nid, opts.nodes, taken[0][0],
                              taken[0][1], max(n for n, _ in others)))


def tell_hosts(d, opts):
    """Our nodes are up: the head's partition is its own nodes; a host
    that joins tells the head, then every other host the head lists, which
    nodes it runs, and its own partition is the head's.  A host other
    than the head that cannot be told is named: its yod will not see our
    nodes until we join again."""
    me, lines = host_id(d), own_lines(d, opts)
    if not opts.head:
        write_atomic(d.file('partition'), lines)
        print('cluster: the first host of a partition on %s; other hosts '
              'join with tools/cluster up -n N --join %s' % (
                  opts.segment, me))
        return
    part = opts.head.add(me, lines)
    write_atomic(d.file('partition'), part)
    head = host_id_of(opts.head)
    hosts = sorted(set(h for _, h in parse_partition(part)) - {me, head})
    for h in hosts:
        try:
            Host(h).add(me, lines)
        except Fail as e:
            print('cluster: %s; host %s will not use our nodes (tools/cluster '
                  'up --join again once it answers)' % (e, h))
    nodes = parse_partition(part)
    print('cluster: joined %s: %d nodes on %d hosts (%s)' % (
        opts.head, len(nodes), len(set(h for _, h in nodes)),
        d.file('partition')))


# ---- status ----------------------------------------------------------------

def print_others(d, others, showmesh):
    """`status` of the nodes other hosts run, [(nid, host)]: as the segment
    sees them (showmesh asks every PCT).  Did all of them answer?"""
    states, why = mesh_states(d, showmesh)
    ok = True
    for nid, host in others:
        st = states.get(nid, 'state unknown (%s)' % why)
        ok &= st.startswith(('free', 'busy'))
        print('node %d %s %s %s' % (nid, mac_of(nid), host, st))
    return ok


def mesh_states(d, showmesh):
    """{nid: state} from showmesh's table, and why a nid may be missing."""
    try:
        r = subprocess.run([showmesh, '-t', str(MESH_MS)],
                           env=dict(os.environ, LWK_CLUSTER=d.path),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=MESH_MS / 1e3 + 30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, 'showmesh: %s' % e
    err = r.stderr.decode('utf-8', 'replace').strip().splitlines()
    states = {}
    for m in re.finditer(r'^ *(\d+)  (free|busy|down) +(\S+)',
                         r.stdout.decode('utf-8', 'replace'), re.M):
        nid, st, job = int(m.group(1)), m.group(2), m.group(3)
        states[nid] = {'free': 'free (answers on the segment)',
                       'busy': 'busy with job %s' % job,
                       'down': 'down: no answer on the segment in %g s' %
                               (MESH_MS / 1e3)}[st]
    return states, err[-1] if err else 'showmesh did not list it'
