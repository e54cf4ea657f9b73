"""The web client: static files (plain JavaScript modules, no build step) served at ``/``."""

from __future__ import annotations

from pathlib import Path

from litestar.router import Router
from litestar.static_files import create_static_files_router

CLIENT_FILES = Path(__file__).parent / "static"


def client_files() -> Router:
    return create_static_files_router(
        path="/",
        directories=[CLIENT_FILES],
        html_mode=True,
        include_in_schema=False,
        name="client",
    )
