#!/bin/sh
# The standby's start: on an empty data folder, a base backup of the primary streamed with
# pg_basebackup -R (which writes standby.signal and primary_conninfo), then PostgreSQL as a
# hot standby that streams from the primary under the name the primary's
# synchronous_standby_names waits for. Promoted by `pg_ctl promote` (docs/operations.md,
# "Fail over"). Runs as the image's postgres user.
set -eu
: "${PGDATA:?}" "${PRIMARY_HOST:?}" "${GIN_REPLICATOR_PASSWORD:?}"
# Written on every start (the container's home is not kept): the base backup and then the
# streaming connection read the password from it.
printf '%s:5432:replication:gin_replicator:%s\n' "$PRIMARY_HOST" "$GIN_REPLICATOR_PASSWORD" \
    > "$HOME/.pgpass"
chmod 600 "$HOME/.pgpass"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_basebackup --host "$PRIMARY_HOST" --username gin_replicator --no-password \
        --pgdata "$PGDATA" --wal-method stream --checkpoint fast --write-recovery-conf \
        --dbname "application_name=gin_standby"; do
        echo "standby: the primary is not ready for a base backup yet" >&2
        rm -rf "${PGDATA:?}"/*
        sleep 2
    done
    # Once promoted it waits for no standby of its own (none is attached), and archives
    # only when told to (the backups are taken from whichever server is the primary).
    {
        echo "synchronous_standby_names = ''"
        echo "archive_mode = 'off'"
    } >> "$PGDATA/postgresql.auto.conf"
fi
exec postgres
