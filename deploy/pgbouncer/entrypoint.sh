#!/bin/sh
# Fills deploy/pgbouncer/pgbouncer.ini in from the environment, writes the one user's password
# (PGBOUNCER_USER, PGBOUNCER_PASSWORD) and runs PgBouncer in the foreground.
set -eu
export PGBOUNCER_AUTH_FILE=/tmp/users.txt PGBOUNCER_LOG_FILE= PGBOUNCER_PID_FILE=/tmp/pgbouncer.pid
printf '"%s" "%s"\n' "$PGBOUNCER_USER" "$PGBOUNCER_PASSWORD" > "$PGBOUNCER_AUTH_FILE"
envsubst < /etc/pgbouncer/pgbouncer.ini.template > /tmp/pgbouncer.ini
exec pgbouncer /tmp/pgbouncer.ini
