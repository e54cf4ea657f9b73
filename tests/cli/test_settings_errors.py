"""A setting the service cannot use is one line naming it and what it accepts, and exit 2,
before anything is started. Every bad value runs the ``gin`` command's ``main`` in the test's
process (a process each costs a second and a half of imports, forty times over); one of each
kind runs the real ``gin`` command as a process, as an operator would.

Each run points the data folder at a temporary one that does not exist yet: an embedded
PostgreSQL started (or a migration run) would create it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cli.main import main
from service.players.settings import PlayerTimes
from web.environment import ENVIRONMENT, SettingError
from web.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

PORT = "a port number (1-65535)"
AT_LEAST_ONE = "a whole number, at least 1"
SECONDS = "a number of seconds above 0"
LOG_LEVEL = "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"
URL = "a postgresql:// URL"

# (variable, bad value, what the error says it accepts)
BAD_ENVIRONMENT = [
    ("GIN_PORT", "abc", PORT),
    ("GIN_PORT", "0", PORT),
    ("GIN_PORT", "65536", PORT),
    ("GIN_HOST", "", "a host name or IP address"),
    ("GIN_DATA_DIR", "", "a folder path"),
    ("GIN_DATABASE_URL", "gin.example:5432", URL),
    ("DATABASE_URL", "mysql://gin@db/gin", URL),
    ("GIN_LOG_LEVEL", "chatty", LOG_LEVEL),
    ("GIN_POOL_MIN_SIZE", "0", AT_LEAST_ONE),
    ("GIN_POOL_MAX_SIZE", "ten", AT_LEAST_ONE),
    ("GIN_SNAPSHOT_EVERY", "-5", AT_LEAST_ONE),
    ("GIN_WEBHOOK_ENABLED", "off", "true or false (or 1/0, yes/no)"),
    ("GIN_WEBHOOK_POLL_SECONDS", "soon", SECONDS),
    ("GIN_WEBHOOK_BATCH_SIZE", "0", AT_LEAST_ONE),
    ("GIN_WEBHOOK_TIMEOUT_SECONDS", "-1", SECONDS),
    ("GIN_WEBHOOK_LEASE_SECONDS", "nan", SECONDS),
    ("GIN_WEBHOOK_RETRY_BASE_SECONDS", "0", SECONDS),
    ("GIN_WEBHOOK_RETRY_CAP_SECONDS", "1h", SECONDS),
    ("GIN_WEBHOOK_MAX_ATTEMPTS", "2.5", AT_LEAST_ONE),
    (
        "GIN_WEBHOOK_ALLOWED_NETWORKS",
        "127.0.0.0/8,intranet",
        "networks in CIDR notation, comma-separated (127.0.0.0/8,::1/128)",
    ),
    ("GIN_DATABASE_TIMEOUT_SECONDS", "0", SECONDS),
    ("GIN_READ_TIMEOUT_SECONDS", "forever", SECONDS),
    ("GIN_MAX_BODY_BYTES", "100", "a number of bytes from 1024 to 1048576"),
    ("GIN_MAX_BODY_BYTES", "20MB", "a number of bytes from 1024 to 1048576"),
]

# (option, bad value, what the error says it accepts)
BAD_OPTIONS = [
    ("--port", "abc", PORT),
    ("--host", " ", "a host name or IP address"),
    ("--data-dir", "", "a folder path"),
    ("--database-url", "localhost", URL),
    ("--workers", "0", AT_LEAST_ONE),
    ("--server", "nginx", "one of uvicorn, granian"),
    ("--log-level", "chatty", LOG_LEVEL),
]


Gin = Callable[..., subprocess.CompletedProcess[str]]


def gin_process(
    *args: str, env: dict[str, str], data_dir: Path
) -> subprocess.CompletedProcess[str]:
    """``gin ARGS`` with only ``env`` and the data folder set of all the service's variables."""
    clean = {k: v for k, v in os.environ.items() if k not in ENVIRONMENT}
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env={**clean, "GIN_DATA_DIR": str(data_dir), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def gin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Gin:
    """``gin ARGS`` as ``gin_process`` runs it, through ``main`` in this process."""

    def run(*args: str, env: dict[str, str], data_dir: Path) -> subprocess.CompletedProcess[str]:
        for name in ENVIRONMENT:
            monkeypatch.delenv(name, raising=False)
        for name, value in {"GIN_DATA_DIR": str(data_dir), **env}.items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        status = main(list(args))
        said = capsys.readouterr()
        return subprocess.CompletedProcess(list(args), status, said.out, said.err)

    return run


def assert_refused(
    result: subprocess.CompletedProcess[str], data_dir: Path, line_start: str, line_end: str
) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith(line_start), line
    assert line.endswith(line_end), line
    assert result.stdout == ""  # gin serve says where it serves only once the database is up
    assert not data_dir.exists()  # no embedded PostgreSQL started, no migration run


@pytest.mark.parametrize(("name", "value", "accepts"), BAD_ENVIRONMENT)
def test_a_bad_variable_stops_gin_serve_before_it_starts_anything(
    gin: Gin, tmp_path: Path, name: str, value: str, accepts: str
) -> None:
    data_dir = tmp_path / "data"
    # The data folder given as an option too, so that a bad GIN_DATA_DIR has a folder to
    # (not) create.
    result = gin("serve", "--data-dir", str(data_dir), env={name: value}, data_dir=data_dir)

    assert_refused(result, data_dir, f"gin: {name} must be {accepts}, ", f"not {value!r}")


@pytest.mark.parametrize(("option", "value", "accepts"), BAD_OPTIONS)
def test_a_bad_option_stops_gin_serve_before_it_starts_anything(
    gin: Gin, tmp_path: Path, option: str, value: str, accepts: str
) -> None:
    data_dir = tmp_path / "data"
    result = gin("serve", option, value, env={}, data_dir=data_dir)

    assert_refused(result, data_dir, f"gin: {option} must be {accepts}, ", f"not {value!r}")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"GIN_WEBHOOK_TIMEOUT_SECONDS": "10", "GIN_WEBHOOK_LEASE_SECONDS": "5"},
            "gin: GIN_WEBHOOK_LEASE_SECONDS must be longer than GIN_WEBHOOK_TIMEOUT_SECONDS "
            "(10), not '5'",
        ),
        (
            {"GIN_POOL_MIN_SIZE": "20", "GIN_POOL_MAX_SIZE": "10"},
            "gin: GIN_POOL_MIN_SIZE must be at most GIN_POOL_MAX_SIZE (10), not '20'",
        ),
    ],
)
def test_settings_that_contradict_each_other_stop_gin_serve(
    gin: Gin, tmp_path: Path, env: dict[str, str], expected: str
) -> None:
    data_dir = tmp_path / "data"
    result = gin("serve", env=env, data_dir=data_dir)

    assert_refused(result, data_dir, expected, expected)


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (("db", "upgrade", "--data-dir", ""), {}, "gin: --data-dir must be a folder path, not ''"),
        (
            ("operator", "list-keys"),
            {"DATABASE_URL": "gin@db"},
            "gin: DATABASE_URL must be a postgresql:// URL, not 'gin@db'",
        ),
        (
            ("audit", "some-match", "--database-url", "db:5432"),
            {},
            "gin: --database-url must be a postgresql:// URL, not 'db:5432'",
        ),
    ],
)
def test_the_database_commands_check_their_settings_too(
    gin: Gin, tmp_path: Path, args: tuple[str, ...], env: dict[str, str], expected: str
) -> None:
    data_dir = tmp_path / "data"
    result = gin(*args, env=env, data_dir=data_dir)

    assert_refused(result, data_dir, expected, expected)


