"""An upgraded database: matches of two, three and four seats played under the old leaf rule
(format streams bare in the tree), a log checkpoint signed over them as the old release signed
it, then migration 0020 and more play. The old checkpoint still verifies, the new one blinds
what comes after the recorded count, and a rewrite of an event the old checkpoint covers is
still found, at every table size. So is one that a server of the old release, left running,
signed after the migration under its own rule."""

from __future__ import annotations

import asyncio
import itertools
import os
from pathlib import Path

import msgspec
import psycopg
import pytest
from litestar.testing import AsyncTestClient

from adapters.ed25519_signer import key_from_file
from adapters.postgres.database import create_database, with_database
from adapters.postgres.migrate import upgrade
from cli.main import main
from service.audit.log_checkpoints import log_checkpoint_text, parse_log_checkpoint
from service.audit.notes import parse_note, sign_note
from service.store.hash_chain import GENESIS, link_hash
from tests.api.conftest import settings_for
from tests.audit.log_leaves import (
    create_match,
    head,
    log_events,
    match_blinds,
    old_release,
    old_release_before,
    play_some,
)
from tests.conftest import MakeDatabase
from web.app import create_app

_names = itertools.count(1)
SEATS = (2, 3, 4)


@pytest.fixture
def old_database_url(postgres_server_url: str, make_database: MakeDatabase) -> str:
    """A database at migration 0019, the schema of the release before the second leaf rule
    (``make_database`` made the app's login)."""
    del make_database
    name = f"gin_test_{os.getpid()}_leaf_rule_{next(_names)}"
    create_database(postgres_server_url, name)
    url = with_database(postgres_server_url, name)
    upgrade(url, "0019")
    return url


async def rewrite_an_event(url: str, stream: str, version: int) -> None:
    """As a superuser: edit the event at ``version``, recompute every hash from there and the
    stream's head, so the stream's own chain holds again."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        cursor = await connection.execute(
            "SELECT version, type, schema_version, data, hash FROM events "
            "WHERE stream_id = %s ORDER BY version",
            (stream,),
        )
        rows = await cursor.fetchall()
        await connection.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        previous = GENESIS if version == 1 else bytes(rows[version - 2][4])
        for number, type, schema_version, data, _ in rows[version - 1 :]:
            data = bytes(data)
            if number == version:
                data = b'{"rewritten":true,' + data.removeprefix(b"{")
            previous = link_hash(previous, stream, number, type, schema_version, data)
            await connection.execute(
                "UPDATE events SET data = %s, hash = %s WHERE stream_id = %s AND version = %s",
                (data, previous, stream, number),
            )
        await connection.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")
        await connection.execute(
            "UPDATE streams SET last_hash = %s WHERE stream_id = %s", (previous, stream)
        )


@pytest.mark.parametrize("rewritten", SEATS)
async def test_an_old_checkpoint_still_verifies_after_the_upgrade_and_still_finds_a_rewrite(
    old_database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], rewritten: int
) -> None:
    url, key = old_database_url, tmp_path / "signing-key.pem"
    signer = key_from_file(key)  # the app signs with the same key
    settings = msgspec.structs.replace(settings_for(url), signing_key_file=str(key))
    notes = {name: tmp_path / f"{name}.note" for name in ("old", "new", "late_old")}
    async with AsyncTestClient(app=create_app(settings)) as client:
        (tmp_path / "key").write_text((await client.get("/checkpoints/key")).text)
        matches = {n: await create_match(client, n) for n in SEATS}
        for n, (match_id, tokens) in matches.items():
            await play_some(client, match_id, tokens, seed=n, commands=16)
        # This release serves no log checkpoint before the migration has said where its rule
        # starts, so the old release's one is made here as it made it.
        assert (await client.get("/log/checkpoint")).status_code == 503
        before, blinds = await log_events(url), await match_blinds(url)
        old = log_checkpoint_text(len(before), head(before, blinds, old_release))
        notes["old"].write_text(sign_note(signer, old))

        await asyncio.to_thread(upgrade, url)
        for n, (match_id, tokens) in matches.items():  # the same matches go on
            await play_some(client, match_id, tokens, seed=10 + n, commands=16)
        response = await client.get("/log/checkpoint")
        assert response.status_code == 200, response.text
        notes["new"].write_text(response.text)
        await _check_the_new_head(url, len(before), response.text)
    # A server of the old release left running after the migration signs under its rule.
    after = await log_events(url)
    late = log_checkpoint_text(
        len(after), head(after, blinds | await match_blinds(url), old_release)
    )
    notes["late_old"].write_text(sign_note(signer, late))

    audit = ["audit", "--database-url", url, "--public-key", str(tmp_path / "key")]
    every = [*audit, *(f"--log-checkpoint={note}" for note in notes.values())]
    assert await asyncio.to_thread(main, every) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert f"blinded in the first {len(before)} events, every stream of a match after" in out
    assert f"{notes['late_old']} (signed by gin-rummy): the first {len(after)} events " in out
    assert "under the first leaf rule throughout" in out
    assert out.endswith("VERIFIED: every check holds\n")

    # An event the old checkpoint covers, rewritten with its stream's hashes recomputed.
    match_id = matches[rewritten][0]
    own = [e for e in before if e.stream_id.endswith(match_id) and "fairness" not in e.stream_id]
    await rewrite_an_event(url, own[-1].stream_id, own[-1].version)
    assert await asyncio.to_thread(main, [*audit, f"--log-checkpoint={notes['old']}"]) == 1
    assert capsys.readouterr().out.endswith(
        f"DISCREPANCY: log checkpoint {notes['old']}: the log's first {len(before)} events give "
        "another tree head than the signed one: the log was rewritten after the checkpoint was "
        "issued\n"
    )


async def _check_the_new_head(url: str, cut: int, note: str) -> None:
    """The new head: the old rule for the first ``cut`` events, every match blinded after."""
    async with await psycopg.AsyncConnection.connect(url) as connection:
        cursor = await connection.execute("SELECT every_match_blinded_from FROM log_leaf_rule")
        assert await cursor.fetchone() == (cut,)
    size, signed = parse_log_checkpoint(parse_note(note).text)
    events, blinds = (await log_events(url))[:size], await match_blinds(url)
    assert head(events, blinds, old_release_before(cut)) == signed
    assert any(e.stream_id.startswith("format-match-") for e in events[cut:])
    assert head(events, blinds, old_release) != signed  # those after the cut are not bare
