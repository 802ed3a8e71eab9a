#!/usr/bin/env bash
# A pseudo-distributed YARN cluster of real processes on this machine — one ResourceManager and one
# NodeManager, each its own JVM started from the Maven-resolved Hadoop jars — with ElasticAM
# installed exactly as the README says: the shaded shuffle jar copied into a directory on the
# NodeManager's classpath, and the README's yarn-site.xml snippet pasted verbatim (the script cuts it
# out of README.md, so the two cannot drift apart). Jobs go in as `yarn jar` sends them, through
# org.apache.hadoop.util.RunJar.
#
#   pseudo-cluster.sh up WORKDIR              configure, install, start, wait until the node registered
#   pseudo-cluster.sh node WORKDIR            a NodeManager only, joining the ResourceManager named below
#   pseudo-cluster.sh submit WORKDIR ARGS...  java -cp conf:<hadoop> RunJar <app jar> ARGS...
#   pseudo-cluster.sh down WORKDIR            stop the daemons started in WORKDIR
#
# Environment (defaults from a built source tree):
#   HADOOP_VERSION         the Hadoop release whose daemons (and client) to run, e.g. 3.3.6: its jars are
#                          resolved from Maven with src-it/deploy/hadoop/pom.xml (default: the build's own,
#                          embedded/target/classpath.txt)
#   HADOOP_JARS            the Hadoop jars, ':'-separated, instead (HADOOP_VERSION is then ignored)
#   PSEUDO_SHUFFLE_INSTALL classpath (default): the README's first way, the jar in a directory on the
#                          NodeManager's classpath; isolated: its second, the jar named in the service's
#                          own classpath, loaded apart from the NodeManager's classes
#   ELASTICAM_APP_JAR      am/target/elasticam-<version>.jar
#   ELASTICAM_SHUFFLE_JAR  shuffle-aux-service/target/elasticam-shuffle-<version>.jar
#   PSEUDO_RM_PORTS        five ports: RM scheduler, resource tracker, client, admin, web
#                          (default 8030 8031 8032 8033 8088)
#   PSEUDO_NM_PORTS        three ports: NM container manager, localizer, web (default 8041 8040 8042)
#   PSEUDO_HOST            the ResourceManager's address, and the NodeManager's (default 127.0.0.1)
#   PSEUDO_NM_HOST         the NodeManager's address, when it is another host (default PSEUDO_HOST)
#   PSEUDO_NM_NETNS        a network namespace to run the NodeManager in (ip netns exec; needs root)
#   PSEUDO_NM_MEMORY       the NodeManager's memory for containers, MiB (default 6144)
#   PSEUDO_SITE_EXTRA      more yarn-site.xml settings, as space-separated name=value pairs
# The shuffle service listens where the README's snippet says (elasticam.shuffle.port 7447), and the
# snippet's mapreduce_shuffle on MapReduce's default 13562.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VERSION="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$ROOT/pom.xml" | head -n 1)"
APP_JAR="${ELASTICAM_APP_JAR:-$ROOT/am/target/elasticam-$VERSION.jar}"
SHUFFLE_JAR="${ELASTICAM_SHUFFLE_JAR:-$ROOT/shuffle-aux-service/target/elasticam-shuffle-$VERSION.jar}"
read -r -a RM_PORTS <<< "${PSEUDO_RM_PORTS:-8030 8031 8032 8033 8088}"
read -r -a NM_PORTS <<< "${PSEUDO_NM_PORTS:-8041 8040 8042}"
HOST="${PSEUDO_HOST:-127.0.0.1}"
NM_HOST="${PSEUDO_NM_HOST:-$HOST}"
NM_NETNS="${PSEUDO_NM_NETNS:-}"

die() { echo "pseudo-cluster: $*" >&2; exit 1; }

if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then JAVA="$JAVA_HOME/bin/java"; else
  JAVA="$(command -v java)" || die "java is not on the PATH"
  JAVA="$(readlink -f "$JAVA")"
  # The NodeManager hands JAVA_HOME on to containers only if it has it itself.
  export JAVA_HOME="${JAVA%/bin/java}"
fi

hadoop_jars() {
  if [[ -n "${HADOOP_JARS:-}" ]]; then echo "$HADOOP_JARS"; return; fi
  local f="$ROOT/embedded/target/classpath.txt"
  if [[ -n "${HADOOP_VERSION:-}" ]]; then
    f="$ROOT/src-it/target/hadoop-$HADOOP_VERSION.classpath"
    if [[ ! -s "$f" ]]; then
      mkdir -p "$(dirname "$f")"
      mvn -B -q -f "$ROOT/src-it/deploy/hadoop/pom.xml" -Dhadoop.version="$HADOOP_VERSION" \
          dependency:build-classpath -Dmdep.outputFile="$f" >"$f.log" 2>&1 \
        || die "cannot resolve Hadoop $HADOOP_VERSION's jars (see $f.log)"
    fi
  fi
  [[ -f "$f" ]] || die "no $f: build first (mvn -B package -DskipTests) or set HADOOP_JARS"
  tr ':' '\n' < "$f" | grep -v -e '/org/elasticam/' -e '/elasticam-[^/]*\.jar$' | paste -sd: -
}

