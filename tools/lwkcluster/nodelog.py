"""What a node's log says, for tools/cluster: ready lines, crashes,
the --run programs' results, QEMU's last words, a node's state for
`status` and `wait`, the logs read as they grow, and `up`'s watch of the
nodes booting.
"""
import os
import re
import sys
import time

from clusterdir import read_nodes, read_programs, read_segment, read_text
from processes import POLL, node_pid_ok
from qemu import nic_kind

READY_RE = re.compile(r'^qkernel: ready nid=(\d+) ', re.M)
# A node without --run programs is up for jobs once its PCT serves yod
# (or says why it never will): the kernel's ready line comes first, and
# a yod started at once sent its first request to a PCT not yet there
# (suite-yodfan: node 0 left out of the first job after a boot).
SERVING_RE = re.compile(r'^pct: (serving yod on pid \d+|.*: not serving yod)$',
                        re.M)
EXIT_RE = re.compile(r'^pct: pid \d+ \((.*)\) exited with status (-?\d+)$')
KILL_RE = re.compile(r'^pct: pid \d+ \((.*)\) killed: (.*)$')
NORUN_RE = re.compile(r'^pct: (.*): cannot run: (.*)$')


class Result:
    def __init__(self, name, ok, text):
        self.name, self.ok, self.text = name, ok, text


class NodeState:
    """A node's state from its log (its text, if the caller has read it)
    and its QEMU process (whether it is alive, if the caller knows)."""

    def __init__(self, node, programs, text=None, alive=None):
        self.node = node
        self.programs = programs
        if text is None:
            text = read_text(node.log)
        lines = text.splitlines()
        self.ready = bool(READY_RE.search(text)) and \
            bool(programs or SERVING_RE.search(text))
        self.crash = crash_reason(lines)
        self.results = program_results(lines)
        self.ended = any(l.startswith('pct: all programs ended')
                         for l in lines)
        self.halted = 'qkernel: node stopped' in lines
        self.alive = node_pid_ok(node) if alive is None else alive

    def outcome(self):
        """The programs' results in one phrase."""
        if len(self.programs) == 1 and len(self.results) == 1:
            return self.results[0].text
        return ', '.join('%s %s' % (r.name, r.text) for r in self.results)

    def programs_ok(self):
        return (self.ended and len(self.results) == len(self.programs) and
                all(r.ok for r in self.results))

    def running(self):
        k = len(self.results)
        name = self.programs[k].split()[0] if k < len(self.programs) else '?'
        return 'running ' + name

    def state(self):
        if self.crash:
            return 'crashed: ' + self.crash
        gone = not self.alive and not self.halted
        if gone:
            why = 'down: VM gone (%s)' % qemu_last_words(self.node)
            return why + ('; programs had ended: ' + self.outcome()
                          if self.programs and self.ended else '')
        if not self.ready:
            return 'booting' if self.alive else 'halted before ready'
        if self.programs and not self.ended:
            return self.running()
        if self.programs:
            return self.outcome() + ('' if self.alive else ' (node halted)')
        return 'up' if self.alive else 'halted'

    def finished(self):
        """For `wait`: (done, ok, text)."""
        if self.crash:
            return True, False, 'crashed: ' + self.crash
        if self.ended:
            return True, self.programs_ok(), self.outcome()
        if not self.alive:
            return True, False, self.state()
        return False, False, self.state()


def crash_reason(lines):
    """The kernel's own words: its panic line, the PCT's death, or the
    first line of a trap dump."""
    for pick in (lambda l: l.startswith('panic: '),
                 lambda l: 'the PCT died' in l,
                 lambda l: l.startswith('trap: ')):
        for l in lines:
            if pick(l):
                return l
    return None


def program_results(lines):
    res = []
    for l in lines:
        m = EXIT_RE.match(l)
        if m:
            res.append(Result(m.group(1), m.group(2) == '0',
                              'exited ' + m.group(2)))
            continue
        m = KILL_RE.match(l) or NORUN_RE.match(l)
        if m:
            kind = 'killed' if 'killed:' in l.split(')', 1)[-1] else \
                'cannot run'
            res.append(Result(m.group(1), False,
                              '%s: %s' % (kind, m.group(2))))
    return res


