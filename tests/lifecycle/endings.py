"""Matches ended every way other than by play, on the real use cases: a resignation, a forfeit
on time, an operator's adjudication (award, forfeit, void) and an abandonment."""

from __future__ import annotations

from domain.commands import Adjudicate, Resign
from domain.endings import VERDICT_OF
from service.matches.use_cases import CommandRequest
from tests.lifecycle.table import ABANDON_AFTER, Lifecycle

ENDINGS = ("resigned", "forfeited_on_time", "awarded", "forfeited", "voided", "abandoned")


async def ended_mid_hand(life: Lifecycle, how: str, seats: int = 2) -> str:
    """A clocked match of ``seats`` whose first hand (round) is dealt, ended ``how``; its id."""
    created = await life.started(seats)
    match_id, tokens = created.match_id, created.tokens
    loaded = await life.load(match_id)
    match = await life.matches.match(match_id)
    if how == "resigned":
        seated = await life.matches.authenticate(match_id, tokens[0])
        await life.matches.handle(seated.match, 0, CommandRequest(command=Resign(seat=0)))
    elif how == "forfeited_on_time":
        while (await life.load(match_id)).state.ending is None:
            await life.past_deadline(match_id)
            assert await life.timer.fire_due() == 1
    elif how == "abandoned":
        life.clock.advance(ABANDON_AFTER)
        assert await life.abandonment.abandon_idle() == 1
    else:
        verdict = VERDICT_OF[how]
        seat = None if verdict == "void" else 0
        command = Adjudicate(verdict=verdict, seat=seat, reason="table 4 closed")
        events = life.matches.rules_for(match).decide(loaded.state, command)
        await life.matches.append_decided(match, loaded, events, now=life.clock.now)
    return match_id
