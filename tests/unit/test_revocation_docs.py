"""The docs promise the revocation bound the key cache keeps (issue 24 item 7: they said "at
once" and "immediate" while a revoked key kept working on other processes for about a second)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from app.services.api_keys import REVISION_STALE_SECONDS
from tests.unit.project_files import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def prose(path: Path) -> Iterator[str]:
    """The lines of ``path`` outside code fences."""
    fenced = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield line


def test_the_docs_give_the_bound_of_a_key_revocation() -> None:
    bound = f"within {REVISION_STALE_SECONDS:g} seconds"
    mentions = [
        (path.name, line) for path in DOCUMENTS for line in prose(path) if "api-key revoke" in line
    ]
    assert mentions
    for name, line in mentions:
        assert bound in line, (name, line)
        assert "immediate" not in line and "stops working at once" not in line, (name, line)
