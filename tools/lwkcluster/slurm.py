"""Slurm over the compute partition, for tools/cluster up --slurm
(docs/slurm.md): Debian's munged, slurmctld and one slurmd per compute
node on the service host (`slurmd -N nidNNNNN`), each node of the cluster
a Slurm node of partition `compute`; the node-health monitor
(slurmwatch.py), the Epilog that holds a node until its PCT is free
(epilog.sh); all of it private to the cluster directory (DIR/slurm: the
configuration, munge's key, the controller's state, the slurmds' spool,
the logs), on free TCP ports, run by the user who runs `up` (SlurmUser:
that user).  On a partition of several hosts slurmctld runs on the first
and each host runs the slurmds of its own nodes (slurmhosts.py).
"""
import os
import shutil
import subprocess
import sys
import time

import slurmhosts
from clusterdir import Fail, read_text, usage_error, write_atomic
from partition import host_id, host_id_of, read_partition
from processes import pids_where, proc_argv, stop, wait_for
# The configuration (tests/bench/slurm/run calls these through here too).
from slurmconf import (PARTITION, Paths, env_of, free_ports,  # noqa: F401
                       hostlist, node_line, node_name, remove_files,
                       root_taken, write_files)

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


def check_join(d, opts):
    """Before anything starts, on a host that joins: a partition whose
    nodes Slurm hands out is joined with --slurm, one without it without;
    with --slurm, the first host's Slurm (slurmhosts.read_head) goes to
    opts.slurm_head, and this machine's /tmp must not hold that Slurm
    already (the first host's, if it is this machine)."""
    head = slurmhosts.read_head(opts)
    if not head and opts.slurm:
        raise usage_error('--slurm: the partition in %s has no Slurm (its '
                          'first host was booted without --slurm); join '
                          'without --slurm' % opts.head)
    if head and not opts.slurm:
        raise usage_error('--join %s: Slurm hands out that partition\'s '
                          'nodes; join with --slurm (without it yod here '
                          'would take nodes behind Slurm\'s back)' %
                          opts.head)
    if head:
        err = root_taken(Paths(d, head[1]))
        if err:
            raise Fail(err)
        opts.slurm_head = head


def daemon(name):
    return shutil.which(name, path=os.environ.get('PATH', '') +
                        ':/usr/sbin:/sbin') or name


# ---- the daemons ---------------------------------------------------------

def start_slurm(d, opts, tools):
    """munged, slurmctld (on the first host, or the only one), a slurmd
    per node of this host, then the monitor; returns once sinfo shows
    every node of this host idle."""
    t0 = time.monotonic()
    nids = [opts.first_nid + i for i in range(opts.nodes)]
    head = getattr(opts, 'slurm_head', None)
    p = write_files(d, opts, tools, nids, head)
    if head:
        join_slurm(d, opts, nids)
    else:
        start_daemons(d, nids)
    wait_idle(d, nids, t0)
    start_watch(d, tools, bool(head))
    ctld = slurmhosts.controller(read_text(p.conf))
    print('cluster: Slurm: %d nodes %s idle in partition %s of cluster %s '
          '%sin %.2f s; SLURM_CONF=%s' % (
              len(nids), hostlist(nids), PARTITION, p.cluster,
              '(slurmctld on %s %s:%d) ' % ctld if ctld[0] != 'localhost'
              else '', time.monotonic() - t0, p.conf), flush=True)


def start_daemons(d, nids):
    """munged, slurmctld and the slurmds, each started once it can work
    (tests/bench/slurm/run starts these alone, for nodes not booted)."""
    p = Paths(d)
    start_munged(p)
    run_daemon([daemon('slurmctld'), '-f', p.conf], p.log('slurmctld'))
    start_slurmds(d, nids)


