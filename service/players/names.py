"""Display names: what a player is called in views, summaries and records.

A name is normalised to NFC (so the same name typed on two keyboards is one name), trimmed, and
refused if it is empty, longer than ``MAX_LENGTH`` characters, or holds a character that is no
part of a name: control and format characters (NUL, line breaks, bidirectional overrides that
would reverse what follows the name), surrogates, private-use and unassigned code points.
"""

from __future__ import annotations

import unicodedata

from service.errors import DisplayNameTooLong, InvalidDisplayName

MAX_LENGTH = 32
# Zero-width joiners and variation selectors make one emoji of several code points: allowed.
ALLOWED_FORMAT = frozenset("\u200d\ufe0e\ufe0f")
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def display_name(text: str) -> str:
    """``text`` as a display name, normalised; refused if it cannot be one."""
    # Checked before normalising too: NFC of a huge text is work a refusal need not do.
    if len(text) > 4 * MAX_LENGTH:
        raise DisplayNameTooLong(f"a display name has at most {MAX_LENGTH} characters")
    name = unicodedata.normalize("NFC", text).strip()
    if len(name) > MAX_LENGTH:
        raise DisplayNameTooLong(f"a display name has at most {MAX_LENGTH} characters")
    if not name:
        raise InvalidDisplayName("a display name needs at least one visible character")
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES and char not in ALLOWED_FORMAT:
            raise InvalidDisplayName(f"a display name cannot hold the character U+{ord(char):04X}")
    return name
