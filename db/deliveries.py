"""The SQL of webhook delivery's hot path: creating deliveries, handing due ones out, claiming one
for an attempt and recording the attempt.

Fixed SQL rather than Piccolo's query builder, whose CPU cost per statement is larger than the
statement itself at thousands of deliveries per second. On PostgreSQL an attempt costs two
statements, each shared with the attempts that start, or end, at the same moment (the claim reads
its target in the same ``UPDATE ... FROM``; the record updates the delivery, logs the attempt and,
on 410, disables the subscription in one statement with CTEs; see
``app.services.webhook_delivery.AttemptBatches``).
SQLite (the demo) cannot read joined tables in ``RETURNING`` nor write in a CTE, so it takes a few
statements more in a transaction.

Every state change is a single conditional statement: ``attempts`` is the version of a delivery's
attempt (a claim increments it; a record must name it), so two workers never record over each
other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from db.lists import in_list
from db.rows import postgres
from db.tables import WebhookDelivery
from db.transactions import transaction

INSERT_CHUNK = 1000
"""Deliveries per INSERT (9 parameters each: below both engines' parameter limits)."""

TARGET_COLUMNS = (
    "w.url AS url, w.secret AS secret, w.previous_secret AS previous_secret, "
    "w.previous_secret_expires_at AS previous_secret_expires_at, w.active AS active, "
    "e.event_type AS event_type, e.payload AS payload, e.created_at AS occurred_at"
)


async def _sql(template: str, *args: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = await WebhookDelivery.raw(template, *args)
    return rows


@dataclass(frozen=True, slots=True)
class Claimed:
    """A delivery taken for attempt number ``attempt``, with what the attempt needs."""

    delivery_id: UUID
    attempt: int
    url: str
    secret: str
    previous_secret: str | None
    previous_secret_expires_at: datetime | None
    active: bool
    event_type: str
    payload: Any
    occurred_at: datetime


def _claimed(row: dict[str, Any], attempt: int) -> Claimed:
    return Claimed(
        delivery_id=row["id"],
        attempt=attempt,
        url=row["url"],
        secret=row["secret"],
        previous_secret=row["previous_secret"],
        previous_secret_expires_at=row["previous_secret_expires_at"],
        active=bool(row["active"]),
        event_type=row["event_type"],
        payload=row["payload"],
        occurred_at=row["occurred_at"],
    )


async def relay(batch_size: int, now: datetime) -> int:
    """PostgreSQL: relay up to ``batch_size`` unrelayed outbox rows (the oldest first, skipping
    rows another relay holds) into one pending delivery, due ``now``, per active subscription of
    the row's organization to its kind, and mark them relayed, in one statement; how many rows.
    A pair that has a delivery already keeps it."""
    rows = await _sql(
        "WITH events AS (SELECT id, organization_id, event_type FROM outbox_events "
        "WHERE relayed_at IS NULL ORDER BY created_at LIMIT {} FOR UPDATE SKIP LOCKED), "
        "inserted AS (INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, "
        "status, attempts, next_attempt_at, created_at, updated_at) "
        "SELECT gen_random_uuid(), e.organization_id, w.id, e.id, 'pending', 0, {}, {}, {} "
        "FROM events AS e JOIN webhooks AS w ON w.organization_id = e.organization_id "
        "AND w.active AND w.event_types::jsonb ? e.event_type "
        "ON CONFLICT (event_id, webhook_id) DO NOTHING), "
        "marked AS (UPDATE outbox_events SET relayed_at = {} "
        "WHERE id IN (SELECT id FROM events)) "
        "SELECT COUNT(*) AS relayed FROM events",
        batch_size, now, now, now, now,
    )  # fmt: skip
    return int(rows[0]["relayed"])


async def insert_pending(rows: Sequence[tuple[UUID, UUID, UUID]], now: datetime) -> None:
    """A pending delivery, due ``now``, per (organization, subscription, event); a pair that has
    one already keeps it."""
    for start in range(0, len(rows), INSERT_CHUNK):
        chunk = rows[start : start + INSERT_CHUNK]
        values: list[Any] = []
        for organization_id, webhook_id, event_id in chunk:
            values += [uuid4(), organization_id, webhook_id, event_id, now, now, now]
        placeholders = ", ".join(["({}, {}, {}, {}, 'pending', 0, {}, {}, {})"] * len(chunk))
        await _sql(
            "INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, status, "
            "attempts, next_attempt_at, created_at, updated_at) "
            f"VALUES {placeholders} ON CONFLICT (event_id, webhook_id) DO NOTHING",
            *values,
        )


HANDED_OUT = "status = 'pending' AND dispatched_at IS NOT NULL AND next_attempt_at > {}"
"""A delivery handed out (queued or in flight) whose lease still runs (``deliveries_handed_out``
index); one whose lease ran out was lost, and is due again."""


async def take_due(
    now: datetime, lease_until: datetime, limit: int, share: int
) -> list[dict[str, Any]]:
    """Up to ``limit`` pending deliveries due at ``now``, leased until ``lease_until`` (nobody
    else takes them before then) and marked as handed out. Of each subscription at most ``share``
    are handed out at once, those already out counted, its most overdue first, so that a slow or
    dead endpoint's backlog neither takes more than its share of the workers nor stands in front
    of the other subscriptions'. Several workers at once take different ones (``SKIP LOCKED``);
    dispatching at the same moment they may briefly exceed a share together. Rows: id, event_id,
    webhook_id.

    PostgreSQL visits each subscription's due deliveries through the
    ``deliveries_due_per_webhook`` index (one probe per subscription); SQLite (the demo, one
    process) ranks all due deliveries instead.
    """
    handed_out = (
        "SELECT webhook_id, COUNT(*) AS n FROM webhook_deliveries "
        f"WHERE {HANDED_OUT} GROUP BY webhook_id"
    )
    if postgres():
        return await _sql(
            f"WITH busy AS ({handed_out}), picked AS (SELECT d.id FROM webhooks AS w "
            "LEFT JOIN busy AS b ON b.webhook_id = w.id CROSS JOIN LATERAL ("
            "SELECT id FROM webhook_deliveries WHERE webhook_id = w.id AND status = 'pending' "
            "AND next_attempt_at <= {} ORDER BY next_attempt_at "
            "LIMIT GREATEST({}::integer - COALESCE(b.n, 0), 0) FOR UPDATE SKIP LOCKED) AS d "
            "LIMIT {}) "
            "UPDATE webhook_deliveries SET next_attempt_at = {}, dispatched_at = {} "
            "WHERE id IN (SELECT id FROM picked) RETURNING id, event_id, webhook_id",
            now, now, share, limit, lease_until, now,
        )  # fmt: skip
    return await _sql(
        "UPDATE webhook_deliveries SET next_attempt_at = {}, dispatched_at = {} WHERE id IN ("
        "SELECT id FROM (SELECT d.id AS id, d.next_attempt_at AS due, ROW_NUMBER() OVER ("
        "PARTITION BY d.webhook_id ORDER BY d.next_attempt_at) + COALESCE(b.n, 0) AS rank "
        f"FROM webhook_deliveries AS d LEFT JOIN ({handed_out}) AS b "
        "ON b.webhook_id = d.webhook_id "
        "WHERE d.status = 'pending' AND d.next_attempt_at <= {}) "
        "WHERE rank <= {} ORDER BY due LIMIT {}) RETURNING id, event_id, webhook_id",
        lease_until, now, now, now, share, limit,
    )  # fmt: skip


async def release(delivery_ids: Sequence[UUID], now: datetime) -> None:
    """Make leased deliveries due again (their hand-over failed), unless an attempt began."""
    if not delivery_ids:
        return
    ids = in_list("id", list(delivery_ids))
    await _sql(
        "UPDATE webhook_deliveries SET next_attempt_at = {}, dispatched_at = NULL "
        f"WHERE {ids.template} AND status = 'pending' AND attempt_started_at IS NULL",
        now,
        *ids.args,
    )


async def postpone(event_id: UUID, webhook_id: UUID, until: datetime) -> None:
    """Make a leased delivery due at ``until`` instead, unless an attempt began."""
    await _sql(
        "UPDATE webhook_deliveries SET next_attempt_at = {}, dispatched_at = NULL "
        "WHERE event_id = {} "
        "AND webhook_id = {} AND status = 'pending' AND attempt_started_at IS NULL",
        until,
        event_id,
        webhook_id,
    )


async def claim(
    pairs: Sequence[tuple[UUID, UUID]], now: datetime, lease_until: datetime
) -> list[Claimed | None]:
    """Start the next attempt of each pending (event, subscription) pair that has none in flight:
    ``attempts`` + 1, ``attempt_started_at`` now, and a lease (``next_attempt_at``) after which the
    attempt counts as cut short. One result per pair, in order: ``None`` when there is nothing to
    claim (a pair named twice is claimed once, for the first).

    PostgreSQL claims them all in one statement, which reads each claim's target in the same
    ``UPDATE ... FROM``; SQLite takes a statement or two per pair. Each pair is found by its own
    subquery, which only the unique (event, subscription) index answers well: as a join, a
    generic plan over a table without statistics yet (a burst into a new database) walked every
    pending delivery of the subscription for each pair."""
    claim_sql = (
        "UPDATE webhook_deliveries AS d SET attempts = d.attempts + 1, attempt_started_at = {}, "
        "next_attempt_at = {}, updated_at = {} "
    )
    claimable = "d.status = 'pending' AND d.attempt_started_at IS NULL"
    found: dict[tuple[UUID, UUID], Claimed] = {}
    if not pairs:
        return []
    if postgres():
        rows = await _sql(
            f"{claim_sql}FROM webhooks AS w, outbox_events AS e, "
            "(SELECT DISTINCT * FROM unnest({}::uuid[], {}::uuid[])) AS p(event_id, webhook_id) "
            "WHERE d.id = (SELECT x.id FROM webhook_deliveries AS x "
            "WHERE x.event_id = p.event_id AND x.webhook_id = p.webhook_id) "
            f"AND {claimable} AND w.id = p.webhook_id AND e.id = p.event_id "
            "RETURNING d.id AS id, d.attempts AS attempts, d.event_id AS event_id, "
            f"d.webhook_id AS webhook_id, {TARGET_COLUMNS}",
            now, lease_until, now, [e for e, _ in pairs], [w for _, w in pairs],
        )  # fmt: skip
        found = {
            (row["event_id"], row["webhook_id"]): _claimed(row, row["attempts"]) for row in rows
        }
    else:
        for pair in dict.fromkeys(pairs):
            rows = await _sql(
                f"{claim_sql}WHERE d.event_id = {{}} AND d.webhook_id = {{}} AND {claimable} "
                "RETURNING id, attempts",
                now, lease_until, now, *pair,
            )  # fmt: skip
            claimed = await _with_target(rows[0]["id"], rows[0]["attempts"]) if rows else None
            if claimed is not None:
                found[pair] = claimed
    return [found.pop(pair, None) for pair in pairs]


async def _with_target(delivery_id: UUID, attempt: int) -> Claimed | None:
    rows = await _sql(
        f"SELECT d.id AS id, {TARGET_COLUMNS} FROM webhook_deliveries AS d "
        "JOIN webhooks AS w ON w.id = d.webhook_id JOIN outbox_events AS e ON e.id = d.event_id "
        "WHERE d.id = {}",
        delivery_id,
    )
    return _claimed(rows[0], attempt) if rows else None


async def state(event_id: UUID, webhook_id: UUID) -> dict[str, Any] | None:
    """The delivery of a pair: id, status, attempts, next_attempt_at, attempt_started_at."""
    rows = await _sql(
        "SELECT id, status, attempts, next_attempt_at, attempt_started_at "
        "FROM webhook_deliveries WHERE event_id = {} AND webhook_id = {}",
        event_id,
        webhook_id,
    )
    return rows[0] if rows else None


async def reclaim_cut_short(
    current: dict[str, Any], error: str, now: datetime, lease_until: datetime, cutoff: datetime
) -> Claimed | None:
    """Take over a delivery whose attempt in flight started before ``cutoff`` (its worker was
    killed): log that attempt as cut short, then start the next one, in one transaction.
    ``current`` is the delivery's :func:`state`; ``None`` when another worker took it first."""
    async with transaction():
        rows = await _sql(
            "UPDATE webhook_deliveries SET attempts = attempts + 1, attempt_started_at = {}, "
            "next_attempt_at = {}, updated_at = {} WHERE id = {} AND status = 'pending' "
            "AND attempts = {} AND attempt_started_at <= {} RETURNING id, attempts",
            now, lease_until, now, current["id"], current["attempts"], cutoff,
        )  # fmt: skip
        if not rows:
            return None
        await _sql(
            "INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, status_code, error, "
            "duration_ms, started_at) VALUES ({}, {}, {}, NULL, {}, 0, {}) "
            "ON CONFLICT (delivery_id, attempt) DO NOTHING",
            uuid4(), current["id"], current["attempts"], error, current["attempt_started_at"],
        )  # fmt: skip
    return await _with_target(rows[0]["id"], rows[0]["attempts"])


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one attempt of a delivery came to, as the delivery log keeps it."""

    delivery_id: UUID
    attempt: int
    status: str
    status_code: int | None
    error: str | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    started_at: datetime
    duration_ms: int
    disable_reason: str | None
    """Set when the answer disables the subscription (410)."""


async def record(outcomes: Sequence[Outcome], now: datetime) -> list[bool]:
    """Record attempts: each delivery's new state, the attempt in its log, and its subscription
    disabled when the outcome says so. One result per outcome, in order: ``False`` (nothing
    written) when the attempt is no longer its delivery's current one.

    PostgreSQL records them all in one statement (the updates, the log entries and the disabled
    subscriptions are CTEs of it); SQLite takes a transaction of a few statements per outcome."""
    update = (
        "UPDATE webhook_deliveries AS d SET status = {}, last_status_code = {}, "
        "last_error = {}, next_attempt_at = {}, delivered_at = {}, attempt_started_at = NULL, "
        "dispatched_at = NULL, updated_at = {} "
    )
    current = "d.status = 'pending' AND d.attempt_started_at IS NOT NULL"
    if not outcomes:
        return []
    disable = "UPDATE webhooks SET active = FALSE, disabled_reason = {} WHERE id = "
    if postgres():
        columns = list(zip(*[_outcome_values(outcome) for outcome in outcomes], strict=True))
        rows = await _sql(
            "WITH o AS (SELECT * FROM unnest({}::uuid[], {}::integer[], {}::text[], "
            "{}::integer[], {}::text[], {}::timestamptz[], {}::timestamptz[], {}::uuid[], "
            "{}::integer[], {}::timestamptz[], {}::text[]) AS o(delivery_id, attempt, status, "
            "status_code, error, next_attempt_at, delivered_at, log_id, duration_ms, started_at, "
            "disable_reason)), "
            "updated AS (UPDATE webhook_deliveries AS d SET status = o.status, "
            "last_status_code = o.status_code, last_error = o.error, "
            "next_attempt_at = o.next_attempt_at, delivered_at = o.delivered_at, "
            "attempt_started_at = NULL, dispatched_at = NULL, updated_at = {} "
            f"FROM o WHERE d.id = o.delivery_id AND d.attempts = o.attempt AND {current} "
            "RETURNING d.id AS id, d.webhook_id AS webhook_id, o.log_id AS log_id, "
            "o.attempt AS attempt, o.status_code AS status_code, o.error AS error, "
            "o.duration_ms AS duration_ms, o.started_at AS started_at, "
            "o.disable_reason AS disable_reason), "
            "logged AS (INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, "
            "status_code, error, duration_ms, started_at) SELECT log_id, id, attempt, "
            "status_code, error, duration_ms, started_at FROM updated), "
            "disabled AS (UPDATE webhooks AS w SET active = FALSE, "
            "disabled_reason = g.disable_reason FROM (SELECT DISTINCT ON (webhook_id) "
            "webhook_id, disable_reason FROM updated WHERE disable_reason IS NOT NULL) AS g "
            "WHERE w.id = g.webhook_id) "
            "SELECT id FROM updated",
            *[list(column) for column in columns], now,
        )  # fmt: skip
        recorded = {row["id"] for row in rows}
        return [outcome.delivery_id in recorded for outcome in outcomes]
    results = []
    for outcome in outcomes:
        async with transaction():
            rows = await _sql(
                f"{update}WHERE d.id = {{}} AND d.attempts = {{}} AND {current} "
                "RETURNING id, webhook_id",
                outcome.status, outcome.status_code, outcome.error, outcome.next_attempt_at,
                outcome.delivered_at, now, outcome.delivery_id, outcome.attempt,
            )  # fmt: skip
            if rows:
                await _sql(
                    "INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, "
                    "status_code, error, duration_ms, started_at) "
                    "VALUES ({}, {}, {}, {}, {}, {}, {})",
                    uuid4(), outcome.delivery_id, outcome.attempt, outcome.status_code,
                    outcome.error, outcome.duration_ms, outcome.started_at,
                )  # fmt: skip
                if outcome.disable_reason is not None:
                    await _sql(f"{disable}{{}}", outcome.disable_reason, rows[0]["webhook_id"])
        results.append(bool(rows))
    return results


def _outcome_values(outcome: Outcome) -> tuple[Any, ...]:
    """An outcome as one row of :func:`record`'s arrays, in their order."""
    return (
        outcome.delivery_id, outcome.attempt, outcome.status, outcome.status_code, outcome.error,
        outcome.next_attempt_at, outcome.delivered_at, uuid4(), outcome.duration_ms,
        outcome.started_at, outcome.disable_reason,
    )  # fmt: skip
