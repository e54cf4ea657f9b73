"""docs/api.md's "Accounts" examples, run as written (their ``sh`` blocks, one after another,
by bash with curl, jq and openssl) against a ``gin serve`` process that trusts a real provider
on a loopback port; only the documented ``localhost:8000`` is the test server's address."""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from pathlib import Path

import msgspec

from bench.servers import gin_serve
from service.accounts.settings import TrustedIssuer
from tests.accounts.oidc_provider import AUDIENCE, running_provider

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"
SECTION = "## Accounts: sessions, identity providers, devices"


def examples() -> str:
    text = DOCS.read_text()
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", len(SECTION))]
    return "\n".join(re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL))


def test_the_accounts_examples_run_as_written(fresh_database_url: str, tmp_path: Path) -> None:
    script = examples()
    assert "/sessions/refresh" in script  # the section and its blocks were found
    with running_provider() as provider:
        trusted = [
            TrustedIssuer(issuer=provider.issuer, audience=AUDIENCE, jwks_url=provider.jwks_url)
        ]
        env = {"GIN_OIDC_ISSUERS": msgspec.json.encode(trusted).decode()}
        with gin_serve(fresh_database_url, env=env) as server:
            address = server.url.removeprefix("http://")
            ran = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", script.replace("localhost:8000", address)],
                cwd=tmp_path,
                env={
                    "PATH": "/usr/bin:/bin",
                    "ID_TOKEN": provider.id_token(f"user-{uuid.uuid4()}"),
                },
                capture_output=True,
                text=True,
                timeout=60,
            )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    phone = json.loads((tmp_path / "phone.json").read_text())
    assert phone["new_player"] is True
    assert phone["access_token"].startswith("gpa_")
    # curl prints a body with no newline after it: the next output may follow on its line.
    problems = re.findall(r'"type":"(/problems/[a-z-]+)"', ran.stdout)
    assert problems == [
        "/problems/refresh-token-reused",
        "/problems/wrong-credential",
        "/problems/wrong-device-secret",
    ]
    assert "[true]\n" in ran.stdout  # the tablet's list: the phone's session was revoked
    assert "204\n" in ran.stdout  # the tablet signed out
    assert '["oidc","device"]\n' in ran.stdout
    assert f'{{"player_id":"{phone["player_id"]}","new_player":false}}\n' in ran.stdout
