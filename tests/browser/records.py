"""Finished records of every table size, as the service gives them, and the ways the tests
tamper with them: each tamper makes a record ``gin verify`` rejects, the browser's verifier
must reject it too (tests/browser/test_replay.py)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

import httpx

from bench.servers import Server
from tests.api.players import Json, bearer, choose, create_table, play_match
from tests.audit.tampering import Document, data, entries, find, rehash, set_data

Tamper = Callable[[Document], None]

MATCHES_TRIED = 10
ROUNDS = 2  # a record of two rounds at least: the second round's deals follow the first's


async def two_player_record(server: Server) -> Document:
    """A finished match's record, as the service gives it, of at least two deals (a tamper
    edits the second): a first hand can reach the target alone, so then another match."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for attempt in range(MATCHES_TRIED):
            table = await create_table(http, game_target=60, match_target=0)
            await play_match(http, table, random.Random(5 + attempt))
            response = await http.get(f"{table.path}/record")
            assert response.status_code == 200, response.text
            body: Document = response.json()
            if sum(entry["type"] == "dealt" for entry in entries(body)) >= 2:
                return body
    raise AssertionError(f"no match of {MATCHES_TRIED} lasted two deals")


async def played_record(server: Server, players: int, seed: int) -> Document:
    """A finished match of ``players``, the person's seat played by random legal moves and the
    others by the server's bots; its record as the service gives it."""
    rng = random.Random(seed)
    # Easy bots go out when they can: random ones let a three-player game to 60 run to a
    # record of a megabyte (41 s of the replay test's verdicts on a busy run; 81 kB now).
    bots = [None, *["easy"] * (players - 1)]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for _ in range(10):
            created = (
                await http.post(
                    "/matches",
                    json={
                        "players": players,
                        "bots": bots,
                        "options": {"game_target": 60, "match_target": 0},
                    },
                )
            ).json()
            path, token = f"/matches/{created['match_id']}", created["seats"][0]["token"]
            view: Json = (await http.get(f"{path}/view", headers=bearer(token))).json()
            while view["phase"] != "match_over":
                if view["legal_actions"]:
                    sent = await http.post(
                        f"{path}/commands", json=choose(view, rng), headers=bearer(token)
                    )
                    assert sent.status_code == 200, sent.text
                view = (await http.get(f"{path}/view", headers=bearer(token))).json()
            record: Document = (await http.get(f"{path}/record")).json()
            if sum(e["type"] == "round_started" for e in entries(record)) >= ROUNDS:
                return record
    raise AssertionError(f"no {players}-player match lasted {ROUNDS} rounds")


def edit_a_discard(doc: Document) -> None:
    entry = find(doc, "discarded")
    set_data(entry, {**data(entry), "card": "Kd" if data(entry)["card"] != "Kd" else "Qd"})


def swap_a_dealt_card_with_the_stock(doc: Document) -> None:
    entry = [e for e in entries(doc) if e["type"] == "dealt"][1]
    dealt = data(entry)
    dealt["hands"][0][0], dealt["stock"][-1] = dealt["stock"][-1], dealt["hands"][0][0]
    set_data(entry, dealt)
    rehash(doc)


