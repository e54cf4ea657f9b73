#!/bin/sh
# Run once by the postgres image on an empty data folder (/docker-entrypoint-initdb.d), as
# its superuser: the login that migrates (it owns the database and may create the roles the
# migrations make) and the login the service serves through (granted only gin_app, by the
# migration step, once the migrations have made that role). docs/operations.md, "Database
# roles".
set -eu
psql -v ON_ERROR_STOP=1 --no-psqlrc \
    --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
    -v migrator_password="$GIN_MIGRATOR_PASSWORD" -v service_password="$GIN_SERVICE_PASSWORD" <<'SQL'
CREATE ROLE gin_migrator LOGIN CREATEROLE PASSWORD :'migrator_password';
CREATE ROLE gin_service LOGIN PASSWORD :'service_password';
CREATE DATABASE gin OWNER gin_migrator;
SQL
