#!/usr/bin/env bash
# The run listing benchmark: for each filter the dashboard offers, how long a page
# of 50 takes over a table of 1,000,000 runs (first pages and deep pages, p50/p95/max),
# then each filter's plan. Uses a throwaway database on the test PostgreSQL
# (BATON_TEST_PG_URL, default 127.0.0.1:5432) and drops it. Prints Markdown.
#
#   store-postgres/listing-bench.sh [--runs=1000000] [--samples=100] [--page=50]
#
# Builds the reactor modules it needs (no install: nothing is written to ~/.m2).
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -q -pl store-postgres -am -Plisting-bench -DskipTests -Dspotless.check.skip=true \
  verify -Dbench.args="$*"
