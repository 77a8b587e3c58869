#!/usr/bin/env bash
# baton chaos: the proof anyone can run. Starts N `baton node` processes, etcd with
# three members and a private PostgreSQL server (initdb + pg_ctl from
# /usr/lib/postgresql/<version>/bin on a free loopback port; the machine's shared
# server is never touched), runs a workload of HTTP, timer and approval flows
# against a built-in ledger service, and injects faults in a seeded order: kill -9,
# SIGSTOP past the lease TTL then SIGCONT, SIGTERM and restart, an etcd member
# killed and restarted, the etcd leader paused, PostgreSQL restarted, one node's
# database connections cut. Then it checks every run ended as expected, no step
# completion was journaled twice, every side effect belongs to a journaled attempt
# and every fenced-out write was counted, prints failover latencies per fault kind
# and the seed, and exits non-zero on any violation.
#
#   deploy/chaos.sh [--seed N] [--duration 2m] [--nodes 3] [--rate 4]
#   deploy/chaos.sh --duration 30m            the documented soak
#
# Everything listens on 127.0.0.1 only and is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -q -pl node -am -Pchaos -DskipTests -DskipITs -Dspotless.check.skip=true verify \
  -Dchaos.args="$*"
