"""A real browser for the web client: Playwright driving the system's headless Chromium
(Debian's ``chromium`` package; `.ci/run` installs it), against ``gin serve`` processes.

Every page a test opens records its console errors and uncaught exceptions, and the requests
it sent that the server held without an answer; a test fails if any page had one (``pages``)."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Literal

import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    Page,
    Request,
    Response,
    async_playwright,
    expect,
)

from bench.servers import Server, gin_serve
from tests.api.players import Table
from tests.conftest import MakeDatabase

CHROMIUM = "/usr/bin/chromium"
# Playwright's 5 s for what a page must come to show was too short on a starved two-core machine
# (a replay's verdict, after the page verified a whole record); only a failing wait takes it.
expect.set_options(timeout=20_000)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ReducedMotion = Literal["reduce", "no-preference"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# The server answers every request but a live stream within a few seconds (its database timeout,
# twice over at most); the page gives up a read after 10 s. Longer unanswered is held.
HELD_SECONDS = 15.0


@pytest.fixture(scope="session")
def server(make_database: MakeDatabase) -> Iterator[Server]:
    """One ``gin serve`` for the browser tests (starting one is most of a test's cost)."""
    with gin_serve(make_database()) as running:
        yield running


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        await launched.close()


@dataclass
class Pages:
    """Opens pages in browser contexts of their own, and keeps what went wrong on them."""

    browser: Browser
    base_url: str
    # Console messages that are expected (a server restart refuses connections for a while).
    tolerated: tuple[str, ...] = ()
    errors: list[str] = field(default_factory=list)
    contexts: list[BrowserContext] = field(default_factory=list)
    # Each request sent and not yet answered (or failed), with when it was sent.
    unanswered: dict[Request, float] = field(default_factory=dict)
    statuses: dict[Request, int] = field(default_factory=dict)

    async def open(
        self,
        path: str = "/",
        viewport: dict[str, int] = DESKTOP,
        *,
        init_script: str = "",
        locale: str = "en-US",
        reduced_motion: ReducedMotion = "reduce",
    ) -> Page:
        """A page in a new browser context whose languages (``navigator.languages``) start
        with ``locale``. It asks for reduced motion unless told otherwise: the page then
        offers the next move without holding the board still for the other seats' moves,
        which only tests/browser/test_opponents_turn.py is about (half a second a bot's turn
        over every whole match the tests play)."""
        context = await self.browser.new_context(
            base_url=self.base_url,
            viewport=viewport,  # type: ignore[arg-type]
            locale=locale,
            reduced_motion=reduced_motion,
        )
        if init_script:
            await context.add_init_script(init_script)
        self.contexts.append(context)
        page = await context.new_page()
        self.watch(page)
        await page.goto(path)
        return page

    async def open_seat(self, table: Table, seat: int = 0) -> Page:
        """The table's page as ``seat`` sees it: its token kept in the browser, as the page
        keeps the seats it starts or joins."""
        key = json.dumps({"token": table.tokens[seat], "seat": seat})
        return await self.open(
            f"/#/play/{table.match_id}",
            init_script=f"localStorage.setItem('gin:seat:{table.match_id}', {key!r})",
        )

    def watch(self, page: Page) -> None:
        page.on("console", lambda message: self._console(message.type, message.text))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", self._sent)
        page.on("response", self._answered)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _sent(self, request: Request) -> None:
        if request.resource_type != "eventsource":
            self.unanswered[request] = time.monotonic()

    def _answered(self, response: Response) -> None:
        self.statuses[response.request] = response.status

    def _ended(self, request: Request) -> None:
        """Each request the pages sent, as it ended, in the test's output (shown when the test
        fails): what a page asked and was answered, before it seemed to stop. It asks the
        browser nothing: an awaited question outlives the test when its context closes, and
        fails the next test."""
        sent = self.unanswered.pop(request, None)
        status = self.statuses.pop(request, None)
        if sent is None:
            return
        ended = request.failure or status
        took = time.monotonic() - sent
        print(f"{sent:.3f} +{took:.3f} s {request.method} {request.url}: {ended}")

    def _console(self, kind: str, text: str) -> None:
        if kind == "error" and not any(expected in text for expected in self.tolerated):
            self.errors.append(text)

    async def close(self) -> None:
        now = time.monotonic()
        self.errors.extend(
            f"{request.method} {request.url} unanswered for {now - sent:.0f} s"
            for request, sent in self.unanswered.items()
            if now - sent > HELD_SECONDS
        )
        for context in self.contexts:
            await context.close()
        assert self.errors == [], "the page logged errors"


@pytest.fixture
async def pages(browser: Browser, server: Server) -> AsyncIterator[Pages]:
    opened = Pages(browser, server.url)
    yield opened
    await opened.close()
