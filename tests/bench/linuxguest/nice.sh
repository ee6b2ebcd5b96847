# Sourced by the Linux-guest benchmarks (tests/bench/linuxguest/run,
# tests/bench/io/guest9p): the guests at the nodes' priority.
# tools/cluster starts each node in a session of its own (an autogroup,
# Debian's sched_autogroup_enabled) at nice LWK_NODE_NICE (default 10),
# so on a shared host a guest at nice 0 in the caller's session would get
# more of the CPUs than the node it is compared with.  Start a guest with
# `setsid nice -n "$(guest_nice)" QEMU ... &`, then `nice_session $!`.

guest_nice() { echo "${LWK_NODE_NICE:-10}"; }

# nice_session PID: once PID leads a session of its own (setsid has run),
# its autogroup at guest_nice, as tools/lwkcluster/processes.py's
# nice_session; written earlier it would renice the caller's session.
nice_session() {
    local n=0
    until [ "$(ps -o sid= -p "$1" 2>/dev/null | tr -d ' ')" = "$1" ]; do
        kill -0 "$1" 2>/dev/null && [ $n -lt 100 ] || return 0
        n=$((n + 1))
        sleep 0.02
    done
    guest_nice >"/proc/$1/autogroup" 2>/dev/null
}
