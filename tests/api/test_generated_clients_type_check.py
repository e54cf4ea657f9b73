"""Both generated clients type-check a tournament client's program with no cast: the Python
client ``openapi-python-client`` makes under ``mypy --strict``, the TypeScript types
``openapi-typescript`` makes under ``tsc --strict``. Each program (``client_programs/``)
creates a match, posts its legal actions as command bodies, follows the feed and reads a
webhook's payload: if the document typed an id as text, a legal action apart from its body, or
a payload as anything, the program would need a cast and fails to check. A second Python
program is also run: it parses a feed page, an events page and webhook payloads holding an
event of a type the document does not list (new types may come within version 1), which a
closed union of event types would fail on."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
from litestar.serialization import encode_json

from domain.events import Drew, MatchCreated
from domain.options import RuleOptions
from service.tournament.feed import FeedEntry, FeedPage
from service.tournament.webhooks.payloads import Payload
from web.app import create_app
from web.openapi_contract import client_document
from web.schemas import EventEnvelope, EventFeed
from web.settings import Settings

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "client_programs"
ROOT = HERE.parents[1]
NODE_TOOLS = ROOT / "web" / "client" / "node_modules" / ".bin"
TOOLS = Path(sys.executable).parent
# The generated package's own code is the generator's, held to its own standard; the
# program is held to --strict, and to every type it takes from the package.
MYPY_CONFIG = """[mypy]
strict = True
[mypy-gin_client.*]
ignore_errors = True
"""


def write_document(into: Path) -> Path:
    document = into / "openapi.json"
    # The document needs no database: the app is built, never started.
    document.write_bytes(
        encode_json(client_document(create_app(Settings()).openapi_schema.to_schema()))
    )
    return document


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{TOOLS}{os.pathsep}{os.environ['PATH']}"},
    )


def python_client(into: Path, *programs: str) -> None:
    """The generated package and ``programs`` (from ``client_programs/``) in ``into``."""
    document = write_document(into)
    generated = run(
        [
            *(str(TOOLS / "openapi-python-client"), "generate", "--path", str(document)),
            *("--meta", "none", "--output-path", str(into / "gin_client")),
        ],
        into,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    for name in programs:
        program = (PROGRAMS / name).read_text()
        assert "cast(" not in program
        assert "type: ignore" not in program
        (into / name).write_text(program)
    (into / "mypy.ini").write_text(MYPY_CONFIG)


PYTHON_PROGRAMS = ("play.py", "unknown_events.py")


@pytest.fixture(scope="module")
def python_checked(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The generated package and both programs in a folder, and one ``mypy`` run over both (a
    run costs seconds: most of it is reading the package)."""
    into = tmp_path_factory.mktemp("python_client")
    python_client(into, *PYTHON_PROGRAMS)
    checked = run(
        [str(TOOLS / "mypy"), "--config-file", "mypy.ini", "--no-incremental", *PYTHON_PROGRAMS],
        into,
    )
    return into, checked


def type_errors(checked: subprocess.CompletedProcess[str], program: str) -> list[str]:
    """``program``'s lines of the mypy run, after checking that the run itself worked (each
    error it reports is in one of the programs)."""
    lines = checked.stdout.splitlines()
    errors = [line for line in lines if ": error:" in line or ": note:" in line]
    assert checked.returncode in (0, 1), checked.stdout + checked.stderr
    assert all(line.startswith(PYTHON_PROGRAMS) for line in errors), checked.stdout
    assert (checked.returncode == 0) == (errors == []), checked.stdout + checked.stderr
    return [line for line in errors if line.startswith(f"{program}:")]


@pytest.mark.e2e  # runs the generators and the type checkers as processes
def test_the_python_client_types_a_tournament_program_with_no_cast(
    python_checked: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, checked = python_checked

    assert type_errors(checked, "play.py") == []


def unknown_event_bodies() -> dict[str, object]:
    """A feed page, an events page and two webhook payloads as the server encodes them, each
    with an event of a listed type and one of a type no release has yet."""
    known = Drew(seat=1, source="discard", card="7h")
    newer = {"type": "seat_renamed", "seat": 1, "name": "Ada"}
    match_id = "5f0c8a64-5d8c-4b7e-9a55-2b6f1a0e7c11"
    feed = msgspec.to_builtins(
        FeedPage(
            entries=[
                FeedEntry(
                    position=7,
                    match_id=match_id,
                    version=5,
                    type="drew",
                    recorded_at=datetime(2026, 1, 1, tzinfo=UTC),
                    data=known,
                )
            ],
            next=8,
        )
    )
    feed["entries"].append({**feed["entries"][0], "position": 8, "type": newer["type"]})
    feed["entries"][1]["data"] = newer
    events = msgspec.to_builtins(EventFeed(match_id=match_id, events=[EventEnvelope(5, known)]))
    events["events"].append({"version": 6, "event": newer})
    webhook = msgspec.to_builtins(
        Payload(
            event_id=f"{match_id}:1",
            kind="match_created",
            match_id=match_id,
            external_ref="table-7",
            players=[],
            version=1,
            position=3,
            event=MatchCreated(options=RuleOptions()),
            result=f"/matches/{match_id}/result",
        )
    )
    return {"feed": feed, "events": events, "webhooks": [webhook, {**webhook, "event": newer}]}


@pytest.mark.e2e
def test_the_python_client_parses_an_event_of_a_type_it_does_not_know(
    python_checked: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    tmp_path, checked = python_checked
    assert type_errors(checked, "unknown_events.py") == []
    (tmp_path / "bodies.json").write_text(json.dumps(unknown_event_bodies()))

    parsed = run([sys.executable, "unknown_events.py", "bodies.json"], tmp_path)

    assert parsed.returncode == 0, parsed.stdout + parsed.stderr
    assert parsed.stdout.splitlines() == [
        "Drew OtherEvent:seat_renamed",
        "Drew OtherEvent:seat_renamed",
        "MatchCreated OtherEvent:seat_renamed",
    ]


@pytest.mark.e2e
def test_the_typescript_types_type_a_tournament_program_with_no_cast(tmp_path: Path) -> None:
    assert (NODE_TOOLS / "tsc").exists(), "run `npm ci` in web/client (python3 dev.py test does)"
    document = write_document(tmp_path)
    # A field with a default may be left out of a request: typed optional, as the server takes it.
    generated = run(
        [
            *(str(NODE_TOOLS / "openapi-typescript"), str(document)),
            *("--default-non-nullable", "false", "-o", str(tmp_path / "api.d.ts")),
        ],
        tmp_path,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    program = (PROGRAMS / "play.ts").read_text()
    code = "\n".join(line.split("//")[0] for line in program.splitlines())
    assert not re.search(r"\bas\b|\bany\b", code)
    (tmp_path / "play.ts").write_text(program)
    config = {
        "compilerOptions": {
            "strict": True,
            "noEmit": True,
            "target": "ES2022",
            "module": "ES2022",
            "moduleResolution": "bundler",
            "lib": ["ES2022", "DOM"],
        },
        "files": ["play.ts", "api.d.ts"],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))

    checked = run([str(NODE_TOOLS / "tsc"), "-p", "tsconfig.json"], tmp_path)

    assert checked.returncode == 0, checked.stdout + checked.stderr
