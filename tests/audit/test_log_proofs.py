"""``GET /log/proofs/inclusion`` and ``/consistency``: every event of a match of two, three or
four seats is shown in a log checkpoint by an audit path that leads, from the leaf its record
and receipt let a player make once the match is over, to the checkpoint's signed head; two
checkpoints are shown consistent. The paths and proofs are compared with the RFC's own
definitions over leaves the test makes from the database itself (``tests.audit.log_leaves``);
no proof shows a leaf, an event hash or a blind of a match in play."""

from __future__ import annotations

import base64
import hashlib
import random
from collections.abc import AsyncIterator

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.audit.checkpoints import parse_attestation
from service.audit.log_tree import NO_BLIND, event_leaf, leaf_hash, leaf_of
from service.audit.merkle_proofs import consistent, root_from_inclusion
from service.audit.notes import expand, parse_note
from service.ports.event_store import StoredEvent
from tests.api.any_size import EVERY_SIZE, create_at, play_out
from tests.api.conftest import settings_for
from tests.api.problems import assert_problem
from tests.audit import rfc9162
from tests.audit.log_leaves import log_events, match_blinds, owner, play_some
from tests.log_checkpoints import Params, checkpoint, covering
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


async def leaves_of(url: str) -> tuple[list[StoredEvent], list[bytes]]:
    """The log's events and their leaves, every match's blinded (a database of this release)."""
    events, blinds = await log_events(url), await match_blinds(url)
    leaves = []
    for event in events:
        match = owner(event, blinds)
        leaves.append(event_leaf(event, NO_BLIND if match is None else blinds[match]))
    return events, leaves


def hashes(proof: list[str]) -> list[bytes]:
    return [base64.b64decode(value) for value in proof]


@EVERY_SIZE
async def test_a_receipts_event_is_proved_in_a_later_checkpoint_once_the_match_is_over(
    client: Client, database_url: str, seats: int
) -> None:
    before_size, before_head = await checkpoint(client)
    table = await create_at(client, seats)
    responses = await play_out(client, table, random.Random(70 + seats))
    receipts = [
        parse_attestation(parse_note(expand(response.headers["Gin-Receipt"])).text)
        for response in responses
    ]
    size, head, _ = await covering(client, *({"position": r.position} for r in receipts))
    record = (await client.get(f"{table.path}/record")).json()
    blind = hashlib.sha256(
        b"gin-log-blind-1" + bytes.fromhex(record["fairness"]["secret"])
    ).digest()
    event_hash = {e["version"]: bytes.fromhex(e["hash"]) for e in record["match_stream"]["events"]}
    stream = record["match_stream"]["stream_id"]
    events, leaves = await leaves_of(database_url)
    assert rfc9162.mth(leaves[:size]) == head

    for receipt in receipts:
        assert receipt.position is not None
        by_position = await client.get(
            "/log/proofs/inclusion", params={"position": receipt.position, "size": size}
        )
        assert by_position.status_code == 200, by_position.text
        proof = by_position.json()
        by_name = await client.get(
            "/log/proofs/inclusion",
            params={"stream": stream, "version": receipt.version, "size": size},
        )
        assert by_name.json() == proof
        index = proof["leaf_index"]
        assert events[index].position == receipt.position == proof["position"]
        assert proof["tree_size"] == size
        assert hashes(proof["audit_path"]) == rfc9162.path(index, leaves[:size])
        # What a player makes from the receipt and the finished match's record alone.
        place = (stream, receipt.version, receipt.position, event_hash[receipt.version])
        leaf = leaf_hash(leaf_of(*place, blind))
        bare = leaf_hash(leaf_of(*place, NO_BLIND))
        assert root_from_inclusion(index, size, leaf, hashes(proof["audit_path"])) == head
        assert root_from_inclusion(index, size, bare, hashes(proof["audit_path"])) != head

    answer = await client.get(
        "/log/proofs/consistency", params={"first": before_size or 1, "second": size}
    )
    assert answer.status_code == 200, answer.text
    found = answer.json()
    first = before_size or 1
    assert found["first"] == first
    assert found["second"] == size
    assert hashes(found["proof"]) == rfc9162.proof(first, leaves[:size])
    if before_size:
        assert consistent(before_size, before_head, size, head, hashes(found["proof"]))


