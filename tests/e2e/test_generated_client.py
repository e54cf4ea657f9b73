"""A client generated from the OpenAPI document by ``openapi-python-client``: generated with no
warnings, it plays a whole match against a ``gin serve`` process, its own typed models in and
out."""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from litestar.serialization import encode_json

from bench.servers import gin_serve
from tests.api.players import choose
from web.app import create_app
from web.openapi_contract import client_document
from web.settings import Settings

PACKAGE = "gin_client"


def generate(into: Path) -> str:
    """Generate the client package under ``into``; the generator's output."""
    document = into / "openapi.json"
    document.write_bytes(
        encode_json(client_document(create_app(Settings()).openapi_schema.to_schema()))
    )
    tools = Path(sys.executable).parent  # the generator formats with ruff, installed beside it
    command = [str(tools / "openapi-python-client"), "generate", "--path", str(document)]
    generated = subprocess.run(
        [*command, "--meta", "none", "--output-path", str(into / PACKAGE)],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"},
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return generated.stdout + generated.stderr


def module(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.{name}")


@pytest.mark.slow
def test_a_generated_client_plays_a_match(tmp_path: Path, fresh_database_url: str) -> None:
    output = generate(tmp_path)
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(tmp_path))
    try:
        play_with_generated_client(fresh_database_url)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.startswith(PACKAGE)]:
            del sys.modules[name]


def play_with_generated_client(database_url: str) -> None:
    client = module("client")
    models = module("models")
    create = module("api.matches.create_match")
    get_view = module("api.play.get_match_view")
    get_summary = module("api.matches.get_match_summary")
    play = module("api.play.send_command")
    bodies: dict[str, Any] = {
        name.removesuffix("Body"): getattr(models, name)
        for name in dir(models)
        if name.endswith("Body")
    }
    rng = random.Random(3)
    with gin_serve(database_url) as server:
        anonymous = client.Client(base_url=server.url)
        request = models.CreateMatch.from_dict({"options": {"game_target": 10, "match_target": 0}})
        created = create.sync(client=anonymous, body=request)
        assert isinstance(created, models.NewMatch), created
        seats = {
            seat.seat: client.AuthenticatedClient(base_url=server.url, token=seat.token)
            for seat in created.seats
        }
        match_id = created.match_id
        view = get_view.sync(match_id=match_id, client=seats[0])
        for _ in range(2000):
            assert isinstance(view, models.MatchView), view
            if view.phase == models.Phase.MATCH_OVER:
                break
            mover = seats[view.turn]
            view = get_view.sync(match_id=match_id, client=mover)
            action = choose(view.to_dict(), rng)
            body_type = bodies["".join(part.title() for part in action["type"].split("_"))]
            body = body_type.from_dict({k: v for k, v in action.items() if k != "seat"})
            view = play.sync(match_id=match_id, client=mover, body=body)
        else:
            raise AssertionError("the match did not end")
        assert view.winner in (0, 1)
        summary = get_summary.sync(match_id=match_id, client=anonymous)
        assert isinstance(summary, models.MatchSummary), summary
        assert_three_players_parse_as_their_own_kind(client, models, server.url)


def assert_three_players_parse_as_their_own_kind(client: Any, models: Any, url: str) -> None:
    """A three-player match's view and summary parse as their own types, told by ``kind``
    (each generated model refuses the other's)."""
    create = module("api.matches.create_match")
    get_view = module("api.play.get_match_view")
    get_summary = module("api.matches.get_match_summary")
    anonymous = client.Client(base_url=url)
    created = create.sync(client=anonymous, body=models.CreateMatch.from_dict({"players": 3}))
    assert isinstance(created, models.NewMatch), created
    match_id = created.match_id
    seat = client.AuthenticatedClient(base_url=url, token=created.seats[0].token)

    view = get_view.sync(match_id=match_id, client=seat)
    summary = get_summary.sync(match_id=match_id, client=anonymous)

    assert isinstance(view, models.FormatMatchView), view
    assert isinstance(summary, models.FormatMatchSummary), summary
    assert view.kind == summary.kind == "three_or_four_players"
