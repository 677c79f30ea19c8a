"""The libraries' private names the service uses: each listed in docs/private-apis.md, its library
bounded above in pyproject.toml, and each still meaning what the service relies on (a test here,
or the one the table names), so that the upgrade that breaks one fails here first.

A private name is one a library spells with a leading underscore: an attribute read or set
(``table._meta``, ``self._release_...`` inherited from a library class), a name passed to
``getattr`` (``getattr(schema, "_schema")``) or an import of one. Names the project defines itself
are not private to it, whatever their spelling.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from piccolo.columns import Varchar
from piccolo.engine.sqlite import SQLiteEngine
from piccolo.table import Table

from tests.unit.project_files import PROJECT, ROOT, shipped_packages

DOC = ROOT / "docs" / "private-apis.md"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _shipped_modules() -> Iterator[tuple[Path, ast.Module]]:
    for package in shipped_packages():
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.relative_to(ROOT).parts:
                yield path, ast.parse(path.read_text(), str(path))


def _own_names(modules: list[tuple[Path, ast.Module]]) -> set[str]:
    """Every name the project defines or binds: functions, classes, variables, attributes set,
    parameters, import aliases."""
    own: set[str] = set()
    for _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            elif isinstance(node, ast.arg):
                own.add(node.arg)
    return own


def _by_name(node: ast.AST) -> str | None:
    """The attribute name a ``getattr``/``setattr``/``hasattr`` call spells out, if any."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"getattr", "setattr", "hasattr", "delattr"}
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[1].value
    return None


