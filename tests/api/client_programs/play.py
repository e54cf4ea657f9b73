"""A tournament client's program against the Python client ``openapi-python-client`` generates
(type-checked with ``mypy --strict`` by tests/api/test_generated_clients_type_check.py, never
run): it creates a match, plays its legal actions as command bodies, follows the feed and reads
a webhook's payload, with no cast."""

from __future__ import annotations

import json

from gin_client import AuthenticatedClient, Client
from gin_client.api.matches import create_match
from gin_client.api.play import get_match_view, send_command
from gin_client.api.tournament import read_feed
from gin_client.models import (
    CreateMatch,
    FeedPage,
    FormatMatchView,
    MatchView,
    NewMatch,
    OtherEvent,
    Payload,
)


def play(url: str, operator_key: str) -> int:
    """Plays a match to its end; the feed position it read to."""
    created = create_match.sync(client=Client(base_url=url), body=CreateMatch())
    if not isinstance(created, NewMatch):
        raise SystemExit(f"not created: {created}")
    seats = {
        seat.seat: AuthenticatedClient(base_url=url, token=seat.token) for seat in created.seats
    }
    view = get_match_view.sync(match_id=created.match_id, client=seats[0])
    while isinstance(view, MatchView) and view.winner is None and view.turn is not None:
        mover = seats[view.turn]
        mine = get_match_view.sync(match_id=created.match_id, client=mover)
        if not isinstance(mine, MatchView | FormatMatchView) or not mine.legal_actions:
            break
        # A legal action is the command's body as it is.
        view = send_command.sync(
            match_id=created.match_id, client=mover, body=mine.legal_actions[0]
        )
    return follow_feed(url, operator_key, created)


def follow_feed(url: str, operator_key: str, created: NewMatch) -> int:
    operator = AuthenticatedClient(base_url=url, token=operator_key)
    after = 0
    while True:
        page = read_feed.sync(client=operator, after=after, match_id=created.match_id)
        if not isinstance(page, FeedPage):
            raise SystemExit(f"the feed refused: {page}")
        for entry in page.entries:
            print(entry.version, entry.type_, entry.match_id == created.match_id)
        if not page.entries:
            return after
        after = page.next_


def on_webhook(body: bytes) -> str:
    """What a receiver makes of a match's news."""
    payload = Payload.from_dict(json.loads(body))
    event = payload.event
    # An event of a type newer than this client is an ``OtherEvent``, read by name.
    kind = event["type"] if isinstance(event, OtherEvent) else event.type_
    return f"{payload.kind} {payload.match_id} at {payload.version}: {kind}"
