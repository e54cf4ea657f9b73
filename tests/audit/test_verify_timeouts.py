"""``gin verify`` on clocked matches of every size in which seats spend their banks, time out
and come back (``seat_returned``, made by the seat's own next move), over several hands."""

from __future__ import annotations

import pytest

from domain import RuleOptions
from tests.audit.service_play import played_match
from tests.audit.tampering import Document, data, document, entries, verdict

TIMED_PLAY = RuleOptions(
    game_target=40, match_target=0, turn_seconds=5, bank_seconds=3, timeouts_to_forfeit=100
)


def returned(entry: dict[str, object]) -> bool:
    event = data(entry)
    return "seat_returned" in (event["type"], event.get("event", {}).get("type"))


@pytest.fixture(scope="module", params=[2, 3, 4])
def timed(request: pytest.FixtureRequest) -> Document:
    return document(played_match(1, seats=request.param, options=TIMED_PLAY, timeouts=0.15))


def test_a_match_whose_seats_time_out_and_come_back_verifies(timed: Document) -> None:
    assert any(returned(entry) for entry in entries(timed))
    assert verdict(timed).ok, verdict(timed).problem