def private_uses() -> set[tuple[str, str]]:
    """(module path, private name) of every use of a library's private name in shipped code."""
    modules = list(_shipped_modules())
    own = _own_names(modules)
    found: set[tuple[str, str]] = set()
    for path, tree in modules:
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Attribute):
                names = [node.attr]
            elif (name := _by_name(node)) is not None:
                names = [name]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [*node.module.split("."), *(alias.name for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [part for alias in node.names for part in alias.name.split(".")]
            found.update((where, name) for name in names if _private(name) and name not in own)
    return found


def table_rows() -> list[dict[str, str]]:
    """The rows of the one table of docs/private-apis.md, by column heading."""
    lines = [line for line in DOC.read_text().splitlines() if line.startswith("|")]
    headings = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [
        dict(zip(headings, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        for line in lines[2:]
    ]


def test_the_table_lists_every_use_of_a_private_name() -> None:
    rows = table_rows()
    missing = sorted(
        f"{path}: {name}"
        for path, name in private_uses()
        if not any(
            f"`{name}`" in row["What"] and (path in row["Module"] or row["Module"] == "anywhere")
            for row in rows
        )
    )
    assert not missing, f"add to docs/private-apis.md: {missing}"


def test_every_row_is_still_used() -> None:
    """Each row's name (the first in backticks of its What) still appears in its module."""
    shipped = {str(path.relative_to(ROOT)): path.read_text() for path, _ in _shipped_modules()}
    stale = []
    for row in table_rows():
        name = row["What"].split("`")[1]
        where = (
            shipped.values() if row["Module"] == "anywhere" else [shipped.get(row["Module"], "")]
        )
        if not any(name in text for text in where):
            stale.append(f"{row['Module']}: {name}")
    assert not stale, f"no longer used: take out of docs/private-apis.md: {stale}"


def _dependency(library: str) -> Requirement:
    for line in PROJECT["project"]["dependencies"]:
        requirement = Requirement(line)
        if canonicalize_name(requirement.name) == canonicalize_name(library):
            return requirement
    raise AssertionError(f"{library} is not a dependency in pyproject.toml")


def test_each_library_of_the_table_is_bounded_above_in_pyproject() -> None:
    for library in {row["Library"] for row in table_rows()}:
        requirement = _dependency(library)
        assert any(spec.operator in {"<", "<="} for spec in requirement.specifier), (
            f"{library}: give it an upper bound, up to the version its private names are "
            "known to hold in"
        )


def test_the_installed_libraries_are_within_their_bounds() -> None:
    from importlib.metadata import version

    for library in {row["Library"] for row in table_rows()}:
        assert Version(version(library)) in _dependency(library).specifier, library


def test_each_row_names_an_upstream_link_a_removal_condition_and_a_test() -> None:
    for row in table_rows():
        assert re.search(r"https://github\.com/\S+", row["Upstream"]), row["What"]
        assert row["Remove when"], row["What"]
        for test in re.findall(r"`(tests/[^`:]+)::(\w+)`", row["Test"]) or [("", "")]:
            path, name = test
            assert path and name, f"{row['What']}: name its test as `tests/...py::test_name`"
            assert f"def {name}(" in (ROOT / path).read_text(), f"{path}::{name}"


class _Probe(Table, tablename="private_api_probe"):
    """A table of the shape the service's tables have (``db.tables``)."""

    organization_id = Varchar()
    note = Varchar(null=True, db_column_name="remark")


def test_piccolo_meta_holds_what_the_service_reads() -> None:
    """``Table._meta`` / ``Column._meta``: the table's name, columns, primary key and engine
    (``_meta.db``, which ``db.engine.bind_engine`` sets on every table)."""
    meta = _Probe._meta
    assert meta.tablename == "private_api_probe"
    assert [column._meta.name for column in meta.columns] == ["id", "organization_id", "note"]
    assert meta.primary_key is _Probe.id
    assert meta.get_column_by_name("organization_id") is _Probe.organization_id
    assert _Probe.note._meta.db_column_name == "remark"
    assert _Probe.note._meta.null and not _Probe.organization_id._meta.null
    engine = SQLiteEngine(path=":memory:")
    previous = meta.db
    try:
        meta.db = engine
        assert _Probe._meta.db is engine and engine.engine_type == "sqlite"
    finally:
        meta.db = previous


def test_each_service_table_has_that_meta() -> None:
    from db.tables import TABLES

    for table in TABLES:
        assert table._meta.tablename and table._meta.primary_key in table._meta.columns, table


def test_litestar_answers_an_error_raised_after_a_held_back_response_once_reset() -> None:
    """``ScopeState.response_started``: Litestar's exception handling answers an error only while
    it is False; a middleware that held the route's response back (``rest.idempotency``) sets it
    back, and an error raised afterwards is still answered (a 500 here), not dropped."""
    from litestar import Litestar, get
    from litestar.exceptions import LitestarException
    from litestar.middleware import ASGIMiddleware
    from litestar.testing import TestClient
    from litestar.types import ASGIApp, Message, Receive, Scope, Send
    from litestar.utils.scope.state import ScopeState

    class HoldBackThenFail(ASGIMiddleware):
        def __init__(self, reset: bool) -> None:
            self.reset = reset

        async def handle(
            self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
        ) -> None:
            async def held(message: Message) -> None:
                pass

            await next_app(scope, receive, held)
            if self.reset:
                ScopeState.from_scope(scope).response_started = False
            raise RuntimeError("failed after the route answered")

    @get("/", sync_to_thread=False)
    def route() -> str:
        return "held back"

    app = Litestar([route], middleware=[HoldBackThenFail(reset=True)])
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/").status_code == 500
    app = Litestar([route], middleware=[HoldBackThenFail(reset=False)])
    refused = pytest.raises(LitestarException, match="after response started")
    with TestClient(app, raise_server_exceptions=True) as client, refused:
        client.get("/")


def test_piccolo_lists_the_project_migrations_in_order() -> None:
    """``BaseMigrationManager.get_migration_modules`` / ``get_migration_ids``: every migration
    file of db/migrations, by its ``ID``, oldest first, with its ``DESCRIPTION``."""
    from db.migrate import known_migrations

    declared = []
    for path in sorted((ROOT / "db" / "migrations").glob("ticketing_*.py")):
        tree = ast.parse(path.read_text())
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        declared.append((constants["ID"], constants.get("DESCRIPTION", "")))
    assert [(m.id, m.description) for m in known_migrations()] == sorted(declared)
