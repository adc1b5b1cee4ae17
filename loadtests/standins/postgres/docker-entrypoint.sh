#!/bin/bash
# The official postgres image's entrypoint contract, for the stand-in image:
# - POSTGRES_PASSWORD (required), POSTGRES_USER (default postgres), POSTGRES_DB (default: the
#   user's name), POSTGRES_INITDB_ARGS (passed to initdb);
# - on an empty $PGDATA: initdb, then a server on the Unix socket only runs every file of
#   /docker-entrypoint-initdb.d in name order (*.sql and *.sql.gz through psql, *.sh sourced or
#   executed), then it stops; password authentication from other hosts;
# - the server runs as the postgres user, as PID 1, with the arguments given (`postgres -c ...`).
set -Eeuo pipefail

if [ "${1:0:1}" = '-' ]; then
	set -- postgres "$@"
fi

if [ "$1" != 'postgres' ]; then
	exec "$@"
fi

if [ "$(id -u)" = '0' ]; then
	mkdir -p "$PGDATA"
	chmod 00700 "$PGDATA"
	chown -R postgres:postgres "$PGDATA"
	exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
export POSTGRES_USER POSTGRES_DB

if [ ! -s "$PGDATA/PG_VERSION" ]; then
	if [ -z "${POSTGRES_PASSWORD:-}" ]; then
		echo 'error: database is uninitialized and POSTGRES_PASSWORD is not set' >&2
		exit 1
	fi
	# shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of arguments, split as the official image does
	initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") ${POSTGRES_INITDB_ARGS:-}
	printf '\nhost all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"

	pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
	psql=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc --dbname postgres)
	if [ "$POSTGRES_DB" != 'postgres' ]; then
		"${psql[@]}" --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
	fi
	psql+=(--dbname "$POSTGRES_DB")
	for f in /docker-entrypoint-initdb.d/*; do
		case "$f" in
			*.sh)
				if [ -x "$f" ]; then
					echo "running $f"; "$f"
				else
					echo "sourcing $f"; . "$f"
				fi
				;;
			*.sql) echo "running $f"; "${psql[@]}" -f "$f" ;;
			*.sql.gz) echo "running $f"; gunzip -c "$f" | "${psql[@]}" ;;
			*) echo "ignoring $f" ;;
		esac
	done
	pg_ctl -D "$PGDATA" -m fast -w stop
	echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
