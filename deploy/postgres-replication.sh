#!/bin/sh
# Run once by the postgres image on an empty data folder (/docker-entrypoint-initdb.d, after
# the logins script), as its superuser: the logins the standby streams through and the backups
# are taken with (REPLICATION only: neither may log in to a database, own or change anything),
# the WAL archive, and synchronous commit with the standby. docs/operations.md, "Fail over" and
# "Back up and restore".
set -eu
psql -v ON_ERROR_STOP=1 --no-psqlrc \
    --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
    -v replicator_password="$GIN_REPLICATOR_PASSWORD" \
    -v backup_password="$GIN_BACKUP_PASSWORD" <<'SQL'
CREATE ROLE gin_replicator LOGIN REPLICATION PASSWORD :'replicator_password';
CREATE ROLE gin_backup LOGIN REPLICATION PASSWORD :'backup_password';
-- Every commit waits until the standby has it on disk: an acknowledged move survives the
-- primary's host. Read when the server starts for real (this script runs on the image's
-- temporary server, before any standby exists, which would otherwise wait for ever).
ALTER SYSTEM SET synchronous_standby_names = 'gin_standby';
ALTER SYSTEM SET synchronous_commit = 'on';
-- Every finished WAL segment copied to the archive, never over one already there.
ALTER SYSTEM SET archive_mode = 'on';
ALTER SYSTEM SET archive_command = 'test ! -f /archive/%f && cp %p /archive/%f';
ALTER SYSTEM SET archive_timeout = '60s';
SQL
# Replication connections from the other containers, by password, for those two logins only.
cat >> "$PGDATA/pg_hba.conf" <<'HBA'
host replication gin_replicator all scram-sha-256
host replication gin_backup all scram-sha-256
HBA
