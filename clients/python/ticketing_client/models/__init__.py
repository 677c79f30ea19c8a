"""Contains all the data models used in inputs/outputs"""

from .attendance import Attendance
from .authorization_server_metadata import AuthorizationServerMetadata
from .availability import Availability
from .batch_scan import BatchScan
from .batch_scan_item import BatchScanItem
from .batch_scan_result import BatchScanResult
from .batch_scan_results import BatchScanResults
from .batch_scan_status import BatchScanStatus
from .channel import Channel
from .code_scan import CodeScan
from .consent_form import ConsentForm
from .current_user import CurrentUser
from .deleted import Deleted
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .delivery_page import DeliveryPage
from .delivery_queued import DeliveryQueued
from .delivery_status import DeliveryStatus
from .direction import Direction
from .entry_policy import EntryPolicy
from .event import Event
from .event_create import EventCreate
from .event_page import EventPage
from .event_type import EventType
from .event_update import EventUpdate
from .held_ticket import HeldTicket
from .hold import Hold
from .hold_create import HoldCreate
from .hold_status import HoldStatus
from .json_web_key_set import JsonWebKeySet
from .json_web_key_set_keys_item import JsonWebKeySetKeysItem
from .list_event_tickets_sort import ListEventTicketsSort
from .list_events_sort import ListEventsSort
from .list_orders_sort import ListOrdersSort
from .list_scanner_profiles_sort import ListScannerProfilesSort
from .list_scanners_sort import ListScannersSort
from .list_ticket_scans_sort import ListTicketScansSort
from .list_ticket_types_sort import ListTicketTypesSort
from .list_timeslots_sort import ListTimeslotsSort
from .list_webhook_deliveries_sort import ListWebhookDeliveriesSort
from .list_webhooks_sort import ListWebhooksSort
from .metadata_field import MetadataField
from .metadata_field_input import MetadataFieldInput
from .oauth_authorize_code_challenge_method import OauthAuthorizeCodeChallengeMethod
from .oauth_authorize_response_type import OauthAuthorizeResponseType
from .order import Order
from .order_create import OrderCreate
from .order_page import OrderPage
from .order_status import OrderStatus
from .pagination import Pagination
from .payment_method import PaymentMethod
from .problem import Problem
from .problem_checks import ProblemChecks
from .problem_field_error import ProblemFieldError
from .refund_create import RefundCreate
from .related_ticket import RelatedTicket
from .revocation import Revocation
from .revocation_reason import RevocationReason
from .revocation_request import RevocationRequest
from .revocation_request_token_type_hint import RevocationRequestTokenTypeHint
from .revocations import Revocations
from .scan_event import ScanEvent
from .scan_key import ScanKey
from .scan_keys import ScanKeys
from .scan_log_entry import ScanLogEntry
from .scan_log_entry_page import ScanLogEntryPage
from .scan_reason import ScanReason
from .scan_result import ScanResult
from .scan_status import ScanStatus
from .scan_ticket_type import ScanTicketType
from .scan_timeslot import ScanTimeslot
from .scanner import Scanner
from .scanner_create import ScannerCreate
from .scanner_page import ScannerPage
from .scanner_profile import ScannerProfile
from .scanner_profile_create import ScannerProfileCreate
from .scanner_profile_page import ScannerProfilePage
from .scanner_profile_update import ScannerProfileUpdate
from .scanner_update import ScannerUpdate
from .ticket import Ticket
from .ticket_input import TicketInput
from .ticket_input_metadata import TicketInputMetadata
from .ticket_metadata import TicketMetadata
from .ticket_page import TicketPage
from .ticket_scan import TicketScan
from .ticket_status import TicketStatus
from .ticket_type import TicketType
from .ticket_type_create import TicketTypeCreate
from .ticket_type_page import TicketTypePage
from .ticket_type_update import TicketTypeUpdate
from .timeslot import Timeslot
from .timeslot_attendance import TimeslotAttendance
from .timeslot_availability import TimeslotAvailability
from .timeslot_create import TimeslotCreate
from .timeslot_page import TimeslotPage
from .timeslot_update import TimeslotUpdate
from .token_error import TokenError
from .token_request import TokenRequest
from .token_request_grant_type import TokenRequestGrantType
from .token_response import TokenResponse
from .webhook import Webhook
from .webhook_create import WebhookCreate
from .webhook_deleted import WebhookDeleted
from .webhook_page import WebhookPage
from .webhook_secret_rotated import WebhookSecretRotated
from .webhook_update import WebhookUpdate
from .webhook_with_secret import WebhookWithSecret

__all__ = (
    "Attendance",
    "AuthorizationServerMetadata",
    "Availability",
    "BatchScan",
    "BatchScanItem",
    "BatchScanResult",
    "BatchScanResults",
    "BatchScanStatus",
    "Channel",
    "CodeScan",
    "ConsentForm",
    "CurrentUser",
    "Deleted",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryPage",
    "DeliveryQueued",
    "DeliveryStatus",
    "Direction",
    "EntryPolicy",
    "Event",
    "EventCreate",
    "EventPage",
    "EventType",
    "EventUpdate",
    "HeldTicket",
    "Hold",
    "HoldCreate",
    "HoldStatus",
    "JsonWebKeySet",
    "JsonWebKeySetKeysItem",
    "ListEventTicketsSort",
    "ListEventsSort",
    "ListOrdersSort",
    "ListScannerProfilesSort",
    "ListScannersSort",
    "ListTicketScansSort",
    "ListTicketTypesSort",
    "ListTimeslotsSort",
    "ListWebhookDeliveriesSort",
    "ListWebhooksSort",
    "MetadataField",
    "MetadataFieldInput",
    "OauthAuthorizeCodeChallengeMethod",
    "OauthAuthorizeResponseType",
    "Order",
    "OrderCreate",
    "OrderPage",
    "OrderStatus",
    "Pagination",
    "PaymentMethod",
    "Problem",
    "ProblemChecks",
    "ProblemFieldError",
    "RefundCreate",
    "RelatedTicket",
    "Revocation",
    "RevocationReason",
    "RevocationRequest",
    "RevocationRequestTokenTypeHint",
    "Revocations",
    "ScanEvent",
    "ScanKey",
    "ScanKeys",
    "ScanLogEntry",
    "ScanLogEntryPage",
    "ScanReason",
    "ScanResult",
    "ScanStatus",
    "ScanTicketType",
    "ScanTimeslot",
    "Scanner",
    "ScannerCreate",
    "ScannerPage",
    "ScannerProfile",
    "ScannerProfileCreate",
    "ScannerProfilePage",
    "ScannerProfileUpdate",
    "ScannerUpdate",
    "Ticket",
    "TicketInput",
    "TicketInputMetadata",
    "TicketMetadata",
    "TicketPage",
    "TicketScan",
    "TicketStatus",
    "TicketType",
    "TicketTypeCreate",
    "TicketTypePage",
    "TicketTypeUpdate",
    "Timeslot",
    "TimeslotAttendance",
    "TimeslotAvailability",
    "TimeslotCreate",
    "TimeslotPage",
    "TimeslotUpdate",
    "TokenError",
    "TokenRequest",
    "TokenRequestGrantType",
    "TokenResponse",
    "Webhook",
    "WebhookCreate",
    "WebhookDeleted",
    "WebhookPage",
    "WebhookSecretRotated",
    "WebhookUpdate",
    "WebhookWithSecret",
)
