"""From the global event log to deliveries, driven by a cursor the dispatch port keeps.

One pass takes the dispatcher's turn (while one process dispatches, the others skip theirs),
reads the next page of the log, adds a delivery for every end of an operator's match and every
subscription of that operator that wants it, and moves the cursor, all in that one turn. A
crash anywhere leaves the cursor where it was and the page is dispatched again; the port keeps
one delivery per subscription and event position, so the second time adds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.ports.event_store import EventStore, StoredEvent
from service.ports.webhook_dispatch import DispatchTurn, NewDelivery, WebhookDispatch
from service.store.match_streams import kind_of as stream_kind_of
from service.store.match_streams import match_id_of
from service.tournament.webhooks.payloads import KIND_OF_TYPE, Ending, kind_of, payload_body


class Dispatcher:
    def __init__(
        self, store: EventStore, dispatch: WebhookDispatch, *, page_size: int = 500
    ) -> None:
        self._store = store
        self._dispatch = dispatch
        self.page_size = page_size

    async def dispatch_once(self) -> int:
        """Dispatch the next page of the log; how many events it passed (0: nothing to do, or
        another process is dispatching)."""
        async with self._dispatch.turn() as turn:
            if turn is None:
                return 0
            page = await self._store.read_all(after_position=turn.cursor, limit=self.page_size)
            if not page:
                return 0
            await turn.add_deliveries(await _deliveries(turn, page))
            await turn.move_cursor(page[-1].position)
        return len(page)


async def _deliveries(turn: DispatchTurn, page: Sequence[StoredEvent]) -> list[NewDelivery]:
    ends = []
    for record in page:
        stream = stream_kind_of(record.stream_id)
        match_id = match_id_of(record.stream_id)
        if record.type in KIND_OF_TYPE and stream is not None and match_id is not None:
            # Decoded before asking who listens: a table's event is news only as a hand end.
            event = stream.codec.from_record(record)
            if (kind := kind_of(event)) is not None:
                ends.append((match_id, record, event, kind))
    if not ends:
        return []
    matches = await turn.operator_matches({match_id for match_id, *_ in ends})
    if not matches:
        return []
    subscriptions = await turn.live_subscriptions({m.operator_id for m in matches.values()})
    deliveries = []
    for match_id, record, event, kind in ends:
        match = matches.get(match_id)
        if match is None:
            continue
        wanted = [
            s.webhook_id
            for s in subscriptions
            if s.operator_id == match.operator_id and kind in s.events
        ]
        if not wanted:
            continue
        assert isinstance(event, Ending)
        body = payload_body(
            match_id=match_id,
            external_ref=match.external_ref,
            external_player_ids=match.external_player_ids,
            round_id=match.round_id,
            version=record.version,
            position=record.position,
            event=event,
        )
        deliveries += [
            NewDelivery(
                webhook_id=webhook_id,
                match_id=match_id,
                event_position=record.position,
                event_version=record.version,
                kind=kind,
                payload=body,
            )
            for webhook_id in wanted
        ]
    return deliveries
