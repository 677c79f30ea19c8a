"""The OpenAPI document: its configuration, and what Litestar does not derive by itself."""

from __future__ import annotations

import importlib
import pkgutil

import msgspec
from litestar import Litestar
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

import app.schemas
from app.schemas.orders import METADATA_VALUE, METADATA_VALUE_SCHEMA
from rest.assets import NO_FAVICON, SCALAR, STATIC_PATH, SWAGGER_UI, vendored
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
        render_plugins=[
            ScalarRenderPlugin(
                js_url=vendored(SCALAR, "standalone.js"),
                css_url=f"{STATIC_PATH}/scalar.css",
                # Scalar's default fonts come from its CDN; the page uses the system's instead.
                options={"withDefaultFonts": False},
                favicon=NO_FAVICON,
            ),
            SwaggerRenderPlugin(
                path="/swagger",
                js_url=vendored(SWAGGER_UI, "swagger-ui-bundle.js"),
                css_url=vendored(SWAGGER_UI, "swagger-ui.css"),
                standalone_preset_js_url=vendored(SWAGGER_UI, "swagger-ui-standalone-preset.js"),
                favicon=NO_FAVICON,
            ),
        ],
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


def closed_input_names() -> set[str]:
    """Names of the input structs that reject unknown fields (``forbid_unknown_fields``)."""
    names: set[str] = set()
    for module_info in pkgutil.iter_modules(app.schemas.__path__):
        module = importlib.import_module(f"app.schemas.{module_info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, msgspec.Struct)
                and value.__struct_config__.forbid_unknown_fields
            ):
                names.add(value.__name__)
    return names


def declare_metadata_value(application: Litestar) -> None:
    """The ``MetadataValue`` component that ticket ``metadata`` refers to (it nests, so it is a
    component of its own). A JSON Schema dict: Litestar serializes dicts as they are."""
    schemas = application.openapi_schema.components.schemas
    schemas[METADATA_VALUE] = METADATA_VALUE_SCHEMA  # type: ignore[assignment]


def declare_closed_inputs(application: Litestar) -> None:
    """Mark input bodies ``additionalProperties: false`` in the document, as the server enforces.

    Litestar's msgspec schema generation does not read ``forbid_unknown_fields``; without this,
    clients and validators generated from the document would believe extra fields are accepted.
    """
    schemas = application.openapi_schema.components.schemas
    for name in closed_input_names() & set(schemas):
        schemas[name].additional_properties = False