def qemu_last_words(node):
    msgs = [l for l in read_text(os.path.join(
        os.path.dirname(node.log), 'node-%d.qemu' % node.nid)).splitlines()
            if l.strip()]
    return msgs[-1] if msgs else 'QEMU killed or crashed without a message'


# ---- watching many logs -------------------------------------------------------

class LogTail:
    """A node's log as it grows: a look costs a stat, and only bytes not
    read before are read.  `up` and `wait` look at every node's log many
    times a second; reading each whole log at every look made a boot of
    N nodes cost N^2 reads."""

    def __init__(self, path):
        self.path, self.data = path, b''

    def grew(self):
        try:
            size = os.stat(self.path).st_size
        except OSError:
            return False
        if size == len(self.data):
            return False
        with open(self.path, 'rb') as f:
            f.seek(len(self.data))
            self.data += f.read()
        return True

    def text(self):
        return self.data.decode('utf-8', 'replace').replace('\r', '')


def poll_interval(nnodes):
    """Looks at N logs cost N stats: from 32 nodes on, look less often,
    so the looking costs the same whatever the cluster's size."""
    return POLL * max(1.0, nnodes / 32)


# ---- up: watching the nodes boot --------------------------------------------

def wait_ready(d, opts, procs):
    """Progress as each ready line appears.  A node that crashes or whose
    QEMU exits before its ready line fails the boot; the others get a
    moment to show whether they fail the same way, so one report names
    them all.  A node is looked at again only when its log grew or its
    QEMU exited."""
    t0 = time.monotonic()
    deadline = t0 + opts.timeout
    pending, bad = set(procs), {}
    nodes = {n.nid: n for n in read_nodes(d)}
    programs = read_programs(d)
    tails = {nid: LogTail(nodes[nid].log) for nid in procs}
    while pending:
        for nid in sorted(pending):
            exited = procs[nid].poll() is not None
            if not tails[nid].grew() and not exited:
                continue
            st = NodeState(nodes[nid], programs, tails[nid].text(),
                           not exited)
            if st.ready:
                print('node %d up (%.2f s)' % (nid, time.monotonic() - t0),
                      flush=True)
                pending.discard(nid)
            elif st.crash or procs[nid].poll() is not None:
                bad[nid] = boot_failure(st, procs[nid])
                pending.discard(nid)
                deadline = min(deadline, time.monotonic() + 2)
        if pending and time.monotonic() > deadline:
            break
        if pending:
            time.sleep(poll_interval(len(procs)))
    if bad or pending:
        return report_boot_failure(d, bad, pending, opts.timeout)
    return report_up(d, opts, time.monotonic() - t0)


def boot_failure(st, proc):
    if st.crash:
        return 'crashed while booting: ' + st.crash
    return 'QEMU exited with status %d: %s' % (proc.returncode,
                                               qemu_last_words(st.node))


def report_boot_failure(d, bad, pending, timeout):
    for nid, why in sorted(bad.items()):
        print('cluster: node %d %s (log: %s)' % (nid, why, d.log(nid)),
              file=sys.stderr)
    if pending:
        late = sorted(pending)
        print('cluster: node%s %s did not come up %s (log%s: %s)' % (
            's' if len(late) > 1 else '', ', '.join(map(str, late)),
            'in time' if bad else 'within %g s' % timeout,
            's' if len(late) > 1 else '', ' '.join(d.log(n) for n in late)),
            file=sys.stderr)
    print('cluster: the cluster is left as it is for inspection '
          '(tools/cluster status, tools/cluster log NID); tools/cluster '
          'down stops it', file=sys.stderr)
    return False


def report_up(d, opts, secs):
    programs = read_programs(d)
    states = [NodeState(n, programs) for n in read_nodes(d)]
    crashed = [s for s in states if s.crash]
    for s in crashed:
        print('cluster: node %d crashed after its ready line: %s (log: %s)' %
              (s.node.nid, s.crash, s.node.log), file=sys.stderr)
    kind, where, kv = read_segment(d)
    join = '. ' + d.env
    if kind == 'tap' and 'vde' not in kv:
        join += '; ip netns exec %s PROG' % where
    nics = sorted(set(nic_kind(opts, i) for i in range(opts.nodes)))
    print('cluster: %d nodes up in %.2f s on %s %s (MTU %d, %s); '
          'Linux side: %s' % (opts.nodes, secs, kind, where, opts.mtu,
                              '+'.join(nics), join))
    return not crashed
