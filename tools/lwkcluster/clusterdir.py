"""The cluster directory for tools/cluster: its paths (Dir), its public
files (nodes, segment, env, programs) read and written, the secret, the
lock that lets one `up`/`down` in at a time, the record of the user's
default cluster, and the tool's error (Fail) that every module raises.
"""
import fcntl
import os
import sys


class Fail(Exception):
    """An error the user can act on: printed as one line, then exit."""

    def __init__(self, msg, status=1):
        super().__init__(msg)
        self.status = status


def usage_error(msg):
    return Fail(msg + ' (see tools/cluster -h)', 2)


class Dir:
    """Paths of one cluster directory."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.nodes = self.file('nodes')
        self.segment = self.file('segment')
        self.env = self.file('env')
        self.programs = self.file('programs')
        self.secret = self.file('secret')
        self.boot = self.file('boot')
        self.sw = self.file('sw')

    def file(self, name):
        return os.path.join(self.path, name)

    def log(self, nid):
        return self.file('node-%d.log' % nid)

    def out(self, nid):
        return self.file('node-%d.out' % nid)

    def err(self, nid):
        return self.file('node-%d.err' % nid)

    def qemu_err(self, nid):
        return self.file('node-%d.qemu' % nid)


def record_path():
    """Where `up` records the cluster it booted as the user's default, for
    yod, showmesh and this tool run from any directory without
    LWK_CLUSTER (yod/cluster.c reads it too)."""
    base = os.environ.get('XDG_CONFIG_HOME') or \
        os.path.join(os.path.expanduser('~'), '.config')
    return os.path.join(base, 'lwk', 'cluster')


def recorded_dir():
    try:
        with open(record_path()) as f:
            return f.readline().strip() or None
    except OSError:
        return None


def record_default(d):
    try:
        os.makedirs(os.path.dirname(record_path()), exist_ok=True)
        write_atomic(record_path(), d.path + '\n')
    except OSError as e:
        print('cluster: could not record %s as your default cluster in %s '
              '(%s); set LWK_CLUSTER=%s for yod' % (d.path, record_path(),
                                                    e.strerror, d.path),
              file=sys.stderr)


def forget_default(d):
    if recorded_dir() == d.path:
        try:
            os.unlink(record_path())
        except OSError:
            pass


def write_atomic(path, text):
    """Readers (yod, tests) never see a half-written file."""
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def read_text(path):
    try:
        with open(path, 'rb') as f:
            return f.read().decode('utf-8', 'replace').replace('\r', '')
    except OSError:
        return ''


def mac_of(nid):
    return '02:50:' + ':'.join('%02x' % ((nid >> s) & 0xff)
                               for s in (24, 16, 8, 0))


class Node:
    def __init__(self, nid, pid, log, out, err):
        self.nid, self.pid, self.log, self.out = nid, pid, log, out
        self.err = err
        self.mac = mac_of(nid)

    def line(self):
        return '%d %s %d %s %s %s\n' % (self.nid, self.mac, self.pid,
                                        self.log, self.out, self.err)


def read_nodes(d):
    nodes = []
    for line in read_text(d.nodes).splitlines():
        f = line.split()
        if len(f) >= 5:     # a cluster booted before ERR was added has 5
            nodes.append(Node(int(f[0]), int(f[2]), f[3], f[4],
                              f[5] if len(f) > 5 else None))
    return nodes


def read_segment(d):
    return parse_segment(read_text(d.segment))


def parse_segment(text):
    """The segment file's (kind, where, {key: value}), or None."""
    f = text.split()
    if len(f) < 2:
        return None
    return f[0], f[1], dict(w.split('=', 1) for w in f[2:] if '=' in w)


def read_programs(d):
    return [p for p in read_text(d.programs).splitlines() if p]


def make_secret(d, text=None):
    """A new secret for every cluster (or, on a host that joins another's,
    that one's `text`), readable only by its owner; QEMU reads it as a
    file, so it never shows on a command line (ps)."""
    try:
        os.unlink(d.secret)
    except FileNotFoundError:
        pass
    fd = os.open(d.secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, 'w') as f:
        f.write((text or os.urandom(16).hex()) + '\n')


class Lock:
    """One `up`/`down` at a time per directory."""

    def __init__(self, d):
        os.makedirs(d.path, exist_ok=True)
        self.fd = os.open(d.file('.lock'), os.O_CREAT | os.O_RDWR, 0o644)

    def __enter__(self):
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        os.close(self.fd)
