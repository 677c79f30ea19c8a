"""The OpenAPI document: its configuration, and what Litestar does not derive by itself."""

from __future__ import annotations

import importlib
import pkgutil
import re
import types
from collections.abc import Iterator
from typing import Annotated, Any, Union, get_args, get_origin

import msgspec
from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import (
    Components,
    OpenAPIHeader,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    Schema,
    SecurityScheme,
)

import app.schemas
from app.schemas.orders import METADATA_VALUE, METADATA_VALUE_SCHEMA
from app.services.idempotency import HEADER as IDEMPOTENCY_HEADER
from rest.api_reference import ScalarPage, SwaggerPage
from rest.auth import PUBLIC_PATHS
from rest.openapi_names import operation_id

API_VERSION = "1.0.0"


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Event Ticketing API",
        version=API_VERSION,
        description=(
            "Events, timeslots, orders and tickets of one organization; door scanning; webhooks. "
            "Authenticate with `Authorization: Bearer <API key or OAuth access token>`. "
            "Errors are RFC 9457 problem details."
        ),
        path="/schema",
        operation_id_creator=operation_id,
        render_plugins=[ScalarPage(), SwaggerPage()],
        components=Components(
            security_schemes={
                "bearer": SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="An API key (tk_live_...) or an OAuth 2.0 access token (JWT)",
                )
            },
        ),
        security=[{"bearer": []}],
    )


def input_structs() -> set[type[msgspec.Struct]]:
    """The input structs of ``app.schemas``: those that reject unknown fields
    (``forbid_unknown_fields``)."""
    found: set[type[msgspec.Struct]] = set()
    for module_info in pkgutil.iter_modules(app.schemas.__path__):
        module = importlib.import_module(f"app.schemas.{module_info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, msgspec.Struct)
                and value.__struct_config__.forbid_unknown_fields
            ):
                found.add(value)
    return found


def closed_input_names() -> set[str]:
    """Names of the input structs that reject unknown fields (``forbid_unknown_fields``)."""
    return {struct.__name__ for struct in input_structs()}


ZERO_BOUNDS = {
    "ge": "minimum",
    "gt": "exclusive_minimum",
    "le": "maximum",
    "lt": "exclusive_maximum",
}


def _metas(annotation: Any) -> Iterator[msgspec.Meta]:
    """The ``msgspec.Meta`` constraints anywhere in an annotation (unions included)."""
    if get_origin(annotation) is Annotated:
        yield from (m for m in get_args(annotation)[1:] if isinstance(m, msgspec.Meta))
        yield from _metas(get_args(annotation)[0])
    elif get_origin(annotation) in (Union, types.UnionType):
        for member in get_args(annotation):
            yield from _metas(member)


def declare_zero_bounds(application: Litestar) -> None:
    """Put back the bounds of 0 that Litestar drops from a field whose type is a union.

    For ``total_available: Capacity | UnsetType`` (a PATCH field) Litestar copies the constraints
    with ``if value and ...``, so ``ge=0`` is lost while ``le`` stays: the document would
    let a client send -5, which the server refuses with a 400.
    """
    schemas = application.openapi_schema.components.schemas
    for struct in input_structs():
        schema = schemas.get(struct.__name__)
        if schema is None or not schema.properties:
            continue
        for field in msgspec.structs.fields(struct):
            prop = schema.properties.get(field.encode_name)
            for meta in _metas(field.type):
                for constraint, keyword in ZERO_BOUNDS.items():
                    if getattr(meta, constraint) == 0 and getattr(prop, keyword, 0) is None:
                        setattr(prop, keyword, 0)


def declare_metadata_value(application: Litestar) -> None:
    """The ``MetadataValue`` component that ticket ``metadata`` refers to (it nests, so it is a
    component of its own). A JSON Schema dict: Litestar serializes dicts as they are."""
    schemas = application.openapi_schema.components.schemas
    # A dict where Litestar's table declares its Schema objects (see the docstring).
    schemas[METADATA_VALUE] = METADATA_VALUE_SCHEMA  # type: ignore[assignment]


