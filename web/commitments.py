"""``POST /commitments``: the server commits to a future match's seeds before it sees any
entropy; create the match with this commitment to add your own."""

from __future__ import annotations

from litestar import Controller, post
from litestar.params import RawBody
from litestar.status_codes import HTTP_201_CREATED

from service.errors import UnknownCommitment
from service.fairness.commitments import Commitment
from web.docs import problems
from web.empty_body import check_empty_body
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
        check_empty_body(body, "a commitment")
        if matches.commitments is None:
            raise UnknownCommitment("this service does not take commitments")
        return await matches.commitments.create()
