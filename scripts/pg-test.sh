#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on loopback for the storage and multi-instance tests.
#
#   scripts/pg-test.sh start     initdb (first time) + start; prints the database URL on stdout
#   scripts/pg-test.sh url       prints the URL of the running cluster
#   scripts/pg-test.sh stop      fast shutdown, data kept (fault tests restart it with `start`)
#   scripts/pg-test.sh destroy   stop and delete the data directory
#   scripts/pg-test.sh status    exit 0 when running
#
# Typical use:  export PQID_TEST_DATABASE_URL="$(scripts/pg-test.sh start)"
#
# Settings (environment): PQID_PG_DIR (data directory, default /tmp/pqid-pg-test),
# PQID_PG_PORT (default 55432), PQID_PG_DB (default pqid_test).
#
# The cluster trusts every local connection and runs with fsync off: it is for tests only and
# listens on 127.0.0.1 only. PostgreSQL refuses to run as root, so as root the server runs as the
# `postgres` user that Debian's package creates.
set -euo pipefail

DIR="${PQID_PG_DIR:-/tmp/pqid-pg-test}"
PORT="${PQID_PG_PORT:-55432}"
DB="${PQID_PG_DB:-pqid_test}"
URL="postgres://postgres@127.0.0.1:${PORT}/${DB}"

log() { echo "pg-test: $*" >&2; }

bindir() {
  # Debian keeps the server binaries off PATH, one directory per major version; prefer the newest.
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -n "$d" && -x "$d/pg_ctl" ]]; then
    echo "$d"
  elif command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"
  else
    log "PostgreSQL server binaries not found; install them with: apt-get install -y postgresql"
    exit 1
  fi
}

BIN="$(bindir)"

# Run a command as the cluster owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
  if [[ "$(id -u)" == 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() { [[ -f "$DIR/postmaster.pid" ]] && as_owner "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; }

init() {
  [[ -f "$DIR/PG_VERSION" ]] && return
  log "initialising a cluster in $DIR"
  mkdir -p "$DIR"
  chmod 700 "$DIR"
  [[ "$(id -u)" == 0 ]] && chown postgres: "$DIR"
  as_owner "$BIN/initdb" -D "$DIR" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$DIR.initdb.log" 2>&1 ||
    {
      cat "$DIR.initdb.log" >&2
      exit 1
    }
  # Tests open many pools (two IdPs plus contract suites); the socket lives in the data directory
  # so no system directory (/var/run/postgresql) is needed.
  cat >>"$DIR/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$DIR'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
log_min_messages = warning
EOF
}

start() {
  init
  if ! running; then
    log "starting PostgreSQL on 127.0.0.1:$PORT"
    as_owner "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -t 60 start >/dev/null ||
      {
        tail -n 30 "$DIR/server.log" >&2 || true
        exit 1
      }
  fi
  if ! as_owner "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"
  fi
  echo "$URL"
}

stop() {
  if running; then
    log "stopping PostgreSQL on port $PORT"
    as_owner "$BIN/pg_ctl" -D "$DIR" -m fast -w -t 60 stop >/dev/null
  fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
destroy)
  stop
  rm -rf "$DIR" "$DIR.initdb.log"
  ;;
url)
  running || {
    log "not running; use: $0 start"
    exit 1
  }
  echo "$URL"
  ;;
status) running ;;
*)
  echo "usage: $0 start|stop|destroy|url|status" >&2
  exit 2
  ;;
esac
