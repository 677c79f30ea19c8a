"""A paragraph is written once: README.md and the guides in docs/ never repeat one (issue 23:
two sections of docs/decisions.md were byte-for-byte copies). Say a thing in one place and link
to it from the others."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from tests.unit.project_files import ROOT

MIN_CHARACTERS = 160
"""Shorter paragraphs (a heading, a one-line command, a table row) may well recur."""


def _documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


STARTS_A_UNIT = re.compile(r"^(#|\s*[-*] |\s*\d+\. |\|)")
"""A heading, a list item or a table row starts a new unit even without a blank line before it."""


def paragraphs(text: str) -> Iterator[str]:
    """The prose paragraphs and list items of a Markdown text, whitespace-normalized; fenced code
    is left out."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    unit: list[str] = []
    for line in [*text.splitlines(), ""]:
        if not line.strip() or STARTS_A_UNIT.match(line):
            normalized = " ".join(" ".join(unit).split())
            if len(normalized) >= MIN_CHARACTERS:
                yield normalized
            unit = []
        if line.strip():
            unit.append(line)


def test_no_paragraph_is_repeated_across_readme_and_docs() -> None:
    places: dict[str, list[str]] = defaultdict(list)
    for path in _documents():
        for paragraph in paragraphs(path.read_text()):
            places[paragraph].append(str(path.relative_to(ROOT)))
    repeated = {paragraph[:80]: where for paragraph, where in places.items() if len(where) > 1}
    assert repeated == {}


def test_a_repeat_is_found() -> None:
    prose = "A sentence that is long enough to count as a paragraph of its own, " * 4
    text = f"# Title\n\n{prose}\n\n```sh\n{prose}\n```\n\nOther words.\n- {prose}\n## Next\n"
    assert list(paragraphs(text)) == [" ".join(prose.split()), "- " + " ".join(prose.split())]