def join_slurm(d, opts, nids):
    """On a host that joins (slurmhosts.py): munged with the first host's
    key; our nodes' line in every host's slurm.conf; once slurmctld,
    restarted by the first host's monitor, has our nodes as that line
    says, their slurmds; the nodes our last `down` set DOWN resumed."""
    p = Paths(d)
    write_atomic(p.joined, host_id_of(opts.head) + '\n')
    addr = slurmhosts.own_addr(slurmhosts.controller(opts.slurm_head[2])[1])
    port = free_ports(len(nids))
    start_munged(p)
    slurmhosts.tell_hosts(d, opts, p.conf, node_line(
        d, opts, nids, port, slurmhosts.short_hostname(), addr))
    want = {node_name(nid): 'NodeAddr=%s Port=%d' % (addr, port + i)
            for i, nid in enumerate(nids)}
    wait_for(lambda: controller_has(d, want), UP_SECS,
             'Slurm: slurmctld on %s does not have our nodes after %d s (the '
             'first host\'s node monitor restarts it when its slurm.conf '
             'changes: see %s/slurm/log/slurmwatch.log there)' % (
                 opts.head, UP_SECS, opts.head.dir), every=0.2)
    start_slurmds(d, nids)
    left = slurmhosts.LEFT % host_id(d)
    states = answered_states(d, nids, 'Slurm: slurmctld on %s does not '
                             'answer after %d s (see %s/slurm/log/slurmctld'
                             '.log there)' % (opts.head, UP_SECS,
                                               opts.head.dir))
    back = [n for n, (state, why) in sorted(states.items())
            if state.startswith('down') and why == left]
    if back:
        scontrol_update(d, back, 'RESUME')


def controller_has(d, want):
    """Does slurmctld have these nodes ({nidNNNNN: "NodeAddr=A Port=P"})
    with these addresses?  A host joining again has new ports, which
    slurmctld takes only once restarted."""
    r = subprocess.run(['scontrol', '-o', 'show', 'node'],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       env=env_of(d), timeout=30)
    have = {}
    for line in r.stdout.decode('utf-8', 'replace').splitlines():
        f = dict(w.split('=', 1) for w in line.split() if '=' in w)
        have[f.get('NodeName')] = 'NodeAddr=%s Port=%s' % (
            f.get('NodeAddr'), f.get('Port'))
    return all(have.get(n) == w for n, w in want.items())


def start_munged(p):
    run_daemon([daemon('munged'), '-S', p.sock, '--key-file=' + p.key,
                '--log-file=' + p.log('munged'),
                '--pid-file=' + os.path.join(p.private, 'munged.pid'),
                '--seed-file=' + os.path.join(p.private, 'munged.seed')],
               p.log('munged'))
    wait_for(lambda: os.path.exists(p.sock), 10,
             'munged did not start (see %s)' % p.log('munged'))


def start_slurmds(d, nids):
    p = Paths(d)
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


def restart_controller(d):
    """slurmctld again, after a host added its nodes to slurm.conf (the
    first host's monitor calls this): Slurm 22.05 learns new nodes only
    when it starts (`scontrol reconfigure` with more nodes makes slurmctld
    exit: "node count has changed ... You have to restart slurmctld"); on
    SIGTERM it saves its state and the new one takes the jobs up again.
    Then every slurmd of every host rereads its host's copy."""
    p = Paths(d)
    pids = our_daemons(d)['slurmctld']
    if not pids:            # a site's own Slurm (docs/slurm.md) is not ours
        raise Fail('no slurmctld of %s runs here to restart' % d.path)
    stop(pids)
    run_daemon([daemon('slurmctld'), '-f', p.conf], p.log('slurmctld'))
    answered_states(d, [], 'slurmctld did not answer after its restart '
                    '(see %s)' % p.log('slurmctld'))
    subprocess.run(['scontrol', 'reconfigure'], stdin=subprocess.DEVNULL,
                   capture_output=True, env=env_of(d), timeout=30)


def scontrol_update(d, names, state, reason=None, secs=30):
    """Set Slurm nodes' state: scontrol's complaint, or ''.  A controller
    on another host whose link is down takes about 10 s to give up."""
    argv = ['scontrol', 'update', 'NodeName=' + ','.join(names),
            'State=' + state] + (['Reason=' + reason] if reason else [])
    try:
        r = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           capture_output=True, env=env_of(d), timeout=secs)
    except subprocess.TimeoutExpired:
        return 'slurmctld did not answer in %d s' % secs
    return r.stderr.decode('utf-8', 'replace').strip() if r.returncode \
        else ''


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
    """{nidNNNNN: (state, reason)} of these nodes that Slurm knows, from
    sinfo, or None if slurmctld does not answer."""
    names = set(node_name(n) for n in nids)
    r = subprocess.run(['sinfo', '-h', '-N', '-o', '%N|%T|%E'],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       env=env_of(d), timeout=30)
    if r.returncode:
        return None
    states = {}
    for line in r.stdout.decode('utf-8', 'replace').splitlines():
        f = line.split('|', 2)
        if len(f) == 3 and f[0] in names:
            states[f[0]] = (f[1], f[2] if f[2] != 'none' else '')
    return states


