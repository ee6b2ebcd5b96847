# Two hosts on one machine, for suite-hosts and tests/bench/pingpong's
# hosts-* kinds: network namespaces $HOST_A and $HOST_B joined by a veth
# pair (hv0 on each side: the wire between the hosts, 10.233.0.1 and .2),
# multicast routed onto it.  Root only.  Source it, then:
#
#   twohosts_up WIRE_MTU      make both namespaces and the wire
#   twohosts_bridge MTU VXLAN each host gets a Linux bridge lwkbr0 with a
#                             tap lwkup0 (for --segment tap://lwkup0) and
#                             the wire itself (VXLAN empty) or a VXLAN
#                             device to the other host (VXLAN=vxlan)
#   in_a CMD..., in_b CMD...  run a command on host A or B
#   twohosts_own_tmp          host B gets a /tmp of its own, as another
#                             machine has (a mount namespace with a tmpfs
#                             there; on_b enters it)
#   on_a CMD..., on_b CMD...  the same as in_a, in_b, but keep the
#                             machine's /sys (ip netns exec mounts the
#                             namespace's own, without the cgroup file
#                             system slurmd needs) and, after
#                             twohosts_own_tmp, B's own /tmp
#   twohosts_down             delete both (and everything in them); safe
#                             to repeat
HOST_A=lwkh-a-$$ HOST_B=lwkh-b-$$
HOST_A_IP=10.233.0.1 HOST_B_IP=10.233.0.2
TWOHOSTS_MNT=/run/lwkh-mnt-$$ TWOHOSTS_OWN_TMP=

in_a() { ip netns exec "$HOST_A" "$@"; }
in_b() { ip netns exec "$HOST_B" "$@"; }
on_a() { nsenter --net="/run/netns/$HOST_A" "$@"; }
on_b() {
    nsenter ${TWOHOSTS_OWN_TMP:+--mount="$TWOHOSTS_MNT/b" --wd="$PWD"} \
        --net="/run/netns/$HOST_B" "$@"
}

twohosts_up() {
    local mtu=$1 ns ip
    ip netns add "$HOST_A" && ip netns add "$HOST_B" &&
    ip link add hv0 netns "$HOST_A" type veth peer name hv0 netns "$HOST_B" ||
        return 1
    for ns in "$HOST_A:$HOST_A_IP" "$HOST_B:$HOST_B_IP"; do
        ip=${ns#*:} ns=${ns%%:*}
        ip -n "$ns" link set lo up &&
        ip -n "$ns" link set hv0 mtu "$mtu" up &&
        ip -n "$ns" addr add "$ip/24" dev hv0 &&
        ip -n "$ns" route add 224.0.0.0/4 dev hv0 || return 1
    done
}

twohosts_bridge() {
    local mtu=$1 vxlan=$2 ns peer port
    for ns in "$HOST_A:$HOST_B_IP" "$HOST_B:$HOST_A_IP"; do
        peer=${ns#*:} ns=${ns%%:*} port=hv0
        if [ -n "$vxlan" ]; then
            port=vx0
            ip -n "$ns" link add vx0 type vxlan id 42 dev hv0 dstport 4789 \
                remote "$peer" || return 1
        fi
        ip -n "$ns" link add lwkbr0 mtu "$mtu" type bridge &&
        ip -n "$ns" link set lwkbr0 type bridge stp_state 0 forward_delay 0 &&
        ip -n "$ns" tuntap add dev lwkup0 mode tap &&
        ip -n "$ns" link set lwkup0 mtu "$mtu" master lwkbr0 up &&
        ip -n "$ns" link set "$port" mtu "$mtu" master lwkbr0 up &&
        ip -n "$ns" link set lwkbr0 up || return 1
    done
}

twohosts_own_tmp() {
    # A mount namespace outlives its processes while bound to a file, on
    # a mount of its own that does not propagate.
    mkdir -p "$TWOHOSTS_MNT" && mount --bind "$TWOHOSTS_MNT" "$TWOHOSTS_MNT" &&
    mount --make-private "$TWOHOSTS_MNT" && touch "$TWOHOSTS_MNT/b" &&
    unshare --mount="$TWOHOSTS_MNT/b" --propagation private \
        mount -t tmpfs -o mode=1777 lwkh-tmp /tmp &&
    TWOHOSTS_OWN_TMP=1
}

twohosts_down() {
    if [ -d "$TWOHOSTS_MNT" ]; then
        umount "$TWOHOSTS_MNT/b" 2>/dev/null
        umount "$TWOHOSTS_MNT" 2>/dev/null
        rm -rf "$TWOHOSTS_MNT"
    fi
    TWOHOSTS_OWN_TMP=
    ip netns del "$HOST_A" 2>/dev/null
    ip netns del "$HOST_B" 2>/dev/null
    return 0
}
