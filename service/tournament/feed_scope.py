"""Who may read which part of the feed: an operator reads its own matches, and every match only
with a key that holds ``feed:all``. A filter naming another operator's match is refused rather
than answered with empty pages, so a mistake shows."""

from __future__ import annotations

from collections.abc import Collection
from typing import get_args

from domain import Event
from domain.tables import FormatEvent
from service.errors import InvalidParameter, MatchNotFound, NotYourMatch
from service.ports.operator_keys import Operator
from service.tournament.feed import FeedScope
from service.tournament.known_matches import KnownMatches

EVENT_TYPES = frozenset(
    str(kind.__struct_config__.tag) for kind in {*get_args(Event), *get_args(FormatEvent)}
)


async def feed_scope(
    operator: Operator,
    known: KnownMatches,
    *,
    match_id: str | None = None,
    external_ref: str | None = None,
    types: Collection[str] = (),
) -> FeedScope:
    every_match = "feed:all" in operator.scopes
    unknown = sorted(set(types) - EVENT_TYPES)
    if unknown:
        raise InvalidParameter(f"type: no event has the type {', '.join(unknown)}")
    if external_ref is not None:
        found = await known.by_ref(operator.operator_id, external_ref)
        if found is None:
            raise MatchNotFound(f"you have no match with the external ref {external_ref!r}")
        if match_id is not None and match_id != found:
            raise InvalidParameter("match_id and external_ref name different matches")
        match_id = found
    elif match_id is not None:
        owner = (await known.owners([match_id])).get(match_id)
        if owner is None:
            raise MatchNotFound(f"there is no match {match_id}")
        if not every_match and owner.operator_id != operator.operator_id:
            raise NotYourMatch("this key reads only its operator's matches (or needs feed:all)")
    return FeedScope(
        operator_id=None if every_match else operator.operator_id,
        match_id=match_id,
        types=frozenset(types),
    )
