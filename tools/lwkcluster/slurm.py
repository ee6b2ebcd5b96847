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
import shutil
import subprocess
import sys
import time

from clusterdir import Fail, read_text
from processes import pids_where, proc_argv, stop, wait_for
# The configuration (tests/bench/slurm/run calls these through here too).
from slurmconf import (PARTITION, Paths, cluster_name,  # noqa: F401
                       env_of, hostlist, node_name, remove_files,
                       write_files)

DAEMONS = ('munged', 'slurmctld', 'slurmd', 'sinfo', 'scontrol', 'squeue',
           'scancel')
UP_SECS = 60            # slurmctld up and every node idle within this


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
