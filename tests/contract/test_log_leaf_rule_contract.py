"""Where the log tree's second leaf rule starts, as every event store adapter answers it: a log
begun by this release is under it from its first event, and appending never moves it (an
upgraded database's answer is tested with the migration, tests/audit/test_leaf_rule_upgrade.py).
"""

from __future__ import annotations

from service.ports.event_store import EventStore, NewEvent


async def test_a_new_log_blinds_every_match_from_its_first_event(store: EventStore) -> None:
    assert await store.every_match_blinded_from() == 0
    for version in range(3):
        await store.append("format-match-x", [NewEvent("e", 1, b"{}")], expected_version=version)
    assert await store.every_match_blinded_from() == 0
