#!/bin/sh
# docker-compose.yml's topology profile: run once by the postgres image when it creates the
# primary's database. Includes primary.conf and lets the standby replicate.
set -eu
cp /etc/ticketing-postgresql/primary.conf "$PGDATA/primary.conf"
echo "include 'primary.conf'" >> "$PGDATA/postgresql.conf"
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
