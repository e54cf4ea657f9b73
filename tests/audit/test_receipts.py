"""Issue 13: a rewrite of history with every hash recomputed is found by anyone who kept a
receipt or checkpoint issued after the rewritten event, and only by them.

A match is played over the API; each command's ``Gin-Receipt`` is kept. Then the tables'
owner switches the append-only trigger off, edits a discard, recomputes every later hash and
the stream's head: ``gin audit`` alone still answers VERIFIED, with a receipt it does not.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import psycopg
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.memory.signer import memory_signer
from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from cli.audit import Notes, audit_match
from cli.main import main
from service.audit.checkpoints import parse_attestation
from service.audit.notes import expand, parse_note, parse_verifier_key, verifier_key
from service.audit.verify import Verdict
from service.store.hash_chain import link_hash
from tests.api.conftest import settings_for
from tests.api.players import choose, without_going_out
from tests.audit.api_play import FairTable, create_fair_table, view_of
from tests.log_checkpoints import Params, covering
from web.app import create_app

Client = AsyncTestClient[Litestar]


class Receipt(msgspec.Struct, frozen=True):
    version: int
    deal: int
    header: str


@pytest.fixture(scope="module")
def key_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("signing") / "signing-key.pem"


@pytest.fixture(scope="module")
async def client(database_url: str, key_file: Path) -> AsyncIterator[Client]:
    settings = msgspec.structs.replace(settings_for(database_url), signing_key_file=str(key_file))
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
async def public_key(client: Client) -> str:
    response = await client.get("/checkpoints/key")
    assert response.status_code == 200, response.text
    return response.text


async def play(
    client: Client, table: FairTable, rng: random.Random, *, until_hand: int, then: int
) -> list[Receipt]:
    """Play until hand ``until_hand`` is dealt, then ``then`` more commands that keep it open;
    the receipt of every command."""
    receipts: list[Receipt] = []
    view = await view_of(client, table, 0)
    extra = 0
    while extra < then:
        if view["turn"] != view["seat"]:
            view = await view_of(client, table, view["turn"])
        in_hand = view["hand_number"] >= until_hand
        command = without_going_out(view) if in_hand else choose(view, rng)
        response = await client.post(
            f"{table.path}/commands", json=command, headers=table.headers(view["seat"])
        )
        assert response.status_code == 200, response.text
        found = parse_attestation(parse_note(expand(response.headers["Gin-Receipt"])).text)
        assert found.deal is not None
        receipts.append(Receipt(found.version, found.deal, response.headers["Gin-Receipt"]))
        view = response.json()
        extra += in_hand
    return receipts


async def audit(url: str, match_id: str, notes: Notes | None = None) -> Verdict:
    async with open_pool(url, min_size=1, max_size=2) as pool:
        store, registry = PostgresEventStore(pool), PostgresMatchRegistry(pool)
        return await audit_match(store, registry, match_id, notes)


def notes_of(receipts: list[Receipt], public_key: str) -> Notes:
    return Notes(
        [(f"receipt {r.version}", expand(r.header)) for r in receipts],
        [parse_verifier_key(public_key)],
    )


async def rewrite_a_discard(url: str, match_id: str, after_version: int) -> int:
    """As a superuser: edit the first discard after ``after_version``, recompute every hash
    from there and the stream's head. The discard's version."""
    stream = f"match-{match_id}"
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as owner:
        cursor = await owner.execute(
            "SELECT version, type, schema_version, data, hash FROM events "
            "WHERE stream_id = %s ORDER BY version",
            (stream,),
        )
        rows = await cursor.fetchall()
        edited: int = next(r[0] for r in rows if r[1] == "discarded" and r[0] > after_version)
        await owner.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        previous = bytes(rows[edited - 2][4])
        for version, type, schema_version, data, _ in rows[edited - 1 :]:
            data = bytes(data)
            if version == edited:
                card = data.split(b'"card":"')[1][:2]
                data = data.replace(card, b"Kh" if card != b"Kh" else b"Qh")
            previous = link_hash(previous, stream, version, type, schema_version, data)
            await owner.execute(
                "UPDATE events SET data = %s, hash = %s WHERE stream_id = %s AND version = %s",
                (data, previous, stream, version),
            )
        await owner.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")
        await owner.execute(
            "UPDATE streams SET last_hash = %s WHERE stream_id = %s", (previous, stream)
        )
    return edited


async def test_a_rewrite_with_recomputed_hashes_is_found_only_with_a_later_receipt(
    client: Client,
    database_url: str,
    public_key: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = await create_fair_table(client, game_target=500, match_target=0)
    receipts = await play(client, table, random.Random(13), until_hand=2, then=6)
    in_hand = [r for r in receipts if r.deal == 2]
    before, last = in_hand[0], in_hand[-1]  # the first: the command that ended hand 1
    sound = await audit(database_url, table.match_id, notes_of(receipts, public_key))
    assert sound.ok, sound.problem
    assert sound.lines[-1] == (
        f"receipt {last.version} (signed by gin-rummy): receipt for match-{table.match_id} "
        f"version {last.version}: the blinded head matches"
    )

    edited = await rewrite_a_discard(database_url, table.match_id, before.version)
    assert before.version < edited <= last.version

    # The chain and the head agree again, and the hand being played is not in the record:
    # as docs/audit.md says, the database alone cannot show this rewrite.
    unaided = await audit(database_url, table.match_id)
    assert unaided.ok, unaided.problem
    # A receipt issued before the edited event cannot see it either.
    earlier = await audit(database_url, table.match_id, notes_of([before], public_key))
    assert earlier.ok, earlier.problem

    found = await audit(database_url, table.match_id, notes_of([last], public_key))

    assert not found.ok
    assert found.problem is not None
    assert found.problem.startswith(
        f"receipt {last.version}: the receipt for match-{table.match_id} version "
        f"{last.version} was signed over another head than the stream's hash there ("
    )
    assert found.problem.endswith(
        f"): history up to version {last.version} was rewritten after it was issued"
    )

    # The same from the command line, with the header value kept in a file.
    receipt_file, key_path = tmp_path / "receipt", tmp_path / "key"
    receipt_file.write_text(last.header)
    key_path.write_text(public_key)
    args = ["audit", table.match_id, "--database-url", database_url]
    assert await asyncio.to_thread(main, args) == 0
    given = [*args, "--receipt", str(receipt_file), "--public-key", str(key_path)]
    assert await asyncio.to_thread(main, given) == 1
    out = capsys.readouterr().out
    assert out.endswith(f"DISCREPANCY: receipt {receipt_file}: {found.problem.split(': ', 1)[1]}\n")


async def test_a_record_is_checked_offline_against_receipts_and_checkpoints(
    client: Client, public_key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await create_fair_table(client, game_target=500, match_target=0)
    receipts = await play(client, table, random.Random(5), until_hand=3, then=2)
    record = (await client.get(f"{table.path}/record")).json()
    checkpoint = (await client.get(f"{table.path}/checkpoint")).text
    record_file, key_file = tmp_path / "record.json", tmp_path / "key"
    record_file.write_text(json.dumps(record))
    key_file.write_text(public_key)
    files = {}
    for receipt in (next(r for r in receipts if r.deal == 1), receipts[-1]):
        files[receipt.deal] = tmp_path / f"receipt-{receipt.version}"
        files[receipt.deal].write_text(receipt.header)
    (tmp_path / "checkpoint").write_text(checkpoint)
    end = record["match_stream"]["events"][-1]

    keys = ["--public-key", str(key_file)]
    notes = ["--receipt", str(files[1]), "--receipt", str(files[3])]
    verified = main(
        ["verify", str(record_file), *keys, *notes, "--checkpoint", str(tmp_path / "checkpoint")]
    )

    out = capsys.readouterr().out
    assert verified == 0, out
    assert record["checkpoints"][0] == checkpoint
    assert checkpoint.startswith(
        f"gin-rummy/match-{table.match_id}\n{end['version']}\n"
        f"{base64.b64encode(bytes.fromhex(end['hash'])).decode()}\n\n\u2014 gin-rummy "
    )
    assert (
        f"record checkpoint 1 (signed by gin-rummy): checkpoint for match-{table.match_id} "
        f"version {end['version']}: the head hash matches\n"
    ) in out
    assert f"receipt {files[1]} (signed by gin-rummy): " in out
    assert "the blinded head matches" in out
    assert f"receipt {files[3]} (signed by gin-rummy): " in out
    assert "past the record's end, not checkable yet" in out

    # Someone else's key does not vouch for them; no key at all is refused.
    other = tmp_path / "other-key"
    other.write_text(verifier_key(memory_signer()).text())
    assert main(["verify", str(record_file), "--public-key", str(other)]) == 1
    assert "record checkpoint 1: no valid signature by any of the public keys given" in (
        capsys.readouterr().out
    )
    assert main(["verify", str(record_file), "--receipt", str(files[1])]) == 1
    assert "checked with --public-key" in capsys.readouterr().out


async def test_a_rewrite_is_found_by_a_log_checkpoint_issued_after_the_event_only(
    client: Client,
    database_url: str,
    public_key: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = {"key": tmp_path / "key"}
    files["key"].write_text(public_key)

    async def keep_log_checkpoint(name: str, *events: Params) -> None:
        _, _, note = await covering(client, *events)
        assert note.startswith("gin-rummy-log\n")
        files[name] = tmp_path / name
        files[name].write_text(note)

    def gin_audit(*checkpoints: str) -> list[str]:
        args = ["audit", "--database-url", database_url, "--public-key", str(files["key"])]
        return [*args, *(f"--log-checkpoint={files[name]}" for name in checkpoints)]

    table = await create_fair_table(client, game_target=500, match_target=0)
    await keep_log_checkpoint("early")  # before any discard of this match
    receipts = await play(client, table, random.Random(21), until_hand=2, then=6)
    # One given out once the log holds the whole match so far, the discard to be rewritten too.
    last: Params = {"stream": f"match-{table.match_id}", "version": receipts[-1].version}
    await keep_log_checkpoint("late", last)
    other = await create_fair_table(client, game_target=500, match_target=0)
    await play(client, other, random.Random(22), until_hand=1, then=3)  # the log goes on
    assert await asyncio.to_thread(main, gin_audit("early", "late")) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")

    hand_2 = next(r for r in receipts if r.deal == 2)  # not in the record: only a note sees it
    await rewrite_a_discard(database_url, table.match_id, hand_2.version)

    # The match's own chain and head agree again; only the later log checkpoint sees it.
    assert (await audit(database_url, table.match_id)).ok
    assert await asyncio.to_thread(main, gin_audit("early")) == 0
    capsys.readouterr()
    assert await asyncio.to_thread(main, gin_audit("early", "late")) == 1
    assert capsys.readouterr().out.endswith(
        f"DISCREPANCY: log checkpoint {files['late']}: the log's first "
        f"{files['late'].read_text().split()[1]} events give another tree head than the "
        "signed one: the log was rewritten after the checkpoint was issued\n"
    )
