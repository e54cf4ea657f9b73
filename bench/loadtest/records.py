"""Every finished match's game record, fetched over HTTP and checked by the offline verifier
(``service.audit.verify``, as ``gin verify`` runs it): a record is clean when every check holds and
it holds the whole match, nothing left out."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from bench.loadtest.players import Client
from service.audit.game_record import decode_record
from service.audit.verify import verify_record

RECORD = "record"


async def check_records(client: Client, match_ids: Sequence[str]) -> dict[str, str]:
    """What is wrong with each record that is not clean, by match id."""
    problems = {}
    for match_id in match_ids:
        response = await client.request(RECORD, "GET", f"/matches/{match_id}/record")
        if response is None:
            problems[match_id] = "could not be fetched"
            continue
        problem = record_problem(response.content)
        if problem is not None:
            problems[match_id] = problem
    return problems


def record_problem(document: bytes) -> str | None:
    try:
        record = decode_record(document)
    except msgspec.DecodeError as error:
        return f"not a game record: {error}"
    if record.status != "finished" or record.events_left_out:
        return f"incomplete: status {record.status}, {record.events_left_out} event(s) left out"
    verdict = verify_record(record)
    return None if verdict.ok else verdict.problem or "the verifier found a discrepancy"
