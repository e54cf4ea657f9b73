"""A round's start brought forward, to now or to a time before the one set: the round's new
``clocks_start_at`` is kept, and every match not yet over has its clocks stamped again at it
(the first decision's deadline then counts from the new start; no bank is charged, since the
new start is before the old one). A start can only come earlier: put later, the clocks would
charge the banks for the wait, so a round to start later is cancelled and made again."""

from __future__ import annotations

from datetime import datetime

from service.errors import InvalidRound, RoundStarted, VersionConflict
from service.matches.use_cases import MatchService
from service.ports import event_store
from service.ports.match_registry import RoundInfo


async def bring_forward(matches: MatchService, found: RoundInfo, at: datetime | None) -> datetime:
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
    if start > found.start_at:
        raise InvalidRound(
            f"a start only comes earlier than {found.start_at.isoformat()}: to start later, "
            "cancel the round and create it again"
        )
    await matches.registry.set_round_start(found.round_id, start)
    for match_id in found.match_ids:
        match = await matches.match(match_id, fresh=True)  # this process forgets the old start
        loaded = await matches.load(match)
        rules = matches.rules_for(match)
        if rules.over(loaded.state):
            continue
        events = rules.decide(loaded.state, rules.restamp(loaded.state, start))
        try:
            await matches.streams_for(match).append(
                match_id, loaded, events, state=rules.fold(events, loaded.state)
            )
        except event_store.ConcurrencyConflict:
            raise VersionConflict(
                f"match {match_id} moved on while its clocks were stamped; send it again"
            ) from None
    return start
