"""200 clocked matches in which seats go quiet at random, some for good, some for a turn or two,
and now and then one resigns: every match ends, with a reason the rules name, and the record
of every match verifies, timeouts and their default moves included. After every timeout, no
seat's view or events name a card it may not know (in the first 40 matches: the look re-reads
the whole match each time)."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain import view
from domain.commands import Resign, SeatCommand
from domain.options import RuleOptions
from domain.views import ending_view
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.bots.simple import SimpleBot
from service.matches.use_cases import CommandRequest
from service.store.match_streams import stream_id
from tests.api.knowledge import TableKnowledge, event_leaks, view_leaks
from tests.lifecycle.table import Lifecycle

MATCHES = 200
LEAK_CHECKED = 40  # matches whose every timeout is followed by a look for leaks
MOVES_AT_MOST = 3000
REASONS = {"played_out", "resigned", "forfeited_on_time"}


async def check_no_leaks(life: Lifecycle, match_id: str) -> None:
    """After a timeout: each seat's view and event list name no card it may not know."""
    loaded = await life.load(match_id)
    stored = await life.store.read_stream(stream_id(match_id))
    knowledge = TableKnowledge([(r.version, msgspec.json.decode(r.data)) for r in stored])
    for seat in (0, 1):
        seen = msgspec.to_builtins(view(loaded.state, seat))
        assert not view_leaks(knowledge, seat, loaded.version, seen), seen
        for version, event in await life.matches.events(match_id, seat, after_version=0):
            body = msgspec.to_builtins(event)
            assert not event_leaks(knowledge, seat, loaded.version, version, body), body


async def play_with_silences(life: Lifecycle, rng: random.Random, *, check_leaks: bool) -> str:
    """One match to its end; its ending reason."""
    options = RuleOptions(
        turn_seconds=rng.choice([1, 5, 30]),
        bank_seconds=rng.choice([0, 10, 60]),
        timeouts_to_forfeit=rng.randint(1, 4),
        game_target=rng.choice([10, 30]),
        match_target=0,
    )
    created = await life.create(options)
    match_id = created.match_id
    quiet = rng.random() * 0.4  # how often a seat misses a decision
    gone = {seat: rng.randint(5, 200) if rng.random() < 0.3 else None for seat in (0, 1)}
    bot = SimpleBot()
    for move in range(MOVES_AT_MOST):
        loaded = await life.load(match_id)
        state = loaded.state
        seat = state.turn
        if seat is None:
            break
        left = gone[seat] is not None and move >= gone[seat]  # type: ignore[operator]
        if left or rng.random() < quiet:
            await life.past_deadline(match_id)
            life.clock.advance(rng.random())
            await life.timer.fire_due()
            if check_leaks:
                await check_no_leaks(life, match_id)
            continue
        assert state.clock is not None
        assert state.clock.due_at is not None
        # A decision somewhere within the seat's time: some eat into the bank.
        span = (state.clock.due_at - life.clock.now).total_seconds()
        life.clock.advance(span * rng.random())
        command = Resign(seat=seat) if rng.random() < 0.002 else bot.choose(view(state, seat))
        assert isinstance(command, SeatCommand)
        seated = await life.matches.authenticate(match_id, created.tokens[seat])
        await life.matches.handle(seated.match, seat, CommandRequest(command=command))
    final = (await life.load(match_id)).state
    ending = ending_view(final)
    assert ending is not None, f"match {match_id} did not end"
    record, _ = await served_record(life.matches, await life.matches.match(match_id))
    assert record.status == "finished"
    assert record.events_left_out == 0
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()
    return ending.reason


@pytest.mark.slow
async def test_every_match_with_silent_seats_ends_for_a_named_reason_and_verifies() -> None:
    seeds = random.Random(20261130)
    reasons: dict[str, int] = {}
    for number in range(MATCHES):
        rng = random.Random(seeds.random())
        reason = await play_with_silences(Lifecycle(rng), rng, check_leaks=number < LEAK_CHECKED)
        reasons[reason] = reasons.get(reason, 0) + 1
    assert set(reasons) <= REASONS
    # The run is only worth something if it met every way of ending.
    assert set(reasons) == REASONS, reasons
