"""Where webhooks may go: public addresses only, however an address is written or a name
resolves, unless a setting allows a network. Names resolve from a table: nothing here looks
anything up or connects anywhere."""

from __future__ import annotations

import pytest

from adapters.memory.delivery_sender import RecordingSender
from adapters.memory.resolver import TableResolver
from service.errors import WebhookUrlRefused
from service.tournament.webhooks.destinations import Destinations
from service.tournament.webhooks.guarded import GuardedSender

PUBLIC = "93.184.215.14"
NAMES = {
    "bracket.example": [PUBLIC, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "intranet.example": ["10.1.2.3"],
    "sneaky.example": [PUBLIC, "192.168.1.10"],  # one private address is enough to refuse
    "metadata.example": ["169.254.169.254"],
    "v6-local.example": ["fd00:ec2::254"],
}


@pytest.fixture
def destinations() -> Destinations:
    return Destinations(TableResolver(NAMES))


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",  # loopback
        "http://localhost/hook",  # a name with no public address (not in the table: none)
        "http://10.0.0.5/hook",  # private
        "http://172.16.0.1/hook",
        "http://192.168.0.1/hook",
        "http://100.64.0.1/hook",  # shared address space (carrier NAT)
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata, link-local
        "http://0.0.0.0/hook",  # unspecified
        "http://224.0.0.1/hook",  # multicast
        "http://2130706433/hook",  # 127.0.0.1 as one decimal number
        "http://0x7f000001/hook",  # ... as one hex number
        "http://0x7f.0.0.1/hook",  # ... with a hex part
        "http://0177.0.0.1/hook",  # ... with an octal part
        "http://127.1/hook",  # ... in two parts
        "http://[::1]/hook",  # IPv6 loopback
        "http://[fe80::1]/hook",  # IPv6 link-local
        "http://[fc00::1]/hook",  # IPv6 unique local
        "http://[fd00:ec2::254]/hook",  # a cloud metadata service's IPv6 address
        "http://[::ffff:127.0.0.1]/hook",  # IPv4-mapped loopback
        "http://[::ffff:a9fe:a9fe]/hook",  # IPv4-mapped metadata address
        "http://[64:ff9b::7f00:1]/hook",  # NAT64 of loopback
        "http://intranet.example/hook",  # a name resolving to a private address
        "http://sneaky.example/hook",  # ... to a public and a private one
        "http://metadata.example/hook",
        "http://v6-local.example/hook",
        "ftp://bracket.example/hook",  # not http(s)
        "http:///no-host",
    ],
)
async def test_a_url_that_is_not_public_is_refused(destinations: Destinations, url: str) -> None:
    with pytest.raises(WebhookUrlRefused):
        await destinations.check(url)


async def test_a_public_url_is_accepted_and_its_address_given(
    destinations: Destinations,
) -> None:
    assert await destinations.check("https://bracket.example/gin") == PUBLIC
    assert await destinations.check(f"http://{PUBLIC}:8080/gin") == PUBLIC


async def test_allowed_networks_may_be_reached_and_nothing_else() -> None:
    loopback = Destinations(TableResolver({"localhost": ["127.0.0.1", "::1"]}), ["127.0.0.0/8"])

    assert await loopback.check("http://127.0.0.1:9999/") == "127.0.0.1"
    assert await loopback.check("http://2130706433:9999/") == "127.0.0.1"
    with pytest.raises(WebhookUrlRefused):
        await loopback.check("http://localhost:9999/")  # ::1 is not allowed
    with pytest.raises(WebhookUrlRefused):
        await loopback.check("http://10.0.0.1/")


async def test_each_attempt_checks_again_and_connects_to_the_address_it_checked() -> None:
    resolver = TableResolver({"hooks.example": [PUBLIC]})
    inner = RecordingSender()
    sender = GuardedSender(inner, Destinations(resolver))

    first = await sender.send("https://hooks.example/in", b"{}", {})
    resolver.table["hooks.example"] = ["169.254.169.254"]  # the name is rebound
    second = await sender.send("https://hooks.example/in", b"{}", {})

    assert first.delivered
    assert [(s.url, s.address) for s in inner.sent] == [("https://hooks.example/in", PUBLIC)]
    assert not second.delivered
    assert second.error is not None
    assert second.error.startswith("refused:")
