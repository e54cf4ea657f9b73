"""The load test is a development tool outside the service: ``python3 dev.py loadtest`` runs it
from ``bench/`` with the dev extra only, ``gin`` has no such command, and the service itself
runs without ``httpx``."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import dev

ROOT = Path(__file__).resolve().parents[2]


def test_dev_py_runs_the_load_test_from_bench_with_the_dev_extra_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed: list[str] = []
    ran: list[tuple[str, ...]] = []

    def run(*argv: str) -> int:
        ran.append(argv)
        return 0

    monkeypatch.setattr(dev, "ensure_venv", installed.append)
    monkeypatch.setattr(dev, "run", run)

    assert dev.main(["loadtest", "--matches", "2", "4"]) == 0
    assert installed == ["dev"]
    assert ran == [(str(dev.BIN / "python"), "-m", "bench.loadtest", "--matches", "2", "4")]


@pytest.mark.e2e  # runs a process
def test_the_module_dev_py_runs_is_the_load_test() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench.loadtest", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: python3 dev.py loadtest")


@pytest.mark.e2e  # runs a process
def test_gin_has_no_loadtest_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "loadtest"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 2
    assert "invalid choice: 'loadtest'" in result.stderr


def test_httpx_is_not_a_runtime_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    assert not [d for d in project["dependencies"] if d.startswith("httpx")]
    assert [d for d in project["optional-dependencies"]["dev"] if d.startswith("httpx")]


@pytest.mark.e2e  # runs a process
def test_the_service_runs_without_httpx() -> None:
    # None in sys.modules makes any import of httpx fail, as if it were not installed.
    code = "import sys; sys.modules['httpx'] = None; import cli.main, web.app"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
