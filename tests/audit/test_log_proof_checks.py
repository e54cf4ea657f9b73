"""``gin verify --receipt --log-checkpoint --log-proof``: a player proves the event of each
receipt kept from a match of two, three or four seats is in a log checkpoint, from the
finished match's record and the proofs alone; a proof that leads elsewhere is a
DISCREPANCY, and while the match is in play (its secret, so its leaves' blind, unrevealed)
nothing is checkable yet."""

from __future__ import annotations

import asyncio
import base64
import json
import random
from pathlib import Path

import pytest

from cli.main import main
from service.audit.checkpoints import parse_attestation
from service.audit.notes import expand, parse_note
from tests.api.any_size import EVERY_SIZE, create_at, play_one, play_out
from tests.audit.test_log_proofs import Client, client
from tests.log_checkpoints import covering

__all__ = ["client"]


async def files(client: Client, path: str, receipts: list[str], folder: Path) -> list[str]:
    """The record, key, log checkpoint, receipts and proofs saved in ``folder``; the
    ``gin verify`` arguments that name them."""
    key = folder / "key"
    key.write_text((await client.get("/checkpoints/key")).text)
    record = folder / "record.json"
    record.write_text(json.dumps((await client.get(f"{path}/record")).json()))
    named = [parse_attestation(parse_note(expand(header)).text) for header in receipts]
    size, _, note = await covering(client, *({"position": r.position} for r in named))
    (folder / "log.note").write_text(note)
    args = [
        "verify",
        str(record),
        "--public-key",
        str(key),
        "--log-checkpoint",
        str(folder / "log.note"),
    ]
    for n, header in enumerate(receipts):
        receipt = parse_attestation(parse_note(expand(header)).text)
        (folder / f"receipt-{n}").write_text(header)
        proof = await client.get(
            "/log/proofs/inclusion", params={"position": receipt.position, "size": size}
        )
        assert proof.status_code == 200, proof.text
        (folder / f"proof-{n}.json").write_text(proof.text)
        args += [
            "--receipt",
            str(folder / f"receipt-{n}"),
            "--log-proof",
            str(folder / f"proof-{n}.json"),
        ]
    return args


@EVERY_SIZE
async def test_every_receipt_is_proved_in_the_log_once_the_match_is_over(
    client: Client,
    database_url: str,
    seats: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = await create_at(client, seats)
    responses = await play_out(client, table, random.Random(110 + seats))
    receipts = [r.headers["Gin-Receipt"] for r in responses][::5]
    args = await files(client, table.path, receipts, tmp_path)

    assert main(args) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert out.count("of the signed log of") == len(receipts), out
    assert "VERIFIED" in out
    # The auditor's way, from the store: the same proofs, the same answer.
    audit = ["audit", table.match_id, "--database-url", database_url, *args[2:]]
    assert await asyncio.to_thread(main, audit) == 0, capsys.readouterr().out
    assert capsys.readouterr().out.count("of the signed log of") == len(receipts)

    # A path that leads to another head: one of its hashes changed.
    proof_file = tmp_path / "proof-0.json"
    proof = json.loads(proof_file.read_text())
    assert proof["audit_path"]
    changed = bytearray(base64.b64decode(proof["audit_path"][0]))
    changed[5] ^= 1
    proof["audit_path"][0] = base64.b64encode(changed).decode()
    proof_file.write_text(json.dumps(proof))
    for command in (args, audit):
        assert await asyncio.to_thread(main, command) == 1
        out = capsys.readouterr().out
        assert "DISCREPANCY" in out
        assert "is not in the log the checkpoint of" in out


@EVERY_SIZE
async def test_a_receipt_of_a_match_in_play_is_not_checkable_yet(
    client: Client, seats: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await create_at(client, seats, {"game_target": 100, "match_target": 0})
    rng = random.Random(130 + seats)
    receipts = [(await play_one(client, table, rng)).headers["Gin-Receipt"] for _ in range(4)]
    args = await files(client, table.path, receipts, tmp_path)

    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.count("not checkable yet: the match is not over") == len(receipts), out
