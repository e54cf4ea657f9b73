"""Both generated clients type-check a tournament client's program with no cast: the Python
client ``openapi-python-client`` makes under ``mypy --strict``, the TypeScript types
``openapi-typescript`` makes under ``tsc --strict``. Each program (``client_programs/``)
creates a match, posts its legal actions as command bodies, follows the feed and reads a
webhook's payload: if the document typed an id as text, a legal action apart from its body, or
a payload as anything, the program would need a cast and fails to check."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from litestar.serialization import encode_json

from web.app import create_app
from web.openapi_contract import client_document
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


@pytest.mark.e2e  # runs the generators and the type checkers as processes
def test_the_python_client_types_a_tournament_program_with_no_cast(tmp_path: Path) -> None:
    document = write_document(tmp_path)
    generated = run(
        [
            *(str(TOOLS / "openapi-python-client"), "generate", "--path", str(document)),
            *("--meta", "none", "--output-path", str(tmp_path / "gin_client")),
        ],
        tmp_path,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    program = (PROGRAMS / "play.py").read_text()
    assert "cast(" not in program
    assert "type: ignore" not in program
    (tmp_path / "play.py").write_text(program)
    (tmp_path / "mypy.ini").write_text(MYPY_CONFIG)

    checked = run(
        [str(TOOLS / "mypy"), "--config-file", "mypy.ini", "--no-incremental", "play.py"],
        tmp_path,
    )

    assert checked.returncode == 0, checked.stdout + checked.stderr


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
