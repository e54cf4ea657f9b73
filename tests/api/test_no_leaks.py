"""No leaks, anywhere, at every table size: complete matches over HTTP with random legal moves
(20 of two seats, a few of three and of four), and no response to a seat (views, events, the
live stream, records, errors, the global feed) nor any webhook payload ever names a card that
seat may not know at that moment. What a seat may know is worked out from the full event log
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
from service.store.match_streams import kind_for
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.payloads import Ending, kind_of, payload_body
from tests.api.accounts import inbox, my_matches, sign_up, until
from tests.api.any_size import EVERY_SIZE
from tests.api.conftest import Asgi
from tests.api.knowledge import ALL_CARDS, MatchKnowledge, cards_in, leaked
from tests.api.live import read_stream, sse_messages
from tests.api.players import Json, Table, bearer, choose
from tests.audit.service_play import derivable_links

# By table size, the matches played and how many side by side (so that one's database waits
# overlap another's work). 20 of two seats keep the whole suite within its ten minutes (each
# reads every response of every seat; 30 took it to 600 s on two cores); GIN_LEAK_MATCHES=1000
# looks harder. A match of three or four holds streams open and answers its bots within the
# request: four side by side on two busy cores let a read wait past the database timeout (a
# 503), so two.
MATCHES = {2: int(os.environ.get("GIN_LEAK_MATCHES", "20")), 3: 6, 4: 6}
AT_ONCE = {2: 4, 3: 2, 4: 2}
RESIGNS = 0.005  # of commands: about one match in seven ends by resigning
NAMES = ["Ann", "Bob", "Cy", "Di"]
Client = httpx.AsyncClient


class Record(msgspec.Struct):
    """One response to ``viewer`` (None: no token), answered at ``version``."""

    viewer: int | None
    version: int
    kind: str  # view, summary, record, events, feed, error
    body: Json
    echo: frozenset[str] = frozenset()  # cards the request itself named


class Match:
    def __init__(self, table: Table, streamed: int, feed_key: str) -> None:
        """``streamed``: the seat whose live stream is read, beside the spectator's (one seat
        a match keeps the streams of the matches played at once within the pool). The global
        feed is read with ``feed_key`` (``feed:all``), narrowed to the match."""
        self.table = table
        self.match_id = table.match_id
        self.feed_key = feed_key
        self.feed_after = 0
        self.records: list[Record] = []
        self.versions: list[int] = [0]  # after creation, then reserved for each command
        viewers: list[int | None] = [streamed, None]
        self.stream_chunks: dict[int | None, list[tuple[bytes, int]]] = {v: [] for v in viewers}

    def headers(self, viewer: int | None) -> dict[str, str]:
        return self.table.headers(viewer) if viewer is not None else {}


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


async def observe(client: Client, match: Match, version: int, rng: random.Random) -> None:
    """Read what a random viewer may read now (its events after a random version, the public
    summary, record and feed), and keep every response."""
    path = match.table.path
    viewer = rng.choice([*match.table.tokens, None])
    response = await client.get(
        f"{path}/events?after={rng.randint(0, version)}", headers=match.headers(viewer)
    )
    assert response.status_code == 200, response.text
    match.records.append(Record(viewer, version, "events", response.json()))
    for kind, url in (("summary", path), ("record", f"{path}/record")):
        response = await client.get(url)
        assert response.status_code == 200, response.text
        match.records.append(Record(None, version, kind, response.json()))
    entries = await read_feed(client, match)
    match.records.append(Record(None, version, "feed", {"entries": entries}))


async def send_bad_command(
    client: Client, match: Match, views: dict[int, Json], version: int, rng: random.Random
) -> None:
    seat = rng.choice(sorted(match.table.tokens))
    bad = bad_command(views.get(seat, {"seat": seat, "legal_actions": []}), rng)
    response = await client.post(
        f"{match.table.path}/commands", json=bad, headers=match.headers(seat)
    )
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"] == "application/problem+json"
    echo = frozenset(cards_in(bad))
    match.records.append(Record(seat, version, "error", response.json(), echo))


def movers(view: Json) -> list[int]:
    """The seats a view says the match waits on (two at once at four seats)."""
    if "turns" in view:
        return list(view["turns"])
    return [] if view["turn"] is None else [view["turn"]]


async def play_and_record(client: Client, match: Match, rng: random.Random) -> None:
    table = match.table
    seats = sorted(table.tokens)
    views: dict[int, Json] = {}
    for _ in range(20_000):
        # The views of the seats with a move, and now and then another seat's.
        wanted = [s for s in seats if s not in views or s in movers(views[s])]
        wanted += [rng.choice(seats)] if rng.random() < 0.1 else []
        for seat in dict.fromkeys(wanted):
            response = await client.get(f"{table.path}/view", headers=table.headers(seat))
            assert response.status_code == 200, response.text
            views[seat] = response.json()
            match.records.append(Record(seat, views[seat]["version"], "view", views[seat]))
        version = max(view["version"] for view in views.values())
        match.versions[-1:] = [version]
        if all(view["phase"] == "match_over" for view in views.values()):
            break
        if rng.random() < 0.1:
            await observe(client, match, version, rng)
        if rng.random() < 0.1:
            await send_bad_command(client, match, views, version, rng)
        # Now and then a seat resigns, whoever is to play: the match ends mid-hand.
        if rng.random() < RESIGNS:
            seat, command = rng.choice(seats), {"type": "resign"}
        else:
            seat = rng.choice([s for s in seats if views[s]["legal_actions"]])
            command = choose(views[seat], rng)
        match.versions.append(version)  # reserved for the command about to start
        response = await client.post(
            f"{table.path}/commands", json=command, headers=table.headers(seat)
        )
        assert response.status_code == 200, response.text
        views = {seat: response.json()}
        match.records.append(Record(seat, views[seat]["version"], "view", views[seat]))
    else:
        raise AssertionError("the match did not end")
    for viewer in [*seats, None]:
        response = await client.get(f"{table.path}/events", headers=match.headers(viewer))
        assert response.status_code == 200, response.text
        match.records.append(Record(viewer, version, "events", response.json()))
    await read_feed_to(client, match, version)


def start_streams(asgi: Asgi, match: Match) -> list[asyncio.Task[int]]:
    """The live streams of the match's streamed seat and of a spectator."""
    tasks = []
    for viewer, chunks in match.stream_chunks.items():

        def keep(chunk: bytes, chunks: list[tuple[bytes, int]] = chunks) -> None:
            # What the server had seen is bounded by the commands started so far, not those
            # answered: a stream often sends a command's events before the command's answer
            # arrives (and a stream that fell behind rightly shows a deal in full when it
            # reads it together with the end of its hand).
            chunks.append((chunk, len(match.versions)))

        path = f"{match.table.path}/stream"
        headers = match.headers(viewer)
        tasks.append(asyncio.create_task(read_stream(asgi.app, path, headers, keep)))
    return tasks


