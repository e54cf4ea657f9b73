"""Matches recorded by an earlier release still read, verify and play the same.

The fixture beside this file (README.md) is a database dump written by the release at commit
efa0c5c, with what that release answered about each match: views and ETags, events, summaries,
records, receipts, checkpoints, idempotent answers and the verdicts of ``gin verify`` and
``gin audit``. Here the dump is restored into a fresh database, the migrations are run on top
of it (the upgrade path from that release), and today's app, started with the same signing
key, must answer the same.

A response may gain fields (docs/api.md: within version 1, changes only add), so a recorded
body must be found in today's, every recorded field with its value (``assert_kept``); the
stored events, their hashes, ETags, receipts and signed notes must be equal, byte for byte.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, cast

import httpx
import msgspec
import psycopg
import pytest
from litestar import Litestar

from adapters.postgres.database import create_database, drop_database, with_database
from adapters.postgres.migrate import upgrade
from cli.main import main as gin
from service.audit.checkpoints import parse_attestation
from service.audit.notes import expand, parse_note
from tests.api.conftest import settings_for
from tests.conftest import MakeDatabase
from web.app import create_app

Json = dict[str, Any]
FIXTURE = Path(__file__).parent
EXPECTED: Json = json.loads(gzip.decompress((FIXTURE / "expected.json.gz").read_bytes()))
MATCHES: dict[str, Json] = {match["name"]: match for match in EXPECTED["matches"]}
UNFINISHED = [name for name, match in MATCHES.items() if match["summary"]["status"] != "finished"]
FINISHED = [name for name in MATCHES if name not in UNFINISHED]
# The dump's own idle times are those of the day it was made: no match of it may be abandoned
# because the test runs later than that.
NEVER_ABANDONED = 100 * 365 * 24 * 3600.0


def restorable(dump: str) -> bytes:
    """The dump as one script for the server: without psql's own commands (``\\restrict``),
    and without the setting servers before PostgreSQL 17 do not know (its default is kept)."""
    lines = [
        line
        for line in dump.splitlines()
        if not line.startswith("\\") and line != "SET transaction_timeout = 0;"
    ]
    return "\n".join(lines).encode()


def pass_the_stored_transaction_ids(connection: psycopg.Connection[Any]) -> None:
    """Move this server's transaction ids past those the dump's events were committed in.

    The global log (the feed, log checkpoints, webhooks) lists an event once its transaction
    id is below every running transaction's (``READ_ALL_FROM_START`` in
    adapters/postgres/event_store.py). The dump keeps the ids of the server it was taken
    from; on a younger server they are in its future, and the log would look empty until the
    server's own ids caught up. Each transaction here takes a new id, as writes would."""
    found = connection.execute(
        "SELECT max(transaction_id)::text::bigint FROM public.events"
    ).fetchone()
    stored = int(found[0]) if found and found[0] is not None else 0
    while True:
        taken = connection.execute("SELECT pg_current_xact_id()::text::bigint").fetchone()
        if taken is None or int(taken[0]) > stored:
            return


def restore(admin_url: str, name: str) -> str:
    """The dump restored into a new database ``name``, migrated to today's head; its URL."""
    create_database(admin_url, name)
    url = with_database(admin_url, name)
    dump = gzip.decompress((FIXTURE / "database.sql.gz").read_bytes()).decode()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(restorable(dump))
        pass_the_stored_transaction_ids(connection)
    upgrade(url)  # the migrations written since the fixture's release, on its data
    return url


@contextlib.contextmanager
def databases(admin_url: str, *names: str) -> Iterator[None]:
    try:
        yield
    finally:
        if os.environ.get("TEST_DATABASE_URL"):
            for name in names:
                drop_database(admin_url, name)


@contextlib.asynccontextmanager
async def served(url: str) -> AsyncIterator[tuple[Litestar, httpx.AsyncClient]]:
    """Today's app on ``url``, signing with the fixture's key, in this event loop."""
    with tempfile.TemporaryDirectory(prefix="gin-published-log-") as kept:
        async with _served(url, kept) as served_app:
            yield served_app


