"""The delivery rules that need no database: the retry schedule, the signatures, and the share of a
worker that one subscription may hold."""

from __future__ import annotations

import base64
import os
import time
import uuid
from dataclasses import replace
from datetime import timedelta

import pytest
from standardwebhooks.webhooks import Webhook as StockVerifier
from standardwebhooks.webhooks import WebhookVerificationError

from app.services.webhook_delivery import (
    InFlight,
    backoff_seconds,
    retry_horizon,
    signatures,
)
from app.settings import load_settings


def _secret() -> str:
    return "whsec_" + base64.b64encode(os.urandom(32)).decode()


def test_retries_span_about_three_days_in_at_least_fifteen_attempts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TICKETING_WEBHOOK_RETRY_BASE_SECONDS", raising=False)
    monkeypatch.delenv("TICKETING_WEBHOOK_MAX_ATTEMPTS", raising=False)
    settings = load_settings()
    assert settings.webhook_max_attempts >= 15
    assert timedelta(days=2.5) < retry_horizon(settings) < timedelta(days=3.5)
    shorter = replace(settings, webhook_retry_base_seconds=1, webhook_max_attempts=3)
    assert retry_horizon(shorter) == timedelta(seconds=1 + 2)


@pytest.mark.parametrize("attempt", [1, 2, 5, 10, 11, 21])
def test_each_wait_is_jittered_within_a_fifth(attempt: int) -> None:
    unjittered = min(30 * 2 ** (attempt - 1), 6 * 3600)
    waits = {backoff_seconds(attempt, 30) for _ in range(50)}
    assert all(0.8 * unjittered <= wait <= 1.2 * unjittered for wait in waits)
    assert len(waits) > 1


def test_two_secrets_give_two_signatures_each_verified_by_the_stock_library() -> None:
    new, old = _secret(), _secret()
    message_id, timestamp, body = str(uuid.uuid4()), int(time.time()), b'{"n": 1}'
    header = signatures([new, old], message_id, timestamp, body)
    first, second = header.split(" ")
    headers = {"webhook-id": message_id, "webhook-timestamp": str(timestamp)}
    for signature, secret, other in ((first, new, old), (second, old, new)):
        alone = {**headers, "webhook-signature": signature}
        assert StockVerifier(secret).verify(body, alone) == {"n": 1}
        with pytest.raises(WebhookVerificationError):
            StockVerifier(other).verify(body, alone)
    assert signatures([new], message_id, timestamp, body) == first


def test_one_subscription_holds_at_most_its_share_of_slots() -> None:
    in_flight = InFlight(per_subscription=2)
    slow, other = uuid.uuid4(), uuid.uuid4()
    with in_flight.slot(slow) as a, in_flight.slot(slow) as b:
        assert a and b
        with in_flight.slot(slow) as c, in_flight.slot(other) as d:
            assert not c and d
    with in_flight.slot(slow) as again:
        assert again
