"""Abandonment (docs/rules.md "How a match ends"), what its timer does and a committed invite;
what abandonment does to a match of each table size is in test_abandonment_every_size.py."""

from __future__ import annotations

from domain import Phase
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from tests.lifecycle.table import ABANDON_AFTER, Lifecycle

UNCLOCKED = RuleOptions(game_target=30, match_target=0)


async def abandoned(life: Lifecycle, match_id: str) -> None:
    state = (await life.load(match_id)).state
    assert state.phase is Phase.MATCH_OVER
    assert state.ending is not None
    assert (state.ending.reason, state.ending.seat, state.winner) == ("abandoned", None, None)
    record, _ = await served_record(life.matches, await life.matches.match(match_id))
    assert record.status == "finished"
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()


async def test_a_match_waiting_for_its_invited_player_is_abandoned_too() -> None:
    life = Lifecycle()
    assert life.matches.commitments is not None
    committed = await life.matches.commitments.create()
    created = await life.matches.create_match(
        options=UNCLOCKED, commitment=committed.commitment, invite_seats=[1]
    )
    life.clock.advance(ABANDON_AFTER)
    assert await life.abandonment.abandon_idle() == 1
    await abandoned(life, created.match_id)


async def test_the_timer_sweeps_on_start_and_then_once_a_sweep_is_due() -> None:
    life = Lifecycle()
    idle_while_down = (await life.create(UNCLOCKED)).match_id
    life.clock.advance(ABANDON_AFTER)
    assert await life.timer.sweep_if_due() == 1  # the first sweep: at once, on start
    await abandoned(life, idle_while_down)
    later = (await life.create(UNCLOCKED)).match_id
    life.clock.advance(ABANDON_AFTER)
    sleep = await life.timer.seconds_to_sleep()
    assert sleep == 0.0  # the next sweep is due by now
    assert await life.timer.sweep_if_due() == 1
    await abandoned(life, later)
    assert await life.timer.sweep_if_due() == 0  # not due again until sweep_seconds pass
    assert await life.timer.seconds_to_sleep() == life.abandonment.sweep_seconds
