#!/usr/bin/env bash
# Two hosts on one machine, the second in a network namespace of its own: a partition that every
# process sees as one, made by the kernel rather than by a proxy. Needs root and iproute2.
#
#   host A (this machine's namespace)            host B (network namespace $NS)
#   10.213.7.1 on veth $HOST_IF  <------------->  10.213.7.2 on veth $NS_IF
#   ResourceManager, NodeManager A               NodeManager B
#
# Both NodeManagers run the ElasticAM shuffle service installed as the README says
# (pseudo-cluster.sh does that). The addresses are the cluster's own: they exist only on the veth
# pair this script makes, and no traffic leaves the machine.
#
#   netns-cluster.sh up WORKDIR              make the namespace and the veth pair, start the daemons
#   netns-cluster.sh submit WORKDIR ARGS...  submit to the ResourceManager (through RunJar, as yarn jar)
#   netns-cluster.sh cut WORKDIR             bring host B's end of the veth down: B hears nothing, and
#                                            nothing it sends arrives, as across a partition
#   netns-cluster.sh heal WORKDIR            bring it up again
#   netns-cluster.sh down WORKDIR            stop the daemons, remove the veth pair and the namespace
#
# Environment: PSEUDO_RM_PORTS (as pseudo-cluster.sh); NETNS_A_MEMORY and NETNS_B_MEMORY, each
# NodeManager's memory for containers in MiB (default 3072 and 1536); NETNS_SITE_EXTRA, more
# yarn-site.xml settings as name=value pairs (both hosts).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
NS=eam-nodeb
HOST_IF=eam-veth-a
NS_IF=eam-veth-b
A=10.213.7.1
B=10.213.7.2
# The RM finds a silent node LOST after 6 s (not 10 min), and a NodeManager cut off retries the RM
# every second, so a test sees both within seconds.
SITE="yarn.nm.liveness-monitor.expiry-interval-ms=6000 yarn.resourcemanager.connect.retry-interval.ms=1000 ${NETNS_SITE_EXTRA:-}"

die() { echo "netns-cluster: $*" >&2; exit 1; }

[[ "$(id -u)" == 0 ]] || die "needs root (ip netns add)"
command -v ip >/dev/null || die "needs iproute2 (the ip command)"

pseudo() {
  PSEUDO_HOST=$A PSEUDO_SITE_EXTRA="$SITE" bash "$HERE/pseudo-cluster.sh" "$@"
}

up() {
  local w="$1"
  ip netns list | grep -qw "$NS" && die "namespace $NS exists: another cluster is up (netns-cluster.sh down)"
  ip netns add "$NS"
  ip link add "$HOST_IF" type veth peer name "$NS_IF"
  ip link set "$NS_IF" netns "$NS"
  ip addr add "$A/24" dev "$HOST_IF"
  ip link set "$HOST_IF" up
  ip netns exec "$NS" ip addr add "$B/24" dev "$NS_IF"
  ip netns exec "$NS" ip link set "$NS_IF" up
  ip netns exec "$NS" ip link set lo up
  PSEUDO_NM_MEMORY="${NETNS_A_MEMORY:-3072}" pseudo up "$w/a"
  PSEUDO_NM_HOST=$B PSEUDO_NM_NETNS=$NS PSEUDO_NM_MEMORY="${NETNS_B_MEMORY:-1536}" pseudo node "$w/b"
  echo "netns-cluster: up in $w (host A $A, host B $B in namespace $NS)"
}

down() {
  local w="$1"
  [[ ! -d "$w/b" ]] || pseudo down "$w/b" || true
  [[ ! -d "$w/a" ]] || pseudo down "$w/a" || true
  ip link del "$HOST_IF" 2>/dev/null || true
  ip netns del "$NS" 2>/dev/null || true
}

cmd="${1:-}"; w="${2:-}"
[[ -n "$cmd" && -n "$w" ]] || { sed -n '14,20p' "${BASH_SOURCE[0]}" >&2; exit 2; }
mkdir -p "$w"; w="$(cd "$w" && pwd)"
case "$cmd" in
  up) up "$w" ;;
  submit) shift 2; pseudo submit "$w/a" "$@" ;;
  cut) ip netns exec "$NS" ip link set "$NS_IF" down; echo "netns-cluster: $B cut off" ;;
  heal) ip netns exec "$NS" ip link set "$NS_IF" up; echo "netns-cluster: $B reachable again" ;;
  down) down "$w" ;;
  *) die "unknown command '$cmd' (up, submit, cut, heal, down)" ;;
esac
