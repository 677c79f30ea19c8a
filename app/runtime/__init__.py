"""Process-level pieces shared by the server and the worker: logging, metrics, readiness,
the stop notice, the collector's tuning, the live notification hub, rate limits and batching.

They know no business rule; services and transports use them.
"""
