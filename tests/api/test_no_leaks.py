"""No leaks, anywhere, at every table size: complete matches over HTTP with random legal moves
(200 of two seats, a few of three and of four), and no response to a seat (views, events, the
live stream, errors, the global feed) nor any webhook payload ever names a card that seat may
not know at that moment. What a seat may know is worked out from the full event log
(``knowledge.py``, table by table), not from the service's own views."""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import httpx
import msgspec
import pytest

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from service.fairness.seeds import deal_link
from service.ports.event_store import StoredEvent
from service.store.codec import TABLE_EVENTS, TWO_SEAT_EVENTS
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.payloads import Ending, kind_of, payload_body
from tests.api.accounts import inbox, my_matches, sign_up, until
from tests.api.any_size import EVERY_SIZE
from tests.api.conftest import Asgi
from tests.api.knowledge import ALL_CARDS, MatchKnowledge, cards_in, leaked
from tests.api.live import read_stream, sse_messages
from tests.api.players import Json, Table, bearer, choose, create_table
from tests.audit.service_play import derivable_links

# 100 random matches keep the whole suite within its ten minutes (each reads every response
# of every seat); GIN_LEAK_MATCHES=1000 looks harder.
MATCHES = int(os.environ.get("GIN_LEAK_MATCHES", "100"))
RESIGNS = 0.005  # of commands: about one match in seven ends by resigning
AT_ONCE = 4  # matches played side by side, so one's database waits overlap another's work
Client = httpx.AsyncClient


class Record(msgspec.Struct):
    """One response to ``viewer`` (None: no token), answered at ``version``."""

    viewer: int | None
    version: int
    kind: str  # view, table, summary, events, error
    body: Json
    echo: frozenset[str] = frozenset()  # cards the request itself named


class Match:
    def __init__(self, table: Table, feed_key: str) -> None:
        """The global feed is read with ``feed_key`` (``feed:all``), narrowed to the match."""
        self.table = table
        self.match_id = table.match_id
        self.feed_key = feed_key
        self.feed_after = 0
        self.records: list[Record] = []
        self.version = 0
        self.versions: list[int] = []  # after creation, then after each command
        self.stream_chunks: dict[int | None, list[tuple[bytes, int]]] = {0: [], 1: [], None: []}


def options_for(rng: random.Random) -> dict[str, Any]:
    # Mostly one scoring hand per match; one in ten plays on to 25, over several hands.
    game_target = 25 if rng.random() < 0.1 else 1
    options: dict[str, Any] = {"match_target": 0, "game_target": game_target}
    if rng.random() < 0.25:
        options["oklahoma"] = True
    if rng.random() < 0.25:
        options["knock_limit"] = rng.randint(1, 10)
    if rng.random() < 0.25:
        # A clock nobody runs out of here: its deadlines are in every view and event list.
        options.update(turn_seconds=3600, bank_seconds=rng.randint(0, 600))
    return options


def bad_command(view: Json, rng: random.Random) -> dict[str, Any]:
    """A command this seat may not send now (never one of its legal actions)."""
    legal = view["legal_actions"]
    card = rng.choice(sorted(ALL_CARDS))
    while True:
        candidate: dict[str, Any] = rng.choice(
            [
                {"type": "discard", "card": card},
                {"type": "knock", "card": card},
                {"type": "lay_off", "card": card, "meld": rng.randint(0, 2)},
                {"type": "draw_from_stock"},
                {"type": "draw_from_discard"},
                {"type": "take_upcard"},
                {"type": "finish_layoff"},
                {"type": "big_gin"},
            ]
        )
        if not any(_same_command(candidate, action) for action in legal):
            return candidate


def _same_command(sent: dict[str, Any], listed: dict[str, Any]) -> bool:
    """Whether ``sent`` is the listed action (which spells out defaults: seat, melds null)."""
    return all(
        sent.get(key, listed[key] if key == "seat" else None) == value
        for key, value in listed.items()
    )


