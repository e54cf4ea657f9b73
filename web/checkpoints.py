"""Signed checkpoints for anyone to keep, and the public key that checks them and receipts.

``GET /matches/{id}/checkpoint`` signs the match stream's hash at the end of its game record
(a hand boundary: the hand being played is not covered, so no hash of it leaks), and
``GET /log/checkpoint`` signs the tree head of the whole global log, and
``GET /checkpoints/key`` gives the verifier key for ``gin verify``/``gin audit --public-key``.
Formats and reasons: ``service.audit.checkpoints`` and docs/audit.md.
"""

from __future__ import annotations

from typing import cast

from litestar import Controller, MediaType, get
from litestar.datastructures import State

from service.audit.log_checkpoints import LogNotary
from service.audit.notary import Notary
from web.docs import problems
from web.params import Matches, MatchId, Plays


def provide_notary(state: State) -> Notary:
    return cast(Notary, state.notary)


class CheckpointsController(Controller):
    tags = ("audit",)

    @get(
        "/matches/{match_id:uuid}/checkpoint",
        summary="The match's latest signed checkpoint",
        media_type=MediaType.TEXT,
        responses=problems(400, 404),
    )
    async def checkpoint(
        self, match_id: MatchId, matches: Matches, plays: Plays, state: State
    ) -> str:
        """A signed note (C2SP tlog-checkpoint layout): ``gin-rummy/match-<id>``, the version
        the match's game record ends at, and the base64 hash of that event. Keep it: a later
        rewrite of anything up to that version no longer matches it (at every table size: a
        three- or four-player match's stream is ``format-match-<id>``)."""
        registered = await matches.match(str(match_id))
        record, _ = await plays.record(registered)
        return provide_notary(state).record_checkpoints(record)[0]

    @get(
        "/log/checkpoint",
        summary="A signed checkpoint of the whole global log",
        media_type=MediaType.TEXT,
        responses=problems(400),
    )
    async def log_checkpoint(self, state: State) -> str:
        """A signed note: ``gin-rummy-log``, the number of events in the global log, and the
        base64 RFC 9162 tree head over them (match events blinded, so it gives no card away).
        Fetch it on a schedule and keep it away from the database: ``gin audit
        --log-checkpoint`` finds any later rewrite of the events it covers."""
        return await cast(LogNotary, state.log_notary).checkpoint()

    @get(
        "/checkpoints/key",
        summary="The verifier key of checkpoints and receipts",
        media_type=MediaType.TEXT,
        responses=problems(400),
    )
    async def key(self, state: State) -> str:
        """``<name>+<key hash>+<base64 key>`` (a C2SP signed-note verifier key, Ed25519)."""
        return provide_notary(state).verifier_key() + "\n"
