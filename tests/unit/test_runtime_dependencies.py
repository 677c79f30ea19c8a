"""Every third-party module the service imports is installed by its runtime dependencies.

The test extras are installed in development and CI, so a module that the service imports but
only the test extras require works everywhere except in production (``pip install .`` and the
Docker image install the runtime dependencies alone). This walks the imports of the packages the
project ships and checks each against the closure of ``[project].dependencies``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, packages_distributions, requires
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.unit.project_files import PROJECT, ROOT, shipped_packages


def imported_modules(package: str) -> Iterator[tuple[Path, str]]:
    """The top-level names of the absolute imports in a package's modules."""
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield path, node.module.split(".")[0]


def runtime_closure() -> set[str]:
    """The distributions that installing ``[project].dependencies`` installs."""
    closure: set[str] = set()
    pending = [Requirement(text) for text in PROJECT["project"]["dependencies"]]
    while pending:
        requirement = pending.pop()
        name = canonicalize_name(requirement.name)
        key = name + "[" + ",".join(sorted(requirement.extras)) + "]"
        if key in closure:
            continue
        closure.update({key, name})
        try:
            declared = requires(requirement.name) or []
        except PackageNotFoundError:
            continue
        for text in declared:
            child = Requirement(text)
            if child.marker is None or any(
                child.marker.evaluate({"extra": extra}) for extra in requirement.extras or {""}
            ):
                pending.append(child)
    return closure


def test_the_service_imports_only_what_its_runtime_dependencies_install() -> None:
    packages = shipped_packages()
    assert {"app", "rest", "db", "graphql_api", "workers"} <= set(packages)
    first_party = set(packages)
    distributions = packages_distributions()
    closure = runtime_closure()
    missing = sorted(
        {
            f"{module} (in {path.relative_to(ROOT)}) comes from {', '.join(owners)}"
            for package in packages
            for path, module in imported_modules(package)
            if module not in first_party
            and module not in sys.stdlib_module_names
            and (owners := distributions.get(module, [module]))
            and not any(canonicalize_name(owner) in closure for owner in owners)
        }
    )
    assert not missing, "imported but not a runtime dependency:\n" + "\n".join(missing)


def test_the_image_copies_every_shipped_package() -> None:
    copied = {
        line.split()[1].rstrip("/")
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
    }
    assert set(shipped_packages()) <= copied, "Dockerfile does not COPY every shipped package"


def _scripts_run_by(script: Path) -> set[Path]:
    """``script`` and the project's scripts it runs, transitively (a command line naming one, not
    a comment)."""
    found = {script}
    for line in script.read_text().splitlines():
        if line.lstrip().startswith("#"):
            continue
        for called in re.findall(r"\bscripts/[\w-]+", line):
            path = ROOT / called
            if path.exists() and path not in found:
                found |= _scripts_run_by(path)
    return found


def test_the_demo_installs_no_test_tool() -> None:
    """``scripts/demo`` sets up only what the service needs: no browser, no system package."""
    demo = {path.name: path.read_text() for path in _scripts_run_by(ROOT / "scripts" / "demo")}
    assert "bootstrap" in demo
    assert [name for name, text in demo.items() if "apt-get" in text or "chromium" in text] == []
