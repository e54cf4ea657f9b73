"""Every SQL statement of the PostgreSQL adapters that reads or writes one match's rows names
the match (``match_id = $1``), so that tables distributed by match could route it to one shard
(``docs/scaling.md``, "Partitioning by match"). Those that cannot are listed here, each with
why: the global log read by position, and the sweeps and lookups that cross matches. The
statements named ``*_BEFORE_0026`` are sent only to a database before migration 0026.

The statements are found by reading ``adapters/postgres/*.py``: every string (an f-string's
interpolations left out) that touches a per-match table after ``FROM``, ``JOIN``, ``INTO`` or
``UPDATE``. A statement names its match when it compares ``match_id`` to a parameter, or
inserts a ``match_id`` given in ``VALUES``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ADAPTERS = Path(__file__).resolve().parents[2] / "adapters" / "postgres"

# The tables whose rows belong to one match (migrations 0002 and 0026).
PER_MATCH = (
    "events",
    "streams",
    "snapshots",
    "idempotency_keys",
    "match_deadlines",
    "match_abandon_claims",
    "matches",
    "match_seats",
    "match_invites",
)
TOUCHES = re.compile(rf"\b(?:FROM|JOIN|INTO|UPDATE)\s+(?:ONLY\s+)?({'|'.join(PER_MATCH)})\b")
# ``match_id = %s``, ``m.match_id = ANY(%(matches)s)``, ``match_id = %b::uuid``...
NAMES_MATCH = re.compile(r"\bmatch_id\s*=\s*(?:ANY\s*\(\s*)?%")
INSERTS_MATCH = re.compile(
    rf"\bINTO\s+(?:{'|'.join(PER_MATCH)})(?:\s+AS\s+\w+)?\s*\([^)]*\bmatch_id\b[^)]*\)\s*VALUES"
)

# (module, the constant or function the statement is in): why it names no match.
CROSS_MATCH = {
    (
        "stream_statements.py",
        "READ_ALL_FROM_START",
    ): "the global log in commit order (feed, webhooks, "
    "player projector, log tree): every match's events by position",
    (
        "stream_statements.py",
        "READ_ALL_AFTER",
    ): "the global log after a cursor, a position of any match",
    (
        "stream_statements.py",
        "POSITION_EXISTS",
    ): "whether a cursor names an event: positions are global",
    (
        "stream_statements.py",
        "FIND_IDEMPOTENT",
    ): "a key is looked up alone (the port names no stream); "
    "the service's keys name their match, and its join to the event names the match",
    ("event_store.py", "latest_versions_query"): "the latest deal and hand end of a page of "
    "matches at once, for the feed's listing",
    ("deadlines.py", "NEXT_WAKEUP"): "the sweep: the next deadline of any match",
    ("deadlines.py", "CLAIM"): "the sweep: the due deadlines of every match (joined by match)",
    ("deadlines.py", "PENDING"): "a gauge: deadlines of every match",
    ("idle_matches.py", "CLAIM"): "the sweep: idle matches among all (every join names the match)",
    ("match_registry.py", "_rounds"): "a round's matches, found by the round",
    ("match_registry.py", "_select"): "its filter is composed by the caller: ``get`` names the "
    "match (``m.match_id = %s``); the look-ups by external ref and an operator's listing "
    "search across matches",
    ("match_registry.py", "operator_matches"): "an operator's listing, across its matches",
    ("match_registry.py", "invited_match"): "an invite code is how its match is found",
    ("match_registry.py", "accept_invite"): "an invite code is how its match is found",
    ("match_registry.py", "matches_with_bots"): "the bot sweep: every match with a bot seat",
    ("match_registry.py", "is_seat_token"): "a seat token is how its match is found",
}


@dataclass(frozen=True)
class Statement:
    module: str
    owner: str  # the constant it is assigned to, or the function it is written in
    line: int
    text: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.module, self.owner)


def _text(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str | None:
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return None if isinstance(parents.get(node), ast.JoinedStr) else node.value
    return None


def _owner(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    """The function a statement is written in, else the module's constant it is assigned to."""
    assigned = "<module>"
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return node.name
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            assigned = node.targets[0].id
    return assigned


def statements() -> list[Statement]:
    found = []
    for path in sorted(ADAPTERS.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            text = _text(node, parents)
            if text is not None and TOUCHES.search(text):
                line = getattr(node, "lineno", 0)
                found.append(Statement(path.name, _owner(node, parents), line, text))
    return found


def names_its_match(text: str) -> bool:
    return bool(NAMES_MATCH.search(text) or INSERTS_MATCH.search(text))


def test_the_adapters_statements_on_match_rows_are_found() -> None:
    found = {s.key for s in statements()}
    # The reader finds the statements of the append, the stream reads and the registry.
    assert {("append_statement.py", "APPEND"), ("stream_statements.py", "READ_STREAM")} <= found
    assert len(found) > 20


def before_0026(statement: Statement) -> bool:
    """A statement sent only to a database before migration 0026, which has no match id."""
    return statement.owner.endswith("_BEFORE_0026")


def test_every_statement_on_one_matchs_rows_names_the_match() -> None:
    unnamed = [
        f"{s.module}:{s.line} ({s.owner}): {' '.join(s.text.split())[:120]}"
        for s in statements()
        if not names_its_match(s.text) and s.key not in CROSS_MATCH and not before_0026(s)
    ]
    assert unnamed == [], "statements on per-match tables that name no match:\n" + "\n".join(
        unnamed
    )


def test_every_listed_exception_is_a_statement_that_names_no_match() -> None:
    by_key: dict[tuple[str, str], list[Statement]] = {}
    for statement in statements():
        by_key.setdefault(statement.key, []).append(statement)
    for key in CROSS_MATCH:
        assert key in by_key, f"{key} is listed but holds no statement on a per-match table"
        assert not all(names_its_match(s.text) for s in by_key[key]), f"{key} names its match"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("SELECT 1 FROM events WHERE match_id = %s AND stream_id = %s", True),
        ("SELECT 1 FROM events WHERE m.match_id = ANY(%(matches)s)", True),
        ("SELECT 1 FROM events WHERE stream_id = %s", False),
        ("SELECT 1 FROM events e JOIN streams s ON e.match_id = s.match_id", False),
        ("INSERT INTO snapshots AS s (match_id, stream_id) VALUES (%s, %s)", True),
        ("INSERT INTO claims (match_id) SELECT match_id FROM streams", False),
    ],
)
def test_what_counts_as_naming_the_match(text: str, named: bool) -> None:
    assert bool(TOUCHES.search(text)) or "claims" in text
    assert names_its_match(text) is named
