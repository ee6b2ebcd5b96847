"""slurmwatch: the node-health monitor of a Slurm-managed cluster
(tools/cluster up --slurm starts it; docs/slurm.md).

  python3 slurmwatch.py DIR SHOWMESH [--joined]   (SLURM_CONF names the
                                                  cluster's)

Every PERIOD seconds it asks every node's PCT for its state at once
(SHOWMESH: one STATUS per node, yod_proto.h), writes what it saw to
DIR/slurm/pct-state for the Epilog (epilog.sh), and, on the host that
runs slurmctld, tells Slurm about every node of the
partition (this host's, and on a partition of several hosts the others'
as the segment shows them: the first host judges for all, so a host whose
link is down still has its nodes set DOWN):
a node whose PCT has not answered for YOD_LEASE_MS (the silence after
which yod, too, calls a node down), or whose QEMU is gone, is set DOWN
with a reason beginning "PCT not answering"; a node down for that reason
whose PCT answers again is resumed.  Nodes an administrator set down for
another reason are left alone.  There it also restarts slurmctld when
DIR/slurm/slurm.conf changes: a host that joins added its nodes
(slurm.py: restart_controller).  --joined: a host that joined another's
partition, whose monitor only looks at its own nodes for its Epilog.
SIGUSR1 asks for a look at once (the Epilog sends it); SIGTERM ends the
monitor.

pct-state: "at SECONDS" (time.time() of the look), then per node
"NID free|busy|down JOB".
"""
import os
import re
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clusterdir import (Dir, Fail, read_nodes, read_text,  # noqa: E402
                        write_atomic)
from partition import read_partition  # noqa: E402
from processes import node_pid_ok  # noqa: E402
from slurm import (Paths, node_name, node_states,  # noqa: E402
                   restart_controller, scontrol_update)

PERIOD = 1.0            # seconds between looks
ANSWER_MS = 1000        # showmesh -t: how long a look waits for answers
SILENT = 5.0            # yod_proto.h YOD_LEASE_MS
REASON = 'PCT not answering'
LINE_RE = re.compile(r'^\s*(\d+)\s+(free|busy|down)\s+(\S+)', re.M)

look_now = False


def on_usr1(signum, frame):
    global look_now
    look_now = True


def look(d, showmesh):
    """{nid: (state, job)} from the PCTs; every node down if showmesh
    fails."""
    r = subprocess.run([showmesh, '-t', str(ANSWER_MS)],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       env=dict(os.environ, LWK_CLUSTER=d.path), timeout=30)
    seen = {int(m.group(1)): (m.group(2), m.group(3))
            for m in LINE_RE.finditer(r.stdout.decode('utf-8', 'replace'))}
    if r.returncode:
        print('slurmwatch: showmesh: %s' % r.stderr.decode(
            'utf-8', 'replace').strip(), flush=True)
    return seen


def scontrol(d, names, state, reason=None):
    err = scontrol_update(d, names, state, reason)
    print('slurmwatch: %s %s: %s%s' % (
        state, ','.join(names), reason or 'PCT answers again',
        ' (scontrol: %s)' % err if err else ''), flush=True)


def watched(d, joined):
    """{nid: its QEMU (a clusterdir Node), or None}: every node of DIR/nodes,
    tools/cluster's QEMUs or real machines ("NID MAC" lines,
    docs/hardware.md); unless joined, also the other hosts' nodes of the
    partition, which it sees on the segment only."""
    qemus = {n.nid: n for n in read_nodes(d)}
    nodes = {int(f[0]): qemus.get(int(f[0]))
             for f in (l.split() for l in read_text(d.nodes).splitlines())
             if f and f[0].isdigit()}
    if not joined:
        nodes.update((nid, None) for nid, _ in read_partition(d)
                     if nid not in nodes)
    return nodes


def judge(d, nodes, seen, heard, now):
    """DOWN the nodes silent too long or whose QEMU is gone; RESUME ours
    that answer again."""
    slurm = node_states(d, list(nodes))
    if slurm is None:
        return
    down, back = {}, []
    for nid, qemu in nodes.items():
        name = node_name(nid)
        answers = nid in seen and seen[nid][0] != 'down'
        if answers:
            heard[nid] = now
        if name not in slurm:       # a host joining: not in Slurm yet
            continue
        state, why = slurm[name]
        if answers:
            if state.startswith('down') and why.startswith(REASON):
                back.append(name)
        elif not state.startswith('down'):
            if qemu and not node_pid_ok(qemu):
                down.setdefault(REASON + ': its QEMU exited', []).append(name)
            elif now - heard[nid] >= SILENT:
                down.setdefault(REASON + ' for %.0f s' % SILENT,
                                []).append(name)
    for reason, names in down.items():
        scontrol(d, names, 'DOWN', reason)
    if back:
        scontrol(d, back, 'RESUME')


def reconfigured(d, conf):
    """Restart slurmctld if slurm.conf is not `conf`, the text it started
    with: the new text."""
    now = read_text(Paths(d).conf)
    if now and now != conf:
        print('slurmwatch: slurm.conf changed: restarting slurmctld',
              flush=True)
        try:
            restart_controller(d)
        except (Fail, subprocess.TimeoutExpired) as e:
            print('slurmwatch: %s' % e, flush=True)
    return now or conf


def main(argv):
    global look_now
    d = Dir(argv[1])
    showmesh = argv[2]
    joined = argv[3:] == ['--joined']
    p = Paths(d)
    signal.signal(signal.SIGUSR1, on_usr1)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    write_atomic(p.watch_pid, '%d\n' % os.getpid())
    conf = read_text(p.conf)
    heard = {}
    print('slurmwatch: watching %d nodes every %g s%s' % (
        len(watched(d, joined)), PERIOD, ' for the Epilog' if joined else
        ''), flush=True)
    while True:
        look_now = False
        now = time.time()
        nodes = watched(d, joined)
        for nid in nodes:
            heard.setdefault(nid, now)
        seen = look(d, showmesh)
        write_atomic(p.pct_state, 'at %.6f\n' % now + ''.join(
            '%d %s %s\n' % ((nid,) + seen.get(nid, ('down', '-')))
            for nid in sorted(nodes)))
        if not joined:
            conf = reconfigured(d, conf)
            judge(d, nodes, seen, heard, now)
        end = now + PERIOD
        while time.time() < end and not look_now:
            time.sleep(0.05)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