@pytest.mark.e2e  # runs gin as a process
@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        (("serve",), {"GIN_PORT": "abc"}, f"gin: GIN_PORT must be {PORT}, not 'abc'"),
        (("serve", "--workers", "0"), {}, f"gin: --workers must be {AT_LEAST_ONE}, not '0'"),
        (
            ("db", "upgrade", "--database-url", "localhost"),
            {},
            f"gin: --database-url must be {URL}, not 'localhost'",
        ),
    ],
)
def test_the_gin_process_refuses_a_bad_setting_before_it_starts_anything(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], expected: str
) -> None:
    data_dir = tmp_path / "data"
    result = gin_process(*args, env=env, data_dir=data_dir)

    assert_refused(result, data_dir, expected, expected)


def test_every_variable_the_service_passes_to_its_workers_is_checked() -> None:
    assert set(Settings(database_url="postgresql://db/gin").to_env()) <= set(ENVIRONMENT)


def test_the_accepted_spellings_read_as_before() -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "",
            "GIN_PORT": "8080",
            "GIN_LOG_LEVEL": "debug",
            "GIN_WEBHOOK_ENABLED": "No",
            "GIN_WEBHOOK_LEASE_SECONDS": "12.5",
        }
    )

    assert settings.database_url is None
    assert settings.port == 8080
    assert settings.log_level == "DEBUG"
    assert settings.webhooks.enabled is False
    assert settings.webhooks.lease_seconds == 12.5
    assert Settings.from_env(settings.to_env()) == settings


