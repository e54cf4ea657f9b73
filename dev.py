#!/usr/bin/env python3
"""Bootstrap and run the project with nothing but Python 3.11+ installed.

    python3 dev.py serve [gin serve options]  run the service (embedded PostgreSQL by default)
    python3 dev.py test  [pytest options]     lint, type-check, check layers, run every test
    python3 dev.py bench NAME                 run bench/NAME.py (installs the reference engines)
    python3 dev.py loadtest [options]         concurrent matches over HTTP (docs/loadtest.md)

The first call creates `.venv` and installs the project into it; later calls reinstall only
when pyproject.toml has changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"


def ensure_venv(extras: str) -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    pip = [str(BIN / "python"), "-m", "pip", "--disable-pip-version-check", "-q"]
    print(f"dev.py: installing the project with [{extras}]", flush=True)
    subprocess.run([*pip, "install", "-e", f"{ROOT}[{extras}]"], check=True)
    STAMP.write_text(wanted)


def run(*argv: str) -> int:
    return subprocess.run(argv, cwd=ROOT).returncode


def main(args: list[str]) -> int:
    if not args or args[0] not in {"serve", "test", "bench", "loadtest"}:
        print(__doc__)
        return 2
    command, rest = args[0], args[1:]
    if command == "serve":
        ensure_venv("dev")
        return run(str(BIN / "gin"), "serve", *rest)
    if command == "bench":
        ensure_venv("dev,bench")
        return run(str(BIN / "python"), "-m", f"bench.{rest[0]}", *rest[1:])
    if command == "loadtest":
        # Its clients (httpx) come with the dev extra; it needs no reference engine.
        ensure_venv("dev")
        return run(str(BIN / "python"), "-m", "bench.loadtest", *rest)
    ensure_venv("dev")
    for step in (
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
        [str(BIN / "mypy")],
        [str(BIN / "lint-imports")],
    ):
        if run(*step) != 0:
            return 1
    return run(str(BIN / "pytest"), *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
