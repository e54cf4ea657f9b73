"""The web client is typed against the OpenAPI document: the committed TypeScript types must be
exactly what ``openapi-typescript`` makes of the document the service serves now (``tsc``, in
``python3 dev.py test``, then holds the page's JavaScript to them)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from litestar.serialization import encode_json

from web.app import create_app
from web.openapi_contract import client_document
from web.settings import Settings

CLIENT = Path(__file__).resolve().parents[2] / "web" / "client"
GENERATOR = CLIENT / "node_modules" / ".bin" / "openapi-typescript"


def openapi_document() -> bytes:
    # The document needs no database: the app is built, never started.
    return encode_json(client_document(create_app(Settings()).openapi_schema.to_schema()))


@pytest.mark.e2e  # runs openapi-typescript (Node.js) as a process
def test_the_clients_types_are_generated_from_the_current_document(tmp_path: Path) -> None:
    assert GENERATOR.exists(), "run `npm ci` in web/client (python3 dev.py test does)"
    document = tmp_path / "openapi.json"
    document.write_bytes(openapi_document())
    generated = tmp_path / "api.d.ts"

    subprocess.run(
        [str(GENERATOR), str(document), "-o", str(generated)],
        check=True,
        capture_output=True,
    )

    committed = (CLIENT / "types" / "api.d.ts").read_text()
    assert generated.read_text() == committed, (
        "web/client/types/api.d.ts is out of date: with the service running "
        "(python3 dev.py serve), run `npm run types` in web/client"
    )
