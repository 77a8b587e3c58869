#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine with JDK 17 and Maven:
# installs PostgreSQL, etcd, Chromium with its driver and zsh with apt-get when they are missing, makes sure
# PostgreSQL answers on 127.0.0.1 (loopback only), then runs `mvn verify`.
# The tests start their own etcd members on free loopback ports; nothing is
# left listening on 0.0.0.0. Extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
# The dashboard's browser tests drive Debian's headless Chromium through its driver.
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
# `baton completion zsh` is checked in a real zsh.
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}"
  as_root apt-get update -qq
  # policy-rc.d or no systemd: the packages' own services may not start; we start what we need below.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

export PGCONNECT_TIMEOUT=5
pg_up() { pg_isready -q -h 127.0.0.1 -p 5432; }
if ! pg_up; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  conf=/etc/postgresql/$version/main/postgresql.conf
  # Debian's default is 'localhost'; make sure nobody changed it to a wildcard.
  if grep -qE "^\s*listen_addresses\s*=\s*'\*'" "$conf"; then
    as_root sed -i "s/^\s*listen_addresses\s*=.*/listen_addresses = 'localhost'/" "$conf"
  fi
  echo "test.sh: starting PostgreSQL $version on loopback"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "test.sh: PostgreSQL did not come up on 127.0.0.1:5432" >&2; exit 1; }
fi

# The tests connect over TCP as BATON_TEST_PG_USER (default postgres, no password).
# Where the server asks for a password (Debian's default pg_hba), create a test role.
if [ -z "${BATON_TEST_PG_USER:-}" ] && ! psql -h 127.0.0.1 -U postgres -d postgres -w -qtAc 'select 1' >/dev/null 2>&1; then
  echo "test.sh: creating role baton_test for the tests"
  as_root runuser -u postgres -- psql -qtAc \
    "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'baton_test') THEN
       CREATE ROLE baton_test LOGIN SUPERUSER PASSWORD 'baton_test'; END IF; END\$\$;" >/dev/null
  export BATON_TEST_PG_USER=baton_test BATON_TEST_PG_PASSWORD=baton_test
fi

exec mvn -B -ntp verify "$@"
