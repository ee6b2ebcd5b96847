#!/bin/sh
# epilog.sh DIR: Slurm's Epilog on a Slurm-managed LWK cluster
# (tools/cluster up --slurm; docs/slurm.md).  slurmd runs it on the
# service host for each compute node when a job ends there; the node goes
# back to Slurm only when this returns.  It returns once the node monitor
# (slurmwatch.py) has looked after the job ended and found the node's PCT
# free (or down: the monitor takes it out of service then).  A yod that
# ended normally has freed its nodes already: one look (a fraction of a
# second).  A yod killed with SIGKILL cannot; its PCTs free the nodes
# when its lease runs out (5 s), and until then Slurm must not give them
# to the next job.  A node still held after LIMIT seconds is a fault:
# exit 1, and Slurm drains the node ("Epilog error").
dir=$1
LIMIT=20
state=$dir/slurm/pct-state
nid=$(echo "${SLURMD_NODENAME#nid}" | awk '/^[0-9]+$/ { print $1 + 0 }')
[ -n "$nid" ] || { echo "epilog: $SLURMD_NODENAME is not a compute node's name (nidNNNNN)" >&2; exit 1; }
start=$(date +%s.%N)
kill -USR1 "$(cat "$dir/slurm/run/slurmwatch.pid" 2>/dev/null)" 2>/dev/null
end=$(($(date +%s) + LIMIT))
while [ "$(date +%s)" -le $end ]; do
    # 0: a look newer than our start finds the node free or down.
    awk -v start="$start" -v nid="$nid" '
        NR == 1 { if ($1 != "at" || $2 <= start) exit 1; next }
        $1 == nid { exit $2 == "busy" }' "$state" 2>/dev/null && exit 0
    sleep 0.1
done
job=$(awk -v nid="$nid" '$1 == nid { print $3 }' "$state" 2>/dev/null)
echo "epilog: $SLURMD_NODENAME: its PCT still holds job ${job:-?} after $LIMIT s (the node monitor: $dir/slurm/log/slurmwatch.log)" >&2
exit 1