@contextlib.asynccontextmanager
async def _served(url: str, kept: str) -> AsyncIterator[tuple[Litestar, httpx.AsyncClient]]:
    settings = msgspec.structs.replace(
        settings_for(url),
        signing_key_file=str(FIXTURE / "signing-key.pem"),
        # Not beside the fixture's key: checkpoints given out are kept, and the fixture is not
        # the place for them.
        published_log_dir=kept,
        abandon_after_seconds=NEVER_ABANDONED,
    )
    app = create_app(settings)
    started, stop = asyncio.Event(), asyncio.Event()

    async def run_lifespan() -> None:
        async with app.lifespan():
            started.set()
            await stop.wait()

    lifespan = asyncio.create_task(run_lifespan())
    ready = asyncio.create_task(started.wait())
    await asyncio.wait({lifespan, ready}, return_when=asyncio.FIRST_COMPLETED)
    if lifespan.done():
        ready.cancel()
        lifespan.result()
    # After the last time the fixture's clock showed: nothing here depends on the day it runs.
    later = datetime.fromisoformat(EXPECTED["clock_end"]) + timedelta(minutes=1)
    app.state.matches.clock = lambda: later
    transport = httpx.ASGITransport(app=cast(Any, app))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield app, http
    finally:
        stop.set()
        await lifespan


@pytest.fixture(scope="module")
def restored_urls(make_database: MakeDatabase, postgres_server_url: str) -> Iterator[list[str]]:
    """Two copies of the restored fixture: one to read, one to play on."""
    # ``make_database`` has made the roles the dump grants to, and the app's login.
    prefix = f"gin_old_records_{os.getpid()}"
    names = [f"{prefix}_restored", f"{prefix}_read", f"{prefix}_played"]
    with databases(postgres_server_url, *names):
        restore(postgres_server_url, names[0])
        for name in names[1:]:
            create_database(postgres_server_url, name, template=names[0])
        yield [with_database(postgres_server_url, name) for name in names[1:]]


@pytest.fixture(scope="module")
def restored_url(restored_urls: list[str]) -> str:
    return restored_urls[0]


