"""The stream ticket store contract: every adapter passes these, unchanged."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import timedelta

from service.ports.stream_tickets import TICKET_LIFETIME, TicketHolder
from tests.contract.conftest import Tickets


def ticket(name: str) -> bytes:
    return hashlib.sha256(name.encode()).digest()


async def test_a_ticket_names_its_seat_once(tickets: Tickets) -> None:
    store = tickets.store
    await store.add(ticket("a"), TicketHolder(tickets.match_id, 0))
    await store.add(ticket("b"), TicketHolder(tickets.match_id, 1))

    assert await store.redeem(ticket("b")) == TicketHolder(tickets.match_id, 1)
    assert await store.redeem(ticket("a")) == TicketHolder(tickets.match_id, 0)
    assert await store.redeem(ticket("a")) is None


async def test_an_unknown_ticket_names_nobody(tickets: Tickets) -> None:
    await tickets.store.add(ticket("a"), TicketHolder(tickets.match_id, 0))

    assert await tickets.store.redeem(ticket("never issued")) is None


async def test_an_expired_ticket_names_nobody(tickets: Tickets) -> None:
    await tickets.store.add(ticket("old"), TicketHolder(tickets.match_id, 0))
    await tickets.age(TICKET_LIFETIME - timedelta(seconds=5))
    await tickets.store.add(ticket("newer"), TicketHolder(tickets.match_id, 1))
    await tickets.age(timedelta(seconds=10))

    assert await tickets.store.redeem(ticket("old")) is None
    assert await tickets.store.redeem(ticket("newer")) == TicketHolder(tickets.match_id, 1)


async def test_a_ticket_redeemed_twice_at_once_opens_one_stream(tickets: Tickets) -> None:
    await tickets.store.add(ticket("a"), TicketHolder(tickets.match_id, 0))

    found = await asyncio.gather(*(tickets.store.redeem(ticket("a")) for _ in range(5)))

    assert found.count(TicketHolder(tickets.match_id, 0)) == 1
    assert found.count(None) == 4
