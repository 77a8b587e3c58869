#!/usr/bin/env bash
# The node-level benchmarks on real PostgreSQL (the machine's server, a fresh
# database) and etcd (a member started for the run). Prints figures; see
# docs/benchmarks.md for what was measured on this project's machine.
#
#   deploy/bench.sh [engine|latency|events|recovery|memory|handoff|failover|all]
#   deploy/bench.sh rebalance  3 -> 6 nodes with 30,000 long-running runs, then a node joining and
#                             leaving every 10 s (-Dbaton.bench.rebalanceRuns -Dbaton.bench.stepSeconds
#                             -Dbaton.bench.churnCycles; give it -Dbench.heap=4g)
#   deploy/bench.sh longrun   one run (a repeat of a noop) to -Dbaton.bench.longrunEntries=1000000 step
#                             completions; at 1 %, 10 % and 100 % of it -Dbaton.bench.trials=20 hand-offs
#                             and as many kill -9: claim-to-first-step, hot and archived journal rows
#                             (-Dbaton.bench.checkpointEntries=1000)
#   deploy/bench.sh retention -Dbaton.bench.retentionRuns=10000 runs of -Dbaton.bench.retentionSteps=200
#                             steps, -Dbaton.bench.retentionWindow=100 at a time, under a flow retention of
#                             -Dbaton.bench.retentionSeconds=5: table sizes sampled until every run is deleted
#                             (where the server has autovacuum off, VACUUM every -Dbaton.bench.vacuumSeconds=30)
#   deploy/bench.sh dashboard the dashboard in headless Chromium (Debian's chromium and chromium-driver)
#                             over -Dbaton.bench.dashboardRuns=1000000 runs and one run of
#                             -Dbaton.bench.dashboardEntries=100000 journal entries: the runs page's
#                             first page, a status + flow filter, next pages by cursor, the long run's
#                             page and its tab's renderer memory (PSS), a run's change committed on
#                             one node shown on a page of another; p50/p95/max of
#                             -Dbaton.bench.trials=20 repetitions each
#   deploy/bench.sh rollout   the rolling restart under load on real processes (RollingRestartIT,
#                             long version: -Dbaton.rollout.steadySeconds=30
#                             -Dbaton.rollout.runsPerSecond=20 by default)
#
# System properties tune sizes: -Dbaton.bench.size=10000 (recovery, memory),
# -Dbaton.bench.runs=50000 -Dbaton.bench.window=2000 -Dbaton.bench.policy=fail (engine; the
# last runs the flow with recovery: fail, whose steps also journal their starts),
# -Dbaton.bench.latencyRuns=2000 -Dbaton.bench.loadSeconds=5 -Dbaton.bench.levels=0.1,0.5,0.9 (latency),
# -Dbaton.bench.jfr=FILE (a JFR profile of the whole run), -Dbaton.bench.committers=2 (the
# journal's group-commit lanes of every benchmark node, as a node on PostgreSQL has),
# -Dbaton.bench.events=20000 -Dbaton.bench.appThreads=8 -Dbaton.bench.eventRate=2000 (events; the
# last is the paced sitting's offered rate), -Dbaton.bench.handoffRuns=1000 -Dbaton.bench.ttlSeconds=10 (hand-off, failover),
# passed as extra arguments after the benchmark's name.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
shift || true
if [ "$which" = rollout ]; then
  exec mvn -B -q -pl node -am -Dspotless.check.skip=true -Dtest=none \
    -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=RollingRestartIT \
    -Dbaton.rollout.steadySeconds=30 -Dbaton.rollout.runsPerSecond=20 "$@" verify
fi
exec mvn -B -q -pl node -am -Pnode-bench -DskipTests -DskipITs -Dspotless.check.skip=true verify \
  -Dnode.bench.args="$which" "$@"
