"""Abandonment (docs/rules.md "How a match ends"): a match nobody moves in for the service's
limit ends as abandoned with no winner, whether it is being played or still waiting for its
invited player; a move in time keeps it going, and a match that ended is left alone."""

from __future__ import annotations

from domain import Phase
from domain.events import MatchEnded
from domain.options import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.ports.idle_matches import IdleMatch
from service.store.match_streams import stream_id
from tests.lifecycle.table import ABANDON_AFTER, Lifecycle
from tests.lifecycle.test_clocks_and_endings import play

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


async def test_a_match_nobody_moves_in_for_the_limit_is_abandoned_with_no_winner() -> None:
    life = Lifecycle()
    match_id = (await life.create(UNCLOCKED)).match_id
    life.clock.advance(ABANDON_AFTER - 1)
    assert await life.abandonment.abandon_idle() == 0
    life.clock.advance(1)
    assert await life.abandonment.abandon_idle() == 1
    await abandoned(life, match_id)
    life.clock.advance(ABANDON_AFTER * 2)
    assert await life.abandonment.abandon_idle() == 0  # an ended match is never idle


async def test_a_move_restarts_the_time_to_abandonment() -> None:
    life = Lifecycle()
    created = await life.create(UNCLOCKED)
    life.clock.advance(ABANDON_AFTER - 1)
    chooser = (await life.load(created.match_id)).state.turn
    assert chooser is not None
    await play(life, created.match_id, created.tokens, chooser, "choose")
    life.clock.advance(ABANDON_AFTER - 1)
    assert await life.abandonment.abandon_idle() == 0
    assert (await life.load(created.match_id)).state.ending is None
    life.clock.advance(1)
    assert await life.abandonment.abandon_idle() == 1
    await abandoned(life, created.match_id)


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


async def test_a_move_after_the_match_was_found_idle_wins_over_the_abandonment() -> None:
    life = Lifecycle()
    created = await life.create(UNCLOCKED)
    life.clock.advance(ABANDON_AFTER)
    before = await life.load(created.match_id)
    chooser = before.state.turn
    assert chooser is not None
    # Found idle at this version, then a move lands before the abandonment is appended.
    await play(life, created.match_id, created.tokens, chooser, "choose")
    found = IdleMatch(stream_id(created.match_id), before.version)
    assert await life.abandonment.abandon(found, life.clock.now) is None
    state = (await life.load(created.match_id)).state
    assert state.ending is None
    assert state.phase is not Phase.MATCH_OVER


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


async def test_the_abandonment_is_recorded_as_a_match_ended_event() -> None:
    life = Lifecycle()
    match_id = (await life.create(UNCLOCKED)).match_id
    life.clock.advance(ABANDON_AFTER)
    await life.abandonment.abandon_idle()
    events = await life.matches.events(match_id, None, after_version=0)
    endings = [event for _, event in events if isinstance(event, MatchEnded)]
    assert [(e.reason, e.seat, e.winner, e.note) for e in endings] == [
        ("abandoned", None, None, None)
    ]
