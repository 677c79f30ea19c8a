"""bench/README.md lists every script once and keeps no figures of its own: they live in the
README's "Performance" section, which it links to (one declaration per thing)."""

from __future__ import annotations

import re

from tests.unit.project_files import ROOT

BENCH_README = ROOT / "bench" / "README.md"
LINK = re.compile(r"\]\(\.\./README\.md#([a-z0-9-]+)\)")
# A measured figure: a number followed by the unit it was measured in.
FIGURE = re.compile(r"\d[\d,.]*\s*(?:ms|s|req/s|scans/s|deliveries/s|POSTs/s|MiB|KiB|x)\b")


def github_anchor(heading: str) -> str:
    """The fragment GitHub gives a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def script_rows() -> list[str]:
    """The first cell of each row of the scripts table, without its backquotes."""
    rows = [line for line in BENCH_README.read_text().splitlines() if line.startswith("| `")]
    return [row.split("|")[1].strip().strip("`") for row in rows]


def test_every_script_has_exactly_one_row() -> None:
    scripts = sorted(path.name for path in (ROOT / "bench").glob("*.py"))
    assert sorted(script_rows()) == scripts


def test_no_line_is_repeated() -> None:
    lines = [line for line in BENCH_README.read_text().splitlines() if line.strip()]
    repeated = sorted({line for line in lines if lines.count(line) > 1})
    assert not repeated


def test_every_link_to_the_readme_reaches_a_heading() -> None:
    headings = {
        github_anchor(line.lstrip("#"))
        for line in (ROOT / "README.md").read_text().splitlines()
        if line.startswith("#")
    }
    anchors = LINK.findall(BENCH_README.read_text())
    assert "performance" in anchors
    assert not sorted(set(anchors) - headings)


def test_figures_are_not_copied_from_the_readme() -> None:
    assert not FIGURE.findall(BENCH_README.read_text())
