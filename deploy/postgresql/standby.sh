#!/bin/sh
# docker-compose.yml's topology profile: the hot standby. On first start it copies the primary
# (pg_basebackup, with a replication slot) and includes standby.conf; then it runs PostgreSQL.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h postgres-primary -U "$POSTGRES_USER"; do sleep 1; done
  PGPASSWORD="$POSTGRES_PASSWORD" pg_basebackup -h postgres-primary -U "$POSTGRES_USER" \
    -D "$PGDATA" -R -X stream -C -S standby --checkpoint=fast
  cp /etc/ticketing-postgresql/standby.conf "$PGDATA/standby.conf"
  echo "include 'standby.conf'" >> "$PGDATA/postgresql.conf"
  echo "primary_conninfo = 'host=postgres-primary user=$POSTGRES_USER password=$POSTGRES_PASSWORD application_name=standby'" \
    >> "$PGDATA/postgresql.auto.conf"
  chmod 0700 "$PGDATA"
fi
exec postgres
