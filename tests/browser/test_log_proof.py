"""The replay viewer checks a receipt in the signed log, at two, three and four seats: the
receipt pasted under a finished match's verified record, the page fetches the server's
inclusion proof and leads it, from the leaf it makes itself (WebCrypto, from docs/audit.md),
to the log checkpoint's head; a receipt naming another event, or a checkpoint from before
the event, is not shown in the log."""

from __future__ import annotations

import base64
import random
import re

import httpx
import pytest
from playwright.async_api import Page, expect

from bench.servers import Server
from service.audit.checkpoints import parse_attestation
from service.audit.notes import expand, parse_note
from tests.api.any_size import EVERY_SIZE, create_at, play_out
from tests.browser.conftest import Pages
from tests.log_checkpoints import covering


async def check(page: Page, receipt: str, kept: str = "") -> tuple[str | None, str]:
    await page.fill("#receipt", receipt)
    await page.fill("#log-checkpoint", kept)
    said = page.locator(".log-proof")
    await said.evaluate("line => line.removeAttribute('data-verdict')")
    await page.click("#check-receipt")
    await expect(said).to_have_attribute("data-verdict", re.compile("^(verified|discrepancy)$"))
    return await said.get_attribute("data-verdict"), await said.inner_text()


@pytest.mark.slow
@EVERY_SIZE
async def test_a_receipt_is_checked_in_the_log_from_the_replay_page(
    pages: Pages, server: Server, seats: int
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        before = await create_at(http, seats)
        stream = ("match-" if seats == 2 else "format-match-") + before.match_id
        _, _, early = await covering(http, {"stream": stream, "version": 1})
        table = await create_at(http, seats)
        responses = await play_out(http, table, random.Random(150 + seats))
        headers = [r.headers["Gin-Receipt"] for r in responses]
        named = [parse_attestation(parse_note(expand(h)).text) for h in headers]
        _, _, kept = await covering(http, *({"position": r.position} for r in named))
    page = await pages.open(f"/#/replay/{table.match_id}")
    await expect(page.locator(".verdict")).to_have_attribute("data-verdict", "verified")
    await page.click(".receipt-check summary")

    receipt, text = named[len(named) // 2], parse_note(expand(headers[len(named) // 2])).text
    verdict, said = await check(page, headers[len(named) // 2])
    assert verdict == "verified", said
    assert f"version {receipt.version} is event " in said
    verdict, said = await check(page, headers[-1], kept)
    assert verdict == "verified", said

    # The receipt of another event at this one's place: the leaf it makes is in no log.
    other = named[0]
    moved = text.replace(f"\nversion {receipt.version}\n", f"\nversion {other.version}\n")
    verdict, said = await check(page, base64.b64encode(moved.encode()).decode(), kept)
    assert verdict == "discrepancy", said
    assert "is not in the log the checkpoint of" in said

    # A checkpoint from before the match: the server has no proof of the event in it.
    pages.tolerated = ("400",)
    verdict, said = await check(page, headers[-1], early)
    assert verdict == "discrepancy", said
    assert "does not cover it yet" in said, said
