"""Operators end their own matches: forfeit a seat, award the match to one, or void it, for a
reason kept in the ``match_ended`` event. Decided and appended like any command, at every
table size."""

from __future__ import annotations

from typing import Any

from domain.commands import Adjudicate, Verdict
from service.errors import NotYourMatch, VersionConflict
from service.matches.use_cases import MatchService
from service.ports import event_store
from service.store.match_streams import Loaded


async def adjudicate(
    matches: MatchService,
    match_id: str,
    operator_id: str,
    *,
    verdict: Verdict,
    seat: int | None,
    reason: str,
) -> Loaded[Any]:
    """The match after the operator's verdict; refused unless ``operator_id`` created it."""
    match = await matches.match(match_id)
    if match.operator_id != operator_id:
        raise NotYourMatch("only the operator that created a match may adjudicate it")
    command = Adjudicate(verdict=verdict, seat=seat, reason=reason)
    loaded = await matches.load(match)
    events = matches.rules_for(match).decide(loaded.state, command)
    try:
        return await matches.append_decided(match, loaded, events, now=matches.clock())
    except event_store.ConcurrencyConflict as conflict:
        raise VersionConflict(
            f"the match moved on to version {conflict.current} while this was handled; "
            "nothing was applied"
        ) from None
