"""Game records of three- and four-player matches: a played match's record verifies; a
record changed the way a forger would (a score, a dealt card, with every hash recomputed) is
flagged, naming where; and no record served while a round is played reveals a seed that gives
a deck still in play, at either table."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from cli.main import main
from domain import RuleOptions
from domain.formats import FormatState, Players
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.fairness.seeds import deal_link
from service.matches.use_cases import MatchService
from service.ports.event_store import StoredEvent
from service.ports.match_registry import RegisteredMatch
from tests.audit.format_play import derivable_links, played_format_match
from tests.audit.tampering import data, document, entries, problem, rehash, set_data

LONG = RuleOptions(game_target=100, match_target=0)


def record_of(seed: int, players: Players, **kwargs: object) -> GameRecord:
    return asyncio.run(played_format_match(seed, players, **kwargs))  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [3, 4])
def test_a_played_match_verifies_hand_by_hand(players: Players) -> None:
    record = record_of(10 + players, players)
    assert record.status == "finished"
    assert record.match_stream.stream_id == f"format-match-{record.match_id}"
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()
    hands = [line for line in verdict.lines if " table " in line and "(seats" in line]
    assert len(hands) == record.hands_finished
    assert verdict.lines[-1].startswith("match won by side")
    assert len(record.fairness.revealed) == 1 + record.hands_finished  # the cut and every deal
    assert record.fairness.secret is not None


@pytest.mark.parametrize("players", [3, 4])
def test_a_changed_round_score_is_flagged_even_with_the_hashes_recomputed(
    players: Players,
) -> None:
    doc = document(record_of(20 + players, players))
    scored = next(
        e for e in entries(doc) if e["type"] == "round_scored" and data(e)["winner"] is not None
    )
    changed = data(scored)
    changed["net"] += 5
    set_data(scored, changed)
    assert "hash does not match" in problem(doc)
    rehash(doc)
    found = problem(doc)
    assert f"version {scored['version']}: RoundScored says net" in found, found


@pytest.mark.parametrize("players", [3, 4])
def test_a_swapped_dealt_card_is_flagged_against_the_tables_seed(players: Players) -> None:
    doc = document(record_of(30 + players, players))
    deals = [
        e
        for e in entries(doc)
        if e["type"] == "table_event" and data(e)["event"]["type"] == "dealt"
    ]
    entry = deals[-1]  # the last deal: at the second table in the four-player game
    changed = data(entry)
    hands = changed["event"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    set_data(entry, changed)
    rehash(doc)
    found = problem(doc)
    table = changed["table"]
    assert f"version {entry['version']}: at table {table}, Dealt does not match the deck" in found


def test_a_record_of_another_format_fails_its_stream_id() -> None:
    doc = document(record_of(41, 3))
    doc["match_stream"]["stream_id"] = f"match-{doc['match_id']}"
    assert "hash does not match" in problem(doc)


class LeakWatch:
    """After every command: the record served now gives no link of a deal in play."""

    def __init__(self) -> None:
        self.checked = 0
        self.second_table_first = 0  # times the second table's hand ended while the first's went on

    async def __call__(
        self, formats: MatchService, match: RegisteredMatch, state: FormatState
    ) -> None:
        record, _ = await served_record(formats, match)
        assert verify_record(record).ok
        dealt = [table for table in state.tables if table.dealt]
        first = state.deals - len(dealt) + 1
        in_play = {first + i for i, table in enumerate(dealt) if not table.over}
        in_play_links = {deal_link(deal) for deal in in_play}
        links = record.fairness.chain_links
        shown = [(r.link, r.seed) for r in record.fairness.revealed]
        leaked = in_play_links & derivable_links(shown, links)
        assert not leaked, f"the record gives links {sorted(leaked)} of hands in play"
        # Nor does the fairness stream itself, which runs ahead of the record.
        written = await formats.streams.store.read_stream(f"fairness-{match.match_id}")
        leaked = in_play_links & derivable_links(_revealed(written), links)
        assert not leaked, f"the fairness stream gives links {sorted(leaked)} of hands in play"
        self.checked += 1
        if len(dealt) == 2 and dealt[1].over and not dealt[0].over:
            self.second_table_first += 1


def _revealed(written: Sequence[StoredEvent]) -> list[tuple[int, str]]:
    revealed = [msgspec.json.decode(r.data) for r in written if r.type == "seed_revealed"]
    return [(r["link"], r["seed"]) for r in revealed]


@pytest.mark.slow  # a record built and verified after each of a long match's commands
@pytest.mark.parametrize("players", [3, 4])
def test_no_record_or_fairness_record_gives_a_deck_in_play(players: Players) -> None:
    watch = LeakWatch()
    # Short chains, so rounds cross from one chain to the next; a long game, so many rounds.
    record = record_of(50 + players, players, links=3, options=LONG, watch=watch)
    assert record.hands_finished >= 6
    assert len(record.fairness.commitments) > 2
    assert watch.checked > 100
    if players == 4:
        assert watch.second_table_first > 0  # the case where the two-player rule would leak


def test_gin_verify_checks_a_record_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = document(record_of(61, 4))
    good = tmp_path / "good.json"
    good.write_bytes(msgspec.json.encode(doc))
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")
    scored = next(e for e in entries(doc) if e["type"] == "format_match_won")
    changed = data(scored)
    changed["winner"] = 1 - changed["winner"]
    set_data(scored, changed)
    rehash(doc)
    bad = tmp_path / "bad.json"
    bad.write_bytes(msgspec.json.encode(doc))
    assert main(["verify", str(bad)]) == 1
    assert "FormatMatchWon says winner" in capsys.readouterr().out