def declare_closed_inputs(application: Litestar) -> None:
    """Mark input bodies ``additionalProperties: false`` in the document, as the server enforces.

    Litestar's msgspec schema generation does not read ``forbid_unknown_fields``; without this,
    clients and validators generated from the document would believe extra fields are accepted.
    """
    schemas = application.openapi_schema.components.schemas
    for name in closed_input_names() & set(schemas):
        schemas[name].additional_properties = False


IDEMPOTENCY_KEY = Parameter(
    name=IDEMPOTENCY_HEADER,
    param_in="header",
    required=False,
    description=(
        "Makes a retry safe: a request repeated with the same key (by the same credential, "
        "within 24 hours) is answered with the first answer, marked `Idempotent-Replayed: true`, "
        "and runs nothing again. 1 to 255 visible ASCII characters; use a new key (a UUID) for "
        "every new request."
    ),
    schema=Schema(type=OpenAPIType.STRING, min_length=1, max_length=255, pattern="^[!-~]+$"),
)
REPLAYED = OpenAPIHeader(
    description="`true` when this is the stored answer of an earlier request with the same "
    "`Idempotency-Key`",
    schema=Schema(type=OpenAPIType.STRING, enum=["true"]),
)
IN_PROGRESS_ALONE = (
    "A request with the same `Idempotency-Key` is still running (retry after `Retry-After` "
    "seconds): `/problems/idempotency-key-in-progress`"
)
IN_PROGRESS = f"; or: {IN_PROGRESS_ALONE[0].lower()}{IN_PROGRESS_ALONE[1:]}"
REUSED = (
    "The `Idempotency-Key` was used for another request (other method, path, query or body): "
    "`/problems/idempotency-key-reused`"
)


def _idempotent_operations(application: Litestar) -> list[Operation]:
    """POST and PATCH operations that take a bearer credential: not on the paths bearer
    authentication skips, nor marked ``security: [{}]`` (no credential)."""
    operations = []
    for path, item in (application.openapi_schema.paths or {}).items():
        if any(re.match(public, path) for public in PUBLIC_PATHS):
            continue
        for operation in (item.post, item.patch):
            if operation is not None and operation.security != [{}]:
                operations.append(operation)
    return operations


def declare_idempotency_keys(application: Litestar) -> None:
    """The ``Idempotency-Key`` header, its 409 and 422 answers and the ``Idempotent-Replayed``
    header on every operation the middleware (``rest.idempotency``) covers: derived here once,
    so that routes added later are documented as they behave."""
    for operation in _idempotent_operations(application):
        operation.parameters = [*(operation.parameters or []), IDEMPOTENCY_KEY]
        responses = operation.responses or {}
        problem = responses["401"]
        assert isinstance(problem, OpenAPIResponse)
        conflict = responses.get("409")
        if isinstance(conflict, OpenAPIResponse):
            conflict.description = f"{conflict.description}{IN_PROGRESS}"
        else:
            responses["409"] = OpenAPIResponse(
                description=IN_PROGRESS_ALONE, content=problem.content
            )
        invalid = responses.get("400")
        if isinstance(invalid, OpenAPIResponse):
            invalid.description = f"{invalid.description}; or a malformed `Idempotency-Key`"
        else:
            responses["400"] = OpenAPIResponse(
                description="A malformed `Idempotency-Key`", content=problem.content
            )
        responses["422"] = OpenAPIResponse(description=REUSED, content=problem.content)
        for status, response in responses.items():
            if status.startswith("2") and isinstance(response, OpenAPIResponse):
                response.headers = {**(response.headers or {}), "Idempotent-Replayed": REPLAYED}
        operation.responses = dict(sorted(responses.items()))