@pytest.fixture(scope="module")
async def http(restored_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with served(restored_url) as (_, client):
        yield client


def assert_kept(recorded: Any, now: Any, where: str = "") -> None:
    """Every field ``recorded`` has is in ``now``, with the same value; lists keep their
    length and order. ``now`` may have fields more."""
    if isinstance(recorded, dict):
        assert isinstance(now, dict), f"{where}: {now!r} is no longer an object"
        for key, value in recorded.items():
            assert key in now, f"{where}.{key} is gone"
            assert_kept(value, now[key], f"{where}.{key}")
    elif isinstance(recorded, list):
        assert isinstance(now, list), f"{where}: {now!r} is no longer a list"
        assert len(now) == len(recorded), f"{where}: {len(now)} items, {len(recorded)} recorded"
        for index, (was, is_) in enumerate(zip(recorded, now, strict=True)):
            assert_kept(was, is_, f"{where}[{index}]")
    else:
        assert now == recorded, f"{where}: {now!r}, recorded {recorded!r}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def run_gin(*argv: str) -> tuple[int, list[str]]:
    """``gin`` in a thread of its own (it runs its own event loop): its status and lines."""

    def run() -> tuple[int, list[str]]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = gin(list(argv))
        return status, out.getvalue().splitlines()

    return await asyncio.to_thread(run)


def assert_same_verdict(recorded: Json, status: int, lines: list[str]) -> None:
    """The same answer (status and last line: VERIFIED, or the DISCREPANCY named) over the
    checks at least (one line per hand, round, game, match and note; a release may say more,
    such as which leaf rules it applied), and each note (receipt or checkpoint, in the order
    given) checked, or not checkable yet, as before."""
    was = recorded["output"].splitlines()
    assert (status, lines[-1]) == (recorded["status"], was[-1]), "\n".join(lines)
    assert len(lines) >= len(was), "\n".join(lines)
    assert note_outcomes(lines) == note_outcomes(was), "\n".join(lines)


def note_outcomes(lines: list[str]) -> list[bool]:
    """For each line about a receipt or checkpoint: whether it could be checked."""
    about_notes = [line for line in lines if "receipt" in line or "checkpoint" in line]
    return ["not checkable" not in line for line in about_notes]


def note_files(match: Json, folder: Path) -> list[str]:
    """``--public-key``, ``--receipt`` and ``--checkpoint`` options for the match's notes."""
    folder.mkdir(exist_ok=True)
    (folder / "key.txt").write_text(EXPECTED["public_key"])
    options = ["--public-key", str(folder / "key.txt")]
    for number, receipt in enumerate(match["receipts"]):
        (folder / f"receipt-{number}").write_text(receipt["header"])
        options += ["--receipt", str(folder / f"receipt-{number}")]
    if "checkpoint" in match:
        (folder / "checkpoint").write_text(match["checkpoint"])
        options += ["--checkpoint", str(folder / "checkpoint")]
    return options


def test_the_fixture_holds_every_kind_of_match() -> None:
    kinds = {(match["seats"], match["name"].split("-")[0]) for match in MATCHES.values()}
    assert kinds == {
        (seats, kind)
        for seats in (2, 3, 4)
        for kind in ("finished", "unfinished", "resigned", "clocked")
    }
    assert all(len(MATCHES[name]["idempotent"]) == 1 for name in UNFINISHED)
    assert all(MATCHES[f"clocked-{seats}"]["clock_moves"] for seats in (2, 3, 4))


async def test_the_key_and_the_log_checkpoints_are_the_same(
    http: httpx.AsyncClient, restored_url: str, tmp_path: Path
) -> None:
    assert (await http.get("/checkpoints/key")).text == EXPECTED["public_key"]
    # Nothing was added since the last checkpoint: today's is that one, signature and all.
    now = await http.get("/log/checkpoint")
    assert now.text == EXPECTED["log_checkpoints"][-1]["note"]
    (tmp_path / "key.txt").write_text(EXPECTED["public_key"])
    options = ["--public-key", str(tmp_path / "key.txt")]
    for number, checkpoint in enumerate(EXPECTED["log_checkpoints"]):
        (tmp_path / f"{number}.note").write_text(checkpoint["note"])
        options += ["--log-checkpoint", str(tmp_path / f"{number}.note")]

    status, lines = await run_gin("audit", "--database-url", restored_url, *options)

    assert_same_verdict(EXPECTED["log_audit"], status, lines)
    assert status == 0


@pytest.mark.parametrize("name", MATCHES)
async def test_every_view_and_etag_is_the_same(http: httpx.AsyncClient, name: str) -> None:
    match = MATCHES[name]
    path = f"/matches/{match['match_id']}"
    for seat, token in match["tokens"].items():
        response = await http.get(f"{path}/view", headers=bearer(token))
        assert response.status_code == 200, response.text
        recorded = match["views"][seat]
        assert response.headers["ETag"] == recorded["etag"]
        assert_kept(recorded["body"], response.json(), f"{name} seat {seat}'s view")
        unchanged = await http.get(
            f"{path}/view", headers={**bearer(token), "If-None-Match": recorded["etag"]}
        )
        # 304 where that release gave it (two seats); it answered the others in full.
        assert unchanged.status_code in (304, recorded["if_none_match"]), unchanged.text
        if unchanged.status_code == 200:
            assert unchanged.headers["ETag"] == recorded["etag"]


@pytest.mark.parametrize("name", MATCHES)
async def test_the_events_summary_and_result_are_the_same(
    http: httpx.AsyncClient, name: str
) -> None:
    match = MATCHES[name]
    path = f"/matches/{match['match_id']}"
    spectator = (await http.get(f"{path}/events")).json()
    assert_kept(match["events"]["spectator"], spectator, f"{name} spectator's events")
    for seat, token in match["tokens"].items():
        seen = (await http.get(f"{path}/events", headers=bearer(token))).json()
        assert_kept(match["events"][seat], seen, f"{name} seat {seat}'s events")
    versions = [entry["version"] for entry in spectator["events"]]
    assert versions == list(range(1, len(versions) + 1))
    assert_kept(match["summary"], (await http.get(path)).json(), f"{name} summary")
    result = await http.get(f"{path}/result")
    assert result.status_code == 200, result.text  # three and four seats answered 500 then
    if "result" in match:
        assert_kept(match["result"], result.json(), f"{name} result")
    assert result.json()["winner"] == match["summary"]["winner"]
    assert result.json()["status"] == match["summary"]["status"]


@pytest.mark.parametrize("name", MATCHES)
async def test_replays_are_the_same(http: httpx.AsyncClient, name: str) -> None:
    match = MATCHES[name]
    for replay in match["replays"]:
        response = await http.get(
            f"/matches/{match['match_id']}/replay", params={"at": replay["at"]}
        )
        assert response.status_code == replay["status"], response.text
        where = f"{name} replay at {replay['at']}"
        if replay["status"] == 200:
            assert_kept(replay["body"], response.json(), where)
        else:  # the hand in play: the same refusal, in today's words
            assert response.json()["type"] == replay["body"]["type"], where


@pytest.mark.parametrize("name", MATCHES)
async def test_the_record_and_its_notes_verify_as_before(
    http: httpx.AsyncClient, name: str, tmp_path: Path
) -> None:
    match = MATCHES[name]
    path = f"/matches/{match['match_id']}"
    served_record = await http.get(f"{path}/record")
    assert served_record.status_code == 200, served_record.text
    record = served_record.json()
    for stream in ("match_stream", "fairness_stream"):
        assert record[stream] == match["record"][stream], f"{name}: the {stream} changed"
    assert record["checkpoints"] == match["record"]["checkpoints"]
    assert_kept(match["record"], record, f"{name} record")
    if "checkpoint" in match:
        assert (await http.get(f"{path}/checkpoint")).text == match["checkpoint"]
    notes = note_files(match, tmp_path)
    # The record as a player saved it then, and as the server gives it now.
    (tmp_path / "then.json").write_text(json.dumps(match["record"]))
    (tmp_path / "now.json").write_bytes(served_record.content)
    for file in ("then.json", "now.json"):
        status, lines = await run_gin("verify", str(tmp_path / file), *notes)
        assert_same_verdict(match["verify"], status, lines)
        assert status == 0


@pytest.mark.parametrize("name", MATCHES)
async def test_the_match_audits_as_before_with_its_receipts(
    http: httpx.AsyncClient, restored_url: str, name: str, tmp_path: Path
) -> None:
    match = MATCHES[name]
    notes = note_files(match, tmp_path)

    status, lines = await run_gin(
        "audit", match["match_id"], "--database-url", restored_url, *notes
    )

    assert_same_verdict(match["audit"], status, lines)
    assert status == 0
    # A line per receipt, each checked (the hand it came from is over) or not checkable yet.
    assert sum("receipt" in line for line in lines) == len(match["receipts"])


@pytest.mark.parametrize("name", UNFINISHED)
async def test_an_idempotent_retry_answers_as_recorded(http: httpx.AsyncClient, name: str) -> None:
    match = MATCHES[name]
    for sent in match["idempotent"]:
        response = await http.post(
            f"/matches/{match['match_id']}/commands",
            json=sent["command"],
            headers={**bearer(match["tokens"][str(sent["seat"])]), "Idempotency-Key": sent["key"]},
        )
        assert response.status_code == sent["status"], response.text
        if sent["receipt"] is None and response.status_code == 200:
            # Recorded before three- and four-player commands had receipts: one now comes,
            # of the first append (the version its answer was recorded at).
            found = parse_attestation(parse_note(expand(response.headers["Gin-Receipt"])).text)
            assert found.version == sent["body"]["version"]
            assert found.stream_id.endswith(match["match_id"])
        else:
            assert response.headers.get("Gin-Receipt") == sent["receipt"]
        assert_kept(sent["body"], response.json(), f"{name}'s answer to {sent['key']}")
    # And the retry changed nothing.
    seat, token = next(iter(match["tokens"].items()))
    view = await http.get(f"/matches/{match['match_id']}/view", headers=bearer(token))
    assert view.headers["ETag"] == match["views"][seat]["etag"]


@pytest.mark.parametrize("name", FINISHED)
async def test_a_finished_match_streams_from_a_last_event_id(
    http: httpx.AsyncClient, name: str
) -> None:
    match = MATCHES[name]
    recorded = match["events"]["spectator"]["events"]
    resume_at = len(recorded) - 3

    async with asyncio.timeout(60):  # a stream that no longer ends is a failure, not a hang
        response = await http.get(
            f"/matches/{match['match_id']}/stream", headers={"Last-Event-ID": str(resume_at)}
        )

    assert response.status_code == 200, response.text
    text = response.text.replace("\r\n", "\n")
    messages = [block for block in text.split("\n\n") if "data:" in block]
    fields = [dict(line.split(": ", 1) for line in block.splitlines()) for block in messages]
    assert [int(field["id"]) for field in fields] == list(range(resume_at + 1, len(recorded) + 1))
    for field, entry in zip(fields, recorded[resume_at:], strict=True):
        assert_kept(entry, json.loads(field["data"]), f"{name} stream at {field['id']}")


@pytest.fixture(scope="module")
async def played_on(restored_urls: list[str]) -> AsyncIterator[tuple[str, httpx.AsyncClient]]:
    """The second copy of the fixture, for moves that change it."""
    async with served(restored_urls[1]) as (_, client):
        yield restored_urls[1], client


@pytest.mark.parametrize("name", UNFINISHED)
async def test_an_unfinished_match_plays_on(
    played_on: tuple[str, httpx.AsyncClient], name: str, tmp_path: Path
) -> None:
    url, http = played_on
    match = MATCHES[name]
    path = f"/matches/{match['match_id']}"
    views = {}
    for seat, token in match["tokens"].items():
        views[seat] = (await http.get(f"{path}/view", headers=bearer(token))).json()
    seat = min(seat for seat, view in views.items() if view["legal_actions"])
    command = views[seat]["legal_actions"][0]

    response = await http.post(
        f"{path}/commands", json=command, headers=bearer(match["tokens"][seat])
    )

    assert response.status_code == 200, response.text
    assert response.json()["version"] > views[seat]["version"]
    if match["receipts"]:
        assert "Gin-Receipt" in response.headers
    status, lines = await run_gin(
        "audit", match["match_id"], "--database-url", url, *note_files(match, tmp_path)
    )
    assert status == 0, "\n".join(lines)
