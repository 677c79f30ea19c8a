"""``/graphql`` over HTTP: our own Litestar handlers around the schema (``graphql_api.execution``).

The GET route opts out of the bearer middleware and authenticates in the handler instead, with
the same ``authenticate`` as every REST route, so that GraphiQL's page (a GET asking for HTML,
without a query) can load without a credential when ``settings.graphiql`` is on; POST goes
through the middleware like a REST route. Every other request without a valid credential is
answered with HTTP 401 and the REST problem body, before anything else is read. A request that
is not a GraphQL request (malformed JSON, ``variables`` that are not an object, a mutation over
GET, no query) is a 400 problem like any bad REST input; a form body is a 415
(``rest.http.require_json_body``). The GraphQL response itself is encoded
once, with msgspec, whatever its errors (HTTP 200).

Subscriptions use the WebSocket route of the same path (``rest.subscriptions``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from string import Template
from typing import Any

import msgspec
from graphql import GraphQLError
from litestar import Request, Response, get, post
from litestar.status_codes import HTTP_200_OK
from strawberry.types.graphql import OperationType

from app.principal import Principal
from app.schemas.decoding import MalformedJSON, NestedTooDeeply, decode_json
from app.services.authentication import authenticate
from app.settings import Settings
from graphql_api.context import Context
from graphql_api.execution import Operation, OperationRefused, execute, response
from graphql_api.persisted import PersistedQueries, PersistedQueryMismatch, PersistedQueryNotFound
from graphql_api.schema import schema
from rest.assets import GRAPHIQL, GRAPHIQL_EXPLORER, REACT, REACT_DOM, own, vendored
from rest.problems import Problem, problem_response

GRAPHQL_PATH = "/graphql"
TEMPLATES = Path(__file__).parent / "templates"
ROUTE_OPTIONS: dict[str, Any] = {"include_in_schema": False, "tags": ["graphql"]}
QUERIES = frozenset({OperationType.QUERY})
QUERIES_AND_MUTATIONS = frozenset({OperationType.QUERY, OperationType.MUTATION})

persisted_queries = PersistedQueries()


class BadGraphQLRequest(Exception):
    """A 400: the request is not a well-formed GraphQL request."""


def _settings(request: Request[Any, Any, Any]) -> Settings:
    settings: Settings = request.app.state["settings"]
    return settings


def wants_graphiql(
    method: str, query_params: Mapping[str, Any], headers: Mapping[str, str]
) -> bool:
    """A browser opening the IDE: a GET asking for HTML that carries no query and no persisted
    query (``curl``'s ``Accept: */*`` with a persisted-query hash runs the query)."""
    return (
        method == "GET"
        and "query" not in query_params
        and "extensions" not in query_params
        and "text/html" in headers.get("accept", "")
    )


GRAPHIQL_PAGE = Template((TEMPLATES / "graphiql.html").read_text()).substitute(
    react_js=vendored(REACT, "react.production.min.js"),
    react_dom_js=vendored(REACT_DOM, "react-dom.production.min.js"),
    graphiql_js=vendored(GRAPHIQL, "graphiql.min.js"),
    graphiql_css=vendored(GRAPHIQL, "graphiql.min.css"),
    explorer_js=vendored(GRAPHIQL_EXPLORER, "index.umd.js"),
    explorer_css=vendored(GRAPHIQL_EXPLORER, "style.css"),
    page_js=own("graphiql-page.js"),
)
"""GraphiQL with its code served by this service (``rest.assets``), not from a CDN."""


def graphiql_page() -> Response[str]:
    return Response(GRAPHIQL_PAGE, media_type="text/html")


def _json_object(raw: str | bytes, what: str) -> dict[str, Any]:
    """``raw`` decoded with the same strict decoder as REST bodies; it must be an object."""
    try:
        decoded = decode_json(raw.encode() if isinstance(raw, str) else raw, Any)
    except NestedTooDeeply as error:
        raise BadGraphQLRequest(f"Unable to parse {what} as JSON: {error}") from None
    except MalformedJSON:
        raise BadGraphQLRequest(f"Unable to parse {what} as JSON") from None
    if not isinstance(decoded, dict):
        raise BadGraphQLRequest(f"The {what} must be a JSON object")
    return decoded


def _member(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if value is not None and not isinstance(value, kind):
        expected = "an object" if kind is dict else "a string"
        raise BadGraphQLRequest(f"{name} must be {expected} or null")
    return value


def _operation(principal: Principal, data: Mapping[str, Any]) -> Operation | None:
    """The request's operation; None for an unknown persisted-query hash."""
    extensions = _member(data, "extensions", dict)
    try:
        query = persisted_queries.resolve(
            principal.organization_id, _member(data, "query", str), extensions
        )
    except PersistedQueryNotFound:
        return None
    except PersistedQueryMismatch as mismatch:
        raise BadGraphQLRequest(str(mismatch)) from None
    if not query:
        raise BadGraphQLRequest("No GraphQL query found in the request")
    return Operation(
        query=query,
        variables=_member(data, "variables", dict) or {},
        operation_name=_member(data, "operationName", str),
    )


PERSISTED_QUERY_NOT_FOUND = response(
    None,
    [GraphQLError("PersistedQueryNotFound", extensions={"code": "PERSISTED_QUERY_NOT_FOUND"})],
)


async def _run(
    request: Request[Any, Any, Any],
    principal: Principal,
    data: Mapping[str, Any],
    allowed: frozenset[OperationType],
) -> Response[bytes] | Response[Problem]:
    try:
        operation = _operation(principal, data)
        if operation is None:
            body = PERSISTED_QUERY_NOT_FOUND
        else:
            context = Context(principal=principal, settings=_settings(request))
            body = await execute(schema, operation, context, allowed, request.method)
    except (BadGraphQLRequest, OperationRefused) as refused:
        return problem_response(400, "bad-request", "Bad request", str(refused))
    return Response(
        msgspec.json.encode(body), media_type="application/json", status_code=HTTP_200_OK
    )


@get(GRAPHQL_PATH, opt={"exclude_from_auth": True}, **ROUTE_OPTIONS)
async def graphql_over_get(request: Request[Any, Any, Any]) -> Response[Any]:
    """Queries over GET (``query``, ``variables``, ``operationName``, ``extensions`` in the query
    string), and GraphiQL's page for a browser."""
    settings = _settings(request)
    ide = wants_graphiql(request.method, request.query_params, request.headers)
    if ide and settings.graphiql:
        return graphiql_page()
    principal = await authenticate(request.headers.get("authorization"), settings)
    if ide:
        return Response("Not found", status_code=404, media_type="text/plain")
    params = request.query_params
    data: dict[str, Any] = {
        "query": params.get("query"),
        "operationName": params.get("operationName"),
    }
    try:
        for name in ("variables", "extensions"):
            if params.get(name):
                data[name] = _json_object(params[name], f"the {name} parameter")
    except BadGraphQLRequest as refused:
        return problem_response(400, "bad-request", "Bad request", str(refused))
    return await _run(request, principal, data, QUERIES)


@post(GRAPHQL_PATH, status_code=HTTP_200_OK, **ROUTE_OPTIONS)
async def graphql_over_post(request: Request[Any, Any, Any]) -> Response[Any]:
    """Queries and mutations: a JSON object with ``query``, ``variables``, ``operationName`` and
    ``extensions``. Authenticated by the bearer middleware like every REST route (and so
    idempotent with a key, ``rest.idempotency``)."""
    principal: Principal = request.user
    try:
        data = _json_object(await request.body(), "request body")
    except BadGraphQLRequest as refused:
        return problem_response(400, "bad-request", "Bad request", str(refused))
    return await _run(request, principal, data, QUERIES_AND_MUTATIONS)


GRAPHQL_ROUTES = [graphql_over_get, graphql_over_post]
