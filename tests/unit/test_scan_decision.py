"""The scan decision (steps 3 to 7 of CONTRACT.md section 5) as a pure function: every reason, the
order between them, and both edges of the relative and absolute windows."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from app.services.scanning import ScannerRules, TicketState, decide
from tests.dates import YEAR

STARTS = datetime(YEAR, 6, 1, 20, 0, tzinfo=UTC)
ENDS = STARTS + timedelta(hours=3)
TICK = timedelta(microseconds=1)


def ticket(**changes: object) -> TicketState:
    base = TicketState(
        id=uuid4(),
        event_id=uuid4(),
        timeslot_id=uuid4(),
        ticket_type_id=uuid4(),
        order_id=uuid4(),
        status="valid",
        scanned_at=None,
        cancelled_at=None,
        order_status="confirmed",
        starts_at=STARTS,
        ends_at=ENDS,
        row={},
    )
    return replace(base, **changes)


def scanner(**changes: object) -> ScannerRules:
    return replace(ScannerRules(id=uuid4(), active=True), **changes)


DURING = STARTS + timedelta(minutes=30)


def test_a_valid_ticket_at_an_unrestricted_scanner_is_admitted() -> None:
    assert decide(scanner(), ticket(), DURING) == ("valid", None)


def test_an_inactive_scanner_admits_nothing_whatever_the_ticket() -> None:
    for state in (ticket(), ticket(status="cancelled"), ticket(status="scanned")):
        assert decide(scanner(active=False), state, DURING) == ("not_allowed", "scanner_inactive")


def test_profile_lists_restrict_event_ticket_type_and_timeslot() -> None:
    scanned = ticket()
    other = frozenset({uuid4()})
    cases = [
        ({"event_ids": other}, "event_not_allowed"),
        ({"ticket_type_ids": other}, "ticket_type_not_allowed"),
        ({"timeslot_ids": other}, "timeslot_not_allowed"),
    ]
    for rules, reason in cases:
        assert decide(scanner(**rules), scanned, DURING) == ("not_allowed", reason)
    allowed = scanner(
        event_ids=frozenset({scanned.event_id, uuid4()}),
        ticket_type_ids=frozenset({scanned.ticket_type_id}),
        timeslot_ids=frozenset({scanned.timeslot_id}),
    )
    assert decide(allowed, scanned, DURING) == ("valid", None)


def test_the_lists_are_checked_in_order_event_ticket_type_timeslot() -> None:
    nothing = frozenset({uuid4()})
    everything_wrong = scanner(event_ids=nothing, ticket_type_ids=nothing, timeslot_ids=nothing)
    assert decide(everything_wrong, ticket(), DURING)[1] == "event_not_allowed"
    assert decide(replace(everything_wrong, event_ids=None), ticket(), DURING)[1] == (
        "ticket_type_not_allowed"
    )


def test_relative_window_edges_are_inclusive() -> None:
    rules = scanner(opens_minutes_before_start=60, closes_minutes_after_end=30)
    opens = STARTS - timedelta(minutes=60)
    closes = ENDS + timedelta(minutes=30)
    assert decide(rules, ticket(), opens - TICK) == ("not_allowed", "too_early")
    assert decide(rules, ticket(), opens) == ("valid", None)
    assert decide(rules, ticket(), closes) == ("valid", None)
    assert decide(rules, ticket(), closes + TICK) == ("not_allowed", "too_late")


def test_a_zero_minute_window_is_exactly_the_timeslot() -> None:
    rules = scanner(opens_minutes_before_start=0, closes_minutes_after_end=0)
    assert decide(rules, ticket(), STARTS - TICK) == ("not_allowed", "too_early")
    assert decide(rules, ticket(), STARTS) == ("valid", None)
    assert decide(rules, ticket(), ENDS) == ("valid", None)
    assert decide(rules, ticket(), ENDS + TICK) == ("not_allowed", "too_late")


def test_without_a_window_any_time_is_allowed() -> None:
    for moment in (STARTS - timedelta(days=400), ENDS + timedelta(days=400)):
        assert decide(scanner(), ticket(), moment) == ("valid", None)


def test_absolute_validity_edges_are_inclusive() -> None:
    valid_from = datetime(YEAR, 5, 1, tzinfo=UTC)
    valid_until = datetime(YEAR, 7, 1, tzinfo=UTC)
    rules = scanner(valid_from=valid_from, valid_until=valid_until)
    assert decide(rules, ticket(), valid_from - TICK) == ("not_allowed", "too_early")
    assert decide(rules, ticket(), valid_from) == ("valid", None)
    assert decide(rules, ticket(), valid_until) == ("valid", None)
    assert decide(rules, ticket(), valid_until + TICK) == ("not_allowed", "too_late")


def test_a_profile_past_its_validity_when_the_scan_arrives_refuses_it() -> None:
    """A scan made inside the validity but arriving after it ended is refused (CONTRACT.md
    section 11): a device cannot backdate into a validity that is over."""
    valid_until = datetime(YEAR, 7, 1, tzinfo=UTC)
    rules = scanner(valid_until=valid_until)
    inside = valid_until - 10 * TICK
    assert decide(rules, ticket(), inside, valid_until) == ("valid", None)
    assert decide(rules, ticket(), inside, valid_until + TICK) == ("not_allowed", "too_late")


@pytest.mark.parametrize(
    ("state", "outcome"),
    [
        ({"status": "cancelled"}, ("cancelled", "cancelled")),
        ({"order_status": "cancelled"}, ("cancelled", "cancelled")),
        ({"status": "cancelled", "order_status": "pending"}, ("cancelled", "cancelled")),
        ({"order_status": "pending"}, ("not_allowed", "order_not_confirmed")),
        ({"status": "scanned", "order_status": "pending"}, ("not_allowed", "order_not_confirmed")),
        ({"status": "scanned"}, ("scanned", "already_scanned")),
        ({"status": "scanned", "order_status": "cancelled"}, ("cancelled", "cancelled")),
    ],
)
def test_ticket_states_in_decision_order(state: dict[str, str], outcome: tuple[str, str]) -> None:
    """Cancelled (step 4) before a pending order (5) before already scanned (6)."""
    assert decide(scanner(), ticket(**state), DURING) == outcome


def test_the_scanner_rules_come_before_the_ticket_state() -> None:
    """Step 3 before steps 4 to 6: a cancelled or scanned ticket outside the window is too early."""
    rules = scanner(opens_minutes_before_start=10)
    early = STARTS - timedelta(hours=1)
    for state in ({"status": "cancelled"}, {"status": "scanned"}, {"order_status": "pending"}):
        assert decide(rules, ticket(**state), early) == ("not_allowed", "too_early")
