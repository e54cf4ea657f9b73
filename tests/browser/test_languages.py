"""The page in English, Croatian and Romanian: a whole match against the bots in each language,
at every table size, shows no word of its interface that the language's catalogue does not
hold (card labels and numbers aside), so a sentence left in English fails it; the language
follows the browser's, and one chosen on the page changes the words at once and stays chosen
after a reload."""

from __future__ import annotations

import json
import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import DESKTOP, Pages
from tests.browser.table import board, match_over, my_turn, play_one_move
from web.client import CLIENT_FILES

LOCALES = {"en": "en-GB", "hr": "hr-HR", "ro": "ro-RO"}
MOVES = 2000
MATCHES_TRIED = 5
CARD_LABEL = re.compile(r"(10|[A2-9JQK])[♣♦♥♠]")
WORD = re.compile(r"[^\W\d_]+")
# Every text node shown (the language choice, key caps and card faces aside) and every name
# given to assistive technology, with the page's title.
SHOWN = """() => {
  const said = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim()) continue;
    if (parent.closest("script, style, kbd, #language, .card")) continue;
    if (!parent.checkVisibility()) continue;
    said.push(node.textContent);
  }
  for (const element of document.querySelectorAll("[aria-label], [title]")) {
    if (!element.checkVisibility() && !element.closest(".visually-hidden")) continue;
    said.push(element.getAttribute("aria-label") ?? "", element.getAttribute("title") ?? "");
  }
  return said;
}"""


def words_of(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(CARD_LABEL.sub(" ", text))}


def catalogue_words(language: str) -> set[str]:
    messages = json.loads((CLIENT_FILES / "i18n" / f"{language}.json").read_text("utf-8"))
    words: set[str] = set()
    for message in messages.values():
        for form in [message] if isinstance(message, str) else message.values():
            words |= words_of(re.sub(r"\{\w+\}", " ", form))
    return words


async def shown_words(page: Page) -> dict[str, str]:
    """Each word shown, with a line it was shown in."""
    found: dict[str, str] = {}
    for text in await page.evaluate(SHOWN):
        for word in words_of(text):
            found.setdefault(word, text)
    return found


async def play_it(page: Page, shown: dict[str, str], screens: set[str]) -> None:
    """Plays the match to its end, noting each word shown and each kind of screen seen."""
    for _ in range(MOVES):
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        # The table mid-hand, the last hand's and game's summaries, the match's end.
        for screen, selector in (
            ("table", ".hand"),
            ("hand summary", ".ended-hand"),
            ("match summary", ".over"),
        ):
            if await page.locator(selector).count():
                screens.add(screen)
        for word, line in (await shown_words(page)).items():
            shown.setdefault(word, line)
        if await match_over(page):
            return
        if await my_turn(page):
            await play_one_move(page, keyboard=False)
    raise AssertionError("the match did not end")


async def start(page: Page, players: int, game_target: int) -> None:
    await page.locator("#players").select_option(str(players))
    await page.locator("#game-target").fill(str(game_target))
    await page.locator("[data-start=bot]").click()
    # The new match's table, not the last one's: the lobby is left once the match is created.
    await expect(page).to_have_url(re.compile(r"#/play/"))
    await expect(board(page)).to_have_attribute("data-players", str(players))
    await expect(board(page)).to_have_attribute("data-version", re.compile(r"\d+"))


@pytest.mark.slow
# Each table size in a language other than English (words left in English show there), and
# English once: five whole matches, not nine, for the same findings.
@pytest.mark.parametrize(
    ("language", "players"), [("hr", 2), ("ro", 3), ("hr", 4), ("en", 3), ("ro", 2)]
)
async def test_a_whole_match_speaks_one_language(pages: Pages, language: str, players: int) -> None:
    page = await pages.open("/", viewport=DESKTOP, locale=LOCALES[language])
    await expect(page.locator("html")).to_have_attribute("lang", language)
    await page.locator("[data-start=bot]").wait_for()
    shown = await shown_words(page)  # the lobby
    screens = {"lobby"}
    # At three seats the bots may play a short match to its end while the person sits out:
    # then another match, until one showed every screen.
    for _ in range(MATCHES_TRIED):
        await page.goto("/")  # a new document, as in test_play's loops
        await start(page, players, 10 if players == 2 else 40)
        await play_it(page, shown, screens)
        if screens == {"lobby", "table", "hand summary", "match summary"}:
            break
    assert screens == {"lobby", "table", "hand summary", "match summary"}, screens

    known = catalogue_words(language)
    foreign = {word: line for word, line in shown.items() if word not in known}
    assert foreign == {}, f"words not in the {language} catalogue"
    if language != "en":
        english_only = catalogue_words("en") - known
        assert english_only & shown.keys() == set()


async def test_the_language_chosen_on_the_page_changes_it_at_once_and_stays(
    pages: Pages,
) -> None:
    page = await pages.open("/", viewport=DESKTOP, locale="en-US")
    heading = page.locator(".lobby h2").first
    await expect(heading).to_have_text("New match")
    await start(page, 2, 100)
    status = page.locator("[role=status]").first
    await expect(page.locator(".scores dt").first).to_have_text("You")

    await page.locator("#language").select_option("ro")
    await expect(page.locator("html")).to_have_attribute("lang", "ro")
    await expect(page.locator(".scores dt").first).to_have_text("Tu")
    await expect(page.locator("header h1")).to_have_text("Remi gin")
    await expect(status).to_have_text(re.compile(r"rândul|tragerea"))

    await page.reload()
    await expect(page.locator("html")).to_have_attribute("lang", "ro")
    await expect(page.locator("#language")).to_have_value("ro")
    await expect(page.locator(".scores dt").first).to_have_text("Tu")

    await page.locator("#language").select_option("hr")
    await page.goto("/#/")
    await expect(heading).to_have_text("Novi meč")
    await expect(page.locator("[data-start=bot]")).to_have_text("Igraj protiv bota")
    await expect(page).to_have_title("Gin remi")
