"""Pure parts of webhooks: what a receiver checks, and how retries are paced."""

from __future__ import annotations

import pytest

from service.tournament.webhooks.settings import WebhookSettings
from service.tournament.webhooks.signing import signature_headers, verify
from tests.tournament.webhook_helpers import expected_signature
from web.settings import Settings

SECRET = "whsec_0123456789abcdef"
BODY = b'{"kind":"match_end"}'
NOW = 1_700_000_000


def test_the_signature_is_the_documented_hmac_of_timestamp_dot_body() -> None:
    headers = signature_headers(SECRET, NOW, BODY)

    assert headers["X-Gin-Timestamp"] == str(NOW)
    assert headers["X-Gin-Signature"] == expected_signature(SECRET, str(NOW), BODY)


def test_a_receiver_accepts_a_fresh_signed_delivery() -> None:
    headers = signature_headers(SECRET, NOW, BODY)

    assert verify(SECRET, BODY, headers["X-Gin-Timestamp"], headers["X-Gin-Signature"], now=NOW)


@pytest.mark.parametrize(
    ("secret", "body", "timestamp", "now"),
    [
        ("whsec_another-secret-entirely", BODY, NOW, NOW),  # signed with another secret
        (SECRET, BODY + b" ", NOW, NOW),  # body changed on the way
        (SECRET, BODY, NOW, NOW + 301),  # replayed after the tolerance
        (SECRET, BODY, NOW + 1, NOW),  # timestamp changed, signature kept
    ],
)
def test_a_receiver_refuses_a_forged_altered_or_replayed_delivery(
    secret: str, body: bytes, timestamp: int, now: int
) -> None:
    signed = signature_headers(SECRET, NOW, BODY)["X-Gin-Signature"]

    assert not verify(secret, body, str(timestamp), signed, now=now)


def test_retries_back_off_by_doubling_up_to_the_cap() -> None:
    settings = WebhookSettings(retry_base_seconds=5, retry_cap_seconds=60)

    assert [settings.backoff(n) for n in range(1, 7)] == [5, 10, 20, 40, 60, 60]


def test_a_lease_shorter_than_the_send_timeout_is_refused() -> None:
    with pytest.raises(ValueError, match="lease"):
        WebhookSettings(timeout_seconds=10, lease_seconds=10)


def test_webhook_settings_travel_through_the_environment() -> None:
    settings = Settings(webhooks=WebhookSettings(enabled=False, poll_seconds=0.25, max_attempts=3))

    assert Settings.from_env(settings.to_env()) == settings