def check(match: Match, knowledge: MatchKnowledge) -> None:
    for record in match.records:
        where = f"{match.match_id}: {record.kind} to {record.viewer} at version {record.version}"
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
        for envelope in body["events"] if record.kind == "events" else body["entries"]:
            if record.kind == "feed":
                envelope = {"version": envelope["version"], "event": envelope["data"]}
            found |= knowledge.event_leaks(viewer, version, envelope["version"], envelope["event"])
            _check_redaction(knowledge, viewer, version, envelope)
        return found
    # An error names no card but those the request named and those its seat sees.
    assert viewer is not None
    return knowledge.answer_leaks(viewer, version, body)


def _check_redaction(
    knowledge: MatchKnowledge, viewer: int | None, now: int, envelope: Json
) -> None:
    """The opponent's stock draws carry no card and the knock card stays face down, until
    the hand is over; a deal never shows the stock."""
    placed = knowledge.placed(envelope["event"])
    if placed is None:
        return
    event = placed[1]
    if event["type"] == "dealt":
        assert event["stock"] == []
    if knowledge.face_down(viewer, now, envelope["version"], envelope["event"]):
        assert event["card"] is None, envelope


async def play_and_check(
    asgi: Asgi, store: PostgresEventStore, seats: int, feed_key: str, rng: random.Random
) -> None:
    options = options_for(rng)
    players = None
    if rng.random() < 0.25:  # seats opened by player accounts' credentials
        players = [await sign_up(asgi.client, name) for name in NAMES[:seats]]
        table = await player_table(asgi.client, players, options)
    else:
        bots: list[str | None] = [None] * seats
        if rng.random() < 0.3:  # some seats played by the server, never all of them
            for seat in rng.sample(range(seats), k=rng.randint(1, seats - 1)):
                bots[seat] = "random"
        response = await asgi.client.post(
            "/matches", json={"options": options, "players": seats, "bots": bots}
        )
        assert response.status_code == 201, response.text
        body = response.json()
        table = Table(body["match_id"], {s["seat"]: s["token"] for s in body["seats"]})
    match = Match(table, rng.choice(sorted(table.tokens)), feed_key)
    streams = start_streams(asgi, match)
    await play_and_record(asgi.client, match, rng)
    statuses = await asyncio.wait_for(asyncio.gather(*streams), 30)
    assert statuses == [200] * len(streams)
    if players is not None:
        await check_player_resources(asgi, table, players)
    records = await store.read_stream(kind_for(seats).stream_id(table.match_id))
    raw = [(record.version, msgspec.json.decode(record.data)) for record in records]
    knowledge = MatchKnowledge(raw)
    check(match, knowledge)
    feed = [
        entry["version"] for r in match.records if r.kind == "feed" for entry in r.body["entries"]
    ]
    assert feed == list(range(1, knowledge.last_version + 1)), "the feed lists every event once"
    check_webhook_payloads(seats, match.match_id, records, knowledge)


