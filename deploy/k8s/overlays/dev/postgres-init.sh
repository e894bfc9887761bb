#!/usr/bin/env bash
# Run once by the postgres image on its first start (empty data directory): one role and one database per
# service, named and with passwords as in the Secrets imcore-<db>-db-app that the services read.
for db in auth message push; do
  user_var="${db^^}_DB_USER" password_var="${db^^}_DB_PASSWORD"
  # psql variables (:"name", :'literal') quote the values; they are only expanded in input read from stdin
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v role="${!user_var}" -v password="${!password_var}" -v db="$db" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password';
CREATE DATABASE :"db" OWNER :"role";
SQL
done