async def observe(client: Client, match: Match, viewer: int | None, rng: random.Random) -> None:
    """Read what ``viewer`` may read now, and keep every response."""
    table = match.table
    headers = bearer(table.tokens[viewer]) if viewer is not None else {}
    if viewer is not None:
        response = await client.get(f"{table.path}/view", headers=headers)
        assert response.status_code == 200, response.text
        match.records.append(Record(viewer, match.version, "view", response.json()))
    else:
        response = await client.get(table.path)
        assert response.status_code == 200, response.text
        match.records.append(Record(None, match.version, "summary", response.json()))
    after = rng.randint(0, match.version)
    response = await client.get(f"{table.path}/events?after={after}", headers=headers)
    assert response.status_code == 200, response.text
    match.records.append(Record(viewer, match.version, "events", response.json()))
    if viewer is None:
        entries = await read_feed(client, match)
        match.records.append(Record(None, match.version, "feed", {"entries": entries}))


async def play_and_record(client: Client, match: Match, rng: random.Random) -> None:
    table = match.table
    view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    match.version = view["version"]
    match.versions.append(match.version)
    while view["phase"] != "match_over":
        seat = view["turn"]
        if seat != view["seat"]:
            response = await client.get(f"{table.path}/view", headers=table.headers(seat))
            view = response.json()
            match.records.append(Record(seat, match.version, "view", view))
        if rng.random() < 0.1:
            await observe(client, match, rng.choice([0, 1, None]), rng)
        if rng.random() < 0.1:
            bad_seat = rng.choice([0, 1])
            bad_view = view if bad_seat == seat else {"seat": bad_seat, "legal_actions": []}
            bad = bad_command(bad_view, rng)
            response = await client.post(
                f"{table.path}/commands", json=bad, headers=table.headers(bad_seat)
            )
            assert 400 <= response.status_code < 500, response.text
            assert response.headers["content-type"] == "application/problem+json"
            echo = frozenset(cards_in(bad))
            match.records.append(Record(bad_seat, match.version, "error", response.json(), echo))
        match.versions.append(match.version)  # reserved for the command about to start
        # Now and then a seat resigns, whoever is to play: the match ends mid-hand.
        command = {"type": "resign"} if rng.random() < RESIGNS else choose(view, rng)
        sender = rng.choice([0, 1]) if command["type"] == "resign" else seat
        response = await client.post(
            f"{table.path}/commands", json=command, headers=table.headers(sender)
        )
        assert response.status_code == 200, response.text
        view = response.json()
        match.version = view["version"]
        match.versions[-1] = match.version
        match.records.append(Record(sender, match.version, "view", view))
    for viewer in (0, 1, None):
        await observe(client, match, viewer, rng)
    await read_feed_to(client, match, match.version)


def start_streams(asgi: Asgi, match: Match) -> list[asyncio.Task[int]]:
    """One live stream per seat and one without a token."""
    tasks = []
    for viewer in (0, 1, None):
        chunks = match.stream_chunks[viewer]
        headers = bearer(match.table.tokens[viewer]) if viewer is not None else {}

        def keep(chunk: bytes, chunks: list[tuple[bytes, int]] = chunks) -> None:
            # What the server had seen is bounded by the commands started so far, not those
            # answered: a stream often sends a command's events before the command's answer
            # arrives (and a stream that fell behind rightly shows a deal in full when it
            # reads it together with the end of its hand).
            chunks.append((chunk, len(match.versions)))

        path = f"{match.table.path}/stream"
        tasks.append(asyncio.create_task(read_stream(asgi.app, path, headers, keep)))
    return tasks


def check(match: Match, knowledge: MatchKnowledge) -> None:
    for record in match.records:
        where = f"{record.kind} to {record.viewer} at version {record.version}"
        found = _leaks(knowledge, record) - record.echo
        assert not found, f"{where} names {sorted(found)}: {record.body}"
    for viewer, chunks in match.stream_chunks.items():
        received = []
        for chunk, started in chunks:
            now = match.versions[started - 1] if started else match.versions[0]
            for message in sse_messages(chunk.decode()):
                received.append(message["id"])
                envelope = message["data"]
                found = knowledge.event_leaks(viewer, now, envelope["version"], envelope["event"])
                assert not found, f"stream to {viewer} names {sorted(found)}: {envelope}"
                _check_redaction(knowledge, viewer, now, envelope)
        assert received == list(range(1, knowledge.last_version + 1)), f"stream to {viewer}"


