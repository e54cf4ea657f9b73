"""Settling disputes: a match's game record, a hand's history and the state after any event
of a finished hand. No token needed: a record holds only what everybody may know."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, MediaType, get
from litestar.datastructures import State
from litestar.params import PathParameter, QueryParameter

from service.audit.game_record import GameRecord
from service.audit.replay import FormatReplayState, ReplayState
from web.checkpoints import provide_notary
from web.docs import problems
from web.params import Matches, MatchId, Plays
from web.players import AccountsDependency
from web.schemas import MAX_VERSION

HandNumber = Annotated[
    int, PathParameter(name="hand", ge=1, description="The hand's number in the match, from 1")
]
At = Annotated[
    int, QueryParameter(name="at", ge=1, le=MAX_VERSION, description="An event's version")
]


class RecordsController(Controller):
    path = "/matches/{match_id:uuid}"
    tags = ("audit",)

    @get("/record", summary="The match's game record", responses=problems(400, 404))
    async def record(
        self,
        match_id: MatchId,
        matches: Matches,
        plays: Plays,
        accounts: AccountsDependency,
        state: State,
    ) -> GameRecord:
        """Options, seats, seed commitments and revealed seeds, and every event of the setup
        and of each finished hand with its hash chain: ``gin verify`` checks it offline. The
        hand being played is left out (in a three- or four-player match, the round being
        played, at every table). ``checkpoints``: both streams' ends, signed. A seat a player
        account holds shows the player's ``display_name``."""
        registered = await matches.match(str(match_id))
        record, _ = await plays.record(registered)
        signed = provide_notary(state).record_checkpoints(record)
        names = await accounts.players.names(record.match_id)
        seats = [
            msgspec.structs.replace(seat, display_name=names.get(seat.seat))
            for seat in record.seats
        ]
        return msgspec.structs.replace(record, checkpoints=signed, seats=seats)

    @get(
        "/hands/{hand:int}/history",
        summary="A finished hand's history, in plain text",
        media_type=MediaType.TEXT,
        responses=problems(400, 404),
    )
    async def history(
        self, match_id: MatchId, hand: HandNumber, matches: Matches, plays: Plays
    ) -> str:
        """One line per action, the final arrangement and the score; hands are numbered
        through the match (in a three- or four-player match, at every table in the order
        dealt; the history names the round, the table and its seats, and speaks in table
        seats)."""
        registered = await matches.match(str(match_id))
        return await plays.hand_history(registered, hand)

    @get("/replay", summary="The complete state after an event", responses=problems(400, 404, 409))
    async def replay(
        self, match_id: MatchId, at: At, matches: Matches, plays: Plays
    ) -> ReplayState | FormatReplayState:
        """Both hands, the stock and everything else right after event ``at``, which must be
        in the setup or a finished hand (409 for the hand being played). A three- or
        four-player match answers with every table's hand, and refuses the round being
        played."""
        registered = await matches.match(str(match_id))
        return await plays.replay(registered, at)
