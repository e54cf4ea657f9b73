"""Every accepted command of a match of two, three or four seats gets a ``Gin-Receipt``, and
every receipt verifies the same way: against the database (``gin audit``), and against the
finished match's record (``gin verify``), where every seed is revealed. While a hand is being
played the receipt shows no bare head hash, at any table."""

from __future__ import annotations

import base64
import hashlib
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from cli.main import main
from service.audit.checkpoints import parse_attestation
from service.audit.notes import expand, parse_note
from tests.api.any_size import EVERY_SIZE, create_at, play_one, play_out, views
from tests.api.conftest import settings_for
from tests.api.players import without_going_out
from tests.audit.test_receipts import Receipt, audit, notes_of
from web.app import create_app

Client = AsyncTestClient[Litestar]


@pytest.fixture(scope="module")
async def client(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Client]:
    key_file = tmp_path_factory.mktemp("signing") / "signing-key.pem"
    settings = msgspec.structs.replace(settings_for(database_url), signing_key_file=str(key_file))
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
async def public_key(client: Client) -> str:
    response = await client.get("/checkpoints/key")
    assert response.status_code == 200, response.text
    return response.text


@EVERY_SIZE
async def test_every_command_gets_a_receipt_that_verifies(
    client: Client,
    database_url: str,
    public_key: str,
    seats: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = await create_at(client, seats)
    responses = await play_out(client, table, random.Random(30 + seats))
    receipts = []
    for response in responses:
        found = parse_attestation(parse_note(expand(response.headers["Gin-Receipt"])).text)
        assert found.version == response.json()["version"]
        assert found.deal is not None
        receipts.append(Receipt(found.version, found.deal, response.headers["Gin-Receipt"]))
    stream = "match-" if seats == 2 else "format-match-"
    assert receipts
    named = f"\nstream {stream}{table.match_id}\n"
    assert all(named in parse_note(expand(r.header)).text for r in receipts)
    assert max(r.deal for r in receipts) >= 1

    audited = await audit(database_url, table.match_id, notes_of(receipts, public_key))

    assert audited.ok, audited.problem
    checked = [line for line in audited.lines if line.startswith("receipt ")]
    assert len(checked) == len(receipts)
    assert all(line.endswith("the blinded head matches") for line in checked), checked

    # Offline, from the finished match's record: every seed is revealed by now.
    record = (await client.get(f"{table.path}/record")).json()
    checkpoint = await client.get(f"{table.path}/checkpoint")
    assert checkpoint.status_code == 200, checkpoint.text
    assert checkpoint.text == record["checkpoints"][0]
    assert checkpoint.text.startswith(f"gin-rummy/{stream}{table.match_id}\n")
    record_file, key_file = tmp_path / "record.json", tmp_path / "key"
    record_file.write_text(json.dumps(record))
    key_file.write_text(public_key)
    (tmp_path / "checkpoint").write_text(checkpoint.text)
    given = [("--receipt", str(tmp_path / f"receipt-{n}")) for n in range(len(receipts))]
    for n, receipt in enumerate(receipts):
        (tmp_path / f"receipt-{n}").write_text(receipt.header)
    args = ["verify", str(record_file), "--public-key", str(key_file)]
    args += ["--checkpoint", str(tmp_path / "checkpoint")]
    verified = main([*args, *(part for pair in given for part in pair)])
    out = capsys.readouterr().out
    assert verified == 0, out
    assert out.count("the blinded head matches") == len(receipts)
    assert f"checkpoint {tmp_path / 'checkpoint'} (signed by gin-rummy): " in out


@EVERY_SIZE
async def test_a_receipt_mid_hand_hides_the_head_behind_the_last_deals_seed(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats)
    responses = await play_out(client, table, random.Random(50 + seats))
    record = (await client.get(f"{table.path}/record")).json()
    hashes = {e["version"]: bytes.fromhex(e["hash"]) for e in record["match_stream"]["events"]}
    seeds = {s["step"]: bytes.fromhex(s["seed"]) for s in record["fairness"]["revealed"]}
    dealt = [
        parse_note(expand(r.headers["Gin-Receipt"])).text
        for r in responses
        if "\ndeal 0\n" not in parse_note(expand(r.headers["Gin-Receipt"])).text
    ]
    assert dealt
    for text in dealt:
        found = parse_attestation(text)
        assert found.deal is not None
        head = hashes[found.version]
        assert head.hex() not in text
        assert base64.b64encode(head).decode() not in text
        blind = seeds[f"deal {found.deal}"]
        blinded = hashlib.sha256(b"gin-receipt-1" + head + blind).digest()
        assert found.value == blinded
        assert text.endswith(f"deal {found.deal}\nhead {base64.b64encode(blinded).decode()}\n")


@EVERY_SIZE
async def test_a_retried_command_gets_the_receipt_of_its_first_append(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats, options={"game_target": 500, "match_target": 0})
    seen = await views(client, table)
    seat = next(seat for seat, view in seen.items() if view["legal_actions"])
    headers = {**table.headers(seat), "Idempotency-Key": "once"}
    command = without_going_out(seen[seat])

    first = await client.post(f"{table.path}/commands", json=command, headers=headers)
    await play_one(client, table, random.Random(seats))  # the match moves on meanwhile
    again = await client.post(f"{table.path}/commands", json=command, headers=headers)

    assert first.status_code == again.status_code == 200, again.text
    found = parse_attestation(parse_note(expand(first.headers["Gin-Receipt"])).text)
    assert found.version == first.json()["version"] == again.json()["version"]
    # Ed25519 signatures are deterministic: the same append gives the very same receipt.
    assert again.headers["Gin-Receipt"] == first.headers["Gin-Receipt"]
