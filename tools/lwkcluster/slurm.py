"""Slurm over the compute partition, for tools/cluster up --slurm
(docs/slurm.md): Debian's munged, slurmctld and one slurmd per compute
node on the service host (`slurmd -N nidNNNNN`), each node of the cluster
a Slurm node of partition `compute`; the node-health monitor
(slurmwatch.py), the Epilog that holds a node until its PCT is free
(epilog.sh); all of it private to the cluster directory (DIR/slurm: the
configuration, munge's key and socket, the controller's state, the
slurmds' spool, the logs), on free TCP ports, run by the user who runs
`up` (SlurmUser: that user).
"""
import os
import pwd
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from clusterdir import Fail, read_text, write_atomic
from processes import pids_where, proc_argv, stop, wait_for

DAEMONS = ('munged', 'slurmctld', 'slurmd', 'sinfo', 'scontrol', 'squeue',
           'scancel')
PARTITION = 'compute'
UP_SECS = 60            # slurmctld up and every node idle within this


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


def check_slurm(opts, tools):
    """Before anything starts: --slurm serves yod's nodes, and needs
    Debian's daemons and our srun plugin."""
    missing = [p for p in DAEMONS if not shutil.which(
        p, path=os.environ.get('PATH', '') + ':/usr/sbin:/sbin')]
    if missing:
        raise Fail('--slurm needs %s: install slurmctld, slurmd, '
                   'slurm-client and munge (make deps)' % ', '.join(missing),
                   2)
    if opts.run:
        raise Fail('--slurm: the nodes serve Slurm jobs, not --run '
                   'programs (leave one of them out)', 2)
    for what in ('yod', 'showmesh', 'spank'):
        if not os.path.isfile(tools[what]):
            raise Fail('%s is missing: build the system first (make; the '
                       'srun plugin needs libslurm-dev: make deps)' %
                       tools[what], 2)


def daemon(name):
    return shutil.which(name, path=os.environ.get('PATH', '') +
                        ':/usr/sbin:/sbin') or name


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


# ---- the daemons ---------------------------------------------------------

def start_slurm(d, opts, tools):
    """munged, slurmctld, a slurmd per node, then the monitor; returns once
    sinfo shows every node idle."""
    t0 = time.monotonic()
    p = Paths(d)
    nids = [opts.first_nid + i for i in range(opts.nodes)]
    write_files(d, opts, tools, nids)
    start_daemons(d, nids)
    wait_idle(d, nids, t0)
    start_watch(d, tools)
    print('cluster: Slurm: %d nodes %s idle in partition %s of cluster %s '
          'in %.2f s; SLURM_CONF=%s' % (len(nids), hostlist(nids),
                                        PARTITION, cluster_name(d),
                                        time.monotonic() - t0, p.conf),
          flush=True)


def start_daemons(d, nids):
    """munged, slurmctld and the slurmds, each started once it can work
    (tests/bench/slurm/run starts these alone, for nodes not booted)."""
    p = Paths(d)
    run_daemon([daemon('munged'), '-S', p.sock, '--key-file=' + p.key,
                '--log-file=' + p.log('munged'),
                '--pid-file=' + os.path.join(p.private, 'munged.pid'),
                '--seed-file=' + os.path.join(p.private, 'munged.seed')],
               p.log('munged'))
    wait_for(lambda: os.path.exists(p.sock), 10,
             'munged did not start (see %s)' % p.log('munged'))
    run_daemon([daemon('slurmctld'), '-f', p.conf], p.log('slurmctld'))
    procs = [subprocess.Popen([daemon('slurmd'), '-f', p.conf, '-N',
                               node_name(nid)],
                              stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env=env_of(d))
             for nid in nids]
    for proc, nid in zip(procs, nids):
        err = proc.communicate()[1].decode('utf-8', 'replace').strip()
        if proc.returncode:
            raise Fail('slurmd for %s did not start: %s (see %s)' % (
                node_name(nid), err.splitlines()[-1] if err else
                'status %d' % proc.returncode,
                os.path.join(p.logs, 'slurmd-%s.log' % node_name(nid))))


