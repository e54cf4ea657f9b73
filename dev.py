#!/usr/bin/env python3
"""Bootstrap and run the project with nothing but Python 3.11+ installed.

    python3 dev.py serve [gin serve options]  run the service (embedded PostgreSQL by default)
    python3 dev.py test  [pytest options]     lint, type-check (Python and the page's JavaScript),
                                              check layers, run every test
    python3 dev.py bench NAME                 run bench/NAME.py (installs the reference engines)
    python3 dev.py loadtest [options]         concurrent matches over HTTP (docs/loadtest.md)
    python3 dev.py mutate [--max-children N] [MUTANT ...]
                                              mutation-test domain/ against tests/unit (slow)

The first call creates `.venv` and installs the project into it; later calls reinstall only
when pyproject.toml has changed.
"""

from __future__ import annotations

import hashlib
import json
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


CLIENT = ROOT / "web" / "client"
NODE_BIN = CLIENT / "node_modules" / ".bin"
NODE_STAMP = CLIENT / "node_modules" / ".installed"


def ensure_node_modules() -> None:
    """The web client's type checker and type generator (npm ci), again only when
    package-lock.json has changed."""
    wanted = hashlib.sha256((CLIENT / "package-lock.json").read_bytes()).hexdigest()
    if NODE_STAMP.exists() and NODE_STAMP.read_text() == wanted:
        return
    print("dev.py: installing the web client's type checker (npm ci)", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True)
    NODE_STAMP.write_text(wanted)


def run(*argv: str, env: dict[str, str] | None = None) -> int:
    return subprocess.run(argv, cwd=ROOT, env=env).returncode


# mutmut's exit codes per mutant (mutmut/stats.py), folded into the columns of the table.
KILLED = {1, 3}
TYPED = {37}  # refused by mypy --strict (pyproject's type_check_command), no test run
SURVIVED = {0}
TIMEOUT = {36, 24, -24, 152, 255}


def mutation_table() -> tuple[str, list[str]]:
    """The per-file table (killed / mypy / survived / timeout / other / total) from mutmut's
    results under mutants/, and the names of the mutants that survived."""
    rows: list[tuple[str, list[int]]] = []
    survivors: list[str] = []
    totals = [0] * 6
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        killed = sum(code in KILLED for code in codes.values())
        typed = sum(code in TYPED for code in codes.values())
        survived = [name for name, code in codes.items() if code in SURVIVED]
        timeout = sum(code in TIMEOUT for code in codes.values())
        other = len(codes) - killed - typed - len(survived) - timeout
        counts = [killed, typed, len(survived), timeout, other, len(codes)]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        survivors += sorted(survived)
        rows.append((str(meta.relative_to(ROOT / "mutants"))[: -len(".meta")], counts))
    rows.append(("total", totals))
    header = f"{'file':<28}{'killed':>8}{'mypy':>6}{'survived':>10}{'timeout':>9}{'other':>7}"
    lines = [header + f"{'total':>7}"]
    for name, (k, m, s, t, o, n) in rows:
        lines.append(f"{name:<28}{k:>8}{m:>6}{s:>10}{t:>9}{o:>7}{n:>7}")
    return "\n".join(lines), survivors


# Functions whose mutants mutmut cannot see act: the builders of meld_tables' tables, and the
# legal module's shared commands (paired up by domain.formats.table_seats), run while the
# domain is imported.
# mutmut switches a mutant in at call time, in workers forked after the import and after a
# first run of the tests filled the memo, so each survivor among them is tried again in a
# fresh interpreter.
FRESH_INTERPRETER = (
    "domain.meld_tables.x__value_bit_masks__",
    "domain.meld_tables.x__all_sets__",
    "domain.meld_tables.x__all_runs__",
    "domain.legal.x_shared_commands__",
)


def recheck_in_fresh_interpreter(env: dict[str, str]) -> None:
    for meta in (ROOT / "mutants" / "domain").glob("*.py.meta"):
        data = json.loads(meta.read_text())
        codes = data["exit_code_by_key"]
        for name, code in codes.items():
            if code in SURVIVED and name.startswith(FRESH_INTERPRETER):
                pytest = [str(BIN / "python"), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
                tests = ["--ignore=tests/unit/test_bots.py", "tests/unit"]
                argv = [*pytest, *tests]
                ran = subprocess.run(
                    argv,
                    cwd=ROOT / "mutants",
                    env={**env, "MUTANT_UNDER_TEST": name},
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                codes[name] = 0 if ran.returncode == 0 else 1  # a failure or an import error
                print(f"dev.py: {name} in a fresh interpreter: exit {ran.returncode}", flush=True)
        meta.write_text(json.dumps(data, indent=4))


# A mutant can build tables without end (one of `meld_tables` filled 10 GB before its
# timeout came): capped, it fails with MemoryError, which kills it, instead of the machine.
MUTANT_MEMORY_BYTES = 4 << 30


def limit_memory(size: int) -> None:
    """Cap the address space of this process and so of every process it starts."""
    if os.name == "posix":
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (size, hard))


def mutate(rest: list[str]) -> int:
    # Hypothesis derandomised: each mutant meets the same examples (tests/conftest.py).
    env = {**os.environ, "HYPOTHESIS_PROFILE": "mutation"}
    # pyproject's type_check_command runs the virtual environment's mypy.
    env["PATH"] = os.pathsep.join([str(BIN), env.get("PATH", "")])
    # Two workers by default: mutation runs share the machine with everything else.
    if not any(arg.startswith("--max-children") for arg in rest):
        rest = ["--max-children", "2", *rest]
    limit_memory(MUTANT_MEMORY_BYTES)
    status = run(str(BIN / "mutmut"), "run", *rest, env=env)
    recheck_in_fresh_interpreter(env)
    table, survivors = mutation_table()
    print(table)
    if survivors:
        print(f"\n{len(survivors)} survived (`.venv/bin/mutmut show NAME` shows the change):")
        print("\n".join(f"  {name}" for name in survivors))
    return status


def main(args: list[str]) -> int:
    if not args or args[0] not in {"serve", "test", "bench", "loadtest", "mutate"}:
        print(__doc__)
        return 2
    command, rest = args[0], args[1:]
    if command == "serve":
        ensure_venv("dev")
        return run(str(BIN / "gin"), "serve", *rest)
    if command == "bench":
        ensure_venv("dev,bench")
        return run(str(BIN / "python"), "-m", f"bench.{rest[0]}", *rest[1:])
    if command == "mutate":
        ensure_venv("dev,mutate")
        return mutate(rest)
    if command == "loadtest":
        # Its clients (httpx) come with the dev extra; it needs no reference engine.
        ensure_venv("dev")
        return run(str(BIN / "python"), "-m", "bench.loadtest", *rest)
    ensure_venv("dev")
    ensure_node_modules()
    for step in (
        [str(BIN / "ruff"), "check", "."],
        [str(BIN / "ruff"), "format", "--check", "."],
        [str(BIN / "mypy")],
        [str(BIN / "lint-imports")],
        # The page's JavaScript against the types generated from the OpenAPI document.
        [str(NODE_BIN / "tsc"), "-p", str(CLIENT / "tsconfig.json")],
    ):
        if run(*step) != 0:
            return 1
    return run(str(BIN / "pytest"), *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
