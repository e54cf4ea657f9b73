"""A round's start moved, to now, earlier or later, while no clock of it has started: the
round's new ``clocks_start_at`` is kept, and every match not yet over has its clocks stamped
again at it (the first decision's deadline then counts from the new start).

No bank is charged for the move. Brought forward, none can be: the new start is before the
stamp it replaces. Put later, a stamp charges the seat on the clock for whatever of the gap
exceeds ``turn_seconds`` (the rules' ``StampTime``, which the record's verifier decides
again), so a start goes later only as far as that charges nothing: any distance for a round
without a turn clock, whose matches have no clock to stamp again; at most ``turn_seconds``
for one on a clock. Further than that, the round is cancelled and made again."""

from __future__ import annotations

from datetime import datetime, timedelta

from service.errors import InvalidRound, RoundStarted, VersionConflict
from service.matches.use_cases import MatchService
from service.ports import event_store
from service.ports.match_registry import RoundInfo

SECOND = timedelta(seconds=1)


async def move_start(matches: MatchService, found: RoundInfo, at: datetime | None) -> datetime:
    """The round's new start (``at``, or now if None), its matches' clocks stamped again."""
    now = matches.clock()
    start = now if at is None else at
    if found.start_at is None or found.start_at <= now:
        since = "its creation" if found.start_at is None else found.start_at.isoformat()
        raise RoundStarted(f"round {found.round_id} has been under way since {since}")
    if start.tzinfo is None:
        raise InvalidRound("clocks_start_at needs a time zone offset (such as Z)")
    if start < now:
        raise InvalidRound(f"clocks_start_at {start.isoformat()} has passed")
    later = start - found.start_at
    restamps = []
    for match_id in found.match_ids:
        match = await matches.match(match_id, fresh=True)  # this process forgets the old start
        loaded = await matches.load(match)
        rules = matches.rules_for(match)
        if rules.over(loaded.state):
            continue
        turn = timedelta(seconds=loaded.state.options.turn_seconds)
        if later > turn > timedelta(0):
            raise InvalidRound(
                f"a round on a turn clock starts at most turn_seconds ({turn // SECOND} s) "
                f"later than {found.start_at.isoformat()}: further, the wait would be charged to a "
                "bank; cancel the round and create it again"
            )
        if later <= timedelta(0) or turn:  # a round without a turn clock has none to move
            restamps.append((match, loaded, rules))
    await matches.registry.set_round_start(found.round_id, start)
    for match, loaded, rules in restamps:
        events = rules.decide(loaded.state, rules.restamp(loaded.state, start))
        try:
            await matches.streams_for(match).append(
                match.match_id, loaded, events, state=rules.fold(events, loaded.state)
            )
        except event_store.ConcurrencyConflict:
            raise VersionConflict(
                f"match {match.match_id} moved on while its clocks were stamped; send it again"
            ) from None
    return start
