#!/bin/sh
# The backups: a base backup of the primary (pg_basebackup, as the REPLICATION-only login
# gin_backup) every BACKUP_EVERY_SECONDS, kept in /backups/base-<time>; the WAL archive the
# primary fills (/archive) makes any moment since the oldest kept base backup restorable.
# The oldest base backups beyond BACKUP_KEEP are removed, and the archived WAL only they
# needed (pg_archivecleanup). BACKUP_ONCE=1: one backup, then exit. docs/operations.md,
# "Back up and restore".
set -eu
: "${PRIMARY_HOST:?}" "${BACKUP_DIR:=/backups}" "${ARCHIVE_DIR:=/archive}"
: "${BACKUP_EVERY_SECONDS:=86400}" "${BACKUP_KEEP:=7}" "${BACKUP_ONCE:=0}"
while true; do
    target="$BACKUP_DIR/base-$(date -u +%Y%m%dT%H%M%SZ)"
    if pg_basebackup --host "$PRIMARY_HOST" --username gin_backup --no-password \
        --pgdata "$target.partial" --wal-method stream --checkpoint fast; then
        mv "$target.partial" "$target"
        echo "backup: $target"
        # Keep the newest BACKUP_KEEP; the WAL before the oldest kept one is needed by none.
        ls -d "$BACKUP_DIR"/base-* | sort | head -n "-$BACKUP_KEEP" | xargs -r rm -rf
        oldest=$(ls -d "$BACKUP_DIR"/base-* | sort | head -n 1)
        start=$(sed -n 's/^START WAL LOCATION: .* (file \(.*\))$/\1/p' "$oldest/backup_label")
        if [ -n "$start" ] && [ -d "$ARCHIVE_DIR" ]; then
            pg_archivecleanup "$ARCHIVE_DIR" "$start"
        fi
    else
        rm -rf "$target.partial"
        echo "backup: pg_basebackup failed; trying again at the next turn" >&2
        [ "$BACKUP_ONCE" = 1 ] && exit 1
    fi
    [ "$BACKUP_ONCE" = 1 ] && exit 0
    sleep "$BACKUP_EVERY_SECONDS"
done
