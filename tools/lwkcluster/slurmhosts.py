"""One Slurm over a partition of several hosts, for tools/cluster up
--slurm with --segment (the first host) or --join (docs/slurm.md, several
hosts).  slurmctld runs on the first host; each host runs munged and the
slurmds of its own nodes.  Every host holds the same slurm.conf (Slurm
compares its hash) and the same munge key, both the first host's: a host
that joins copies them from the first host's cluster directory the way it
copies the cluster secret (partition.py: a path, or HOST:DIR over ssh),
then adds its nodes' line to every host's slurm.conf, the first host's
last.  The first host's node monitor (slurmwatch.py) sees its slurm.conf
change and restarts slurmctld, which learns new nodes only when it starts
(slurm.py: restart_controller).

The paths slurm.conf names are the same on every host (slurmconf.py:
Paths, under /tmp/lwk-slurm-NAME); what differs is each host's own address, on
its nodes' line ("NodeName=... NodeAddr=ADDR Port=[...] ...  # HOST"),
HOST being the host's "HOSTNAME:DIR" as in the partition file.
"""
import base64
import os
import pwd
import re
import shlex
import socket

from clusterdir import Fail, write_atomic
from partition import Host, host_id, host_id_of, read_partition

LEFT = 'host %s is down (tools/cluster down)'   # Slurm's reason

# slurm.conf on a host, its node lines merged: every other line as it is,
# then the node lines but HOST's, with the line read from stdin, sorted
# bytewise, so that every host that merges the same lines, in any order,
# holds the same file.
MERGE = ('test -f slurm/slurm.conf && { grep -v "^NodeName=" '
         'slurm/slurm.conf; { grep "^NodeName=" slurm/slurm.conf | '
         'awk -v me=%s "\\$NF != me"; cat; } | LC_ALL=C sort; } '
         '>slurm/slurm.conf.tmp && mv slurm/slurm.conf.tmp slurm/slurm.conf '
         '&& cat slurm/slurm.conf')


# ---- this host on the network ---------------------------------------------

def short_hostname():
    """What SlurmctldHost and NodeHostname name: `hostname -s`."""
    return socket.gethostname().split('.')[0]


def addr_toward(ip):
    """This host's address on its route to ip (a UDP socket's connect
    sends nothing)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect((ip, 9))
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def segment_ip(url):
    """The IPv4 address in a --segment URL (vxvde's multicast group,
    udp://'s peer), or None."""
    m = re.search(r'\b(\d{1,3}(?:\.\d{1,3}){3})\b', url or '')
    return m.group(1) if m else None


def own_addr(toward):
    """The address other hosts reach this one at: $LWK_SLURM_ADDR, else
    this host's source address on its route toward `toward` (an IPv4
    address on the other hosts' side: the controller's, or the segment's
    multicast group), else the address its hostname resolves to, if that
    is not a loopback address."""
    addr = os.environ.get('LWK_SLURM_ADDR') or \
        (addr_toward(toward) if toward else None)
    if not addr:
        try:
            addr = socket.gethostbyname(socket.gethostname())
        except OSError:
            addr = None
    if not addr or addr.startswith('127.'):
        raise Fail('--slurm on several hosts: cannot tell the address other '
                   'hosts reach this one at (%s resolves to %s%s); set '
                   'LWK_SLURM_ADDR=ADDR' % (
                       socket.gethostname(), addr or 'nothing',
                       ', and no route to %s' % toward if toward else ''), 2)
    return addr


def controller(conf):
    """(hostname, address, port) of slurmctld from slurm.conf's text."""
    host = re.search(r'^SlurmctldHost=([^(\s]+)(?:\(([^)\s]+)\))?', conf,
                     re.M)
    port = re.search(r'^SlurmctldPort=(\d+)', conf, re.M)
    if not host or not port:
        return None
    return host.group(1), host.group(2) or host.group(1), int(port.group(1))


# ---- joining: the first host's Slurm ----------------------------------------

def read_head(opts):
    """The first host's Slurm, on a host that joins: (munge key, Slurm
    cluster name, slurm.conf), or None if it has none."""
    out = opts.head.sh(
        'cd %s && if [ -f slurm/name ]; then base64 -w0 '
        'slurm/private/munge.key && echo && cat slurm/name && echo --- && '
        'cat slurm/slurm.conf; fi' % shlex.quote(opts.head.dir),
        'read its Slurm configuration')
    if not out.strip():
        return None
    key64, _, rest = out.partition('\n')
    name, _, conf = rest.partition('---\n')
    key = base64.b64decode(key64.strip() or 'x', validate=False)
    ctld = controller(conf)
    owner = re.search(r'^SlurmUser=(\S+)', conf, re.M)
    if len(key) < 32 or not name.strip() or not ctld or not owner:
        raise Fail('%s/slurm is not a Slurm tools/cluster made (its munge '
                   'key, name or slurm.conf is missing)' % opts.head)
    if ctld[1] in ('localhost', '127.0.0.1'):
        raise Fail('the Slurm of %s serves that host alone (boot it again '
                   'with --segment URL --slurm)' % opts.head)
    user = pwd.getpwuid(os.getuid()).pw_name
    if owner.group(1) != user:
        raise Fail('the Slurm of %s runs as user %s: join as %s (Slurm and '
                   'munge take a user to be the same on every host)' % (
                       opts.head, owner.group(1), owner.group(1)))
    return key, name.strip(), conf


def tell_hosts(d, opts, conf_path, line):
    """Add our nodes' line to the slurm.conf of every host of the
    partition, the first host's last (its monitor restarts slurmctld when
    its file changes, and every other host must have the new file by
    then); ours is the first host's.  A host that cannot be told is named:
    its slurmds keep the old file until it joins again."""
    me = host_id(d)
    head = host_id_of(opts.head)
    others = sorted(set(h for _, h in read_partition(d)) - {me, head})
    for h in others:
        try:
            Host(h).locked(MERGE % shlex.quote(me), 'add our Slurm nodes',
                           line)
        except Fail as e:
            print('cluster: %s; its slurmds will not know our nodes' % e)
    write_atomic(conf_path, opts.head.locked(
        MERGE % shlex.quote(me), 'add our Slurm nodes', line))
