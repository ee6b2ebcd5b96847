"""The configuration of a Slurm-managed cluster, for tools/cluster up
--slurm (slurm.py; docs/slurm.md): the Slurm names of the nodes, the files
of DIR/slurm and the paths slurm.conf gives them, slurm.conf itself, the
munge key.  slurm.conf is the same on every host of a partition of several
hosts (slurmhosts.py).
"""
import os
import pwd
import random
import shutil
import socket

import slurmhosts
from clusterdir import Fail, read_text, write_atomic
from partition import host_id

PARTITION = 'compute'


def node_name(nid):
    """nidNNNNN, as Cray names its compute nodes: the LWK nid in decimal,
    at least 5 digits (yod/slurm.c reads them back)."""
    return 'nid%05d' % nid


def hostlist(nids):
    """nid[00000-00003],nid[100000-100001]: Slurm's compressed hostlist of
    consecutive nids, one bracket per run of names of one width."""
    runs = []
    for nid in sorted(nids):
        width = len(str(nid)) if nid > 99999 else 5
        if runs and runs[-1][1] == nid - 1 and runs[-1][2] == width:
            runs[-1][1] = nid
        else:
            runs.append([nid, nid, width])
    return ','.join('nid%0*d' % (w, a) if a == b else
                    'nid[%0*d-%0*d]' % (w, a, w, b) for a, b, w in runs)


class Paths:
    """The files of DIR/slurm, and the paths slurm.conf names for them."""

    def __init__(self, d, name=None):
        self.top = d.file('slurm')
        f = lambda *p: os.path.join(self.top, *p)  # noqa: E731
        self.conf = f('slurm.conf')
        self.plugstack = f('plugstack.conf')
        self.epilog = f('epilog')
        self.name = f('name')           # yod: this cluster is Slurm's
        self.cluster = name or read_text(self.name).strip() or \
            cluster_name(d)
        # slurm.conf is the same on every host of a partition (Slurm
        # compares its hash), so the paths it names are too: ROOT, a
        # directory of /tmp named for the Slurm cluster, holds munge's
        # socket (munged wants every directory above it searchable by all,
        # which a home directory may not be) and `dir`, a link to this
        # host's DIR/slurm.  DIR/slurm/munge links to ROOT.
        self.root = '/tmp/lwk-slurm-' + self.cluster
        self.sock = os.path.join(self.root, 'sock')
        self.munge = f('munge')
        self.private = f('private')     # munge's key, pid and seed (0700)
        self.key = f('private', 'munge.key')
        self.state = f('state')         # slurmctld's StateSaveLocation
        self.spool = f('spool')
        self.run = f('run')             # pid files
        self.logs = f('log')
        self.jobs = f('jobs.txt')       # jobcomp/filetxt: sacct -c
        self.pct_state = f('pct-state')  # the monitor's last look
        self.watch_pid = f('run', 'slurmwatch.pid')
        self.joined = f('joined')       # a joined host: the first's HOST

    def log(self, name):
        return os.path.join(self.logs, name + '.log')

    def named(self, path):
        """A file of DIR/slurm as slurm.conf names it: through ROOT."""
        return os.path.join(self.root, 'dir',
                            os.path.relpath(path, self.top))


def env_of(d):
    """What the Slurm commands need to reach this cluster's controller."""
    env = dict(os.environ, SLURM_CONF=Paths(d).conf)
    env.pop('SLURM_JOB_ID', None)
    return env


# ---- configuration -------------------------------------------------------

def free_ports(count):
    """count consecutive TCP ports nobody listens on: slurmctld's, then one
    per slurmd.  A random start keeps two clusters' daemons apart."""
    for _ in range(100):
        base = random.randrange(20000, 60000 - count)
        socks = []
        try:
            for port in range(base, base + count):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                socks.append(s)
                s.bind(('', port))
            return base
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise Fail('no %d consecutive free TCP ports for Slurm' % count)


def mebibytes(mem):
    return int(mem[:-1]) * (1024 if mem.endswith('G') else 1) \
        if mem[-1] in 'MG' else max(1, int(mem) >> 20)


def cluster_name(d):
    """Slurm's ClusterName: lowercase letters and digits, the same for a
    directory every time (jobs say which cluster they ran on)."""
    return 'lwk%08x' % (int.from_bytes(
        os.path.abspath(d.path).encode(), 'little') % 0xffffffff)


def where(opts):
    """(SlurmctldHost, this host's name and address for its nodes' line):
    localhost for a host of its own; on the first host of a partition of
    several hosts its name and the address the others reach it at."""
    if not getattr(opts, 'segment', None):
        return 'localhost', 'localhost', '127.0.0.1'
    name = slurmhosts.short_hostname()
    addr = slurmhosts.own_addr(slurmhosts.segment_ip(opts.segment))
    return '%s(%s)' % (name, addr), name, addr


def node_line(d, opts, nids, port, host, addr):
    """One host's nodes (nids consecutive), on ports port.. of that host,
    tagged with the host (slurmhosts.MERGE finds a host's line by it)."""
    return ('NodeName=%s NodeHostname=%s NodeAddr=%s Port=[%d-%d] CPUs=%d '
            'RealMemory=%d State=UNKNOWN  # %s\n' % (
                hostlist(nids), host, addr, port, port + len(nids) - 1,
                opts.cpus, mebibytes(opts.mem), host_id(d)))


