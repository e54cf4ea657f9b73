"""A primary and its standby in one URL (``host1:port1,host2:port2``, libpq's list) reach the
migrations' SQLAlchemy engine as the same hosts, in the same order, with the same options."""

from __future__ import annotations

from sqlalchemy import create_engine

from adapters.postgres.migrate import sqlalchemy_url


def connect_arguments(url: str) -> dict[str, object]:
    engine = create_engine(sqlalchemy_url(url))
    _, arguments = engine.dialect.create_connect_args(engine.url)
    return {k: v for k, v in arguments.items() if k != "context"}


def test_a_list_of_hosts_keeps_every_host_in_order_with_its_port() -> None:
    url = (
        "postgresql://gin_service:s%40cret@10.0.0.1:5432,10.0.0.2:5433/gin"
        "?target_session_attrs=read-write&connect_timeout=2"
    )
    assert connect_arguments(url) == {
        "dbname": "gin",
        "user": "gin_service",
        "password": "s@cret",
        "host": "10.0.0.1,10.0.0.2",
        "port": "5432,5433",
        "target_session_attrs": "read-write",
        "connect_timeout": "2",
    }


def test_a_list_without_options_or_credentials() -> None:
    assert connect_arguments("postgres://db-a:5432,db-b:5432/gin") == {
        "dbname": "gin",
        "host": "db-a,db-b",
        "port": "5432,5432",
    }


def test_one_host_is_left_as_it_was() -> None:
    url = "postgresql://gin@127.0.0.1:5432/gin?sslmode=disable"
    assert sqlalchemy_url(url) == "postgresql+psycopg://gin@127.0.0.1:5432/gin?sslmode=disable"
