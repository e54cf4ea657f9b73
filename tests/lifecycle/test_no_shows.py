"""No-shows (docs/rules.md "How a match ends" and "Join deadlines, no-shows, abandonment and
adjudication"), at two, three and four seats: an invited player who has not joined by the join
deadline cancels a casual match and forfeits an operator's; players who join in time play."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import MatchAlreadyEnded
from domain.match_rules import rules_for
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.matches.tokens import secret_hash
from service.matches.use_cases import CreatedMatch
from tests.lifecycle.table import Lifecycle

JOIN = RuleOptions(join_seconds=60)
EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])


async def invited(
    life: Lifecycle,
    options: RuleOptions,
    operator_id: str | None,
    seats: int = 2,
    invite_seats: tuple[int, ...] = (1,),
) -> CreatedMatch:
    assert life.matches.commitments is not None
    committed = await life.matches.commitments.create()
    return await life.matches.create_match(
        options=options,
        players=seats,
        commitment=committed.commitment,
        invite_seats=invite_seats,
        operator_id=operator_id,
    )


def deadline(state: Any, seats: int) -> Any:
    return rules_for(seats).deadline(state)


@pytest.mark.parametrize(
    ("seats", "options", "operator_id", "winner"),
    [
        (2, JOIN, None, None),  # casual: cancelled
        (2, JOIN, "op-1", 0),  # an operator's: the absent seat forfeits
        (2, RuleOptions(join_seconds=60, no_show="cancel"), "op-1", None),
        (3, JOIN, None, None),
        (3, JOIN, "op-1", 0),  # the lower of the other two
        (3, RuleOptions(join_seconds=60, no_show="cancel"), "op-1", None),
        (4, JOIN, None, None),
        (4, JOIN, "op-1", 0),  # the other team
        (4, RuleOptions(join_seconds=60, no_show="cancel"), "op-1", None),
    ],
)
async def test_an_invited_player_who_never_joins_is_a_no_show(
    seats: int, options: RuleOptions, operator_id: str | None, winner: int | None
) -> None:
    life = Lifecycle()
    match_id = (await invited(life, options, operator_id, seats)).match_id
    life.clock.advance(59)
    assert await life.timer.fire_due() == 0
    life.clock.advance(1)
    assert await life.timer.fire_due() == 1
    state = (await life.load(match_id)).state
    assert state.ending is not None
    assert (state.ending.reason, state.ending.seat, state.winner) == ("no_show", 1, winner)
    assert await life.deadlines.pending() == 0
    record, _ = await served_record(life.matches, await life.matches.match(match_id))
    assert record.status == "finished"
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()


@pytest.mark.parametrize(
    ("seats", "invites", "joined", "absent"),
    [
        # Both seats of a two-player match invited: the one that joined is not the no-show,
        # where the deadline once named the first invited seat whoever joined.
        (2, (0, 1), 0, 1),
        (2, (0, 1), 1, 0),
        (3, (1, 2), 1, 2),
        (4, (1, 2), 2, 1),
        (4, (1, 2), 1, 2),
    ],
)
async def test_the_lowest_seat_still_absent_is_the_no_show(
    seats: int, invites: tuple[int, ...], joined: int, absent: int
) -> None:
    life = Lifecycle()
    created = await invited(life, JOIN, "op-1", seats, invite_seats=invites)
    await life.matches.join(created.invite_codes[joined])
    life.clock.advance(60)
    assert await life.timer.fire_due() == 1

    ending = (await life.load(created.match_id)).state.ending
    assert ending is not None
    assert (ending.reason, ending.seat) == ("no_show", absent)
    record, _ = await served_record(life.matches, await life.matches.match(created.match_id))
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()


@EVERY_SIZE
async def test_players_who_join_in_time_clear_the_join_deadline(seats: int) -> None:
    life = Lifecycle()
    created = await invited(life, RuleOptions(join_seconds=60, turn_seconds=10), None, seats)
    assert await life.deadlines.pending() == 1
    life.clock.advance(59)
    assert created.invite_code is not None
    await life.matches.join(created.invite_code)
    clock = deadline((await life.load(created.match_id)).state, seats)
    assert clock is not None
    assert clock.kind == "turn"
    life.clock.advance(5)
    assert await life.timer.fire_due() == 0  # the join deadline is gone, the turn's not due


@pytest.mark.parametrize("seats", [3, 4])
async def test_without_turn_clocks_the_join_deadline_is_cleared_once_all_are_in(
    seats: int,
) -> None:
    life = Lifecycle()
    created = await invited(life, JOIN, "op-1", seats, invite_seats=(1, 2))
    life.clock.advance(30)
    for code in created.invite_codes.values():
        await life.matches.join(code)

    clock = deadline((await life.load(created.match_id)).state, seats)
    assert clock is not None
    assert clock.due_at is None
    assert await life.deadlines.pending() == 0
    life.clock.advance(60)
    assert await life.timer.fire_due() == 0


@EVERY_SIZE
async def test_joining_after_a_no_show_is_refused_and_leaves_the_invite_open(seats: int) -> None:
    life = Lifecycle()
    created = await invited(life, JOIN, None, seats)
    assert created.invite_code is not None
    life.clock.advance(60)
    assert await life.timer.fire_due() == 1
    before = await life.load(created.match_id)
    with pytest.raises(MatchAlreadyEnded):
        await life.matches.join(created.invite_code)
    assert (await life.load(created.match_id)).version == before.version
    registry = life.matches.registry
    assert await registry.invited_match(secret_hash(created.invite_code)) == created.match_id
    record = await registry.get(created.match_id)
    assert record is not None
    assert not record.full
