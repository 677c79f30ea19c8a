"""``/graphql``: the Strawberry schema mounted on Litestar, behind the same bearer credentials.

The route opts out of the bearer middleware and authenticates in its context getter instead, with
the same ``authenticate`` as every REST route, so that GraphiQL's page (a GET asking for HTML,
without a query) can load without a credential when ``settings.graphiql`` is on. Every other
request without a valid credential is answered with HTTP 401 and the REST problem body, before
any GraphQL runs.

The handlers and dependencies of Strawberry's controller are redeclared with explicit
``NamedDependency`` markers (Litestar 2.25 deprecates inferred ones); subscriptions are not
offered, so its websocket route is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cross_web import HTTPException
from graphql import GraphQLError
from litestar import Request, Response, get, post
from litestar.background_tasks import BackgroundTasks
from litestar.di import NamedDependency, Provide
from litestar.exceptions import NotFoundException, ValidationException
from litestar.status_codes import HTTP_200_OK
from strawberry.http import GraphQLRequestData
from strawberry.http.base import BaseRequestProtocol
from strawberry.litestar import make_graphql_controller
from strawberry.types import ExecutionResult

from app.schemas.decoding import MalformedJSON, NestedTooDeeply, decode_json
from app.services.authentication import authenticate
from app.settings import Settings
from graphql_api.context import Context
from graphql_api.dataloaders import Loaders
from graphql_api.persisted import PersistedQueries, PersistedQueryMismatch, PersistedQueryNotFound
from graphql_api.schema import schema
from rest.problems import Problem, problem_response


def _settings(request: Request[Any, Any, Any]) -> Settings:
    return request.app.state["settings"]


def _wants_graphiql(
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


async def graphql_context(request: Request[Any, Any, Any]) -> Context:
    wants_graphiql = _wants_graphiql(request.method, request.query_params, request.headers)
    if _settings(request).graphiql and wants_graphiql:
        return Context(request=request)
    principal = await authenticate(request.headers.get("authorization"), _settings(request))
    return Context(request=request, principal=principal, loaders=Loaders(principal))


def _sub_response() -> Response[Any]:
    """Where resolvers may set headers or a status; Strawberry merges it into the response."""
    return Response({}, background=BackgroundTasks([]))


async def _no_root_value() -> None:
    return None


def _refusal(error: HTTPException) -> Response[Problem]:
    slug, title = {
        405: ("method-not-allowed", "Method not allowed"),
        415: ("unsupported-media-type", "Unsupported media type"),
    }.get(error.status_code, ("bad-request", "Bad request"))
    return problem_response(error.status_code, slug, title, error.reason)


persisted_queries = PersistedQueries()


_StrawberryController = make_graphql_controller(
    schema, path="/graphql", graphql_ide="graphiql", context_getter=graphql_context
)


class GraphQLController(_StrawberryController):  # type: ignore[misc, valid-type]
    tags = ["graphql"]
    opt = {"exclude_from_auth": True}
    include_in_schema = False
    dependencies = {
        "context": Provide(graphql_context),
        "root_value": Provide(_no_root_value),
        "response": Provide(_sub_response, sync_to_thread=False),
    }
    websocket_endpoint = None

    @get(raises=[ValidationException, NotFoundException])
    async def handle_http_get(
        self,
        request: Request[Any, Any, Any],
        context: NamedDependency[Context],
        root_value: NamedDependency[None],
        response: NamedDependency[Response[Any]],
    ) -> Response[Any]:
        self.temporal_response = response
        return await self.execute_request(request=request, context=context, root_value=root_value)

    @post(status_code=HTTP_200_OK)
    async def handle_http_post(
        self,
        request: Request[Any, Any, Any],
        context: NamedDependency[Context],
        root_value: NamedDependency[None],
        response: NamedDependency[Response[Any]],
    ) -> Response[Any]:
        self.temporal_response = response
        return await self.execute_request(request=request, context=context, root_value=root_value)

    async def execute_request(
        self, request: Request[Any, Any, Any], context: Any, root_value: Any
    ) -> Response[Any]:
        """Strawberry's own HTTP refusals (malformed JSON, a mutation over GET, bad
        ``variables``) as problem details, like every other error of the API."""
        try:
            return await self.run(request, context=context, root_value=root_value)
        except HTTPException as error:
            return _refusal(error)

    async def execute_single(
        self,
        request: Request[Any, Any, Any],
        request_adapter: Any,
        sub_response: Response[Any],
        context: Context,
        root_value: None,
        request_data: GraphQLRequestData,
    ) -> ExecutionResult:
        """Runs the query, or the persisted query its ``extensions`` name."""
        try:
            assert context.principal is not None, "queries run only for authenticated requests"
            request_data.query = persisted_queries.resolve(
                context.principal.organization_id, request_data.query, request_data.extensions
            )
        except PersistedQueryNotFound:
            error = GraphQLError(
                "PersistedQueryNotFound", extensions={"code": "PERSISTED_QUERY_NOT_FOUND"}
            )
            return ExecutionResult(data=None, errors=[error])
        except PersistedQueryMismatch as mismatch:
            raise HTTPException(400, str(mismatch)) from None
        return await super().execute_single(
            request=request,
            request_adapter=request_adapter,
            sub_response=sub_response,
            context=context,
            root_value=root_value,
            request_data=request_data,
        )

    def decode_json(self, data: str | bytes) -> object:
        """JSON with the same decoder as REST bodies (``app.schemas.decoding``): malformed or too
        deeply nested JSON is a 400. ``data`` is the body (bytes, which must be a JSON object) or
        a GET's ``variables`` / ``extensions`` parameter (text, checked by Strawberry)."""
        encoded = data.encode() if isinstance(data, str) else data
        try:
            decoded = decode_json(encoded, Any)
        except NestedTooDeeply as error:
            raise HTTPException(400, f"Unable to parse request body as JSON: {error}") from None
        except MalformedJSON:
            raise HTTPException(400, "Unable to parse request body as JSON") from None
        if isinstance(data, bytes) and not isinstance(decoded, dict):
            raise HTTPException(400, "The request body must be a JSON object")
        return decoded

    def should_render_graphql_ide(self, request: BaseRequestProtocol) -> bool:
        return _wants_graphiql(request.method, request.query_params, request.headers)

    async def render_graphql_ide(self, request: Request[Any, Any, Any]) -> Response[str]:
        if not _settings(request).graphiql:
            return Response("Not found", status_code=404, media_type="text/plain")
        return await super().render_graphql_ide(request)
