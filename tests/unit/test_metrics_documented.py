"""Every metric the service exports is in the runbook (docs/operations.md), where operators look."""

from __future__ import annotations

import ast

from tests.unit.project_files import ROOT, shipped_packages

METRIC_TYPES = {"Counter", "Gauge", "Histogram", "Summary"}


def exported_metrics() -> set[str]:
    """Names given to prometheus-client's metric constructors anywhere in the shipped code."""
    names = set()
    for package in shipped_packages():
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in METRIC_TYPES
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    suffix = "_total" if node.func.id == "Counter" else ""
                    names.add(f"{node.args[0].value}{suffix}")
    return names


def test_every_exported_metric_is_in_the_runbook() -> None:
    metrics = exported_metrics()
    assert "ticketing_http_requests_total" in metrics
    runbook = (ROOT / "docs" / "operations.md").read_text()
    assert not sorted(name for name in metrics if f"`{name}`" not in runbook)
