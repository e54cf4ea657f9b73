"""``Link`` headers (RFC 8288) for paged lists: the following page is this request's own
address with its cursor moved, every other filter kept, so a client that follows links needs
to know nothing of the cursor's name."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from litestar import Request


def next_link(request: Request[Any, Any, Any], cursor: str, value: str | int) -> dict[str, str]:
    """The ``Link`` header to the page after this one, ``cursor`` set to ``value``."""
    kept = [(k, v) for k, v in request.query_params.multi_items() if k != cursor]
    query = urlencode([*kept, (cursor, str(value))])
    return {"Link": f'<{request.url.path}?{query}>; rel="next"'}
