"""Reference opponents: the field's published yardsticks, written from their descriptions.

The benchmark (``bench.yardsticks``) measures every level against them. They are not offered
to players: the EAAI player remembers its own moves within a hand, which a server bot may not
(it must pick a match up where it stood after a restart).

- ``eaai``: the EAAI-2021 challenge's simple player (Neller et al.).
- ``openspiel``: OpenSpiel's simple gin rummy bot.
- ``rlcard``: RLCard's novice rule agent.
"""

from __future__ import annotations

import random

from service.bots.policy import Bot
from service.bots.references.eaai_simple import EaaiSimple
from service.bots.references.openspiel_simple import OpenSpielSimple
from service.bots.references.rlcard_novice import RlcardNovice

REFERENCES: tuple[str, ...] = ("eaai", "openspiel", "rlcard")


def reference_for(name: str, rng: random.Random) -> Bot:
    """A fresh reference opponent drawing its random choices from ``rng``."""
    if name == "eaai":
        return EaaiSimple(rng)
    if name == "openspiel":
        return OpenSpielSimple()
    if name == "rlcard":
        return RlcardNovice(rng)
    raise ValueError(f"{name!r} is not a reference opponent: choose one of {REFERENCES}")


__all__ = ["REFERENCES", "reference_for"]
