"""The OpenAPI document's browsable pages, ``/schema`` (Scalar) and ``/schema/swagger``, without
inline script: each page loads the vendored library and a small start-up file from
``rest/static``, and hands it its configuration in ``data-`` attributes, so that the pages work
under the Content-Security-Policy of ``rest.page_policy`` (``script-src 'self'``).

Litestar's own plugins write their start-up code inline (and Swagger UI's with the whole document
in it); only ``render`` is replaced here, the rest of the plugins is Litestar's public API.
"""

from __future__ import annotations

from html import escape
from typing import Any

import msgspec
from litestar import Request
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin

from rest.assets import NO_FAVICON, SCALAR, SWAGGER_UI, own, vendored

SCALAR_OPTIONS: dict[str, Any] = {
    # Scalar's default fonts come from its CDN; the page uses the system's instead.
    "withDefaultFonts": False,
    # "Ask AI" and "Generate MCP" reach Scalar's servers and offer to upload the document.
    "agent": {"disabled": True},
    "mcp": {"disabled": True},
    # The developer toolbar (shown on localhost) offers to share and deploy the document through
    # Scalar's servers.
    "showDeveloperTools": "never",
}


def _page(title: str, head: str, body: str) -> bytes:
    return (
        "<!doctype html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<title>{escape(title)}</title>\n{NO_FAVICON}\n{head}\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    ).encode()


def _attribute(value: Any) -> str:
    return escape(msgspec.json.encode(value).decode(), quote=True)


class ScalarPage(ScalarRenderPlugin):
    """``/schema``: Scalar's API reference, its AI and MCP features off."""

    def __init__(self) -> None:
        super().__init__(
            js_url=vendored(SCALAR, "standalone.js"),
            css_url=own("scalar.css"),
            options=SCALAR_OPTIONS,
            favicon=NO_FAVICON,
        )

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        configuration = {**SCALAR_OPTIONS, "url": self.get_openapi_json_route(request)}
        return _page(
            openapi_schema["info"]["title"],
            f"<link rel='stylesheet' href='{self.css_url}'>",
            "<noscript>The API reference needs JavaScript; the OpenAPI document itself is at "
            f"{escape(configuration['url'])}.</noscript>\n"
            f"<div id='api-reference-page' data-configuration='{_attribute(configuration)}'>"
            "</div>\n"
            f"<script src='{self.js_url}'></script>\n"
            f"<script src='{own('scalar-page.js')}'></script>",
        )


class SwaggerPage(SwaggerRenderPlugin):
    """``/schema/swagger``: Swagger UI, reading the document from its JSON route."""

    def __init__(self) -> None:
        super().__init__(
            path="/swagger",
            js_url=vendored(SWAGGER_UI, "swagger-ui-bundle.js"),
            css_url=vendored(SWAGGER_UI, "swagger-ui.css"),
            standalone_preset_js_url=vendored(SWAGGER_UI, "swagger-ui-standalone-preset.js"),
            favicon=NO_FAVICON,
        )

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        url = self.get_openapi_json_route(request)
        return _page(
            openapi_schema["info"]["title"],
            f"<link rel='stylesheet' href='{self.css_url}'>\n{self.style}",
            f"<div id='swagger-container' data-url='{escape(url, quote=True)}'></div>\n"
            f"<script src='{self.js_url}'></script>\n"
            f"<script src='{self.standalone_preset_js_url}'></script>\n"
            f"<script src='{own('swagger-page.js')}'></script>",
        )
