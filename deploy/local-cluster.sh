#!/usr/bin/env bash
# A Baton cluster on one machine, on loopback only: an etcd member, a database on
# the local PostgreSQL server, and N `baton node` processes, the way a
# StatefulSet runs them (stable ids node-0..node-N-1, schema migrated once by
# `baton migrate` before any node starts, nodes with store.migrate off).
#
#   deploy/local-cluster.sh start [N]        etcd, database, migration, N nodes (default 3)
#   deploy/local-cluster.sh status           one line per process, with readiness
#   deploy/local-cluster.sh restart I        SIGTERM node-I, wait for exit 0, start it again
#   deploy/local-cluster.sh scale N          start or stop (SIGTERM, highest id first) nodes
#   deploy/local-cluster.sh stop             every node (SIGTERM), then etcd
#   deploy/local-cluster.sh urls             the nodes' API URLs, one per line
#
# Settings (environment): BATON_LOCAL_DIR (state, logs; default /tmp/baton-local),
# BATON_LOCAL_PORT (first node's API port; default 18080), BATON_LOCAL_ETCD_PORT
# (default 23790), BATON_LOCAL_DB (default baton_local), PGHOST/PGPORT/PGUSER
# (default 127.0.0.1/5432/postgres), BATON_LOCAL_DRAIN (default 10s),
# BATON_LOCAL_AUTH_MODE (default none: no API keys; keys with BATON_AUTH_KEYS_FILE).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${BATON_LOCAL_DIR:-/tmp/baton-local}"
base_port="${BATON_LOCAL_PORT:-18080}"
etcd_port="${BATON_LOCAL_ETCD_PORT:-23790}"
db="${BATON_LOCAL_DB:-baton_local}"
pg_host="${PGHOST:-127.0.0.1}"
pg_port="${PGPORT:-5432}"
pg_user="${PGUSER:-postgres}"
drain="${BATON_LOCAL_DRAIN:-10s}"
jar="$root/node/target/baton.jar"

die() { echo "local-cluster: $*" >&2; exit 1; }
pid_of() { [ -f "$dir/$1.pid" ] && cat "$dir/$1.pid" || true; }
alive() { local pid; pid="$(pid_of "$1")"; [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }
port_of() { echo $((base_port + $1)); }
ready() { curl -fsS -o /dev/null "http://127.0.0.1:$(port_of "$1")/health/ready" 2>/dev/null; }

node_env() {
  local i="$1"
  echo BATON_NODE_ID="node-$i" BATON_CLUSTER=local \
    BATON_HTTP_HOST=127.0.0.1 BATON_HTTP_PORT="$(port_of "$i")" \
    BATON_STORE_TYPE=postgres BATON_STORE_URL="jdbc:postgresql://$pg_host:$pg_port/$db" \
    BATON_STORE_USER="$pg_user" BATON_STORE_MIGRATE=false \
    BATON_LEASE_TYPE=etcd BATON_LEASE_ENDPOINTS="http://127.0.0.1:$etcd_port" \
    BATON_EXECUTION_DRAIN_TIMEOUT="$drain" BATON_LOGGING_FORMAT=json \
    BATON_AUTH_MODE="${BATON_LOCAL_AUTH_MODE:-none}"
}

build() {
  if [ ! -f "$jar" ]; then
    echo "local-cluster: building $jar" >&2
    (cd "$root" && mvn -B -q -DskipTests -Dspotless.check.skip=true package -pl node -am) >&2
  fi
}

start_etcd() {
  alive etcd && return
  mkdir -p "$dir/etcd"
  etcd --name local --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" \
    --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$((etcd_port + 1))" \
    --initial-advertise-peer-urls "http://127.0.0.1:$((etcd_port + 1))" \
    --initial-cluster "local=http://127.0.0.1:$((etcd_port + 1))" \
    >"$dir/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
  for _ in $(seq 1 50); do
    curl -fsS "http://127.0.0.1:$etcd_port/health" >/dev/null 2>&1 && return
    sleep 0.2
  done
  die "etcd did not start; see $dir/etcd.log"
}

prepare_database() {
  pg_isready -h "$pg_host" -p "$pg_port" -q || die "no PostgreSQL at $pg_host:$pg_port"
  if ! psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
    psql -h "$pg_host" -p "$pg_port" -U "$pg_user" -d postgres -qc "CREATE DATABASE $db"
  fi
  # shellcheck disable=SC2046
  env $(node_env 0) java -jar "$jar" migrate >>"$dir/migrate.log" 2>&1 \
    || die "baton migrate failed; see $dir/migrate.log"
}

start_node() {
  local i="$1"
  alive "node-$i" && return
  # shellcheck disable=SC2046
  env $(node_env "$i") java ${JAVA_OPTS:--Xmx384m} -jar "$jar" node >>"$dir/node-$i.log" 2>&1 &
  echo $! >"$dir/node-$i.pid"
}

await_ready() {
  local i="$1"
  for _ in $(seq 1 600); do
    ready "$i" && return
    alive "node-$i" || die "node-$i exited; see $dir/node-$i.log"
    sleep 0.2
  done
  die "node-$i not ready after 120s; see $dir/node-$i.log"
}

stop_node() {
  local i="$1" pid
  pid="$(pid_of "node-$i")"
  [ -z "$pid" ] && return
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    local code=0
    wait "$pid" 2>/dev/null || code=$?
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    [ "$code" = 0 ] || [ "$code" = 127 ] || echo "local-cluster: node-$i exited $code" >&2
  fi
  rm -f "$dir/node-$i.pid"
}

running_nodes() {
  local n=0
  while [ -f "$dir/node-$n.pid" ]; do n=$((n + 1)); done
  echo "$n"
}

cmd="${1:-status}"
mkdir -p "$dir"
case "$cmd" in
  start)
    n="${2:-3}"
    build
    start_etcd
    prepare_database
    for i in $(seq 0 $((n - 1))); do start_node "$i"; done
    for i in $(seq 0 $((n - 1))); do await_ready "$i"; done
    echo "local-cluster: $n nodes ready: http://127.0.0.1:$base_port ... (logs in $dir)"
    ;;
  restart)
    i="${2:?restart needs a node index}"
    stop_node "$i"
    start_node "$i"
    await_ready "$i"
    ;;
  scale)
    n="${2:?scale needs a node count}"
    have="$(running_nodes)"
    for i in $(seq "$have" $((n - 1))); do start_node "$i"; done
    for i in $(seq "$have" $((n - 1))); do await_ready "$i"; done
    for i in $(seq $((have - 1)) -1 "$n"); do stop_node "$i"; done
    ;;
  stop)
    for i in $(seq $(($(running_nodes) - 1)) -1 0); do stop_node "$i"; done
    if alive etcd; then kill -TERM "$(pid_of etcd)"; fi
    rm -f "$dir/etcd.pid"
    ;;
  status)
    for pidfile in "$dir"/*.pid; do
      [ -e "$pidfile" ] || { echo "local-cluster: nothing running"; exit 0; }
      name="$(basename "$pidfile" .pid)"
      state=down
      alive "$name" && state=up
      if [[ "$name" == node-* ]] && [ "$state" = up ]; then
        ready "${name#node-}" && state="up ready" || state="up not-ready"
      fi
      echo "$name pid $(pid_of "$name") $state"
    done
    ;;
  urls)
    for i in $(seq 0 $(($(running_nodes) - 1))); do echo "http://127.0.0.1:$(port_of "$i")"; done
    ;;
  *)
    sed -n '2,16p' "$0" >&2
    exit 2
    ;;
esac
