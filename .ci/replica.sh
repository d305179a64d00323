#!/usr/bin/env bash
# Starts a streaming read replica of the local PostgreSQL primary (127.0.0.1:5432) on
# 127.0.0.1:${REPLICA_PORT:-5433}, for the read-replica tests. Idempotent: a replica that
# already answers is left alone; a stopped one is started; one that cannot start (e.g. its
# WAL position was recycled on the primary) is cloned anew with pg_basebackup -R.
# Runs as root (CI) and acts as the postgres user.
set -euo pipefail
port="${REPLICA_PORT:-5433}"
version="$(ls /etc/postgresql | sort -n | tail -1)"
bin="/usr/lib/postgresql/$version/bin"
data="/var/lib/postgresql/$version/replica-$port"
log="/var/log/postgresql/postgresql-$version-replica-$port.log"
as_postgres() { runuser -u postgres -- "$@"; }

pg_isready -h 127.0.0.1 -p "$port" -q && exit 0

# The primary must accept a replication connection from localhost (trust, as its other lines).
hba="/etc/postgresql/$version/main/pg_hba.conf"
if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$hba"; then
  echo 'host replication all 127.0.0.1/32 trust' >> "$hba"
  psql -h 127.0.0.1 -U postgres -qAtc 'SELECT pg_reload_conf()' >/dev/null
fi
# wal_level = replica and max_wal_senders > 0 are PostgreSQL's defaults; say so if changed.
level="$(psql -h 127.0.0.1 -U postgres -qAtc 'SHOW wal_level')"
if [ "$level" = minimal ]; then echo "replica.sh: the primary runs wal_level=minimal; set wal_level=replica and restart it" >&2; exit 1; fi

start() { as_postgres "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >/dev/null; }

clone() {
  rm -rf "$data"
  install -d -o postgres -g postgres -m 700 "$data"
  as_postgres "$bin/pg_basebackup" -h 127.0.0.1 -p 5432 -U postgres -D "$data" -R -X stream -c fast
  # A Debian cluster keeps its configuration outside the data folder: give the replica its own.
  as_postgres tee "$data/postgresql.conf" >/dev/null <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '/var/run/postgresql'
hot_standby = on
hot_standby_feedback = on
max_connections = $(psql -h 127.0.0.1 -U postgres -qAtc 'SHOW max_connections')
CONF
  as_postgres tee "$data/pg_hba.conf" >/dev/null <<HBA
local all all trust
host all all 127.0.0.1/32 trust
HBA
}

if [ ! -f "$data/standby.signal" ] || ! start; then
  as_postgres "$bin/pg_ctl" -D "$data" stop -m fast >/dev/null 2>&1 || true
  clone
  start
fi
for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p "$port" -q && exit 0; sleep 1; done
echo "replica.sh: the replica on port $port does not answer (see $log)" >&2
exit 1
