"""A receiver of the feed, an events page and a webhook, against the Python client
``openapi-python-client`` generates (type-checked with ``mypy --strict`` and run by
tests/api/test_generated_clients_type_check.py): it parses bodies holding an event of a type
the document does not list, as a server of a later release within version 1 may send, and
prints the class each event was parsed into, one line per body."""

from __future__ import annotations

import json
import sys

from gin_client.models import EventFeed, FeedPage, OtherEvent, Payload


def described(event: object) -> str:
    if isinstance(event, OtherEvent):
        return f"OtherEvent:{event['type']}"  # a newer type: skipped, or read by name
    return type(event).__name__


def main(path: str) -> None:
    with open(path) as file:
        bodies = json.load(file)
    page = FeedPage.from_dict(bodies["feed"])
    print(" ".join(described(entry.data) for entry in page.entries))
    events = EventFeed.from_dict(bodies["events"])
    print(" ".join(described(envelope.event) for envelope in events.events))
    payloads = [Payload.from_dict(body) for body in bodies["webhooks"]]
    print(" ".join(described(payload.event) for payload in payloads))


if __name__ == "__main__":
    main(sys.argv[1])
