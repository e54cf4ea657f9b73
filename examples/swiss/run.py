"""A Swiss event on the Gin Rummy service, end to end, through its public HTTP API only.

    python -m examples.swiss.run --url http://127.0.0.1:8000 --key gop_...

The key needs the scopes matches:create, matches:read and webhooks:manage, and the server must
let webhooks reach this machine (GIN_WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8): the receiver
listens on 127.0.0.1. Each round is paired here, created as one batch (retried safely with an
Idempotency-Key), played by both seats of every match with random legal moves, and scored from
the round's results once every match's end has arrived as a verified webhook. Standings are
printed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import uuid
from typing import Any

import httpx

from examples.swiss.pairing import Standing, pair, ranking
from examples.swiss.receiver import Inbox, receiving

# One game to a few points: a round of random play ends in seconds.
OPTIONS = {"game_target": 10, "match_target": 0}
WEBHOOK_WAIT_SECONDS = 30.0


async def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    rng = random.Random(args.seed)
    players = [f"player-{n:02d}" for n in range(1, args.players + 1)]
    table = {p: Standing(p) for p in players}
    event = args.event or f"swiss-{uuid.uuid4().hex[:8]}"
    inbox = Inbox()
    operator = {"Authorization": f"Bearer {args.key}"}
    async with httpx.AsyncClient(base_url=args.url, headers=operator, timeout=30) as api:
        with receiving(inbox) as hook_url:
            webhook = await _ok(api.post("/webhooks", json={"url": hook_url}), status=201)
            inbox.secret = webhook["secret"]
            for number in range(1, args.rounds + 1):
                await _round(api, inbox, table, event, number, rng)
            await _ok(api.delete(f"/webhooks/{webhook['webhook_id']}"), status=204)
    print(
        f"\nFinal standings of {event} ({len(inbox.verified)} webhooks verified, "
        f"{inbox.refused} refused)"
    )
    for place, standing in enumerate(ranking(table), 1):
        print(
            f"{place:>3}. {standing.player}  {standing.points:g} pts  "
            f"Buchholz {standing.buchholz(table):g}"
        )
    return 0 if inbox.refused == 0 else 1


async def _round(
    api: httpx.AsyncClient,
    inbox: Inbox,
    table: dict[str, Standing],
    event: str,
    number: int,
    rng: random.Random,
) -> None:
    pairs = pair(list(table.values()))
    body = {
        "options": OPTIONS,
        "matches": [
            {"external_ref": f"{event}-r{number}-m{n}", "external_player_ids": list(pairing)}
            for n, pairing in enumerate(pairs, 1)
        ],
    }
    # The key names this round for good: sent again after a lost answer, it creates nothing new.
    created = await _ok(
        api.post("/rounds", json=body, headers={"Idempotency-Key": f"{event}-round-{number}"}),
        status=201,
    )
    await asyncio.gather(*(_play(api, match, rng) for match in created["matches"]))
    match_ids = {m["match_id"] for m in created["matches"]}
    ended = await asyncio.to_thread(inbox.wait_for_ends, match_ids, WEBHOOK_WAIT_SECONDS)
    if ended != match_ids:
        raise SystemExit(f"round {number}: {len(match_ids - ended)} match ends never arrived")
    results = await _ok(api.get(f"/rounds/{created['round_id']}"))
    print(f"Round {number}")
    for result in results["matches"]:
        first, second = (p["external_player_id"] for p in result["players"])
        winner = result["winner_external_player_id"]
        table[first].opponents.append(second)
        table[second].opponents.append(first)
        table[winner].points += 1
        print(f"  {result['external_ref']}: {first} vs {second}, {winner} wins")


async def _play(api: httpx.AsyncClient, match: dict[str, Any], rng: random.Random) -> None:
    """Both seats, each from its own view, with random legal moves until the match is over."""
    seats = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in match["seats"]}
    path = f"/matches/{match['match_id']}"
    view = await _ok(api.get(f"{path}/view", headers=seats[0]))
    while view["phase"] != "match_over":
        seat = view["turn"]
        if seat != view["seat"]:
            view = await _ok(api.get(f"{path}/view", headers=seats[seat]))
        command = choose(view["legal_actions"], view["hand"], rng)
        # The answer to a command is the seat's view after it.
        view = await _ok(api.post(f"{path}/commands", json=command, headers=seats[seat]))


def choose(actions: list[dict[str, Any]], hand: list[str], rng: random.Random) -> dict[str, Any]:
    """A random legal move, leaning to end hands soon: go out when allowed, and mostly discard
    a high card that pairs with nothing (otherwise random play rarely gets to knock)."""
    going_out = [a for a in actions if a["type"] in ("knock", "big_gin")]
    if going_out:
        return rng.choice(going_out)
    discards = [a for a in actions if a["type"] == "discard"]
    if discards and rng.random() < 0.9:
        ranks = [card[0] for card in hand]
        return max(discards, key=lambda a: (ranks.count(a["card"][0]) == 1, _points(a["card"])))
    return rng.choice(actions)


def _points(card: str) -> int:
    return {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(card[0]) or int(card[0])


async def _ok(request: Any, status: int = 200) -> Any:
    response: httpx.Response = await request
    if response.status_code != status:
        raise SystemExit(
            f"{response.request.method} {response.request.url.path}: "
            f"{response.status_code} {response.text}"
        )
    return response.json() if response.content else None


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the service, e.g. http://127.0.0.1:8000")
    parser.add_argument("--key", required=True, help="an operator key (gop_...)")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=None, help="for the random moves")
    parser.add_argument("--event", default=None, help="the event's name (made up if left out)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
