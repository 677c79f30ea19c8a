"""TICKETING_CORS_ORIGINS: exact origins, read once; anything else stops start-up with one line."""

from __future__ import annotations

import pytest

from app.settings import SettingsError, load_settings


def test_origins_are_a_comma_separated_list_of_exact_origins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(
        "TICKETING_CORS_ORIGINS", " https://app.example.com, http://localhost:5173 ,"
    )
    assert load_settings().cors_origins == ("https://app.example.com", "http://localhost:5173")
    monkeypatch.delenv("TICKETING_CORS_ORIGINS")
    assert load_settings().cors_origins == ()


@pytest.mark.parametrize(
    "value",
    [
        "app.example.com",
        "https://app.example.com/",
        "https://app.example.com/path",
        "https://*.example.com",
        "ftp://x.example",
    ],
)
def test_anything_but_an_exact_origin_is_refused(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("TICKETING_CORS_ORIGINS", value)
    with pytest.raises(SettingsError, match="TICKETING_CORS_ORIGINS"):
        load_settings()