def _leaks(knowledge: MatchKnowledge, record: Record) -> set[str]:
    viewer, version, body = record.viewer, record.version, record.body
    table = knowledge.tables[0]
    if record.kind == "view":
        assert body["version"] == version
        return knowledge.view_leaks(viewer, version, body)
    if record.kind == "summary":
        found = knowledge.view_leaks(None, version, body["table"])
        finished = [hand for hand in table.hands if hand.over_at(version)]
        assert len(finished) == len(body["hands"])
        for hand, result in zip(finished, body["hands"], strict=True):
            found |= leaked(result, hand.unknown(None, version))
        return found
    if record.kind in ("events", "feed"):
        found = set()
        for envelope in body["events"] if record.kind == "events" else body["entries"]:
            if record.kind == "feed":
                envelope = {"version": envelope["version"], "event": envelope["data"]}
            found |= knowledge.event_leaks(viewer, version, envelope["version"], envelope["event"])
            _check_redaction(knowledge, viewer, version, envelope)
        return found
    current = table.hand_at(version)
    unknown = current.unknown(viewer, version) if current else ALL_CARDS
    return leaked(body, unknown)


def _check_redaction(
    knowledge: MatchKnowledge, viewer: int | None, now: int, envelope: Json
) -> None:
    """The opponent's stock draws carry no card and the knock card stays face down, until
    the hand is over; a deal never shows the stock."""
    event = envelope["event"]
    if event["type"] == "dealt":
        assert event["stock"] == []
    if knowledge.face_down(viewer, now, envelope["version"], event):
        assert event["card"] is None, envelope


async def play_and_check(
    asgi: Asgi, store: PostgresEventStore, feed_key: str, rng: random.Random
) -> None:
    # One match in four is played by two player accounts: their credentials open the seats.
    players = None
    if rng.random() < 0.25:
        players = [await sign_up(asgi.client, name) for name in ("Ann", "Bob")]
        table = await player_table(asgi.client, players, options_for(rng))
    else:
        table = await create_table(asgi.client, **options_for(rng))
    match = Match(table, feed_key)
    streams = start_streams(asgi, match)
    await play_and_record(asgi.client, match, rng)
    statuses = await asyncio.wait_for(asyncio.gather(*streams), 30)
    assert statuses == [200, 200, 200]
    if players is not None:
        await check_player_resources(asgi, table, players)
    records = await store.read_stream(f"match-{table.match_id}")
    raw = [(record.version, msgspec.json.decode(record.data)) for record in records]
    knowledge = MatchKnowledge(raw)
    check(match, knowledge)
    _check_feed_and_webhooks(match, records, knowledge)


def _check_feed_and_webhooks(
    match: Match | FormatMatch, records: list[StoredEvent], knowledge: MatchKnowledge
) -> None:
    """The feed, read to its end, lists every event of the match once; no webhook payload
    names a card a spectator may not know when its event is committed."""
    feed = [
        entry["version"] for r in match.records if r.kind == "feed" for entry in r.body["entries"]
    ]
    assert feed == list(range(1, knowledge.last_version + 1)), "the feed lists every event once"
    check_webhook_payloads(match.match_id, records, knowledge)


async def player_table(client: Client, players: list[Json], options: Json) -> Table:
    host, guest = (bearer(player["credential"]) for player in players)
    created = await client.post("/players/me/matches", json={"options": options}, headers=host)
    assert created.status_code == 201, created.text
    code = created.json()["invite_code"]
    joined = await client.post("/players/me/join", json={"invite_code": code}, headers=guest)
    assert joined.status_code == 201, joined.text
    credentials = {seat: player["credential"] for seat, player in enumerate(players)}
    return Table(created.json()["match_id"], credentials)


async def check_player_resources(asgi: Asgi, table: Table, players: list[Json]) -> None:
    """A player's own list, inbox and profile name no card and nobody else's credential, and
    hold only that player's seat of that player's match."""

    async def finished(player: Json) -> Json | None:
        listed = await my_matches(asgi.client, player)
        statuses = [m["status"] for m in listed["matches"]]
        return listed if statuses == ["finished"] else None

    for seat, player in enumerate(players):
        other = players[1 - seat]
        listed = await until(finished, player)
        notices = await inbox(asgi.app, player["credential"], 2)
        me = (await asgi.client.get("/players/me", headers=bearer(player["credential"]))).json()
        # The names are shown in the seat's view and the game record; the credentials never.
        view = await asgi.client.get(f"{table.path}/view", headers=bearer(player["credential"]))
        assert view.json()["display_names"] == ["Ann", "Bob"]
        record = await asgi.client.get(f"{table.path}/record")
        assert [s["display_name"] for s in record.json()["seats"]] == ["Ann", "Bob"]
        for text in (view.text, record.text):
            assert other["credential"] not in text
            assert player["credential"] not in text
        for body in (listed, notices, me):
            assert not leaked(body, ALL_CARDS), body
            assert other["credential"] not in str(body)
            assert player["credential"] not in str(body)
        assert [m["match_id"] for m in listed["matches"]] == [table.match_id]
        assert {(n["data"]["match_id"], n["data"]["seat"]) for n in notices} == {
            (table.match_id, seat)
        }


