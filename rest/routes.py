"""Every route the service answers over HTTP besides the operational ones and the dashboard: the
REST resources, OAuth, GraphQL over HTTP and WebSocket, and the browser pages' static files."""

from __future__ import annotations

from rest.assets import static_files
from rest.events import EventController
from rest.graphql import GRAPHQL_ROUTES
from rest.holds import HoldController
from rest.identity import get_whoami
from rest.listen import listen_socket
from rest.oauth import OAUTH_ROUTES
from rest.orders import OrderController
from rest.scanners import ScannerController, ScannerProfileController
from rest.scanning import SCANNING_ROUTES
from rest.subscriptions import graphql_over_websocket
from rest.tickets import TICKET_ROUTES
from rest.webhooks import WebhookController

ROUTES = [
    get_whoami,
    EventController,
    OrderController,
    HoldController,
    *TICKET_ROUTES,
    ScannerController,
    ScannerProfileController,
    *SCANNING_ROUTES,
    WebhookController,
    *OAUTH_ROUTES,
    *GRAPHQL_ROUTES,
    static_files(),
    graphql_over_websocket,
    listen_socket,
]
