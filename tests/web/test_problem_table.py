"""The web layer's one table from refusals to HTTP statuses covers every kind there is."""

from __future__ import annotations

import domain.errors
import service.errors
from web.problems import STATUS_OF_KIND


def _kinds(base: type[Exception]) -> set[str]:
    found: set[str] = set()
    pending = [base]
    while pending:
        cls = pending.pop()
        found.add(cls.kind)  # type: ignore[attr-defined]
        pending.extend(cls.__subclasses__())
    return found


def test_every_error_kind_has_a_status() -> None:
    kinds = _kinds(domain.errors.DomainError) | _kinds(service.errors.ServiceError)
    assert kinds - STATUS_OF_KIND.keys() == set()


def test_the_table_names_no_kind_that_does_not_exist() -> None:
    kinds = _kinds(domain.errors.DomainError) | _kinds(service.errors.ServiceError)
    assert STATUS_OF_KIND.keys() - kinds == set()


def test_use_case_errors_carry_no_http_status() -> None:
    for kind_class in service.errors.ServiceError.__subclasses__():
        assert not hasattr(kind_class, "status"), kind_class