@EVERY_SIZE
async def test_no_proof_shows_a_leaf_hash_or_blind_of_a_match_in_play(
    client: Client, database_url: str, seats: int
) -> None:
    table = await create_at(client, seats)
    await play_some(client, table.match_id, table.tokens, 90 + seats, 12)
    size, _ = await checkpoint(client)
    events, leaves = await leaves_of(database_url)
    blinds = await match_blinds(database_url)
    secret_things = [blinds[table.match_id]]
    for event, leaf in zip(events, leaves, strict=True):
        if owner(event, blinds) == table.match_id:
            secret_things += [event.hash, leaf]
    assert len(secret_things) > 12
    answers = []
    for index in range(size):
        answer = await client.get(
            "/log/proofs/inclusion", params={"position": events[index].position, "size": size}
        )
        assert answer.status_code == 200, answer.text
        answers.append(answer.text)
    for first in range(1, size + 1, max(1, size // 20)):
        answer = await client.get(
            "/log/proofs/consistency", params={"first": first, "second": size}
        )
        assert answer.status_code == 200, answer.text
        answers.append(answer.text)
    for text in answers:
        for secret in secret_things:
            assert base64.b64encode(secret).decode() not in text
            assert secret.hex() not in text


async def test_sizes_and_events_out_of_range_are_refused(client: Client) -> None:
    table = await create_at(client, 2)
    size, _, _ = await covering(client, {"stream": f"match-{table.match_id}", "version": 1})
    stream = f"match-{table.match_id}"
    inclusion = "/log/proofs/inclusion"
    # Not size + 1: the log goes on growing (other tests' bots, a transaction that was still
    # open when the checkpoint was taken).
    beyond = size + 10**6
    cases: list[tuple[str, Params, int, str]] = [
        (inclusion, {"position": 1, "size": beyond}, 404, "log-too-short"),
        (inclusion, {"position": 1, "size": 0}, 400, "invalid-parameter"),
        (inclusion, {"position": 10**12, "size": size}, 404, "log-too-short"),
        (inclusion, {"stream": stream, "version": 10**6, "size": size}, 404, "version-not-found"),
        (
            inclusion,
            {"stream": "nothing-here", "version": 1, "size": size},
            404,
            "version-not-found",
        ),
        (inclusion, {"stream": stream, "size": size}, 400, "invalid-parameter"),
        (
            inclusion,
            {"stream": stream, "version": 1, "position": 1, "size": size},
            400,
            "invalid-parameter",
        ),
        (inclusion, {"size": size}, 400, "invalid-parameter"),
        (inclusion, {"position": 1}, 400, "invalid-parameter"),
        (inclusion, {"position": "1e0", "size": size}, 400, "invalid-parameter"),
        (inclusion, {"position": 1, "size": f"{size}.0"}, 400, "invalid-parameter"),
        ("/log/proofs/consistency", {"first": "1e0", "second": size}, 400, "invalid-parameter"),
        ("/log/proofs/consistency", {"first": 2, "second": 1}, 400, "invalid-parameter"),
        ("/log/proofs/consistency", {"first": 0, "second": 1}, 400, "invalid-parameter"),
        ("/log/proofs/consistency", {"first": 1, "second": beyond}, 404, "log-too-short"),
        ("/log/proofs/consistency", {"first": 1}, 400, "invalid-parameter"),
    ]
    for path, params, status, kind in cases:
        assert_problem(await client.get(path, params=params), status, kind)
    # An event the checkpoint does not cover yet: the last one, in a checkpoint before it.
    last = await client.get(inclusion, params={"stream": stream, "version": 1, "size": size})
    assert last.status_code == 200, last.text
    index = last.json()["leaf_index"]
    assert_problem(
        await client.get(inclusion, params={"stream": stream, "version": 1, "size": index}),
        400,
        "invalid-parameter",
    )
