"""Planning a batch (``app.services.scanning.plan``) as a pure function: attempts run in order of
``scanned_at`` (ties: the request's order), each sees what the earlier ones did to its ticket,
and a nonce used before (earlier in the batch, or by an earlier request) answers its first
result without running."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest

from app.errors import NonceReused
from app.services.scanning import Attempt, FirstAttempt, ScannerRules, Tickets, plan
from tests.dates import YEAR

STARTS = datetime(YEAR, 6, 1, 20, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
SCANNER = ScannerRules(id=uuid4(), active=True, closes_minutes_after_end=0)


def tickets(count: int, status: str = "valid") -> tuple[Tickets, list[UUID]]:
    ids = [uuid4() for _ in range(count)]
    rows = [
        {
            "id": ticket_id,
            "scannable_code": f"CODE{n}",
            "event_id": uuid4(),
            "event_timeslot_id": uuid4(),
            "ticket_type_id": uuid4(),
            "order_id": uuid4(),
            "status": status,
            "scanned_at": None,
            "cancelled_at": None,
            "order_status": "confirmed",
            "timeslot_starts_at": STARTS,
            "timeslot_ends_at": STARTS + 60 * MINUTE,
            "inside": False,
            "presence_at": None,
        }
        for n, ticket_id in enumerate(ids)
    ]
    return Tickets.of(rows), ids


def attempt(position: int, ticket_id: UUID | None, at: datetime, nonce: str = "") -> Attempt:
    return Attempt(position, ticket_id, None, nonce or f"n{position}", at)


def test_attempts_run_in_order_of_scanned_at_whatever_their_place() -> None:
    known, [ticket] = tickets(1)
    answers = plan(
        SCANNER,
        [
            attempt(0, ticket, STARTS + 2 * MINUTE),
            attempt(1, ticket, STARTS + MINUTE),
            attempt(2, ticket, STARTS + MINUTE),
        ],
        known,
        {},
    )
    assert answers[1].status == "valid" and answers[1].scanned_at == STARTS + MINUTE
    assert (answers[2].status, answers[2].scanned_before) == ("scanned", True)
    assert (answers[0].status, answers[0].scanned_at) == ("scanned", STARTS + MINUTE)


def test_each_attempt_is_decided_at_its_own_moment() -> None:
    known, [first, second] = tickets(2)
    late = STARTS + 61 * MINUTE
    answers = plan(SCANNER, [attempt(0, first, late), attempt(1, second, STARTS)], known, {})
    assert (answers[0].status, answers[0].reason) == ("not_allowed", "too_late")
    assert answers[1].status == "valid"


def test_a_nonce_repeated_in_the_batch_answers_its_first_result() -> None:
    known, [first] = tickets(1)
    answers = plan(
        SCANNER,
        [attempt(0, first, STARTS, "same"), attempt(1, first, STARTS + MINUTE, "same")],
        known,
        {},
    )
    assert answers[1].replayed and not answers[1].recorded
    assert answers[1].ticket == answers[0].ticket and answers[1].status == "valid"


def test_a_nonce_repeated_for_another_ticket_is_refused() -> None:
    known, [first, second] = tickets(2)
    for firsts, attempts in (
        ({}, [attempt(0, first, STARTS, "same"), attempt(1, second, STARTS, "same")]),
        (
            {"old": FirstAttempt(first, "valid", None, STARTS, STARTS, "entry", True)},
            [attempt(0, second, STARTS, "old")],
        ),
        (
            {"old": FirstAttempt(first, "valid", None, STARTS, STARTS, "entry", True)},
            [attempt(0, uuid4(), STARTS, "old")],
        ),
    ):
        with pytest.raises(NonceReused):
            plan(SCANNER, attempts, known, firsts)


def test_a_nonce_used_before_replays_without_running() -> None:
    known, [ticket] = tickets(1)
    first = FirstAttempt(ticket, "not_allowed", "too_late", None, STARTS, "entry", False)
    answers = plan(
        SCANNER,
        [attempt(0, ticket, STARTS, "old"), attempt(1, ticket, STARTS + MINUTE)],
        known,
        {"old": first},
    )
    assert (answers[0].status, answers[0].reason, answers[0].scanned_at) == (
        "not_allowed", "too_late", None,
    )  # fmt: skip
    assert answers[0].replayed and answers[1].status == "valid"


def test_an_unknown_ticket_has_no_answer_to_record() -> None:
    known, _ = tickets(1)
    [answer] = plan(SCANNER, [attempt(0, uuid4(), STARTS)], known, {}).values()
    assert answer.ticket is None and not answer.recorded
