"""The page's message catalogues agree: every language has every message and no other, each
translation takes the parameters its English message takes (in every plural form), and every
message the page's modules ask for exists. No browser: the files are read as they are served."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from web.client import CLIENT_FILES

LANGUAGES = ("en", "hr", "ro")
# Plural categories each language's messages may use (Intl.PluralRules; "other" always).
PLURALS = {"en": {"one", "other"}, "hr": {"one", "few", "other"}, "ro": {"one", "few", "other"}}
ASKED = re.compile(r"""\bt\(\s*["']([\w.-]+)["']""")
ASKED_BY_PREFIX = re.compile(r"""\bt\(\s*`([\w.-]+)\$\{""")
MARKED = re.compile(r'data-i18n="([\w.-]+)"')
PARAM = re.compile(r"\{(\w+)\}")

Message = str | dict[str, str]


def catalogue(language: str) -> dict[str, Message]:
    loaded: dict[str, Message] = json.loads(
        (CLIENT_FILES / "i18n" / f"{language}.json").read_text(encoding="utf-8")
    )
    return loaded


def forms(message: Message) -> list[str]:
    return [message] if isinstance(message, str) else list(message.values())


def params(message: Message) -> set[str]:
    return {name for form in forms(message) for name in PARAM.findall(form)}


def sources() -> list[Path]:
    return [*sorted(CLIENT_FILES.glob("*.js")), CLIENT_FILES / "index.html"]


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_every_message_and_no_other(language: str) -> None:
    english = catalogue("en")
    other = catalogue(language)
    assert sorted(english.keys() - other.keys()) == [], "missing"
    assert sorted(other.keys() - english.keys()) == [], "not in English"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_takes_the_messages_parameters(language: str) -> None:
    english = catalogue("en")
    for key, message in catalogue(language).items():
        wanted = params(english[key])
        for form in forms(message):
            assert set(PARAM.findall(form)) == wanted, (language, key, form)
            assert form.strip(), (language, key)
        if isinstance(message, dict):
            assert "other" in message, (language, key)
            assert message.keys() <= PLURALS[language], (language, key, sorted(message))


def test_every_message_the_page_asks_for_exists() -> None:
    keys = catalogue("en").keys()
    asked: set[str] = set()
    prefixes: set[str] = set()
    for source in sources():
        text = source.read_text(encoding="utf-8")
        asked |= set(ASKED.findall(text)) | set(MARKED.findall(text))
        prefixes |= set(ASKED_BY_PREFIX.findall(text))
    assert len(asked) > 150, "the pattern no longer finds the page's messages"
    assert sorted(asked - keys) == []
    # A key built at run time (a rank, a suit, an outcome): some message has its prefix.
    assert prefixes
    assert sorted(p for p in prefixes if not any(key.startswith(p) for key in keys)) == []