# Three and four players: random matches over HTTP, every response checked against the event
# log, table by table (``knowledge.py``).
FORMAT_MATCHES = int(os.environ.get("GIN_FORMAT_LEAK_MATCHES", "6"))
# Each format match holds streams open and answers its bots within the request: four side by
# side on two busy cores let a read wait past the database timeout (a 503), so two.
FORMAT_AT_ONCE = 2


class FormatMatch:
    def __init__(self, match_id: str, tokens: dict[int, str], streamed: int, feed_key: str) -> None:
        """``streamed``: the seat whose live stream is read, beside the spectator's (one seat
        a match keeps the streams of the matches played at once within the pool). The global
        feed is read with ``feed_key`` (``feed:all``), narrowed to the match."""
        self.match_id = match_id
        self.tokens = tokens
        self.feed_key = feed_key
        self.feed_after = 0
        self.records: list[Record] = []
        self.versions: list[int] = [0]  # after creation, then reserved for each command
        viewers: list[int | None] = [streamed, None]
        self.stream_chunks: dict[int | None, list[tuple[bytes, int]]] = {v: [] for v in viewers}

    @property
    def path(self) -> str:
        return f"/matches/{self.match_id}"


async def play_format_and_record(client: Client, match: FormatMatch, rng: random.Random) -> None:
    seats = sorted(match.tokens)
    for _ in range(20_000):
        views = {}
        for seat in seats:
            response = await client.get(f"{match.path}/view", headers=bearer(match.tokens[seat]))
            assert response.status_code == 200, response.text
            views[seat] = response.json()
            match.records.append(Record(seat, views[seat]["version"], "view", views[seat]))
        version = views[seats[0]]["version"]
        match.versions[-1:] = [version]
        if views[seats[0]]["phase"] == "match_over":
            break
        if rng.random() < 0.05:
            # Public while a round is played: it must leave the round out, seeds included.
            response = await client.get(f"{match.path}/record")
            assert response.status_code == 200, response.text
            match.records.append(Record(None, version, "record", response.json()))
        if rng.random() < 0.15:
            viewer = rng.choice([*seats, None])
            headers = bearer(match.tokens[viewer]) if viewer is not None else {}
            response = await client.get(
                f"{match.path}/events?after={rng.randint(0, version)}", headers=headers
            )
            assert response.status_code == 200, response.text
            match.records.append(Record(viewer, version, "events", response.json()))
            response = await client.get(match.path)
            assert response.status_code == 200, response.text
            match.records.append(Record(None, version, "summary", response.json()))
            entries = await read_feed(client, match)
            match.records.append(Record(None, version, "feed", {"entries": entries}))
        movers = [seat for seat in seats if views[seat]["legal_actions"]]
        if rng.random() < 0.1:
            bad_seat = rng.choice(seats)
            bad = bad_command(views[bad_seat], rng)
            response = await client.post(
                f"{match.path}/commands", json=bad, headers=bearer(match.tokens[bad_seat])
            )
            assert 400 <= response.status_code < 500, response.text
            echo = frozenset(cards_in(bad))
            match.records.append(Record(bad_seat, version, "error", response.json(), echo))
        assert movers, {seat: (v["phase"], v["turns"], v["tables"]) for seat, v in views.items()}
        seat = rng.choice(movers)
        match.versions.append(version)  # reserved for the command about to start
        response = await client.post(
            f"{match.path}/commands",
            json=choose(views[seat], rng),
            headers=bearer(match.tokens[seat]),
        )
        assert response.status_code == 200, response.text
    else:
        raise AssertionError("the match did not end")
    for viewer in [*seats, None]:
        headers = bearer(match.tokens[viewer]) if viewer is not None else {}
        response = await client.get(f"{match.path}/events", headers=headers)
        assert response.status_code == 200, response.text
        match.records.append(Record(viewer, version, "events", response.json()))
    await read_feed_to(client, match, version)


