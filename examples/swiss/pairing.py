"""Swiss pairing, as tournament software does it: players with equal points meet, nobody meets
the same opponent twice if it can be helped. Only the standard library: this is the
integrator's code, not the service's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class Standing:
    player: str
    points: float = 0.0
    opponents: list[str] = field(default_factory=list)

    def buchholz(self, table: dict[str, Standing]) -> float:
        """The sum of the opponents' points: the usual Swiss tie-break."""
        return sum(table[opponent].points for opponent in self.opponents)


def pair(standings: Sequence[Standing]) -> list[tuple[str, str]]:
    """Pairs for the next round: top down by points, each with the best-placed player it has
    not met yet (or, failing that, the next one)."""
    waiting = sorted(standings, key=lambda s: (-s.points, s.player))
    pairs: list[tuple[str, str]] = []
    while waiting:
        first = waiting.pop(0)
        fresh = [s for s in waiting if s.player not in first.opponents]
        second = (fresh or waiting)[0]
        waiting.remove(second)
        pairs.append((first.player, second.player))
    return pairs


def ranking(table: dict[str, Standing]) -> list[Standing]:
    return sorted(table.values(), key=lambda s: (-s.points, -s.buchholz(table), s.player))
