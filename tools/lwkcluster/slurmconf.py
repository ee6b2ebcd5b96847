"""The configuration of a Slurm-managed cluster, for tools/cluster up
--slurm (slurm.py; docs/slurm.md): the Slurm names of the nodes, the files
of DIR/slurm, slurm.conf, the munge key.
"""
import os
import pwd
import random
import shutil
import socket
import tempfile

from clusterdir import Fail, write_atomic

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
    """The files of DIR/slurm."""

    def __init__(self, d):
        self.top = d.file('slurm')
        f = lambda *p: os.path.join(self.top, *p)  # noqa: E731
        self.conf = f('slurm.conf')
        self.plugstack = f('plugstack.conf')
        self.epilog = f('epilog')
        self.name = f('name')           # yod: this cluster is Slurm's
        # munge's socket: in a directory of /tmp (munged wants every
        # directory above its socket searchable by all, which a home
        # directory or mktemp -d often is not), linked from here.
        self.munge = f('munge')
        self.sock = os.path.join(os.path.realpath(self.munge), 'sock')
        self.private = f('private')     # munge's key, pid and seed (0700)
        self.key = f('private', 'munge.key')
        self.state = f('state')         # slurmctld's StateSaveLocation
        self.spool = f('spool')
        self.run = f('run')             # pid files
        self.logs = f('log')
        self.jobs = f('jobs.txt')       # jobcomp/filetxt: sacct -c
        self.pct_state = f('pct-state')  # the monitor's last look
        self.watch_pid = f('run', 'slurmwatch.pid')

    def log(self, name):
        return os.path.join(self.logs, name + '.log')


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


def slurm_conf(d, opts, port, user, nids):
    p = Paths(d)
    nodes = hostlist(nids)
    return '\n'.join([
        '# Made by tools/cluster up --slurm for the cluster in %s;' % d.path,
        '# what each line is for: docs/slurm.md.',
        'ClusterName=%s' % cluster_name(d),
        'SlurmctldHost=localhost',
        'SlurmctldPort=%d' % port,
        'SlurmUser=%s' % user,
        'SlurmdUser=%s' % user,
        'AuthType=auth/munge',
        'CredType=cred/munge',
        'AuthInfo=socket=%s' % p.sock,
        'StateSaveLocation=%s' % p.state,
        'SlurmdSpoolDir=%s/%%n' % p.spool,
        'SlurmctldPidFile=%s/slurmctld.pid' % p.run,
        'SlurmdPidFile=%s/slurmd-%%n.pid' % p.run,
        'SlurmctldLogFile=%s' % p.log('slurmctld'),
        'SlurmdLogFile=%s/slurmd-%%n.log' % p.logs,
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
        'JobCompLoc=%s' % p.jobs,
        # A node set DOWN by the monitor stays down until it resumes it.
        'ReturnToService=1',
        # yod ends its job and frees the nodes on SIGTERM; SIGKILL after
        # this long (then the PCTs' lease frees them, and the Epilog waits).
        'KillWait=10',
        'MinJobAge=300',
        'Epilog=%s' % p.epilog,
        'PlugStackConfig=%s' % p.plugstack,
        'MailProg=/bin/true',
        'NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 '
        'Port=[%d-%d] CPUs=%d RealMemory=%d State=UNKNOWN' % (
            nodes, port + 1, port + len(nids), opts.cpus,
            mebibytes(opts.mem)),
        'PartitionName=%s Nodes=%s Default=YES MaxTime=INFINITE State=UP '
        'OverSubscribe=EXCLUSIVE' % (PARTITION, nodes),
        ''])


def remove_files(d):
    """Everything of DIR/slurm but the logs, and munge's socket
    directory."""
    p = Paths(d)
    if os.path.islink(p.munge) and os.path.basename(
            os.path.realpath(p.munge)).startswith('lwk-munge-'):
        shutil.rmtree(os.path.realpath(p.munge), ignore_errors=True)
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


def write_files(d, opts, tools, nids):
    p = Paths(d)
    remove_files(d)
    for path, mode in ((p.top, 0o755), (p.private, 0o700), (p.state, 0o700),
                       (p.spool, 0o755), (p.run, 0o755), (p.logs, 0o755)):
        os.makedirs(path, exist_ok=True)
        os.chmod(path, mode)    # munged checks the modes
    sockdir = tempfile.mkdtemp(prefix='lwk-munge-', dir='/tmp')
    os.chmod(sockdir, 0o755)
    os.symlink(sockdir, p.munge)
    p = Paths(d)                # now the socket's path is known
    fd = os.open(p.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, 'wb') as f:
        f.write(os.urandom(128))
    user = pwd.getpwuid(os.getuid()).pw_name
    port = free_ports(len(nids) + 1)
    write_atomic(p.conf, slurm_conf(d, opts, port, user, nids))
    write_atomic(p.plugstack, 'required %s yod=%s cluster=%s\n' % (
        tools['spank'], tools['yod'], d.path))
    write_atomic(p.epilog, '#!/bin/sh\nexec %s %s\n' % (
        tools['epilog'], d.path))
    os.chmod(p.epilog, 0o755)
    write_atomic(p.name, cluster_name(d) + '\n')