def remove_an_event(doc: Document) -> None:
    del entries(doc)[len(entries(doc)) // 2]


def change_a_card_drawn_from_the_stock(doc: Document) -> None:
    entry = find(doc, "drew", lambda d: d["source"] == "stock")
    drew = data(entry)
    drew["card"] = next(c for c in ("As", "Ad", "Ac") if c != drew["card"])
    set_data(entry, drew)
    rehash(doc)


def reveal_another_seed(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if data(e).get("step") == "deal 1")
    set_data(entry, {**data(entry), "seed": hashlib.sha256(b"never committed").hexdigest()})
    rehash(doc, "fairness_stream")


def change_the_entropy(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if e["type"] == "entropy_fixed")
    set_data(entry, {"type": "entropy_fixed", "entropy": ["alice", "mallory"]})
    rehash(doc, "fairness_stream")


def change_the_options(doc: Document) -> None:
    doc["options"]["game_target"] += 1


def pass_as_in_progress(doc: Document) -> None:
    doc["status"] = "in_progress"


def change_a_score(doc: Document) -> None:
    entry = find(doc, "scored", lambda d: d["winner"] is not None)
    set_data(entry, {**data(entry), "points": data(entry)["points"] + 2})
    rehash(doc)


def knock_with_a_meld_that_is_none(doc: Document) -> None:
    """The same cards shown, one of a meld swapped with the deadwood (or the knock card)."""
    entry = find(doc, "knocked", lambda d: bool(d["melds"]) and not d["big_gin"])
    knocked = data(entry)
    meld = knocked["melds"][0]
    if knocked["deadwood"]:
        meld[0], knocked["deadwood"][0] = knocked["deadwood"][0], meld[0]
    else:
        meld[0], knocked["card"] = knocked["card"], meld[0]
    set_data(entry, knocked)
    rehash(doc)


def change_a_game_total(doc: Document) -> None:
    entry = find(doc, "game_won")
    won = data(entry)
    won["totals"][won["winner"]] += 5
    set_data(entry, won)
    rehash(doc)


def change_who_deals_the_second_hand(doc: Document) -> None:
    """The other seat deals, its hands swapped so the cards still are the seed's."""
    entry = [e for e in entries(doc) if e["type"] == "dealt"][1]
    dealt = data(entry)
    set_data(entry, {**dealt, "dealer": 1 - dealt["dealer"], "hands": dealt["hands"][::-1]})
    rehash(doc)


def join_after_the_cut(doc: Document) -> None:
    """A seat's join recorded after the cut, where no rule gives one (a match of three or four
    records no join at all), every hash recomputed."""
    events = entries(doc)
    cut = next(i for i, e in enumerate(events) if e["type"] in ("cards_cut", "seats_cut"))
    joined = {**events[cut], "type": "seat_joined"}
    set_data(joined, {"type": "seat_joined", "seat": 0})
    events.insert(cut + 1, joined)
    rehash(doc)


TWO_PLAYER_TAMPERS: list[Tamper] = [
    edit_a_discard,
    swap_a_dealt_card_with_the_stock,
    remove_an_event,
    change_a_card_drawn_from_the_stock,
    reveal_another_seed,
    change_the_entropy,
    change_the_options,
    pass_as_in_progress,
    change_a_score,
    knock_with_a_meld_that_is_none,
    change_a_game_total,
    change_who_deals_the_second_hand,
    join_after_the_cut,
]
# Tampers only a re-run of the rules finds, every hash recomputed: the browser names the
# first of them as `gin verify` does.
SAID_ALIKE = {change_a_score}


def inner(entry: Document) -> Document:
    event: Document = data(entry)["event"]
    return event


def table_events(doc: Document, kind: str) -> list[Document]:
    return [e for e in entries(doc) if e["type"] == "table_event" and inner(e)["type"] == kind]


def edit_a_discard_at_a_table(doc: Document) -> None:
    entry = table_events(doc, "discarded")[0]
    wrapped = data(entry)
    wrapped["event"]["card"] = "Kd" if wrapped["event"]["card"] != "Kd" else "Qd"
    set_data(entry, wrapped)


def swap_a_dealt_card_with_the_stock_at_a_table(doc: Document) -> None:
    """At the last deal (the second table's in the four-player game), chains recomputed."""
    entry = table_events(doc, "dealt")[-1]
    wrapped = data(entry)
    dealt = wrapped["event"]
    dealt["hands"][0][0], dealt["stock"][-1] = dealt["stock"][-1], dealt["hands"][0][0]
    set_data(entry, wrapped)
    rehash(doc)


def change_a_card_drawn_from_the_stock_at_a_table(doc: Document) -> None:
    entry = next(e for e in table_events(doc, "drew") if inner(e)["source"] == "stock")
    wrapped = data(entry)
    wrapped["event"]["card"] = next(c for c in ("As", "Ad", "Ac") if c != wrapped["event"]["card"])
    set_data(entry, wrapped)
    rehash(doc)


def change_the_cut(doc: Document) -> None:
    entry = next(e for e in entries(doc) if e["type"] == "seats_cut")
    cut = data(entry)
    cut["dealer"] = (cut["dealer"] + 1) % len(cut["rounds"][0])
    set_data(entry, cut)
    rehash(doc)


def give_entropy(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if e["type"] == "entropy_fixed")
    seats = len(data(entry)["entropy"])
    set_data(entry, {"type": "entropy_fixed", "entropy": ["mallory"] * seats})
    rehash(doc, "fairness_stream")


def change_a_hand_score(doc: Document) -> None:
    entry = next(e for e in table_events(doc, "scored") if inner(e)["winner"] is not None)
    wrapped = data(entry)
    wrapped["event"]["points"] += 2
    set_data(entry, wrapped)
    rehash(doc)


def change_a_round_score(doc: Document) -> None:
    entry = next(
        e for e in entries(doc) if e["type"] == "round_scored" and data(e)["winner"] is not None
    )
    set_data(entry, {**data(entry), "net": data(entry)["net"] + 5})
    rehash(doc)


def change_who_deals_the_second_round(doc: Document) -> None:
    entry = [e for e in entries(doc) if e["type"] == "round_started"][1]
    started = data(entry)
    sides = len(data(find(doc, "round_scored"))["hand_points"])
    set_data(entry, {**started, "dealer_side": (started["dealer_side"] + 1) % sides})
    rehash(doc)


def change_a_settlement(doc: Document) -> None:
    entry = find(doc, "format_game_won")
    won = data(entry)
    won["settlements"][0]["points"] += 5
    set_data(entry, won)
    rehash(doc)


def change_who_wins_the_match(doc: Document) -> None:
    entry = find(doc, "format_match_won")
    won = data(entry)
    set_data(entry, {**won, "winner": (won["winner"] + 1) % len(won["match_scores"])})
    rehash(doc)


def play_a_card_not_held(doc: Document) -> None:
    """A discard of a card from the other hand at its table, every hash recomputed."""
    entry = table_events(doc, "discarded")[0]
    wrapped = data(entry)
    table = data(entry)["table"]
    dealt = inner(next(e for e in table_events(doc, "dealt") if data(e)["table"] == table))
    wrapped["event"]["card"] = dealt["hands"][1 - wrapped["event"]["seat"]][0]
    set_data(entry, wrapped)
    rehash(doc)


TABLE_TAMPERS: list[Tamper] = [
    edit_a_discard_at_a_table,
    swap_a_dealt_card_with_the_stock_at_a_table,
    change_a_card_drawn_from_the_stock_at_a_table,
    change_the_cut,
    reveal_another_seed,
    give_entropy,
    remove_an_event,
    change_the_options,
    pass_as_in_progress,
    change_a_hand_score,
    change_a_round_score,
    play_a_card_not_held,
    change_who_deals_the_second_round,
    change_a_settlement,
    change_who_wins_the_match,
    join_after_the_cut,
]

# Every tamper of a table's hand, of a round and of the stream's frame, by table size.
TAMPERS = {2: TWO_PLAYER_TAMPERS, 3: TABLE_TAMPERS, 4: TABLE_TAMPERS}


async def finished_record(server: Server, players: int) -> Document:
    """A finished match of ``players`` of two deals or two rounds at least."""
    if players == 2:
        return await two_player_record(server)
    return await played_record(server, players, players)


def scored_with_a_layoff(doc: Document) -> int | None:
    """The version of the first hand scored after a layoff, at any table, if any."""
    for entry in entries(doc):
        event = data(entry)
        scored = event.get("event", event) if event["type"] == "table_event" else event
        if scored["type"] == "scored" and scored["layoffs"]:
            return int(entry["version"])
    return None


async def record_with_a_layoff(server: Server, players: int) -> tuple[Document, int]:
    """A finished match in which a hand was scored after a layoff, and that hand's version."""
    for seed in range(40):
        if players == 2:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                table = await create_table(http, game_target=100, match_target=0)
                await play_match(http, table, random.Random(seed))
                doc: Document = (await http.get(f"{table.path}/record")).json()
        else:
            doc = await played_record(server, players, seed)
        version = scored_with_a_layoff(doc)
        if version is not None:
            return doc, version
    raise AssertionError(f"no {players}-player match had a layoff")


# In the page: load each text as a file, wait for its verdict, then step from the first event
# to the last; what each verdict said, and any error an event handler threw on the way.
LOAD_EACH = """
async (texts) => {
  const input = document.querySelector("#record-file");
  const viewer = document.querySelector(".viewer");
  const results = [];
  let errors = [];
  window.addEventListener("error", (event) => errors.push(String(event.message)));
  window.addEventListener("unhandledrejection", (event) => errors.push(String(event.reason)));
  const verdict = () => viewer.querySelector(".verdict[data-verdict]");
  // A verdict, or the page giving up on the file.
  const answered = () => verdict() ?? viewer.querySelector(".problem");
  for (const text of texts) {
    errors = [];
    viewer.replaceChildren();
    const said = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (answered()) { observer.disconnect(); resolve(); }
      });
      observer.observe(viewer, { subtree: true, childList: true, attributes: true });
    });
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], "record.json", { type: "application/json" }));
    input.files = transfer.files;
    input.dispatchEvent(new Event("change"));
    await said;
    await new Promise((resolve) => setTimeout(resolve));  // the viewer is drawn after it
    const first = viewer.querySelector("[data-step=first]");
    let steps = 0;
    if (first) {
      first.click();
      let at = viewer.dataset.version;
      for (;;) {
        viewer.querySelector("[data-step=forward]").click();
        steps++;
        if (viewer.dataset.version === at) break;
        at = viewer.dataset.version;
      }
    }
    const line = answered();
    results.push({
      verdict: line.dataset.verdict ?? null,
      said: line.textContent,
      steps,
      errors,
    });
  }
  return results;
}
"""
