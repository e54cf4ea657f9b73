"""OpenAPI details shared by the controllers: the problem responses each route may give."""

from __future__ import annotations

from http import HTTPStatus

from litestar.openapi.datastructures import ResponseSpec

from web.problems import PROBLEM_MEDIA_TYPE, Problem

BEARER = "BearerToken"


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The problem+json responses a route documents, by status."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            description=HTTPStatus(status).phrase + " (RFC 9457 problem details)",
            media_type=PROBLEM_MEDIA_TYPE,
            # Litestar would invent random strings as examples of each field.
            generate_examples=False,
        )
        for status in statuses
    }
