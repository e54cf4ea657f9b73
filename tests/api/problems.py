"""Assertions on RFC 9457 problem responses."""

from __future__ import annotations

from typing import Any


def assert_problem(response: Any, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json", response.headers
    problem: dict[str, Any] = response.json()
    assert problem["type"] == f"/problems/{kind}", problem
    assert problem["status"] == status
    assert problem["title"]
    assert problem["detail"]
    return problem
