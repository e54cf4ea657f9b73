"""``python3 dev.py test``: pytest on every core beside the static checks, the fast loop's
selection, one line instead of a traceback when Node.js or Chromium is missing, and ``dev.py
flaky``, which never turns a failed run into a passing one."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import dev


def test_the_whole_suite_runs_on_every_core_a_module_to_a_worker() -> None:
    argv = dev.pytest_argv(["tests/unit", "-x"], fast=False)
    assert argv[0].endswith("pytest")
    workers = ["-n", str(dev.workers()), "--dist", "loadfile", "--no-loadscope-reorder"]
    assert argv[1:] == [*workers, "--durations=10", "tests/unit", "-x"]


def test_the_fast_loop_selects_the_tests_that_need_no_server() -> None:
    argv = dev.pytest_argv([], fast=True)
    assert argv[argv.index("-m") + 1] == "not slow and not postgres and not browser and not e2e"


@pytest.mark.parametrize("option", ["-n0", "-p", "--pdb", "--dist=load"])
def test_a_caller_choosing_how_to_run_gets_no_workers_added(option: str) -> None:
    argv = dev.pytest_argv([option], fast=False)
    assert "loadfile" not in argv
    assert argv[-1] == option


def test_a_selection_given_wins_over_the_fast_loops() -> None:
    argv = dev.pytest_argv(["-m", "postgres"], fast=True)
    assert argv.count("-m") == 1


def test_a_machine_without_node_or_chromium_is_told_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(dev, "ensure_venv", lambda extras: None)
    monkeypatch.setattr(shutil, "which", lambda tool: None)
    monkeypatch.setattr(dev, "CHROMIUM", tmp_path / "chromium")
    started: list[object] = []
    monkeypatch.setattr(dev.Check, "start", lambda *argv: started.append(argv))

    assert dev.main(["test"]) == 2

    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith(f"dev.py: the whole suite needs node, npm, {tmp_path / 'chromium'} ")
    assert "apt-get install nodejs npm chromium" in line
    assert started == []


def test_flaky_names_the_tests_that_pass_when_run_again_and_still_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "lastfailed"
    cache.write_text(json.dumps({"tests/a.py::test_lucky": True, "tests/b.py::test_broken": True}))
    monkeypatch.setattr(dev, "LAST_FAILED", cache)
    monkeypatch.setattr(dev, "ensure_venv", lambda extras: None)
    ran: list[tuple[str, ...]] = []

    def rerun(*argv: str, env: dict[str, str] | None = None) -> int:
        ran.append(argv)
        cache.write_text(json.dumps({"tests/b.py::test_broken": True}))
        return 1

    monkeypatch.setattr(dev, "run", rerun)

    assert dev.main(["flaky"]) == 1

    (argv,) = ran
    assert argv[-3:] == ("--last-failed", "--last-failed-no-failures", "none")
    out = capsys.readouterr().out
    assert "FLAKY (failed, then passed when run again): tests/a.py::test_lucky" in out
    assert "failed again: tests/b.py::test_broken" in out


def test_flaky_after_a_run_without_failed_tests_runs_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(dev, "LAST_FAILED", tmp_path / "absent")
    monkeypatch.setattr(dev, "ensure_venv", lambda extras: None)
    monkeypatch.setattr(dev, "run", pytest.fail)
    assert dev.main(["flaky"]) == 0


def test_the_tests_temporary_files_go_to_memory_only_with_room_to_spare(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stats = os.statvfs(tmp_path)
    free = stats.f_bavail * stats.f_frsize
    monkeypatch.setattr(dev, "SCRATCH_BYTES", free // 2)
    scratch = dev.memory_scratch(str(tmp_path))
    assert scratch is not None
    assert scratch.parent == tmp_path
    assert scratch.is_dir()
    monkeypatch.setattr(dev, "SCRATCH_BYTES", free + (1 << 40))
    assert dev.memory_scratch(str(tmp_path)) is None
    assert dev.memory_scratch(str(tmp_path / "missing")) is None
