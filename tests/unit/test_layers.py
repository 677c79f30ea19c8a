"""Imports point one way (README "Layout"): the composition roots in ``ticketing/`` assemble
everything and nothing imports them; the transports (``rest``, ``graphql_api``, ``dashboard``) and
``workers`` call the services; the services stand on ``db``; ``app.runtime`` and
``app.outbound`` serve every layer and know no business rule; ``db`` knows no service."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.unit.project_files import ROOT, shipped_packages

TRANSPORTS = ("rest", "graphql_api", "dashboard")

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "app": ("ticketing", "workers", *TRANSPORTS),
    "db": ("ticketing", "workers", "app.services", *TRANSPORTS),
    "app.runtime": ("app.services",),
    "app.outbound": ("app.services", "app.runtime.live"),
    "workers": ("ticketing", *TRANSPORTS),
    "rest": ("ticketing", "workers"),
    "graphql_api": ("ticketing", "workers", "rest", "dashboard"),
    "dashboard": ("ticketing", "workers", "rest", "graphql_api"),
}
"""A module of the key's package never imports a module of these packages."""
SHARED = ("rest.http",)
"""Allowed across the rule: the HTTP conventions every route of the one application follows (the
dashboard's form routes opt out of the JSON body rule there)."""


def _modules() -> Iterator[tuple[str, Path]]:
    for package in shipped_packages():
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            relative = path.relative_to(ROOT).with_suffix("")
            parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
            yield ".".join(parts), path


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _rules_for(module: str) -> tuple[str, ...]:
    """The forbidden packages of the most specific package ``module`` is in."""
    owners = [package for package in FORBIDDEN if _within(module, package)]
    return FORBIDDEN[max(owners, key=len)] if owners else ()


def test_imports_point_one_way() -> None:
    wrong = sorted(
        f"{module} imports {imported}"
        for module, path in _modules()
        for imported in _imports(path)
        if any(_within(imported, forbidden) for forbidden in _rules_for(module))
        and not any(_within(imported, shared) for shared in SHARED)
    )
    assert wrong == []


def test_the_rule_catches_an_import_running_back_up(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("from ticketing.cli import main\nfrom app.services import orders\n")
    found = set(_imports(probe))
    assert any(_within(name, "ticketing") for name in found)
    assert "app.services.orders" in found


@pytest.mark.parametrize("package", ["ticketing", "app.runtime", "app.outbound"])
def test_every_layer_named_exists(package: str) -> None:
    assert (ROOT / package.replace(".", "/") / "__init__.py").exists()