async def read_feed_to(client: Client, match: Match | FormatMatch, version: int) -> None:
    """Read the feed until it has listed the match's event ``version``: the feed holds back
    what committed after a transaction still running (another match's command) until it ends."""
    for _ in range(200):
        entries = await read_feed(client, match)
        match.records.append(Record(None, version, "feed", {"entries": entries}))
        listed = [
            e["version"] for r in match.records if r.kind == "feed" for e in r.body["entries"]
        ]
        if max(listed, default=0) >= version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the feed never listed version {version} of the match")


async def read_feed(client: Client, match: Match | FormatMatch) -> list[Json]:
    """The match's feed entries since the last read, each as the feed shows it now."""
    entries: list[Json] = []
    while True:
        response = await client.get(
            "/feed",
            params={"after": match.feed_after, "limit": 1000, "match_id": match.match_id},
            headers=bearer(match.feed_key),
        )
        assert response.status_code == 200, response.text
        page = response.json()
        entries += page["entries"]
        if page["next"] == match.feed_after:
            return entries
        match.feed_after = page["next"]


def check_format(match: FormatMatch, knowledge: MatchKnowledge) -> None:
    for record in match.records:
        where = f"{record.kind} to {record.viewer} at version {record.version}"
        found = _format_leaks(knowledge, record) - record.echo
        assert not found, f"{where} names {sorted(found)}: {record.body}"
    for viewer, chunks in match.stream_chunks.items():
        received = []
        for chunk, started in chunks:
            # As for two seats: bounded by the commands started when the chunk arrived.
            now = match.versions[started - 1] if started else match.versions[0]
            for message in sse_messages(chunk.decode()):
                received.append(message["id"])
                envelope = message["data"]
                event, version = envelope["event"], envelope["version"]
                found = knowledge.event_leaks(viewer, now, version, event)
                assert not found, f"stream to {viewer} names {sorted(found)}: {envelope}"
                if knowledge.face_down(viewer, now, version, event):
                    assert event["event"]["card"] is None, envelope
        assert received == list(range(1, knowledge.last_version + 1)), f"stream to {viewer}"


def start_format_streams(asgi: Asgi, match: FormatMatch) -> list[asyncio.Task[int]]:
    """The live streams of the match's streamed seat and of a spectator."""
    tasks = []
    for viewer, chunks in match.stream_chunks.items():
        headers = bearer(match.tokens[viewer]) if viewer is not None else {}

        def keep(chunk: bytes, chunks: list[tuple[bytes, int]] = chunks) -> None:
            chunks.append((chunk, len(match.versions)))

        path = f"{match.path}/stream"
        tasks.append(asyncio.create_task(read_stream(asgi.app, path, headers, keep)))
    return tasks


def _record_leaks(knowledge: MatchKnowledge, version: int, body: Json) -> set[str]:
    """A record is public: it may hold only hands that are over, and its revealed seeds
    (summary and fairness stream) no link a deal in play was shuffled from."""
    found: set[str] = set()
    for entry in body["match_stream"]["events"]:
        event = msgspec.json.decode(entry["data"])
        if event["type"] != "table_event":
            found |= knowledge.event_leaks(None, version, entry["version"], event)
            continue
        # A record shows finished hands whole, the stock left at the end included, as their
        # revealed seeds do: only a hand over by then may be in it.
        hand = knowledge.tables[event["table"]].hand_at(entry["version"])
        assert hand is not None
        assert hand.over_at(version), f"the record at {version} shows a hand in play: {event}"
    revealed = [
        msgspec.json.decode(entry["data"])
        for entry in body["fairness_stream"]["events"]
        if entry["type"] == "seed_revealed"
    ]
    _check_seeds(knowledge, version, [*body["fairness"]["revealed"], *revealed], body)
    return found


def _check_seeds(knowledge: MatchKnowledge, version: int, revealed: list[Json], body: Json) -> None:
    """No revealed seed gives the link (so the deck) of a deal whose hand is in play."""
    links = body["fairness"]["chain_links"]
    in_play = {deal_link(deal) for deal in knowledge.deals_in_play(version)}
    known = derivable_links([(r["link"], r["seed"]) for r in revealed], links)
    assert not in_play & known, f"seeds at {version} give links {in_play & known}: {body}"