# The README's yarn-site.xml snippet for the install mode, as written there: the first under "On the
# NodeManager's classpath", or the one under "In an isolated class loader".
readme_snippet() {
  local heading='^\*\*On the NodeManager.s classpath\.\*\*'
  [[ "$(install_mode)" == isolated ]] && heading='^\*\*In an isolated class loader\.\*\*'
  awk -v heading="$heading" '$0 ~ heading { found = 1 }
       found && /^```xml$/ { inside = 1; next }
       inside && /^```$/ { exit }
       inside { print }' "$ROOT/README.md"
}

install_mode() {
  case "${PSEUDO_SHUFFLE_INSTALL:-classpath}" in
    classpath|isolated) echo "${PSEUDO_SHUFFLE_INSTALL:-classpath}" ;;
    *) die "PSEUDO_SHUFFLE_INSTALL is classpath or isolated, not '$PSEUDO_SHUFFLE_INSTALL'" ;;
  esac
}

prop() { printf '<property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }

configure() {
  local w="$1" jars="$2" snippet
  snippet="$(readme_snippet)"
  [[ "$snippet" == *elasticam_shuffle* ]] || die "the README's install snippet was not found in $ROOT/README.md"
  mkdir -p "$w/conf" "$w/logs" "$w/nm/local" "$w/nm/logs" "$w/hadoop/share/hadoop/yarn/lib" "$w/opt/elasticam"
  if [[ "$(install_mode)" == isolated ]]; then
    # The README: the jar anywhere the NodeManager can read (its /opt/elasticam/ is this cluster's).
    cp "$SHUFFLE_JAR" "$w/opt/elasticam/"
    snippet="${snippet//\/opt\/elasticam\//$w/opt/elasticam/}"
  else
    # The README: copy the jar into a directory on the NodeManager's classpath.
    cp "$SHUFFLE_JAR" "$w/hadoop/share/hadoop/yarn/lib/"
  fi
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    echo "<!-- This cluster: the RM on $HOST, an NM on $NM_HOST, file:/// as the file system. -->"
    prop yarn.resourcemanager.hostname "$HOST"
    prop yarn.resourcemanager.scheduler.address "$HOST:${RM_PORTS[0]}"
    prop yarn.resourcemanager.resource-tracker.address "$HOST:${RM_PORTS[1]}"
    prop yarn.resourcemanager.address "$HOST:${RM_PORTS[2]}"
    prop yarn.resourcemanager.admin.address "$HOST:${RM_PORTS[3]}"
    prop yarn.resourcemanager.webapp.address "$HOST:${RM_PORTS[4]}"
    prop yarn.resourcemanager.nodemanagers.heartbeat-interval-ms 100
    prop yarn.scheduler.minimum-allocation-mb 128
    prop yarn.nodemanager.hostname "$NM_HOST"
    prop yarn.nodemanager.address "$NM_HOST:${NM_PORTS[0]}"
    prop yarn.nodemanager.localizer.address "$NM_HOST:${NM_PORTS[1]}"
    prop yarn.nodemanager.webapp.address "$NM_HOST:${NM_PORTS[2]}"
    prop yarn.nodemanager.resource.memory-mb "${PSEUDO_NM_MEMORY:-6144}"
    prop yarn.nodemanager.resource.cpu-vcores 6
    prop yarn.nodemanager.vmem-check-enabled false
    prop yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage 99.0
    prop yarn.nodemanager.local-dirs "$w/nm/local"
    prop yarn.nodemanager.log-dirs "$w/nm/logs"
    prop yarn.nodemanager.log.retain-seconds 1
    prop yarn.nodemanager.delete.debug-delay-sec 3600
    prop yarn.application.classpath "$w/conf,${jars//:/,}"
    local kv
    for kv in ${PSEUDO_SITE_EXTRA:-}; do prop "${kv%%=*}" "${kv#*=}"; done
    echo "<!-- The README, \"Installing the shuffle service\", its $(install_mode) snippet, verbatim but for /opt. -->"
    echo "$snippet"
    echo '</configuration>'
  } > "$w/conf/yarn-site.xml"
  cat > "$w/conf/capacity-scheduler.xml" <<'XML'
<?xml version="1.0"?>
<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>
<property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>
<property><name>yarn.scheduler.capacity.root.default.maximum-capacity</name><value>100</value></property>
<property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.5</value></property>
</configuration>
XML
  cat > "$w/conf/log4j.properties" <<'PROPS'
log4j.rootLogger=INFO, console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{1}: %m%n
PROPS
}

