"""The SQL of the dashboard's door view: an event's latest scan attempts, whatever their outcome,
with the names a person at the door reads (the ticket's owner, its type, the scanner)."""

from __future__ import annotations

from uuid import UUID

from db.lists import Row
from db.tables import Scan

LATEST = """
    SELECT s.status, s.reason, s.scanned_at, t.owner_name, tt.name AS ticket_type,
           sc.name AS scanner
    FROM scans s
    JOIN tickets t ON t.id = s.ticket_id
    JOIN ticket_types tt ON tt.id = t.ticket_type_id
    JOIN scanners sc ON sc.id = s.scanner_id
    WHERE s.organization_id = {} AND t.event_id = {}
    ORDER BY s.created_at DESC, s.id DESC
    LIMIT {}"""
"""Walks ``scans_organization_created`` back from now (migration 2026-11-26T10:30) and joins
each attempt's ticket, type and scanner by primary key until ``limit`` are of the event."""


async def latest_scans(organization_id: UUID, event_id: UUID, limit: int) -> list[Row]:
    rows: list[Row] = await Scan.raw(LATEST, organization_id, event_id, limit)
    return rows
