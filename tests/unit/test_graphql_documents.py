"""The top-level ``graphql/`` folder holds GraphQL documents only, and never shadows graphql-core.

``graphql/`` sits beside the ``graphql_api`` package. Without an ``__init__.py`` it is at most a
namespace package, which Python's import system ranks below graphql-core's regular package; a
single ``.py`` file in it (an ``__init__.py`` above all) could make ``import graphql`` find it
instead, and then Strawberry breaks.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest
from graphql import GraphQLSchema, OperationDefinitionNode, build_schema, parse, validate

from graphql_api.schema import DOCUMENTS, SDL_PATH
from tests.support import OPERATIONS

ROOT = DOCUMENTS.parent
GRAPHQL_CORE = Path(str(distribution("graphql-core").locate_file("graphql/__init__.py")))
WHICH_GRAPHQL = "import graphql, sys; print(graphql.__file__); print(graphql.__version__)"


def test_the_graphql_folder_holds_no_python() -> None:
    assert DOCUMENTS.is_dir()
    python = sorted(
        str(path.relative_to(ROOT))
        for path in DOCUMENTS.rglob("*")
        if path.suffix in {".py", ".pyc", ".pyi"} or path.name == "__pycache__"
    )
    assert python == [], "graphql/ holds GraphQL documents only; Python belongs in graphql_api/"


def imported_graphql(cwd: Path, prelude: str = "") -> tuple[Path, str]:
    """The file and version ``import graphql`` gives a fresh interpreter started in ``cwd``."""
    run = subprocess.run(
        [sys.executable, "-c", prelude + WHICH_GRAPHQL],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    file, version = run.stdout.split()
    return Path(file).resolve(), version


def test_import_graphql_from_the_repository_root_is_graphql_core() -> None:
    """``python -c`` puts the working directory first on ``sys.path``, beside ``graphql/``."""
    file, version = imported_graphql(ROOT)
    assert file == GRAPHQL_CORE.resolve()
    assert version == distribution("graphql-core").version


def test_import_graphql_from_the_installed_package_is_graphql_core(tmp_path: Path) -> None:
    """The installed ``ticketing`` (run away from the checkout) imports graphql-core, and its
    packages do not include ``graphql/``."""
    assert "graphql" not in distribution("ticketing").read_text("top_level.txt").split()
    file, _ = imported_graphql(tmp_path, prelude="import graphql_api.schema; ")
    assert file == GRAPHQL_CORE.resolve()


@pytest.fixture(scope="module")
def committed_schema() -> GraphQLSchema:
    return build_schema(SDL_PATH.read_text())


@pytest.mark.parametrize("path", sorted(OPERATIONS.glob("*.graphql")), ids=lambda path: path.stem)
def test_each_operation_document_is_one_valid_operation_named_after_its_file(
    path: Path, committed_schema: GraphQLSchema
) -> None:
    document = parse(path.read_text())
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    assert [o.name.value if o.name else None for o in operations] == [path.stem]
    assert validate(committed_schema, document) == []


def test_the_operations_folder_holds_only_operation_documents() -> None:
    assert {path.suffix for path in OPERATIONS.iterdir()} == {".graphql"}
