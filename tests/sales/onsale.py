"""What the on-sale tests share: a hold's body, and the capacity invariant read from the rows
themselves (CONTRACT.md section 16), to compare with the counters the write side keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from db.tables import Hold, Timeslot


def hold_body(venue: Any, places: int = 1, **fields: Any) -> dict[str, Any]:
    return {
        "event_id": venue.event["id"],
        "event_timeslot_id": venue.timeslot["id"],
        "tickets": [{"ticket_type_id": venue.ticket_type["id"]}] * places,
        **fields,
    }


@dataclass(frozen=True)
class Figures:
    """A timeslot counted from its rows at one instant (one statement, one snapshot)."""

    total: int
    sold: int
    """Tickets not cancelled of orders not cancelled."""
    held: int
    """Places of holds active and not expired."""
    sold_counter: int
    held_counter: int
    """``timeslots.held`` less the places of lapsed holds not marked yet."""

    @property
    def kept(self) -> bool:
        return self.sold + self.held <= self.total

    @property
    def counters_exact(self) -> bool:
        return (self.sold_counter, self.held_counter) == (self.sold, self.held)


COUNTED = """
SELECT t.total_available AS total, t.sold AS sold_counter,
       t.held - (SELECT COALESCE(SUM(h.quantity), 0) FROM holds h WHERE h.event_timeslot_id = t.id
                 AND h.status = 'active' AND h.expires_at <= now()) AS held_counter,
       (SELECT COUNT(*) FROM tickets k JOIN orders o ON o.id = k.order_id
        WHERE k.event_timeslot_id = t.id AND k.status <> 'cancelled'
        AND o.status <> 'cancelled') AS sold,
       (SELECT COALESCE(SUM(h.quantity), 0) FROM holds h WHERE h.event_timeslot_id = t.id
        AND h.status = 'active' AND h.expires_at > now()) AS held
FROM timeslots t WHERE t.id = {}
"""


async def counted(timeslot_id: str) -> Figures:
    row = (await Timeslot.raw(COUNTED, timeslot_id))[0]
    return Figures(**{name: int(value) for name, value in row.items()})


async def expire(hold_id: str) -> None:
    """Make a hold's time run out now: what waiting ``ttl_seconds`` would do, without the wait."""
    await Hold.raw(
        "UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = {}", hold_id
    )
