"""What a command costs in statements sent to PostgreSQL, played over HTTP as a client plays:
the seat to move reads its view when the turn changes hands, then sends its command. A command
on a match this process has cached is decided without reading the match's stream: the append
is its one statement for the match (a fairness record, after a cut, deal or hand, is another
stream's append). A view read that names the version the client has seen (``If-None-Match``
with the tag of the last answer, another seat's) is answered from the cache too: this process
made every append, and the wake-ups say no other process did. Run with ``-s`` to see the
counts."""

from __future__ import annotations

import contextvars
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from service.store import match_streams
from tests.api.any_size import EVERY_SIZE, create_at
from tests.api.conftest import Asgi
from tests.api.players import LONG_GAME, choose

# Only statements sent while a request of this test is handled are counted, not those of a
# server's background tasks.
_sent: contextvars.ContextVar[list[tuple[str, Any]] | None] = contextvars.ContextVar(
    "sent", default=None
)


def kind_of(query: Any, params: Any, match_id: str) -> str:
    text = " ".join(str(query).split())
    if "append_events" in text:
        return "append"
    if "FROM events WHERE stream_id" in text and params and match_id in str(params[0]):
        return "read of the match's stream"
    return "other"


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    execute = psycopg.AsyncCursor.execute

    async def counting(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        sent = _sent.get()
        if sent is not None:
            sent.append((str(query), params))
        return await execute(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", counting)
    yield
    monkeypatch.undo()


async def sent_by(request: Any) -> tuple[Any, list[tuple[str, Any]]]:
    sent: list[tuple[str, Any]] = []
    token = _sent.set(sent)
    try:
        return await request, sent
    finally:
        _sent.reset(token)


@EVERY_SIZE
async def test_a_command_on_a_cached_match_sends_its_append_and_reads_nothing_first(
    asgi: Asgi, monkeypatch: pytest.MonkeyPatch, seats: int
) -> None:
    # However slow the machine, a view read is not counted as the age of the state's proof
    # running out (``PROVEN_SECONDS``): what is counted is what the cache can spare.
    monkeypatch.setattr(match_streams, "PROVEN_SECONDS", 3600.0)
    http, rng = asgi.client, random.Random(5 * seats)
    table = await create_at(http, seats, LONG_GAME)
    commands, views = Counter[str](), Counter[str]()
    played = viewed = 0
    with counted(monkeypatch):
        last_seat, answered = None, {}
        seen: dict[str, str] = {}
        for _ in range(60):
            for seat in sorted(table.tokens):
                response, sent = await sent_by(
                    http.get(f"{table.path}/view", headers={**table.headers(seat), **seen})
                )
                if response.status_code == 304:  # the seat that answered last has its view
                    assert seat == last_seat, response
                    view = answered
                else:
                    assert response.status_code == 200, response.text
                    view = response.json()
                if seat != last_seat:
                    # A client reads a view only when the turn passes to it.
                    kinds = [kind_of(q, p, table.match_id) for q, p in sent]
                    if seen:
                        assert "read of the match's stream" not in kinds, sent
                    views.update(kinds)
                    viewed += 1
                if view["legal_actions"]:
                    break
            response, sent = await sent_by(
                http.post(
                    f"{table.path}/commands",
                    json=choose(view, rng),
                    headers=table.headers(view["seat"]),
                )
            )
            assert response.status_code == 200, response.text
            kinds = [kind_of(q, p, table.match_id) for q, p in sent]
            # The match is cached here (this app created it and read its views): nothing of
            # its stream is read before or after the append.
            assert "read of the match's stream" not in kinds, sent
            assert kinds.count("append") >= 1, sent
            commands.update(kinds)
            played, last_seat = played + 1, view["seat"]
            seen, answered = {"If-None-Match": response.headers["etag"]}, response.json()
    print(
        f"\n{seats} seats, statements per command: "
        + ", ".join(f"{k} {n / played:.2f}" for k, n in sorted(commands.items()))
        + f"; per view read when the turn changes hands ({viewed}): "
        + ", ".join(f"{k} {n / viewed:.2f}" for k, n in sorted(views.items()))
    )
