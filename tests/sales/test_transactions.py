"""Work after a commit (``db.transactions``): it runs once the outermost transaction commits,
never for a rollback, and at once outside a transaction."""

from __future__ import annotations

import uuid

import pytest
from piccolo.engine.base import Engine

from db.tables import Organization
from db.transactions import after_commit, request_transaction, transaction


class Boom(Exception):
    pass


async def test_work_waits_for_the_outermost_commit(database: Engine) -> None:
    done: list[str] = []
    name = f"Committed {uuid.uuid4().hex[:6]}"

    async def visible() -> None:
        """Runs after the commit, so a query on another connection sees the row."""
        found = await Organization.exists().where(Organization.name == name)
        done.append(f"saw {found}")

    async with transaction():
        await Organization(name=name).save()
        async with transaction():
            await after_commit(visible)
        assert done == []
    assert done == ["saw True"]


async def test_a_rollback_runs_no_work(database: Engine) -> None:
    done: list[str] = []

    async def record() -> None:
        done.append("ran")

    with pytest.raises(Boom):
        async with transaction():
            await after_commit(record)
            raise Boom
    assert done == []


async def test_outside_a_transaction_work_runs_at_once(database: Engine) -> None:
    done: list[str] = []

    async def record() -> None:
        done.append("ran")

    await after_commit(record)
    assert done == ["ran"]


async def test_failing_work_does_not_fail_the_committed_change(
    database: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    name = f"Kept {uuid.uuid4().hex[:6]}"

    async def fail() -> None:
        raise Boom

    async with transaction():
        await Organization(name=name).save()
        await after_commit(fail)
    assert await Organization.exists().where(Organization.name == name)
    assert any("after a commit" in record.getMessage() for record in caplog.records)


async def test_a_failed_service_inside_a_request_transaction_is_undone(database: Engine) -> None:
    """Inside one request's transaction (idempotent requests) a service transaction that raises
    is rolled back to its start with its work after commit; the others commit together."""
    done: list[str] = []
    kept, undone = (f"{what} {uuid.uuid4().hex[:6]}" for what in ("Kept", "Undone"))

    async def record(what: str) -> None:
        done.append(what)

    async with request_transaction():
        async with transaction():
            await Organization(name=kept).save()
            await after_commit(lambda: record("kept"))
        with pytest.raises(Boom):
            async with transaction():
                await Organization(name=undone).save()
                await after_commit(lambda: record("undone"))
                raise Boom
        assert done == []
    assert done == ["kept"]
    assert await Organization.exists().where(Organization.name == kept)
    assert not await Organization.exists().where(Organization.name == undone)


async def test_a_request_transaction_that_raises_keeps_nothing(database: Engine) -> None:
    name = f"Rolled back {uuid.uuid4().hex[:6]}"
    with pytest.raises(Boom):
        async with request_transaction():
            async with transaction():
                await Organization(name=name).save()
            raise Boom
    assert not await Organization.exists().where(Organization.name == name)