# daemon NAME CLASSPATH MAIN [NETNS]: starts a daemon in the background (in network namespace NETNS
# if given), its pid in $w/logs/NAME.pid.
daemon() {
  local w="$1" name="$2" cp="$3" main="$4" in_ns=()
  [[ -z "${5:-}" ]] || in_ns=(ip netns exec "$5")
  setsid "${in_ns[@]}" "$JAVA" -Xmx512m --add-opens java.base/java.lang=ALL-UNNAMED -Djava.net.preferIPv4Stack=true \
    -Dhadoop.log.dir="$w/logs" -Dyarn.log.dir="$w/logs" -cp "$cp" "$main" \
    > "$w/logs/$name.out" 2>&1 < /dev/null &
  echo $! > "$w/logs/$name.pid"
}

# await SECONDS WHAT COMMAND...: polls COMMAND every 200 ms.
await() {
  local deadline=$((SECONDS + $1)) what="$2"; shift 2
  until "$@"; do
    (( SECONDS < deadline )) || return 1
    sleep 0.2
  done
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
registered() { grep -q "Registered with ResourceManager as" "$1/logs/nm.out"; }

up() {
  local w="$1" jars
  [[ -f "$APP_JAR" ]] || die "no $APP_JAR: build first (mvn -B install -DskipTests)"
  [[ -f "$SHUFFLE_JAR" ]] || die "no $SHUFFLE_JAR: build first (mvn -B install -DskipTests)"
  jars="$(hadoop_jars)"
  configure "$w" "$jars"
  daemon "$w" rm "$w/conf:$jars" org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
  await 120 "the ResourceManager" port_open "${RM_PORTS[1]}" \
    || { tail -n 30 "$w/logs/rm.out" >&2; die "the ResourceManager did not come up (log: $w/logs/rm.out)"; }
  start_node_manager "$w" "$jars"
  echo "pseudo-cluster: up in $w (RM $HOST:${RM_PORTS[2]}, web http://$HOST:${RM_PORTS[4]}," \
    "NM web http://$NM_HOST:${NM_PORTS[2]})"
}

start_node_manager() {
  local w="$1" jars="$2"
  daemon "$w" nm "$w/conf:$w/hadoop/share/hadoop/yarn/lib/*:$jars" \
    org.apache.hadoop.yarn.server.nodemanager.NodeManager "$NM_NETNS"
  await 120 "the NodeManager" registered "$w" \
    || { tail -n 30 "$w/logs/nm.out" >&2; die "the NodeManager did not register (log: $w/logs/nm.out)"; }
}

# A NodeManager of its own (its own WORKDIR, install and yarn-site.xml) joining a running ResourceManager.
node() {
  local w="$1" jars
  [[ -f "$SHUFFLE_JAR" ]] || die "no $SHUFFLE_JAR: build first (mvn -B install -DskipTests)"
  jars="$(hadoop_jars)"
  configure "$w" "$jars"
  start_node_manager "$w" "$jars"
  echo "pseudo-cluster: NodeManager $NM_HOST${NM_NETNS:+ (network namespace $NM_NETNS)} joined the RM at $HOST"
}

submit() {
  local w="$1"; shift
  # What `yarn jar` runs: the configuration directory first, then Hadoop's jars.
  exec "$JAVA" -cp "$w/conf:$(hadoop_jars)" org.apache.hadoop.util.RunJar "$APP_JAR" "$@"
}

down() {
  local w="$1" name pid
  for name in nm rm; do
    [[ -f "$w/logs/$name.pid" ]] || continue
    pid="$(cat "$w/logs/$name.pid")"
    kill "$pid" 2>/dev/null || true
    await 30 "$name to stop" bash -c "! kill -0 $pid 2>/dev/null" || kill -9 "$pid" 2>/dev/null || true
    rm -f "$w/logs/$name.pid"
  done
}

cmd="${1:-}"; w="${2:-}"
[[ -n "$cmd" && -n "$w" ]] || { sed -n '9,14p' "${BASH_SOURCE[0]}" >&2; exit 2; }
mkdir -p "$w"; w="$(cd "$w" && pwd)"
case "$cmd" in
  up) up "$w" ;;
  node) node "$w" ;;
  submit) shift 2; submit "$w" "$@" ;;
  down) down "$w" ;;
  *) die "unknown command '$cmd' (up, node, submit, down)" ;;
esac
