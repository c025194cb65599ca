#!/bin/sh
# One-shot: create and migrate Temporal's two databases with temporal-sql-tool.
set -eu
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}"
SCHEMA=/etc/temporal/schema/postgresql/v12
tool() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -u "$POSTGRES_USER" -pw "$POSTGRES_PWD" -p "${DB_PORT:-5432}" "$@"; }
for db in temporal temporal_visibility; do
  dir=temporal; [ "$db" = temporal_visibility ] && dir=visibility
  tool --db "$db" create || true   # already there on a restart
  tool --db "$db" setup-schema -v 0.0
  tool --db "$db" update-schema -d "$SCHEMA/$dir/versioned"
done
echo "temporal schemas ready"
