"""The host processes of a cluster for tools/cluster: is a pid still
alive and still ours (QEMU, switch), finding every process of a cluster
directory by its command line, stopping them (TERM, then KILL), and
polling for a condition.
"""
import os
import signal
import time

from clusterdir import Fail

GRACE = 3.0             # seconds between TERM and KILL in `down`
POLL = 0.02


def proc_alive(pid):
    """Running, not a zombie waiting for a parent that is gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            stat = f.read()
    except (OSError, ValueError):
        return False
    return stat[stat.rindex(')') + 2] not in 'ZX'


def nice_session(pid, nice):
    """Make the session `pid` leads `nice` as a whole.  With the kernel's
    autogroups (sched_autogroup_enabled, Debian's default) each session
    is scheduled as one task of nice 0 against the others, whatever the
    nice of its processes: 128 nodes each in a session of its own took
    128 shares of the CPUs, and starved the switch and yod (both nice 0,
    each one share) for seconds, until the PCTs' leases ran out.  Raising
    an autogroup's nice needs no privilege; a kernel without autogroups
    has no such file, and `nice` alone then does the job."""
    try:
        with open('/proc/%d/autogroup' % pid, 'w') as f:
            f.write('%d\n' % nice)
    except OSError:
        pass


def proc_argv(pid):
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            return [a.decode('utf-8', 'replace')
                    for a in f.read().split(b'\0') if a]
    except OSError:
        return []


def node_pid_ok(node):
    """The pid is still this node's QEMU (pids get reused)."""
    return proc_alive(node.pid) and 'file:' + node.log in proc_argv(node.pid)


def pids_where(wanted, marks):
    """Every process whose program name wanted() accepts and one of whose
    arguments contains one of marks (paths): found on /proc, so even a
    process whose pid was never recorded (an `up` killed halfway)."""
    found = []
    for name in os.listdir('/proc'):
        if not name.isdigit():
            continue
        argv = proc_argv(int(name))
        if argv and wanted(os.path.basename(argv[0])) and \
                any(m in a for a in argv[1:] for m in marks):
            found.append(int(name))
    return found


def our_processes(d, kinds=('qemu', 'switch')):
    """Every QEMU or switch process that belongs to this directory."""
    def wanted(prog):
        kind = 'qemu' if prog.startswith('qemu-system') else \
            'switch' if prog in ('vde_switch', 'vde_plug') else None
        return kind in kinds
    return pids_where(wanted, ('file:' + d.path + '/node-', d.sw))


def stop(pids, grace=GRACE):
    """TERM, then KILL what is left after `grace` seconds; returns when
    every process is gone."""
    pids = [p for p in pids if proc_alive(p)]
    for sig, wait_s in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        for p in pids:
            try:
                os.kill(p, sig)
            except ProcessLookupError:
                pass
        end = time.monotonic() + wait_s
        while time.monotonic() < end:
            reap()
            pids = [p for p in pids if proc_alive(p)]
            if not pids:
                return
            time.sleep(POLL)
    if pids:
        raise Fail('processes %s survived SIGKILL; check them with ps' %
                   ' '.join(map(str, pids)))


def reap():
    """Collect our own exited children (only `up` has any)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def wait_for(cond, secs, what, every=POLL):
    end = time.monotonic() + secs
    while not cond():
        if time.monotonic() > end:
            raise Fail(what)
        time.sleep(every)
