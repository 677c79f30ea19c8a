"""Dataloaders made per request, so nested fields never cost a query per item.

A record loader turns the ids asked for during one tick of the event loop into one
``Resource.load`` call. A page loader does the same for a nested list: keys that share their list
arguments become one ``Resource.pages`` call, which costs a fixed number of statements however
many parents there are. Both keep the resource's scope check: a missing scope fails each field
that asked, not the whole query.
"""

from __future__ import annotations

from asyncio import Future
from collections.abc import Awaitable, Callable, Hashable, Mapping
from typing import Any
from uuid import UUID

from strawberry.dataloader import DataLoader

from app.errors import DomainError, NotFound
from app.pagination import Page
from app.principal import Principal
from app.resources import Resource

ListArgs = tuple[tuple[str, Hashable], ...]
"""The keyword arguments of a nested list (limit, offset, sort, filters) in a hashable form."""

PageKey = tuple[UUID, ListArgs]

ByIds = Callable[[Principal, list[UUID]], Awaitable[dict[UUID, Any]]]
"""A service operation answering for many ids at once (in one statement)."""


def list_args(**kwargs: Hashable) -> ListArgs:
    return tuple(sorted(kwargs.items()))


class Loaders:
    """The loaders of one request, bound to its principal, made on first use."""

    def __init__(self, principal: Principal) -> None:
        self.principal = principal
        self._records: dict[Resource[Any], DataLoader[UUID, Any]] = {}
        self._pages: dict[tuple[Resource[Any], str], DataLoader[PageKey, Page[Any]]] = {}
        self._by_ids: dict[ByIds, DataLoader[UUID, Any]] = {}
        self._known: dict[Resource[Any], dict[UUID, Any]] = {}

    def records(self, resource: Resource[Any]) -> DataLoader[UUID, Any]:
        """Records of ``resource`` by id; an id that is not the caller's is a NOT_FOUND."""
        if resource not in self._records:
            principal = self.principal
            known = self._known.setdefault(resource, {})

            async def load(ids: list[UUID]) -> list[Any]:
                missing = [i for i in ids if i not in known]
                if missing:
                    try:
                        known.update(await resource.load(principal, missing))
                    except DomainError as error:
                        return [known.get(i, error) for i in ids]
                return [known.get(i) or NotFound.resource(resource.kind, i) for i in ids]

            self._records[resource] = DataLoader(load_fn=load)
        return self._records[resource]

    def prime_records(self, resource: Resource[Any], records: Mapping[UUID, Any]) -> None:
        """Records of ``resource`` read already (``graphql_api.prefetch``): :meth:`record`
        answers them, and the record loader answers them without asking the resource."""
        self._known.setdefault(resource, {}).update(records)

    def clear(self) -> None:
        """Forget every loader (the operation is over): what they hold goes as soon as it is
        unreferenced, not when the cyclic collector finds the executor that referenced it
        (``graphql_api.execution.execute``)."""
        self._records.clear()
        self._pages.clear()
        self._by_ids.clear()
        for known in self._known.values():
            known.clear()
        self._known.clear()

    def record(self, resource: Resource[Any], record_id: UUID) -> Any:
        """The record ``record_id`` of ``resource``: itself when it was primed or loaded
        already, else what the record loader holds for it (:func:`loaded`)."""
        known = self._known.get(resource)
        if known is not None:
            found = known.get(record_id)
            if found is not None:
                return found
        return loaded(self.records(resource), record_id)

    def by_ids(self, service: ByIds, kind: str) -> DataLoader[UUID, Any]:
        """What ``service`` answers for each id, the ids of one tick asked at once; an id it
        leaves out is a NOT_FOUND of ``kind``."""
        if service not in self._by_ids:
            principal = self.principal

            async def load(ids: list[UUID]) -> list[Any]:
                try:
                    found = await service(principal, ids)
                except DomainError as error:
                    return [error] * len(ids)
                return [found[i] if i in found else NotFound.resource(kind, i) for i in ids]

            self._by_ids[service] = DataLoader(load_fn=load)
        return self._by_ids[service]

    def pages(self, resource: Resource[Any], parent: str) -> DataLoader[PageKey, Page[Any]]:
        """Pages of ``resource`` per ``parent`` id, batched by equal list arguments."""
        if (resource, parent) not in self._pages:
            principal = self.principal

            async def load(keys: list[PageKey]) -> list[Any]:
                parents: dict[ListArgs, list[UUID]] = {}
                for parent_id, args in keys:
                    parents.setdefault(args, []).append(parent_id)
                results: dict[PageKey, Any] = {}
                for args, ids in parents.items():
                    pages: dict[UUID, Any]
                    try:
                        arguments: dict[str, Any] = dict(args)
                        pages = dict(await resource.pages(principal, parent, ids, **arguments))
                    except DomainError as error:
                        pages = dict.fromkeys(ids, error)
                    results.update(((parent_id, args), pages[parent_id]) for parent_id in ids)
                return [results[key] for key in keys]

            self._pages[(resource, parent)] = DataLoader(load_fn=load)
        return self._pages[(resource, parent)]


def loaded(loader: DataLoader[Any, Any], key: Any) -> Any:
    """What ``loader`` holds for ``key``: the value itself when it is loaded already (asked
    before, or primed: ``graphql_api.prefetch``), which the executor completes at once, else the
    loader's future."""
    # Strawberry's DataLoader.load returns its Future, declared as an Awaitable.
    future: Future[Any] = loader.load(key)  # type: ignore[assignment]
    return future.result() if future.done() else future
