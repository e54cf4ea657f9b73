#!/usr/bin/env python3
"""Bootstrap and run the project with nothing but Python 3.11+ installed.

    python3 dev.py serve [gin serve options]  run the service (embedded PostgreSQL by default)
    python3 dev.py test  [pytest options]     every test, in parallel, with lint, types (Python
                                              and the page's JavaScript) and layers checked
                                              alongside; needs Node.js (npm) and Chromium
    python3 dev.py test --fast [pytest options]
                                              the everyday loop: lint, types, layers and the tests
                                              that need no PostgreSQL, browser or server process
    python3 dev.py flaky                      run again the tests the last run failed; name those
                                              that pass now as FLAKY (exit 1 either way)
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
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import venv
from dataclasses import dataclass
from pathlib import Path
from typing import IO

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
    python, target = str(BIN / "python"), f"{ROOT}[{extras}]"
    pip = [python, "-m", "pip", "--disable-pip-version-check", "-q"]
    print(f"dev.py: installing the project with [{extras}]", flush=True)
    # uv (from PyPI) installs the same packages in a fifth of pip's minute; pip if it fails.
    # Compiled as pip does, else with PYTHONDONTWRITEBYTECODE every process compiles it (2 s).
    uv = [python, "-m", "uv", "pip", "install", "-q", "--compile-bytecode", "--python", python]
    uv += ["-e", target]
    quiet = subprocess.run([*pip, "install", "uv"], capture_output=True)  # pip's index notes
    if quiet.returncode != 0 or run(*uv) != 0:
        subprocess.run([*pip, "install", "-e", target], check=True)
    STAMP.write_text(wanted)


CLIENT = ROOT / "web" / "client"
NODE_BIN = CLIENT / "node_modules" / ".bin"
NODE_STAMP = CLIENT / "node_modules" / ".installed"


def ensure_node_modules() -> None:
    """npm ci for the page's type checker and type generator, when package-lock.json changed."""
    wanted = hashlib.sha256((CLIENT / "package-lock.json").read_bytes()).hexdigest()
    if NODE_STAMP.exists() and NODE_STAMP.read_text() == wanted:
        return
    print("dev.py: installing the web client's type checker (npm ci)", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True)
    NODE_STAMP.write_text(wanted)


def run(*argv: str, env: dict[str, str] | None = None) -> int:
    return subprocess.run(argv, cwd=ROOT, env=env).returncode


# The browser tests drive Debian's Chromium (tests/browser/conftest.py), never a downloaded one.
CHROMIUM = Path("/usr/bin/chromium")
HOW_TO_GET = "apt-get install nodejs npm chromium"
# A folder in memory for the tests' temporary files (their PostgreSQL servers, databases, the
# browser's profiles), when the machine has this much to spare there.
SCRATCH_BYTES = 8 << 30
# The everyday loop leaves out what tests/conftest.py marks from the fixtures a test uses, and
# the tests marked slow; its property tests try a tenth of their examples.
FAST_SELECTION = "not slow and not postgres and not browser and not e2e"
LAST_FAILED = ROOT / ".pytest_cache" / "v" / "cache" / "lastfailed"


def missing_tools() -> list[str]:
    """Beyond Python: Node.js (npm) for the page's type checker, Chromium for the browser tests."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if not CHROMIUM.exists():
        missing.append(str(CHROMIUM))
    return missing


@dataclass
class Check:
    """A static check running beside the tests, its output kept for the end."""

    name: str
    process: subprocess.Popen[bytes]
    output: IO[bytes]
    started: float
    ended: float | None = None

    @classmethod
    def start(cls, name: str, *argv: str) -> Check:
        # Closed in finish(), once the check's output is printed.
        output = tempfile.TemporaryFile()  # noqa: SIM115
        process = subprocess.Popen(argv, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT)
        check = cls(name, process, output, time.monotonic())
        # Its own time, not the tests': noted the moment it exits.
        threading.Thread(target=check._wait, daemon=True).start()
        return check

    def _wait(self) -> None:
        self.process.wait()
        self.ended = time.monotonic()

    def finish(self) -> int:
        """Wait for the check, print what it said, and return its exit code."""
        code = self.process.wait()
        took = (self.ended or time.monotonic()) - self.started
        self.output.seek(0)
        said = self.output.read().decode(errors="replace").rstrip()
        self.output.close()
        verdict = "ok" if code == 0 else f"FAILED (exit {code})"
        print(f"dev.py: {self.name}: {verdict} in {took:.0f} s", flush=True)
        if said and (code != 0 or len(said.splitlines()) <= 3):
            print(said, flush=True)
        return code


def static_checks(fast: bool) -> list[Check]:
    """Lint, format, types and layers, all at once; the page's JavaScript too, unless fast.
    mypy reads and updates its cache (.mypy_cache): after a first run it checks what changed."""
    checks = [
        Check.start("ruff check", str(BIN / "ruff"), "check", "."),
        Check.start("ruff format --check", str(BIN / "ruff"), "format", "--check", "."),
        Check.start("mypy", str(BIN / "mypy")),
        Check.start("lint-imports", str(BIN / "lint-imports")),
    ]
    if not fast:
        # The page's JavaScript against the types generated from the OpenAPI document; its
        # build info (kept under node_modules) lets a second run check only what changed.
        tsc = [str(NODE_BIN / "tsc"), "-p", str(CLIENT / "tsconfig.json"), "--incremental"]
        tsc += ["--tsBuildInfoFile", str(CLIENT / "node_modules" / ".cache" / "tsbuildinfo")]
        checks.append(Check.start("tsc", *tsc))
    return checks


def workers() -> int:
    """One more than the cores: tests often wait (on a server, the browser, a deadline), and on
    two cores a third worker took pytest from 776 s to 518 s (a fourth: 532 s)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return (len(affinity(0)) if affinity is not None else os.cpu_count() or 1) + 1


