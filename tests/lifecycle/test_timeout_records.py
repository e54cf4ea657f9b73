"""``gin verify`` on timeouts: a timeout's move must be the documented default move, and the
timeout must come at or after the deadline the record's own clock set."""

from __future__ import annotations

from datetime import datetime, timedelta

from domain import view
from domain.commands import DrawFromStock, PassUpcard, Resign, SeatCommand
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.matches.use_cases import CommandRequest
from tests.audit.tampering import data, document, entries, problem, rehash, set_data, verdict
from tests.lifecycle.table import Lifecycle


async def record_with_a_timed_out_discard() -> GameRecord:
    """Both pass the upcard, the non-dealer draws, then lets its time run out; the dealer
    resigns, so the whole record is served."""
    life = Lifecycle()
    created = await life.create()
    match_id = created.match_id

    async def act(make: type[PassUpcard] | type[DrawFromStock] | type[Resign] | None) -> None:
        state = (await life.load(match_id)).state
        seat = state.turn
        assert seat is not None
        command = view(state, seat).legal_actions[0] if make is None else make(seat=seat)
        assert isinstance(command, SeatCommand)
        seated = await life.matches.authenticate(match_id, created.tokens[seat])
        await life.matches.handle(seated.match, seat, CommandRequest(command=command))

    await act(None)  # the winner of the cut chooses the dealer
    await act(PassUpcard)
    await act(PassUpcard)
    await act(DrawFromStock)
    await life.past_deadline(match_id)
    assert await life.timer.fire_due() == 1
    await act(Resign)
    record, _ = await served_record(life.matches, await life.matches.match(match_id))
    return record


async def test_a_record_with_a_timeout_verifies() -> None:
    result = verdict(document(await record_with_a_timed_out_discard()))
    assert result.ok, result.render()


async def test_a_timeout_recorded_before_its_deadline_is_a_discrepancy() -> None:
    doc = document(await record_with_a_timed_out_discard())
    timed_out = next(e for e in entries(doc) if e["type"] == "timed_out")
    body = data(timed_out)
    early = datetime.fromisoformat(body["due_at"]) - timedelta(milliseconds=1)
    body["at"] = early.isoformat().replace("+00:00", "Z")
    set_data(timed_out, body)
    rehash(doc)
    assert "has until" in problem(doc)


async def test_a_timeout_whose_move_is_not_the_default_is_a_discrepancy() -> None:
    doc = document(await record_with_a_timed_out_discard())
    events = entries(doc)
    index = next(i for i, e in enumerate(events) if e["type"] == "timed_out")
    discarded = events[index + 1]
    assert discarded["type"] == "discarded"
    body = data(discarded)
    dealt = data(next(e for e in events if e["type"] == "dealt"))
    seat = body["seat"]
    drawn = data(events[index - 2])  # the draw: deadline_set follows it
    held = [*dealt["hands"][seat], drawn.get("card")]
    body["card"] = next(card for card in held if card and card != body["card"])
    set_data(discarded, body)
    rehash(doc)
    assert "Discarded says card" in problem(doc)
