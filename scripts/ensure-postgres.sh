#!/usr/bin/env bash
# A PostgreSQL server for FerretDB (tools/devstack/src/servers.ts stores through it;
# docs/testing.md, "FerretDB's backend"). Prints its URL on stdout; progress goes to
# stderr.
#
# In order: RATESMITH_POSTGRES_URL; the server on 127.0.0.1:5432 when it lets user
# `postgres` in without a password (these machines run one so); else a private server
# of this script's own (trust on loopback only, port 5439, data under /var/tmp), made
# with Debian's PostgreSQL programs (installed with apt-get when missing, as root) and
# started when it is not running. The data is disposable: the tests make and drop a
# database each, `npm start` keeps one per data folder.
set -uo pipefail
cache="${RATESMITH_CACHE:-$HOME/.cache/ratesmith}"
say() { echo "ensure-postgres: $*" >&2; }
answers() { psql --no-psqlrc -qtA -c 'select 1' "$1" >/dev/null 2>&1; }
# Prints the URL, after dropping the test databases of processes that are gone (a jest
# worker killed before its FerretDB's stop: tools/devstack/src/servers.ts names them
# ratesmith_t_<pid>_<random>).
found() {
  local name pid
  for name in $(psql --no-psqlrc -qtA -c "select datname from pg_database where datname like 'ratesmith\_t\_%'" "$1" 2>/dev/null); do
    pid=${name#ratesmith_t_}
    pid=${pid%%_*}
    [[ $pid =~ ^[0-9]+$ ]] && ! kill -0 "$pid" 2>/dev/null &&
      psql --no-psqlrc -q -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" "$1" >/dev/null 2>&1
  done
  echo "$1"
  exit 0
}

if [ -n "${RATESMITH_POSTGRES_URL:-}" ]; then
  answers "$RATESMITH_POSTGRES_URL" || {
    say "RATESMITH_POSTGRES_URL=$RATESMITH_POSTGRES_URL does not answer (psql)"
    exit 1
  }
  found "$RATESMITH_POSTGRES_URL"
fi
system=postgres://postgres@127.0.0.1:5432/postgres
private_port=5439
private=postgres://postgres@127.0.0.1:$private_port/postgres
if command -v psql >/dev/null 2>&1; then
  answers "$system" && found "$system"
  answers "$private" && found "$private"
fi

# The private server: Debian's programs, the newest version installed.
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || ! command -v psql >/dev/null 2>&1; then
  if [ "$EUID" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "no PostgreSQL: install Debian's (\`sudo apt-get install -y postgresql\`), or set RATESMITH_POSTGRES_URL, or RATESMITH_FERRETDB_BACKEND=sqlite"
    exit 1
  fi
  mkdir -p "$cache"
  say "installing Debian's postgresql with apt-get (first run only, a minute or two; log: $cache/test-tools-apt.log)..."
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } \
    >>"$cache/test-tools-apt.log" 2>&1 || {
    say "apt-get install postgresql failed (see $cache/test-tools-apt.log)"
    exit 1
  }
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  answers "$system" && found "$system"
fi
# PostgreSQL refuses to run as root: root runs it as Debian's `postgres` user.
data=/var/tmp/ratesmith-postgres-$EUID
as_owner() { if [ "$EUID" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ ! -f "$data/PG_VERSION" ]; then
  say "making a private PostgreSQL in $data (first run only, a few seconds)..."
  rm -rf "$data" && mkdir -p "$data" && { [ "$EUID" != 0 ] || chown postgres: "$data"; }
  as_owner "$bindir/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C >"$data.initdb.log" 2>&1 || {
    say "initdb failed (see $data.initdb.log)"
    exit 1
  }
fi
as_owner "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
  -o "-p $private_port -k $data -c listen_addresses=127.0.0.1" start >/dev/null 2>&1 || {
  say "the private PostgreSQL did not start (see $data/server.log)"
  exit 1
}
answers "$private" || {
  say "the private PostgreSQL started but does not answer on port $private_port"
  exit 1
}
say "started a private PostgreSQL on 127.0.0.1:$private_port"
found "$private"
