"""Automatic persisted queries (Apollo's protocol), so clients can send a hash instead of a query.

A request carrying ``extensions.persistedQuery {version: 1, sha256Hash}`` and its query stores
the query under the hash; later requests may send the hash alone, also over GET. An unknown hash
answers PERSISTED_QUERY_NOT_FOUND and the client resends the query. Each process keeps the most
recently used queries in memory, so replicas need no shared store: a miss costs one resend.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

CAPACITY = 1_000


class PersistedQueryNotFound(Exception):
    """The hash is not known to this process; the client should send the query with it."""


class PersistedQueryMismatch(ValueError):
    """The query sent does not have the hash it claims."""


class PersistedQueries:
    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._queries: OrderedDict[str, str] = OrderedDict()

    def resolve(self, query: str | None, extensions: dict[str, Any] | None) -> str | None:
        """The query to run: ``query`` itself, or the one stored under the request's hash."""
        persisted = (extensions or {}).get("persistedQuery")
        if not isinstance(persisted, dict) or not isinstance(persisted.get("sha256Hash"), str):
            return query
        digest = persisted["sha256Hash"]
        if query is None:
            stored = self._queries.get(digest)
            if stored is None:
                raise PersistedQueryNotFound(digest)
            self._queries.move_to_end(digest)
            return stored
        if hashlib.sha256(query.encode()).hexdigest() != digest:
            raise PersistedQueryMismatch("provided sha256Hash does not match the query")
        self._queries[digest] = query
        self._queries.move_to_end(digest)
        while len(self._queries) > self.capacity:
            self._queries.popitem(last=False)
        return query
