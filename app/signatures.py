"""Signatures written at run time, for the libraries that read a function's parameters from it
(Litestar's handlers and dependencies, Strawberry's resolvers) when they follow from a declaration
made elsewhere (a ``Resource``'s filters, a resolver taking a context)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def signed(function: F, parameters: Iterable[inspect.Parameter], returns: Any) -> F:
    """``function`` with ``parameters`` and ``returns`` as its signature (PEP 362's
    ``__signature__``) and its annotations."""
    listed = list(parameters)
    # mypy knows no __signature__ on functions.
    function.__signature__ = inspect.Signature(listed, return_annotation=returns)  # type: ignore[attr-defined]
    function.__annotations__ = {
        **{p.name: p.annotation for p in listed if p.annotation is not inspect.Parameter.empty},
        "return": returns,
    }
    return function