async def player_table(client: Client, players: list[Json], options: Json) -> Table:
    """A match of one seat for each player: the first makes it, the others join by invite."""
    host = bearer(players[0]["credential"])
    created = await client.post(
        "/players/me/matches", json={"options": options, "players": len(players)}, headers=host
    )
    assert created.status_code == 201, created.text
    for invite in created.json()["invites"]:
        guest = bearer(players[invite["seat"]]["credential"])
        body = {"invite_code": invite["invite_code"]}
        joined = await client.post("/players/me/join", json=body, headers=guest)
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

    credentials = [player["credential"] for player in players]
    for seat, player in enumerate(players):
        listed = await until(finished, player)
        notices = await inbox(asgi.app, player["credential"], 2)
        me = (await asgi.client.get("/players/me", headers=bearer(player["credential"]))).json()
        # The names are shown in the seat's view and the game record; the credentials never.
        view = await asgi.client.get(f"{table.path}/view", headers=bearer(player["credential"]))
        assert view.json()["display_names"] == NAMES[: len(players)]
        record = await asgi.client.get(f"{table.path}/record")
        assert [s["display_name"] for s in record.json()["seats"]] == NAMES[: len(players)]
        for text in (view.text, record.text, str(listed), str(notices), str(me)):
            assert not any(credential in text for credential in credentials)
        for body in (listed, notices, me):
            assert not leaked(body, ALL_CARDS), body
        assert [m["match_id"] for m in listed["matches"]] == [table.match_id]
        assert {(n["data"]["match_id"], n["data"]["seat"]) for n in notices} == {
            (table.match_id, seat)
        }


async def read_feed_to(client: Client, match: Match, version: int) -> None:
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


async def read_feed(client: Client, match: Match) -> list[Json]:
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


def _record_leaks(knowledge: MatchKnowledge, version: int, body: Json) -> set[str]:
    """A record is public: it may hold only hands that are over, and its revealed seeds
    (summary and fairness stream) no link a deal in play was shuffled from."""
    found: set[str] = set()
    for entry in body["match_stream"]["events"]:
        event = msgspec.json.decode(entry["data"])
        placed = knowledge.placed(event)
        hand = None if placed is None else knowledge.tables[placed[0]].hand_at(entry["version"])
        if hand is None:  # not a hand's event (nor the cut of a match of two)
            found |= knowledge.event_leaks(None, version, entry["version"], event)
            continue
        # A record shows finished hands whole, the stock left at the end included, as their
        # revealed seeds do: only a hand over by then may be in it.
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


def check_webhook_payloads(
    seats: int, match_id: str, records: list[StoredEvent], knowledge: MatchKnowledge
) -> None:
    """Each webhook payload, were it sent the moment its event is committed, names no card a
    spectator may not know then; hand ends are among them."""
    sent, hand_ends = 0, 0
    codec = kind_for(seats).codec
    for record in records:
        event = codec.from_record(record)
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
    finished = [
        h for t in knowledge.tables.values() for h in t.hands if h.over_at(knowledge.last_version)
    ]
    assert hand_ends == len(finished), "every table's every hand end is sent"
    assert sent > hand_ends, "so are the creation, the cut and the match's end"


@pytest.mark.slow
@EVERY_SIZE
async def test_no_response_to_a_seat_names_a_card_it_may_not_know(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    seeds = random.Random(20261202 + seats)
    async with open_pool(database_url, min_size=1, max_size=1) as pool:
        keys = OperatorKeys(PostgresOperatorKeyStore(pool), PostgresMatchRegistry(pool))
        created = await keys.create_key(f"leaks-{seats}", ("feed:read", "feed:all"))
    matches, at_once = MATCHES[seats], AT_ONCE[seats]
    async with PostgresEventStore.connect(database_url) as store:
        for first in range(0, matches, at_once):
            rngs = [random.Random(seeds.random()) for _ in range(min(at_once, matches - first))]
            await asyncio.gather(
                *(play_and_check(asgi, store, seats, created.key, r) for r in rngs)
            )
