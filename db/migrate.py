"""Applying the Piccolo migrations from code (``ticketing migrate``, the demo, the tests)."""

from __future__ import annotations

import contextlib
import sys

from piccolo.apps.migrations.commands.forwards import run_forwards


class MigrationError(Exception):
    pass


async def migrate() -> None:
    """Run every pending migration; Piccolo's progress lines go to stderr, keeping stdout clean."""
    with contextlib.redirect_stdout(sys.stderr):
        result = await run_forwards(app_name="ticketing")
    if not result.success:
        raise MigrationError(result.message)
