"""Which webhook targets are publicly reachable (CONTRACT.md section 6): every class of address
that is not, in IPv4 and IPv6, with IPv4 carried inside IPv6 (mapped, 6to4, NAT64) included.
Hosts here are address literals, which the resolver reads without asking DNS."""

from __future__ import annotations

import ipaddress

import pytest

from app.errors import InvalidInput
from app.outbound.url_safety import check_webhook_url, is_public

NOT_PUBLIC = {
    "loopback": ["127.0.0.1", "127.255.255.254", "::1"],
    "private": ["10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fc00::1", "fd12::1"],
    "link-local": ["169.254.169.254", "fe80::1"],
    "CGNAT": ["100.64.0.1", "100.127.255.254"],
    "multicast": ["224.0.0.1", "239.255.255.250", "ff02::1", "ff0e::1"],
    "reserved": ["240.0.0.1", "255.255.255.255", "192.0.2.1", "198.18.0.1", "2001:db8::1"],
    "unspecified": ["0.0.0.0", "::"],
    "IPv4-mapped": [
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "::ffff:169.254.169.254",
        "::ffff:100.64.0.1",
        "::ffff:0.0.0.0",
    ],
    "IPv4-compatible": ["::127.0.0.1"],
    "6to4 of a private address": ["2002:7f00:1::1", "2002:a00:1::1"],
    "NAT64 of a private address": ["64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe"],
}
PUBLIC = ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001::200e"]


@pytest.mark.parametrize(
    "address", [(kind, a) for kind, addresses in NOT_PUBLIC.items() for a in addresses], ids=str
)
def test_non_public_addresses(address: tuple[str, str]) -> None:
    assert not is_public(ipaddress.ip_address(address[1]))


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


async def refusal(url: str, *, allow_private: bool = False) -> str:
    with pytest.raises(InvalidInput) as raised:
        await check_webhook_url(url, allow_private=allow_private)
    [error] = raised.value.errors
    assert error.field == "url"
    return error.message


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "[::ffff:a9fe:a9fe]",
        "10.1.2.3",
        "169.254.169.254",
        "2130706433",  # 127.0.0.1 as one number
        "0x7f.1",
        "0177.0.0.1",
        "0",
    ],
)
async def test_urls_naming_a_non_public_address_are_refused(host: str) -> None:
    assert (await refusal(f"https://{host}/hook")).startswith("must be publicly reachable")


async def test_a_url_naming_a_public_address_is_accepted() -> None:
    for url in ("https://8.8.8.8/hook", "https://[2606:4700:4700::1111]:8443/x?y=1"):
        assert await check_webhook_url(url, allow_private=False) == url


async def test_shape_rules_come_before_any_lookup() -> None:
    assert await refusal("http://8.8.8.8/hook") == "must be an absolute https:// URL"
    assert await refusal("ftp://8.8.8.8/hook") == "must be an absolute https:// URL"
    assert await refusal("/relative/hook") == "must be an absolute https:// URL"
    assert await refusal("https:///hook") == "must name a host"
    assert await refusal("https://user:pw@8.8.8.8/hook") == "must not carry credentials"
    assert await refusal("https://8.8.8.8/ho ok") == "must not contain spaces or control characters"
    assert (await refusal("https://8.8.8.8:99999/hook")).startswith("not a valid URL")


async def test_the_private_targets_setting_allows_http_and_private_hosts() -> None:
    for url in ("http://127.0.0.1:9/hook", "https://[::1]/hook", "http://10.0.0.1/hook"):
        assert await check_webhook_url(url, allow_private=True) == url
    assert await refusal("ftp://127.0.0.1/hook", allow_private=True) == (
        "must be an absolute https:// URL"
    )
    assert await refusal("http://u@127.0.0.1/hook", allow_private=True) == (
        "must not carry credentials"
    )
