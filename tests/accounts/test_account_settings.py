"""The accounts' settings: trusted issuers and sessions' lifetimes, read from the environment,
refused with a line naming the variable, and handed on to server workers unchanged."""

from __future__ import annotations

import json

import msgspec
import pytest

from service.accounts.settings import ALLOWED_ALGORITHMS, AccountSettings, TrustedIssuer
from web.environment import SettingError
from web.settings import Settings

APPLE = {
    "issuer": "https://appleid.apple.com",
    "audience": "com.example.gin",
    "jwks_url": "https://appleid.apple.com/auth/keys",
}
OWN = {"issuer": "https://id.example", "audience": "gin", "jwks_file": "/etc/gin/jwks.json"}


def test_issuers_and_lifetimes_are_read_and_passed_to_workers() -> None:
    settings = Settings.from_env(
        {
            "GIN_OIDC_ISSUERS": json.dumps([APPLE, {**OWN, "algorithms": ["ES256"]}]),
            "GIN_ACCESS_TOKEN_SECONDS": "300",
            "GIN_REFRESH_TOKEN_SECONDS": "86400",
            "GIN_OIDC_LEEWAY_SECONDS": "0",
        }
    )

    assert settings.accounts == AccountSettings(
        access_seconds=300,
        refresh_seconds=86400,
        leeway_seconds=0,
        issuers=(
            msgspec.convert(APPLE, TrustedIssuer),
            msgspec.convert({**OWN, "algorithms": ["ES256"]}, TrustedIssuer),
        ),
    )
    assert settings.accounts.issuers[0].algorithms == ALLOWED_ALGORITHMS
    assert Settings.from_env(settings.to_env()).accounts == settings.accounts
    assert Settings.from_env({}).accounts == AccountSettings()


@pytest.mark.parametrize(
    "issuers",
    [
        [{**APPLE, "algorithms": ["HS256"]}],  # a public key is never an HMAC secret
        [{**APPLE, "algorithms": ["none"]}],
        [{**APPLE, "algorithms": []}],
        [{**APPLE, "jwks_file": "/etc/keys.json"}],  # both places
        [{"issuer": "https://id.example", "audience": "gin"}],  # no keys
        [{**APPLE, "audience": ""}],
        [{**APPLE, "extra": 1}],
        [APPLE, APPLE],  # one issuer twice
        {"issuer": "https://id.example"},
        "not json",
    ],
)
def test_issuers_the_service_cannot_trust_safely_are_refused(issuers: object) -> None:
    text = issuers if isinstance(issuers, str) else json.dumps(issuers)

    with pytest.raises(SettingError, match=r"^GIN_OIDC_ISSUERS must be a JSON list"):
        Settings.from_env({"GIN_OIDC_ISSUERS": text})


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"GIN_ACCESS_TOKEN_SECONDS": "10"}, "GIN_ACCESS_TOKEN_SECONDS"),
        ({"GIN_REFRESH_TOKEN_SECONDS": "forever"}, "GIN_REFRESH_TOKEN_SECONDS"),
        ({"GIN_OIDC_LEEWAY_SECONDS": "3600"}, "GIN_OIDC_LEEWAY_SECONDS"),
        (
            {"GIN_ACCESS_TOKEN_SECONDS": "7200", "GIN_REFRESH_TOKEN_SECONDS": "3600"},
            "GIN_ACCESS_TOKEN_SECONDS must be shorter than GIN_REFRESH_TOKEN_SECONDS",
        ),
    ],
)
def test_lifetimes_out_of_range_are_refused(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingError, match=f"^{named}"):
        Settings.from_env(env)
