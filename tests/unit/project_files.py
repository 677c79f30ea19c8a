"""The project's own files, as the unit tests that read them see them."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def shipped_packages() -> list[str]:
    """The top-level packages setuptools ships (``[tool.setuptools.packages.find] include``)."""
    patterns = PROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if any(fnmatch(path.parent.name, pattern) for pattern in patterns)
    )