def answered_states(d, nids, what):
    """node_states once slurmctld answers: the first host's monitor
    restarts it at every change of slurm.conf (a host joining, leaving),
    and sinfo fails until it is back.  Fail(what) after UP_SECS."""
    end = time.monotonic() + UP_SECS
    while (states := node_states(d, nids)) is None:
        if time.monotonic() > end:
            raise Fail(what)
        time.sleep(0.2)
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


def start_watch(d, tools, joined):
    """The node-health monitor (slurmwatch.py), in its own session so it
    outlives `up`; on a joined host it looks at our nodes for the Epilog
    only (the first host's tells Slurm)."""
    p = Paths(d)
    with open(p.log('slurmwatch'), 'a') as log:
        proc = subprocess.Popen(
            [sys.executable, tools['watch'], d.path, tools['showmesh']] +
            (['--joined'] if joined else []),
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
                       ('slurmctld', p.conf), ('munged', p.key)):
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
    stay.  On a joined host, its nodes instead of the jobs: DOWN, with
    the host named, which ends their jobs.  Returns how many processes
    there were."""
    p = Paths(d)
    found = our_daemons(d)
    stop(found['slurmwatch'])
    ends = None
    if os.path.exists(p.joined) and found['slurmd']:
        ends = leave(d)
    elif found['slurmctld'] and os.path.exists(p.conf):
        # End the jobs the Slurm way first: their yods free the nodes.
        ends = subprocess.run(['scancel', '--full', '--partition', PARTITION],
                              stdin=subprocess.DEVNULL, capture_output=True,
                              env=env_of(d), timeout=30)
    if ends:
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


def leave(d):
    """`down` on a joined host: its nodes DOWN with a reason naming the
    host, which ends their jobs; if slurmctld does not answer, the first
    host's monitor sets them DOWN once they stop answering.  Were they
    set down?"""
    names = [node_name(n) for n in own_nids(d)]
    err = scontrol_update(d, names, 'DOWN', slurmhosts.LEFT % host_id(d),
                          secs=15) if names else 'no nodes'
    if err:
        print('cluster: could not set our Slurm nodes down (%s); the first '
              'host\'s node monitor will' % err)
    return not err


def own_nids(d):
    """The nids of this host's nodes (DIR/nodes)."""
    return [int(l.split()[0]) for l in read_text(d.nodes).splitlines()
            if l.split() and l.split()[0].isdigit()]


# ---- status --------------------------------------------------------------

def slurm_status(d):
    """(lines, healthy) for `tools/cluster status`, or ([], True) if this
    cluster has no Slurm.  Every node of the partition, as Slurm sees
    it."""
    p = Paths(d)
    if not os.path.exists(p.conf):
        return [], True
    found = our_daemons(d)
    joined = read_text(p.joined).strip()
    lines = ['slurm: cluster %s, SLURM_CONF=%s: slurmctld %s, %d slurmd, '
             'munged %s, node monitor %s' % (
                 p.cluster, p.conf, 'on ' + joined if joined else
                 pid_word(found['slurmctld']), len(found['slurmd']),
                 pid_word(found['munged']), pid_word(found['slurmwatch']))]
    healthy = all(found[k] for k in ('munged', 'slurmwatch')) and \
        bool(joined or found['slurmctld'])
    nids = [nid for nid, _ in read_partition(d)] or own_nids(d)
    states = node_states(d, nids) if (joined or found['slurmctld']) and \
        nids else None
    if states is None:
        lines.append('slurm: slurmctld does not answer (see %s)' % (
            p.log('slurmctld') if not joined else
            joined + '/slurm/log/slurmctld.log'))
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
