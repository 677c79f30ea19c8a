"""Addresses as they appear in URLs and log lines."""

from __future__ import annotations


def url_host(host: str) -> str:
    """``host`` as it goes into a URL (IPv6 addresses in brackets)."""
    return f"[{host}]" if ":" in host else host
