"""No-shows (docs/rules.md "How a match ends"): an invited player who has not joined by the
join deadline cancels a casual match and forfeits an operator's; one who joins in time plays."""

from __future__ import annotations

import pytest

from domain.errors import MatchAlreadyEnded
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.matches.tokens import secret_hash
from service.matches.use_cases import CreatedMatch
from tests.lifecycle.table import Lifecycle

JOIN = RuleOptions(join_seconds=60)


async def invited(life: Lifecycle, options: RuleOptions, operator_id: str | None) -> CreatedMatch:
    assert life.matches.commitments is not None
    committed = await life.matches.commitments.create()
    return await life.matches.create_match(
        options=options, commitment=committed.commitment, invite_seats=[1], operator_id=operator_id
    )


@pytest.mark.parametrize(
    ("options", "operator_id", "winner"),
    [
        (JOIN, None, None),  # casual: cancelled
        (JOIN, "op-1", 0),  # an operator's: the absent seat forfeits
        (RuleOptions(join_seconds=60, no_show="cancel"), "op-1", None),
    ],
)
async def test_an_invited_player_who_never_joins_is_a_no_show(
    options: RuleOptions, operator_id: str | None, winner: int | None
) -> None:
    life = Lifecycle()
    match_id = (await invited(life, options, operator_id)).match_id
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


async def test_a_player_who_joins_in_time_clears_the_join_deadline() -> None:
    life = Lifecycle()
    created = await invited(life, RuleOptions(join_seconds=60, turn_seconds=10), None)
    assert await life.deadlines.pending() == 1
    life.clock.advance(59)
    assert created.invite_code is not None
    await life.matches.join(created.invite_code)
    clock = (await life.load(created.match_id)).state.clock
    assert clock is not None
    assert clock.kind == "turn"
    life.clock.advance(5)
    assert await life.timer.fire_due() == 0  # the join deadline is gone, the turn's not due


async def test_joining_after_a_no_show_is_refused_and_leaves_the_invite_open() -> None:
    life = Lifecycle()
    created = await invited(life, JOIN, None)
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
