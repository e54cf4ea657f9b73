"""``GET /log/proofs/inclusion`` and ``GET /log/proofs/consistency``: proofs against the log
checkpoints ``GET /log/checkpoint`` signs, for whoever keeps them (``service.audit.log_proofs``;
docs/audit.md says how to check them)."""

from __future__ import annotations

from typing import Annotated, cast

from litestar import Controller, get
from litestar.datastructures import State
from litestar.params import QueryParameter

from service.audit.log_proofs import ConsistencyProof, InclusionProof, LogProver
from service.errors import InvalidParameter
from web.docs import problems
from web.schemas import MAX_VERSION, NO_NUL

Size = Annotated[int, QueryParameter(ge=1, le=MAX_VERSION, description="A log checkpoint's size")]


def provide_prover(state: State) -> LogProver:
    return cast(LogProver, state.log_prover)


class LogProofsController(Controller):
    path = "/log/proofs"
    tags = ("audit",)

    @get(
        "/inclusion",
        summary="Proof that an event is in a log checkpoint",
        responses=problems(400, 404),
    )
    async def inclusion(
        self,
        state: State,
        size: Size,
        position: Annotated[
            int | None,
            QueryParameter(ge=1, le=MAX_VERSION, description="The event's place in the log"),
        ] = None,
        stream: Annotated[
            str | None,
            QueryParameter(
                min_length=1, max_length=300, pattern=NO_NUL, description="The event's stream"
            ),
        ] = None,
        version: Annotated[
            int | None,
            QueryParameter(ge=1, le=MAX_VERSION, description="The event's version in `stream`"),
        ] = None,
    ) -> InclusionProof:
        """The RFC 9162 audit path of one event, named by its `position` (a receipt's) or by
        `stream` and `version`, in the tree of the log checkpoint of `size` events. The hashes
        are of blinded leaves and subtrees only: the leaf is the checker's to make, from the
        event's hash and its match's secret, which the record shows once the match is over.
        400 for a size beyond the log or one that does not cover the event yet."""
        prover = provide_prover(state)
        if position is not None and stream is None and version is None:
            return await prover.inclusion_at(position, size)
        if position is None and stream is not None and version is not None:
            return await prover.inclusion_of(stream, version, size)
        raise InvalidParameter("name the event by position, or by stream and version")

    @get(
        "/consistency",
        summary="Proof that one log checkpoint extends another",
        responses=problems(400, 404),
    )
    async def consistency(
        self,
        state: State,
        first: Annotated[
            int, QueryParameter(ge=1, le=MAX_VERSION, description="The earlier checkpoint's size")
        ],
        second: Annotated[
            int, QueryParameter(ge=1, le=MAX_VERSION, description="The later checkpoint's size")
        ],
    ) -> ConsistencyProof:
        """The RFC 9162 consistency proof from the tree of the `first` events to the tree of
        the `second`: whoever holds both checkpoints checks the log was only appended to in
        between (what `gin witness` does with each checkpoint it fetches)."""
        return await provide_prover(state).consistency(first, second)
