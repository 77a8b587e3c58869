#!/usr/bin/env bash
# The PostgreSQL journal benchmark: fenced appends per second for 1, 8 and 64
# concurrent runs, with and without group commit, beside pgbench's rate for the
# same conditional-UPDATE-plus-INSERT transaction. Runs on a private throwaway
# cluster (initdb/pg_ctl from /usr/lib/postgresql/<newest>/bin; as root through
# runuser) unless --shared is given. Prints a Markdown table.
#
#   store-postgres/bench.sh [--seconds=10] [--warmup=3] [--runs=1,8,64] [--groups=256x1,256x2] [--shared]
#
# Builds the reactor modules it needs (no install: nothing is written to ~/.m2).
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -q -pl store-postgres -am -Pbench -DskipTests -Dspotless.check.skip=true \
  verify -Dbench.args="$*"