def slurm_conf(p, ctld, port, user):
    """Everything but the node lines: the same on every host."""
    n = p.named
    return '\n'.join([
        '# Made by tools/cluster up --slurm; what each line is for:',
        '# docs/slurm.md.  The same on every host of the partition.',
        'ClusterName=%s' % p.cluster,
        'SlurmctldHost=%s' % ctld,
        'SlurmctldPort=%d' % port,
        'SlurmUser=%s' % user,
        'SlurmdUser=%s' % user,
        'AuthType=auth/munge',
        'CredType=cred/munge',
        'AuthInfo=socket=%s' % p.sock,
        'StateSaveLocation=%s' % n(p.state),
        'SlurmdSpoolDir=%s/%%n' % n(p.spool),
        'SlurmctldPidFile=%s/slurmctld.pid' % n(p.run),
        'SlurmdPidFile=%s/slurmd-%%n.pid' % n(p.run),
        'SlurmctldLogFile=%s' % n(p.log('slurmctld')),
        'SlurmdLogFile=%s/slurmd-%%n.log' % n(p.logs),
        # The nodes are what the configuration says (CPUs, memory), not
        # what the service host has.
        'SlurmdParameters=config_overrides',
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'MpiDefault=none',
        'SchedulerType=sched/backfill',
        # A batch job is scheduled when submitted, not up to 3 s later
        # (sbatch to running: 2.1-2.6 s by default, 0.13-0.37 s so).
        'SchedulerParameters=batch_sched_delay=0',
        'SelectType=select/linear',
        'AccountingStorageType=accounting_storage/none',
        'JobAcctGatherType=jobacct_gather/none',
        'JobCompType=jobcomp/filetxt',
        'JobCompLoc=%s' % n(p.jobs),
        # A node set DOWN by the monitor stays down until it resumes it.
        'ReturnToService=1',
        # yod ends its job and frees the nodes on SIGTERM; SIGKILL after
        # this long (then the PCTs' lease frees them, and the Epilog waits).
        'KillWait=10',
        'MinJobAge=300',
        'Epilog=%s' % n(p.epilog),
        'PlugStackConfig=%s' % n(p.plugstack),
        'MailProg=/bin/true',
        # Every node of every host, whichever hosts join later.
        'PartitionName=%s Nodes=ALL Default=YES MaxTime=INFINITE State=UP '
        'OverSubscribe=EXCLUSIVE' % PARTITION,
        ''])


def remove_files(d):
    """Everything of DIR/slurm but the logs, and ROOT if it is ours."""
    p = Paths(d)
    if os.path.realpath(os.path.join(p.root, 'dir')) == \
            os.path.realpath(p.top):
        shutil.rmtree(p.root, ignore_errors=True)
    if not os.path.isdir(p.top):
        return
    for name in os.listdir(p.top):
        path = os.path.join(p.top, name)
        if name == 'log':
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)


def root_taken(p):
    """Why ROOT (Paths) cannot be this host's, or None: it is another
    cluster's, or another user's."""
    try:
        st = os.lstat(p.root)
    except FileNotFoundError:
        return None
    try:
        link = os.readlink(os.path.join(p.root, 'dir'))
    except OSError:
        link = None
    if st.st_uid == os.getuid() and link == p.top:
        return None                 # ours, left by an `up` that was killed
    return ('%s, where slurm.conf puts the Slurm of cluster %s, is %s: on '
            'one machine two hosts of one partition need a /tmp each' % (
                p.root, p.cluster, 'the cluster in %s\'s' %
                os.path.dirname(link) if link else 'taken'))


def make_root(p):
    """ROOT for this host (Paths), and DIR/slurm/munge linking to it."""
    err = root_taken(p)
    if err:
        raise Fail(err)
    shutil.rmtree(p.root, ignore_errors=True)
    os.mkdir(p.root, 0o755)
    os.chmod(p.root, 0o755)         # munged checks the modes
    os.symlink(p.top, os.path.join(p.root, 'dir'))
    os.symlink(p.root, p.munge)


def write_files(d, opts, tools, nids, head=None):
    """DIR/slurm and ROOT; the munge key, Slurm name and slurm.conf: new,
    or `head`'s (key, name, conf) on a host that joins."""
    remove_files(d)
    p = Paths(d, head[1] if head else None)
    for path, mode in ((p.top, 0o755), (p.private, 0o700), (p.state, 0o700),
                       (p.spool, 0o755), (p.run, 0o755), (p.logs, 0o755)):
        os.makedirs(path, exist_ok=True)
        os.chmod(path, mode)    # munged checks the modes
    make_root(p)
    fd = os.open(p.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, 'wb') as f:
        f.write(head[0] if head else os.urandom(128))
    if head:
        write_atomic(p.conf, head[2])
    else:
        ctld, host, addr = where(opts)
        port = free_ports(len(nids) + 1)
        write_atomic(p.conf, slurm_conf(
            p, ctld, port, pwd.getpwuid(os.getuid()).pw_name) +
            node_line(d, opts, nids, port + 1, host, addr))
    write_atomic(p.plugstack, 'required %s yod=%s cluster=%s\n' % (
        tools['spank'], tools['yod'], d.path))
    write_atomic(p.epilog, '#!/bin/sh\nexec %s %s\n' % (
        tools['epilog'], d.path))
    os.chmod(p.epilog, 0o755)
    write_atomic(p.name, p.cluster + '\n')
    return p