def test_a_bad_variable_is_refused_in_process_as_well() -> None:
    with pytest.raises(SettingError, match=r"^GIN_SNAPSHOT_EVERY must be"):
        Settings.from_env({"GIN_SNAPSHOT_EVERY": "often"})


def test_the_players_waiting_and_invite_times_are_read_and_passed_on() -> None:
    settings = Settings.from_env(
        {
            "GIN_QUICK_MATCH_WAIT_SECONDS": "30",
            "GIN_INVITE_SECONDS": "3600",
            "GIN_INVITE_MAX_SECONDS": "7200",
        }
    )

    assert settings.players == PlayerTimes(
        quick_match_wait_seconds=30, invite_seconds=3600, invite_max_seconds=7200
    )
    assert Settings.from_env(settings.to_env()) == settings
    assert Settings.from_env({}).players == PlayerTimes()


@pytest.mark.parametrize(
    ("name", "value", "accepts"),
    [
        ("GIN_QUICK_MATCH_WAIT_SECONDS", "0", "from 1 to 86400"),
        ("GIN_QUICK_MATCH_WAIT_SECONDS", "86401", "from 1 to 86400"),
        ("GIN_QUICK_MATCH_WAIT_SECONDS", "2m", "from 1 to 86400"),
        ("GIN_INVITE_SECONDS", "59", "from 60 to 604800"),
        ("GIN_INVITE_MAX_SECONDS", "604801", "from 60 to 604800"),
    ],
)
def test_a_players_time_out_of_range_is_refused(name: str, value: str, accepts: str) -> None:
    with pytest.raises(SettingError, match=rf"^{name} must be a whole number of seconds {accepts}"):
        Settings.from_env({name: value})


def test_an_invites_default_life_over_its_maximum_is_refused() -> None:
    with pytest.raises(SettingError, match=r"^GIN_INVITE_SECONDS must be at most GIN_INVITE_MAX"):
        Settings.from_env({"GIN_INVITE_SECONDS": "7200", "GIN_INVITE_MAX_SECONDS": "3600"})


def test_the_abandonment_limit_is_a_week_unless_set_and_is_checked() -> None:
    assert Settings.from_env({}).abandon_after_seconds == 7 * 24 * 3600
    settings = Settings.from_env({"GIN_ABANDON_AFTER_SECONDS": "86400"})
    assert settings.abandon_after_seconds == 86400
    assert Settings.from_env(settings.to_env()) == settings
    for bad in ("0", "-1", "a week", "nan"):
        with pytest.raises(SettingError, match=r"^GIN_ABANDON_AFTER_SECONDS must be"):
            Settings.from_env({"GIN_ABANDON_AFTER_SECONDS": bad})
