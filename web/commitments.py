"""``POST /commitments``: the server commits to a future match's seeds before it sees any
entropy; create the match with this commitment to add your own."""

from __future__ import annotations

import msgspec
from litestar import Controller, post
from litestar.params import RawBody
from litestar.status_codes import HTTP_201_CREATED

from service.errors import InvalidRequest, MalformedJson, UnknownCommitment
from service.fairness.commitments import Commitment
from web.docs import problems
from web.params import Matches


class CommitmentsController(Controller):
    path = "/commitments"
    tags = ("matches",)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Commit to a match's seeds",
        responses=problems(400, 413, 422),
    )
    async def create(self, matches: Matches, body: RawBody) -> Commitment:
        """Send ``commitment`` with ``entropy`` to ``POST /matches`` within a day; every deal
        of that match is then a function of the committed seeds and the entropy. The body is
        empty or ``{}``."""
        _check_empty(body)
        if matches.commitments is None:
            raise UnknownCommitment("this service does not take commitments")
        return await matches.commitments.create()


class NoFields(msgspec.Struct, forbid_unknown_fields=True):
    """A commitment takes nothing from the client (its entropy comes with the match)."""


def _check_empty(body: bytes) -> None:
    # Read, even though nothing in it is used: so its size is bounded (413), and a client that
    # sends something else learns now rather than believing it was taken.
    if not body.strip():
        return
    try:
        msgspec.json.decode(body, type=NoFields)
    except msgspec.ValidationError as error:
        raise InvalidRequest(f"a commitment takes an empty body or {{}}: {error}") from None
    except msgspec.DecodeError as error:
        raise MalformedJson(f"the body is not valid JSON: {error}") from None
