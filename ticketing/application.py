"""The Litestar application of ``ticketing serve`` and the demo: the REST, GraphQL and dashboard
routes on one app, with authentication, problems, the OpenAPI document and the lifespan that
binds the database, the live hub and (without Redis) the in-process webhook delivery."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Request, Response
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from piccolo.engine.base import Engine

from app.runtime import stopping
from app.runtime.collector import tuned_for_serving
from app.runtime.live import serving_hub
from app.runtime.logging import configure_logging
from app.runtime.observability import sample_pool_usage
from app.runtime.readiness import MigrationGate, ReadinessProbe
from app.services import request_log
from app.services.oauth.dev_provider import DevProvider
from app.settings import Settings, get_settings
from dashboard import PATH as DASHBOARD_PATH
from dashboard import dashboard_router, static_router, template_config
from dashboard.errors import no_such_page
from db.engine import bind_engine, create_engine, pool_usage, start_engine, stop_engine
from rest.auth import bearer_authentication
from rest.cors import cors_config
from rest.csv_export import declare_csv_exports
from rest.dev_idp import DEV_IDP_ROUTES, PROVIDER_STATE
from rest.http import (
    MAX_BODY_BYTES,
    StrictJSONRequest,
    before_route,
    finish_response,
    record_allowed_methods,
)
from rest.idempotency import idempotent_requests
from rest.oauth_openapi import declare_forms
from rest.observation import ObservedLitestar
from rest.openapi import (
    declare_closed_inputs,
    declare_idempotency_keys,
    declare_metadata_value,
    declare_zero_bounds,
    openapi_config,
)
from rest.openapi_names import name_components
from rest.operations import MigrationGateMiddleware, get_healthz, get_metrics, get_readyz
from rest.problems import EXCEPTION_HANDLERS, handle_http_error
from rest.routes import ROUTES
from workers.in_process import in_process_delivery

logger = logging.getLogger("ticketing.startup")


def warn_about_settings(settings: Settings) -> None:
    """One line for a setting that works but leaves a door open."""
    if settings.idp_issuer and not settings.idp_audience:
        logger.warning(
            "TICKETING_IDP_AUDIENCE is not set: sign-in tokens the identity provider issued to "
            "other applications are accepted too; set it to this API's client id at the IdP"
        )


def not_found(request: Request[Any, Any, Any], error: NotFoundException) -> Response[Any]:
    """No route: under ``/dashboard`` (an unknown page, a malformed id) the dashboard's HTML 404
    page for the browser; anywhere else the API's problem+json."""
    path = request.url.path
    if path == DASHBOARD_PATH or path.startswith(f"{DASHBOARD_PATH}/"):
        return no_such_page(request, error)
    return handle_http_error(request, error)


def create_app(settings: Settings | None = None, *, engine: Engine[Any] | None = None) -> Litestar:
    """The application for ``settings`` (read from the environment when not given: the
    ``ticketing serve`` factory), on ``engine`` (built from the settings when not given), which
    its lifespan binds and starts."""
    settings = settings or get_settings()
    configure_logging(settings.log_level, settings.log_format)
    engine = engine or create_engine(settings)
    warn_about_settings(settings)
    gate = MigrationGate()
    probe = ReadinessProbe(settings, gate)

    @asynccontextmanager
    async def database(_: Litestar) -> AsyncIterator[None]:
        bind_engine(engine)
        await start_engine(engine)
        try:
            yield
        finally:
            await probe.aclose()
            await request_log.LOG.flush()
            await stop_engine(engine)

    @asynccontextmanager
    async def collector(_: Litestar) -> AsyncIterator[None]:
        with tuned_for_serving():
            yield

    @asynccontextmanager
    async def pool_gauges(_: Litestar) -> AsyncIterator[None]:
        sampler = asyncio.create_task(sample_pool_usage(lambda: pool_usage(engine), every=1.0))
        try:
            yield
        finally:
            sampler.cancel()

    @asynccontextmanager
    async def webhook_delivery(_: Litestar) -> AsyncIterator[None]:
        """Without Redis (the demo) this process delivers webhooks itself; with Redis it does
        not, ``ticketing worker`` does."""
        async with in_process_delivery(settings, gate):
            yield

    @asynccontextmanager
    async def live_updates(_: Litestar) -> AsyncIterator[None]:
        """Live notifications (GraphQL subscriptions, the door view), through Redis when there is
        one; a stop signal ends the door view's streams before the server waits for them."""
        async with serving_hub(settings.redis_url, settings.queue_name):
            with stopping.announcing():
                yield

    state = State({"settings": settings, "readiness": probe})
    dev_idp_routes = []
    if settings.dev_idp_directory is not None:
        state[PROVIDER_STATE] = DevProvider.from_settings(settings)
        dev_idp_routes = DEV_IDP_ROUTES
    lifespan = [database, live_updates]
    if settings.metrics:
        lifespan.append(pool_gauges)
    if not settings.redis_url:
        lifespan.append(webhook_delivery)
    if settings.gc_tuning:  # last, so that what the others start with is frozen too
        lifespan.append(collector)
    application = ObservedLitestar(
        route_handlers=[
            *ROUTES,
            get_healthz,
            get_readyz,
            *([get_metrics] if settings.metrics else []),
            dashboard_router(),
            static_router(),
            *dev_idp_routes,
        ],
        lifespan=lifespan,
        middleware=[MigrationGateMiddleware(gate), bearer_authentication, idempotent_requests],
        exception_handlers={**EXCEPTION_HANDLERS, NotFoundException: not_found},
        before_request=before_route,
        before_send=[finish_response],
        request_max_body_size=MAX_BODY_BYTES,
        request_class=StrictJSONRequest,
        openapi_config=openapi_config(),
        cors_config=cors_config(settings.cors_origins),
        state=state,
        template_config=template_config(),
        logging_config=None,
        access_log=settings.access_log,
        metrics=settings.metrics,
    )
    declare_closed_inputs(application)
    declare_zero_bounds(application)
    declare_metadata_value(application)
    declare_forms(application)
    declare_idempotency_keys(application)
    declare_csv_exports(application)
    name_components(application)
    record_allowed_methods(application)
    return application
