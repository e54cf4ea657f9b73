"""``append_events`` also returns the head hash its append reached.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30

A receipt signs the hash of the event its command's append reached. The function computes that
hash anyway; returning it spares the service a read of the event it has just written (a round
trip per command). A replayed idempotency key returns the hash of its first append's last
event.

The function's result type changes, so it is dropped and made again from 0006's text, and
0008's privileges are restated: owned by ``gin_owner``, ``SECURITY DEFINER`` with a fixed
``search_path``, executable by ``gin_app`` alone.
"""

from __future__ import annotations

import importlib

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_0006 = importlib.import_module("migrations.versions.0006_one_idempotency_key")

ARGUMENTS = "text, bigint, text[], integer[], bytea[], text, bytea"
APPEND_EVENTS = f"append_events({ARGUMENTS})"

BEFORE = _0006.APPEND.replace("@REPLAYED@", _0006.REPLAYED)
# A replayed key answers with the hash of the last event its first append wrote.
REPLAY = (
    "k.last_version, k.first_version, k.last_version, k.positions\n"
    "        INTO outcome, current_version, first_version, last_version, positions\n"
    "        FROM idempotency_keys k WHERE"
)
REPLAY_WITH_HEAD = (
    "k.last_version, k.first_version, k.last_version, k.positions, e.hash\n"
    "        INTO outcome, current_version, first_version, last_version, positions, last_hash\n"
    "        FROM idempotency_keys k\n"
    "        LEFT JOIN events e ON e.stream_id = k.stream_id AND e.version = k.last_version\n"
    "        WHERE"
)
WITH_HEAD = (
    BEFORE.replace(
        "    OUT positions bigint[]\n)", "    OUT positions bigint[],\n    OUT last_hash bytea\n)"
    )
    .replace(
        "    last_version := v_version;\nEND",
        "    last_version := v_version;\n    last_hash := v_hash;\nEND",
    )
    .replace(REPLAY, REPLAY_WITH_HEAD)
)

PRIVILEGES = f"""
ALTER FUNCTION {APPEND_EVENTS} OWNER TO gin_owner;
REVOKE ALL ON FUNCTION {APPEND_EVENTS} FROM PUBLIC;
ALTER FUNCTION {APPEND_EVENTS} SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
GRANT EXECUTE ON FUNCTION {APPEND_EVENTS} TO gin_app;
"""


def _replace(function: str) -> None:
    op.execute(f"DROP FUNCTION {APPEND_EVENTS}")
    op.execute(function)
    op.execute(PRIVILEGES)


def upgrade() -> None:
    assert WITH_HEAD.count("last_hash") == BEFORE.count("last_hash") + 4, "not 0006's text"
    _replace(WITH_HEAD)


def downgrade() -> None:
    _replace(BEFORE)
