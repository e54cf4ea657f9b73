"""What the feed needs to know of a match besides its events: who created it, under which
external ref and in which round. None of it ever changes once the match is registered, so each
is read from the registry once and remembered (the most recently used ``kept`` matches): a page
of one match, asked again and again by a tournament system following it, then costs no read of
the registry at all. A ref that names no match yet is not remembered, since a match may be
made under it a moment later."""

from __future__ import annotations

from collections.abc import Collection

from cachetools import LRUCache

from service.ports.match_registry import MatchRegistry, Owner

KEPT = 100_000


class KnownMatches:
    def __init__(self, registry: MatchRegistry, kept: int = KEPT) -> None:
        self._registry = registry
        self._owners: LRUCache[str, Owner] = LRUCache(kept)  # by match id
        self._refs: LRUCache[tuple[str, str], str] = LRUCache(kept)  # match id by ref

    async def owners(self, match_ids: Collection[str]) -> dict[str, Owner]:
        """The owner of each of ``match_ids`` that is registered (unknown ids are left out)."""
        unknown = [m for m in match_ids if m not in self._owners]
        if unknown:
            self._owners.update(await self._registry.owners(unknown))
        found: dict[str, Owner] = {}
        for match_id in match_ids:
            if match_id in self._owners:
                found[match_id] = self._owners[match_id]
        return found

    async def by_ref(self, operator_id: str, external_ref: str) -> str | None:
        """The id of the operator's match made under ``external_ref``, if there is one."""
        ref = (operator_id, external_ref)
        match_id = self._refs.get(ref)
        if match_id is not None:
            return match_id
        found = await self._registry.by_external_ref(operator_id, external_ref)
        if found is None:
            return None
        self._refs[ref] = found.match_id
        return found.match_id
