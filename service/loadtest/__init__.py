"""``gin loadtest``: concurrent matches over HTTP against the raw PostgreSQL insert rate."""

from service.loadtest.command import add_loadtest_command, run_loadtest

__all__ = ["add_loadtest_command", "run_loadtest"]