def given(rest: list[str], *options: str) -> bool:
    return any(arg == option or arg.startswith(option) for arg in rest for option in options)


def memory_scratch(memory: str = "/dev/shm") -> Path | None:
    """A fresh folder on /dev/shm, or None without one with room enough. On a disk mounted with
    online discard, stopping a test PostgreSQL server and deleting its few hundred databases took
    minutes of the run (60 databases: 115 s on disk under load, 1.3 s in memory)."""
    try:
        stats = os.statvfs(memory)
    except OSError:
        return None
    if stats.f_bavail * stats.f_frsize < SCRATCH_BYTES:
        return None
    return Path(tempfile.mkdtemp(prefix="gin-", dir=memory))


def pytest_argv(rest: list[str], fast: bool) -> list[str]:
    """pytest on ``workers()``, a module's tests on one (its database, app and servers set up
    once), unless ``rest`` says otherwise or debugs."""
    argv = [str(BIN / "pytest")]
    if not given(rest, "-n", "--numprocesses", "--dist", "-p", "--pdb", "--trace"):
        # tests/module_order.py hands out the longest modules first: keep that order.
        argv += ["-n", str(workers()), "--dist", "loadfile", "--no-loadscope-reorder"]
    if fast and not given(rest, "-m"):
        argv += ["-m", FAST_SELECTION]
    if not given(rest, "--durations"):
        argv.append("--durations=10")
    return [*argv, *rest]


def test(rest: list[str]) -> int:
    started = time.monotonic()
    fast = "--fast" in rest
    rest = [arg for arg in rest if arg != "--fast"]
    ensure_venv("dev")
    env = dict(os.environ)
    if fast:
        env.setdefault("HYPOTHESIS_PROFILE", "fast")
        env["GIN_TEST_NO_POSTGRES"] = "1"  # tests/conftest.py: a test reaching it fails
    else:
        missing = missing_tools()
        if missing:
            print(
                f"dev.py: the whole suite needs {', '.join(missing)} (Node.js for the page's "
                f"type checker, Chromium for the browser tests): `{HOW_TO_GET}` on Debian or "
                "Ubuntu; `python3 dev.py test --fast` needs only Python",
                flush=True,
            )
            return 2
        ensure_node_modules()
    # The project's own modules are compiled once, not by each process the tests start.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    checks = static_checks(fast)
    scratch = None if fast else memory_scratch()
    if scratch is not None:
        env["TMPDIR"] = str(scratch)
    try:
        tests = run(*pytest_argv(rest, fast), env=env)
    except BaseException:  # interrupted: the checks go too
        for check in checks:
            check.process.kill()
        raise
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    failed = [check.name for check in checks if check.finish() != 0]
    if tests != 0:
        failed.append(f"pytest (exit {tests})")
    took = time.monotonic() - started
    verdict = "FAILED: " + ", ".join(failed) if failed else "every check and test passed"
    print(f"dev.py: {'fast loop' if fast else 'test'}: {verdict} in {took:.0f} s", flush=True)
    return 1 if failed else 0


def last_failed() -> set[str]:
    if not LAST_FAILED.exists():
        return set()
    return set(json.loads(LAST_FAILED.read_text()))


def flaky() -> int:
    """The tests that failed in the last run, run again; a test that passes now is FLAKY.
    Exit 1 whenever there was a failure to run again: a rerun never makes a red run green."""
    ensure_venv("dev")
    before = last_failed()
    if not before:
        print("dev.py: flaky: the last run recorded no failed test", flush=True)
        return 0
    print(f"dev.py: flaky: running the {len(before)} failed test(s) again", flush=True)
    run(*pytest_argv(["--last-failed", "--last-failed-no-failures", "none"], fast=False))
    after = last_failed()
    for name in sorted(before - after):
        print(f"dev.py: FLAKY (failed, then passed when run again): {name}", flush=True)
    for name in sorted(before & after):
        print(f"dev.py: failed again: {name}", flush=True)
    return 1


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
# legal module's shared commands (paired up by domain.tables.table_seats), run while the
# domain is imported. mutmut switches a mutant in at call time, in workers forked after the
# import and after a first run of the tests filled the memo: each survivor among them is
# tried again in a fresh interpreter.
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
                argv = [str(BIN / "python"), "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
                argv += ["--ignore=tests/unit/test_bots.py", "tests/unit"]
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


def serve(rest: list[str]) -> int:
    """``gin serve`` in this process's place (on POSIX): a stop signal sent to this process
    (SIGTERM from a supervisor, SIGHUP) then reaches the server itself, which stops its
    workers and the embedded PostgreSQL, rather than killing a parent and orphaning them."""
    argv = [str(BIN / "gin"), "serve", *rest]
    if os.name != "posix":
        return run(*argv)
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(ROOT)
    os.execv(argv[0], argv)


def main(args: list[str]) -> int:
    if not args or args[0] not in {"serve", "test", "flaky", "bench", "loadtest", "mutate"}:
        print(__doc__)
        return 2
    command, rest = args[0], args[1:]
    if command == "serve":
        ensure_venv("dev")
        return serve(rest)
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
    if command == "flaky":
        return flaky()
    return test(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
