"""An operator gives a seat of its match a new token: for a player whose token was lost (a
create answer that never arrived, past its Idempotency-Key's window) or leaked. The old token
is refused from the next request on, in every server process (a request made with an operator's
match reads its seats fresh); the new one is shown once, and only its hash is kept. Each
reissue is logged (operator, match, seat; never a token)."""

from __future__ import annotations

import logging

from service.errors import InvalidParameter, NotYourMatch
from service.matches import tokens
from service.matches.use_cases import MatchService

_log = logging.getLogger("gin.operators")


async def reissue_seat_token(
    matches: MatchService, match_id: str, operator_id: str, seat: int
) -> str:
    """The seat's new token; refused unless ``operator_id`` created the match and the seat is
    a person's that already has a token (a bot has none; an open invite is taken by its
    code)."""
    match = await matches.match(match_id, fresh=True)
    if match.operator_id != operator_id:
        raise NotYourMatch("only the operator that created a match may reissue its seat tokens")
    if seat not in range(len(match.seats)):
        raise InvalidParameter(f"seat: this match has seats 0 to {len(match.seats) - 1}")
    held = match.seats[seat]
    if held.bot is not None:
        raise InvalidParameter(f"seat {seat} is played by a bot, which has no token")
    if held.token_hash is None:
        raise InvalidParameter(f"seat {seat} has no token yet: its invite is still open")
    token = tokens.new_token()
    await matches.registry.replace_seat_tokens(match_id, {seat: tokens.secret_hash(token)})
    await matches.match(match_id, fresh=True)  # this process's cache forgets the old hash
    _log.info(
        "seat token reissued",
        extra={"operator_id": operator_id, "match_id": match_id, "seat": seat},
    )
    return token
