"""The two-process bench's model: what C2/C1 should be from one process's CPU per command."""

from __future__ import annotations

import pytest

from bench.floor import Run
from bench.two_processes import Measured, Shares, predicted_ratio


def one_process(server_ms: float, postgres_ms: float, client_ms: float, others: float) -> Measured:
    """1,000 commands over 10 s, and ``others`` cores taken by the rest of the machine."""
    commands, seconds = 1000, 10.0
    run = Run(latencies=[0.001] * commands, seconds=seconds)
    run.server_cpu, run.postgres_cpu = server_ms, postgres_ms  # ms x 1,000 commands = s
    shares = Shares(
        servers=[server_ms / seconds],
        postgres=postgres_ms / seconds,
        client=client_ms / seconds,
        machine=(server_ms + postgres_ms + client_ms) / seconds + others,
    )
    return Measured(run, shares, client_ms)


@pytest.mark.parametrize(
    ("server", "postgres", "client", "expected"),
    [
        (2.0, 1.0, 0.0, 4 / 3),  # the machine is the limit: 2s / (s + p + c)
        (2.21, 1.00, 0.25, 2 * 2.21 / 3.46),
        (2.0, 0.0, 0.0, 2.0),  # nothing but the servers: one core each
        (1.0, 3.0, 0.0, 1.0),  # PostgreSQL already takes what a second process would
    ],
)
def test_on_a_machine_of_its_own(
    server: float, postgres: float, client: float, expected: float
) -> None:
    measured = one_process(server, postgres, client, others=1.5)
    assert predicted_ratio(measured, 2, alone=True) == pytest.approx(expected)


def test_on_a_full_machine_a_second_process_adds_nothing_by_the_free_cores_model() -> None:
    measured = one_process(2.0, 1.0, 0.0, others=1.7)
    assert predicted_ratio(measured, 2) == pytest.approx(1.0)
