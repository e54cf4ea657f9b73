"""What the page costs a first-time visitor: the bytes transferred until the first screen can be
used (held under a budget), with the one message catalogue of the visitor's language and no
other, and the time to it (reported, never asserted: this machine is shared)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.browser.conftest import PHONE, Pages

BUDGET_BYTES = 200_000
# The first screen's files as the server sends them to a client that takes only gzip.
GZIP_BUDGET_BYTES = 25_000
FIRST_FILES = """() => [
  performance.getEntriesByType("navigation")[0].name,
  ...performance.getEntriesByType("resource").map((r) => r.name),
]"""
FIRST_LOAD = """() => {
  const navigation = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const interactive = performance.getEntriesByName("gin:interactive")[0];
  return {
    bytes: navigation.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
    files: resources.length + 1,
    interactive_ms: interactive ? interactive.startTime : null,
  };
}"""


@pytest.mark.parametrize("language", ["en", "hr", "ro"])
async def test_the_first_load_is_small(
    pages: Pages, record_property: Callable[[str, Any], None], language: str
) -> None:
    page = await pages.open("/", viewport=PHONE, locale=language)
    await page.locator("[data-start=bot]").wait_for()
    await page.wait_for_function("performance.getEntriesByName('gin:interactive').length > 0")

    load = await page.evaluate(FIRST_LOAD)

    for name, value in load.items():
        record_property(name, value)
    print(
        f"\nfirst load: {load['bytes']} bytes in {load['files']} files, "
        f"interactive after {load['interactive_ms']:.0f} ms"
    )
    assert 0 < load["bytes"] < BUDGET_BYTES

    urls: list[str] = await page.evaluate(FIRST_FILES)
    catalogues = [url for url in urls if "/i18n/" in url]
    assert [url.rsplit("/", 1)[1] for url in catalogues] == [f"{language}.json"], urls
    gzipped = 0
    async with httpx.AsyncClient(headers={"Accept-Encoding": "gzip"}) as http:
        for url in urls:
            async with http.stream("GET", url.split("#")[0]) as response:
                assert response.status_code == 200, url
                gzipped += len(b"".join([chunk async for chunk in response.aiter_raw()]))
    record_property("gzip_bytes", gzipped)
    print(
        f"first screen with gzip ({language}): {gzipped} bytes in {len(urls)} files, "
        f"its catalogue included"
    )
    assert 0 < gzipped < GZIP_BUDGET_BYTES
