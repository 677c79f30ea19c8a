"""Automatic persisted queries (Apollo's protocol), so clients can send a hash instead of a query.

A request carrying ``extensions.persistedQuery {version: 1, sha256Hash}`` and its query stores
the query under the hash; later requests may send the hash alone, also over GET. An unknown hash
answers PERSISTED_QUERY_NOT_FOUND and the client resends the query. Each process keeps the most
recently used queries in memory, so replicas need no shared store: a miss costs one resend.

The store is kept per organization: each organization has its own least-recently-used list of at
most ``capacity`` queries (``MAX_QUERY_CHARS`` each at most), so one tenant sending many queries
evicts only its own, and a hash is known only to the organization that sent its query. At most
``MAX_ORGANIZATIONS`` organizations keep queries at once (the least recently active make way), so
memory stays bounded whatever the number of tenants.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any
from uuid import UUID

CAPACITY = 200
MAX_QUERY_CHARS = 64 * 1024
MAX_ORGANIZATIONS = 500


class PersistedQueryNotFound(Exception):
    """The hash is not known to this process; the client should send the query with it."""


class PersistedQueryMismatch(ValueError):
    """The query sent does not have the hash it claims."""


def persisted_hash(extensions: dict[str, Any] | None) -> str | None:
    """The ``sha256Hash`` of a request's persisted-query extension, if it has one."""
    persisted = (extensions or {}).get("persistedQuery")
    if not isinstance(persisted, dict) or not isinstance(persisted.get("sha256Hash"), str):
        return None
    claimed: str = persisted["sha256Hash"]
    return claimed


class PersistedQueries:
    def __init__(
        self, capacity: int = CAPACITY, max_organizations: int = MAX_ORGANIZATIONS
    ) -> None:
        self.capacity = capacity
        self.max_organizations = max_organizations
        self._by_organization: OrderedDict[UUID, OrderedDict[str, str]] = OrderedDict()

    def _queries_of(self, organization_id: UUID) -> OrderedDict[str, str]:
        queries = self._by_organization.get(organization_id)
        if queries is None:
            queries = self._by_organization[organization_id] = OrderedDict()
            while len(self._by_organization) > self.max_organizations:
                self._by_organization.popitem(last=False)
        self._by_organization.move_to_end(organization_id)
        return queries

    def resolve(
        self, organization_id: UUID, query: str | None, extensions: dict[str, Any] | None
    ) -> str | None:
        """The query to run: ``query`` itself, or the one ``organization_id`` stored under the
        request's hash."""
        digest = persisted_hash(extensions)
        if digest is None:
            return query
        queries = self._queries_of(organization_id)
        if query is None:
            stored = queries.get(digest)
            if stored is None:
                raise PersistedQueryNotFound(digest)
            queries.move_to_end(digest)
            return stored
        if hashlib.sha256(query.encode()).hexdigest() != digest:
            raise PersistedQueryMismatch("provided sha256Hash does not match the query")
        if len(query) <= MAX_QUERY_CHARS:
            queries[digest] = query
            queries.move_to_end(digest)
            while len(queries) > self.capacity:
                queries.popitem(last=False)
        return query