def _format_leaks(knowledge: MatchKnowledge, record: Record) -> set[str]:
    viewer, version, body = record.viewer, record.version, record.body
    if record.kind == "view":
        _check_seeds(knowledge, version, body["fairness"]["revealed"], body)
        return knowledge.view_leaks(viewer, version, body)
    if record.kind == "summary":
        found = knowledge.view_leaks(None, version, body["table"])
        return found | knowledge.ended_leaks(version, body["hands"])
    if record.kind == "record":
        return _record_leaks(knowledge, version, body)
    if record.kind in ("events", "feed"):
        found = set()
        envelopes = body["events"] if record.kind == "events" else body["entries"]
        for envelope in envelopes:
            event = envelope["event"] if record.kind == "events" else envelope["data"]
            found |= knowledge.event_leaks(viewer, version, envelope["version"], event)
            if event["type"] == "table_event" and event["event"]["type"] == "dealt":
                assert event["event"]["stock"] == []
            if knowledge.face_down(viewer, version, envelope["version"], event):
                assert event["event"]["card"] is None, envelope
        return found
    # An error names no card of any table's hand in play but those the request named.
    return set(cards_in(body)) - record.echo


async def play_format_and_check(
    asgi: Asgi, store: PostgresEventStore, players: int, feed_key: str, rng: random.Random
) -> None:
    options = options_for(rng)  # a clock nobody runs out of, as for two players
    bots: list[str | None] = [None] * players
    if rng.random() < 0.5:  # some seats played by the server, never all of them
        for seat in rng.sample(range(players), k=rng.randint(1, players - 1)):
            bots[seat] = "random"
    response = await asgi.client.post(
        "/matches", json={"options": options, "players": players, "bots": bots}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    match = FormatMatch(body["match_id"], tokens, rng.choice(sorted(tokens)), feed_key)
    streams = start_format_streams(asgi, match)
    await play_format_and_record(asgi.client, match, rng)
    statuses = await asyncio.wait_for(asyncio.gather(*streams), 30)
    assert statuses == [200] * len(streams)
    records = await store.read_stream(f"format-match-{match.match_id}")
    raw = [(record.version, msgspec.json.decode(record.data)) for record in records]
    knowledge = MatchKnowledge(raw)
    check_format(match, knowledge)
    _check_feed_and_webhooks(match, records, knowledge)


def check_webhook_payloads(
    match_id: str, records: list[StoredEvent], knowledge: MatchKnowledge
) -> None:
    """Each webhook payload, were it sent the moment its event is committed, names no card a
    spectator may not know then; hand ends are among them."""
    sent, hand_ends = 0, 0
    several = not knowledge.one_table
    for record in records:
        event = (TABLE_EVENTS if several else TWO_SEAT_EVENTS).from_record(record)
        if kind_of(event) is None:
            continue
        assert isinstance(event, Ending)
        body = payload_body(
            match_id=match_id,
            external_ref=None,
            external_player_ids=[],
            version=record.version,
            position=record.position,
            event=event,
        )
        public = msgspec.json.decode(body)["event"]
        found = knowledge.event_leaks(None, record.version, record.version, public)
        assert not found, f"a webhook at version {record.version} names {sorted(found)}: {body!r}"
        sent += 1
        hand_ends += kind_of(event) == "hand_end"
    # Two seats: a resignation may end a match before its first hand does.
    assert hand_ends > 0 or not several, "every table's hand end is sent"
    assert sent > hand_ends, "so are the creation, the cut and the match's end"


@pytest.mark.slow
@EVERY_SIZE
async def test_no_response_to_a_seat_names_a_card_it_may_not_know(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    seeds = random.Random(20251129 if seats == 2 else 20261130 + seats)
    async with open_pool(database_url, min_size=1, max_size=1) as pool:
        keys = OperatorKeys(PostgresOperatorKeyStore(pool), PostgresMatchRegistry(pool))
        created = await keys.create_key(f"leaks-{seats}", ("feed:read", "feed:all"))
    matches, at_once = (MATCHES, AT_ONCE) if seats == 2 else (FORMAT_MATCHES, FORMAT_AT_ONCE)
    async with PostgresEventStore.connect(database_url) as store:
        for first in range(0, matches, at_once):
            rngs = [random.Random(seeds.random()) for _ in range(min(at_once, matches - first))]
            if seats == 2:
                plays = [play_and_check(asgi, store, created.key, r) for r in rngs]
            else:
                plays = [play_format_and_check(asgi, store, seats, created.key, r) for r in rngs]
            await asyncio.gather(*plays)