def run_daemon(argv, log):
    """A daemon that puts itself in the background: its start must work."""
    r = subprocess.run(argv, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode:
        err = r.stderr.decode('utf-8', 'replace').strip().splitlines()
        raise Fail('%s did not start: %s (see %s)' % (
            os.path.basename(argv[0]), err[-1] if err else
            'status %d' % r.returncode, log))


def node_states(d, nids):
    """{nidNNNNN: (state, reason)} of these nodes from sinfo, or None if
    slurmctld does not answer."""
    r = subprocess.run(['sinfo', '-h', '-N', '-n', hostlist(nids), '-o',
                        '%N|%T|%E'], stdin=subprocess.DEVNULL,
                       capture_output=True, env=env_of(d), timeout=30)
    if r.returncode:
        return None
    states = {}
    for line in r.stdout.decode('utf-8', 'replace').splitlines():
        f = line.split('|', 2)
        if len(f) == 3:
            states[f[0]] = (f[1], f[2] if f[2] != 'none' else '')
    return states


def wait_idle(d, nids, t0):
    names = [node_name(n) for n in nids]
    while True:
        states = node_states(d, nids) or {}
        if all(states.get(n, ('',))[0] == 'idle' for n in names):
            return
        if time.monotonic() - t0 > UP_SECS:
            raise Fail('Slurm: not every node idle after %d s (%s); see %s' %
                       (UP_SECS, ', '.join('%s %s' % (n, states.get(
                           n, ('unknown',))[0]) for n in names if
                           states.get(n, ('',))[0] != 'idle') or
                        'slurmctld does not answer', Paths(d).logs))
        time.sleep(0.1)


def start_watch(d, tools):
    """The node-health monitor (slurmwatch.py), in its own session so it
    outlives `up`."""
    p = Paths(d)
    with open(p.log('slurmwatch'), 'a') as log:
        proc = subprocess.Popen(
            [sys.executable, tools['watch'], d.path, tools['showmesh']],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            env=dict(env_of(d), LWK_CLUSTER=d.path), start_new_session=True)
    wait_for(lambda: read_text(p.pct_state) or proc.poll() is not None, 30,
             'the Slurm node monitor did not start (see %s)' %
             p.log('slurmwatch'))
    if proc.poll() is not None:
        raise Fail('the Slurm node monitor exited with status %d (see %s)' %
                   (proc.returncode, p.log('slurmwatch')))


# ---- stopping ------------------------------------------------------------

def our_daemons(d):
    """{kind: [pid]} of this cluster's Slurm processes, found on /proc by
    their command lines (pid files may be gone)."""
    p = Paths(d)
    found = {}
    for kind, mark in (('slurmwatch', d.path), ('slurmd', p.conf),
                       ('slurmctld', p.conf), ('munged', p.sock)):
        want = (lambda prog: prog.startswith('python')) \
            if kind == 'slurmwatch' else (lambda prog, k=kind: prog == k)
        pids = pids_where(want, (mark,))
        if kind == 'slurmwatch':     # python3 .../slurmwatch.py DIR ...
            pids = [x for x in pids if proc_argv(x)[1:2] and
                    proc_argv(x)[1].endswith('slurmwatch.py') and
                    d.path in proc_argv(x)]
        found[kind] = pids
    found['slurmstepd'] = stepds(p)
    return found


def stepds(p):
    """slurmstepd processes of our slurmds: their argv names only the job
    ("slurmstepd: [12.batch]"), their open sockets our spool."""
    found = []
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        try:
            with open('/proc/%s/comm' % name) as f:
                if f.read().strip() != 'slurmstepd':
                    continue
            fds = os.listdir('/proc/%s/fd' % name)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink('/proc/%s/fd/%s' % (name, fd)).startswith(
                        p.spool + '/'):
                    found.append(int(name))
                    break
            except OSError:
                pass
    return found


def stop_slurm(d):
    """The monitor, the jobs, the slurmds, slurmctld, munged; the logs
    stay.  Returns how many processes there were."""
    p = Paths(d)
    found = our_daemons(d)
    stop(found['slurmwatch'])
    if found['slurmctld'] and os.path.exists(p.conf):
        # End the jobs the Slurm way first: their yods free the nodes.
        subprocess.run(['scancel', '--full', '--partition', PARTITION],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       env=env_of(d), timeout=30)
        try:
            wait_for(lambda: not stepds(p), 15, '')
        except Fail:
            pass
    stop(stepds(p))
    stop(found['slurmd'])
    stop(found['slurmctld'])
    stop(found['munged'])
    remove_files(d)
    return sum(len(v) for v in found.values())


# ---- status --------------------------------------------------------------

def slurm_status(d):
    """(lines, healthy) for `tools/cluster status`, or ([], True) if this
    cluster has no Slurm."""
    p = Paths(d)
    if not os.path.exists(p.conf):
        return [], True
    found = our_daemons(d)
    lines = ['slurm: cluster %s, SLURM_CONF=%s: slurmctld %s, %d slurmd, '
             'munged %s, node monitor %s' % (
                 read_text(p.name).strip(), p.conf,
                 pid_word(found['slurmctld']), len(found['slurmd']),
                 pid_word(found['munged']), pid_word(found['slurmwatch']))]
    healthy = all(found[k] for k in ('slurmctld', 'munged', 'slurmwatch'))
    nids = [int(l.split()[0]) for l in read_text(d.nodes).splitlines()
            if l.split() and l.split()[0].isdigit()]
    states = node_states(d, nids) if found['slurmctld'] and nids else None
    if states is None:
        lines.append('slurm: slurmctld does not answer (see %s)' %
                     p.log('slurmctld'))
        return lines, False
    for name, (state, reason) in sorted(states.items()):
        lines.append('slurm node %s %s%s' % (
            name, state, ' (%s)' % reason if reason else ''))
    return lines, healthy


def pid_word(pids):
    return 'pid %d' % pids[0] if pids else 'NOT RUNNING'


def slurm_files(d):
    """What `down` may leave of Slurm: nothing but DIR/slurm/log."""
    p = Paths(d)
    return [n for n in (os.listdir(p.top) if os.path.isdir(p.top) else [])
            if n != 'log']
