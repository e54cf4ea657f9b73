"""Timeouts: the default move of a seat whose deadline has passed, and appending what was
decided outside a seat's command."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.commands import NoShow, TimeOut
from service.fairness.log import touches_fairness
from service.matches.service_base import MatchServiceBase
from service.matches.system_steps import system_steps
from service.ports import event_store
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded


class TimingOut(MatchServiceBase):
    async def time_out(self, match_id: str) -> Loaded[Any] | None:
        """The timeout of the seat whose deadline is the match's next, with its default move
        (or its forfeit), if that deadline has passed; None when nothing is due (a bot's seat
        never times out) or another command got there first. Appended at the loaded version,
        like any command."""
        match = await self.match(match_id)
        rules = self.rules_for(match)
        loaded = await self.streams_for(match).load(match_id)
        clock, now = rules.deadline(loaded.state), self.clock()
        if clock is None or clock.due_at is None or now < clock.due_at:
            return None
        if clock.kind == "join":
            # Read afresh, not from the cache: the player may have joined a moment ago.
            match = await self.registry.get(match_id) or match
            absent = match.empty_seats
            if not absent:
                return None
            forfeit = match.operator_id is not None and loaded.state.options.no_show == "forfeit"
            # A deadline naming no seat is every invited seat's: the lowest absent one is the
            # no-show.
            seat = absent[0] if clock.seat is None else clock.seat
            command: NoShow | TimeOut = NoShow(seat=seat, at=now, forfeit=forfeit)
        elif clock.seat is None or match.seats[clock.seat].bot is not None:
            return None
        else:
            command = TimeOut(seat=clock.seat, at=now)
        events = rules.decide(loaded.state, command)
        try:
            return await self.append_decided(match, loaded, events, now=now)
        except event_store.ConcurrencyConflict:
            return None

    async def append_decided(
        self, match: RegisteredMatch, loaded: Loaded[Any], events: list[Any], *, now: datetime
    ) -> Loaded[Any]:
        """Append ``events``, decided on ``loaded`` at ``now``, with the system steps they
        make due, at the loaded version (``ConcurrencyConflict`` if the match moved on)."""
        rules = self.rules_for(match)
        steps, state = system_steps(
            rules.fold(events, loaded.state), match, links=self.fairness.links, now=now, made=events
        )
        streams = self.streams_for(match)
        after, _ = await streams.append(match.match_id, loaded, [*events, *steps], state=state)
        if touches_fairness([*events, *steps]):
            await self.fairness.sync(match, after.state)
        return after
