"""CPython's cyclic garbage collector, tuned for a long-running server process.

By default CPython collects its youngest generation every 700 net allocations of container
objects and, every hundred of those, the oldest generation: every object the process holds,
the schema, the modules and the pools included. A GraphQL page allocates thousands of objects
(a result dict per object, paths, futures), and with a few dozen requests in flight many of them
outlive a young collection and are promoted, so that under load the full collections walk an
ever larger heap: a server process spent 4 to 7.5 ms of CPU per GraphQL page, varying from
second to second, against 3.7 to 4.2 ms with the collector tuned (``bench/graphql_page.py``,
docs/decisions.md "GraphQL execution").

Tuned, the objects made while starting (modules, schema, settings) are frozen out of every
collection (``gc.freeze``, as the Python documentation suggests for servers), and the
thresholds are raised, so that the young generation is collected every 20,000 allocations and
the oldest far less often. Cycles are still collected; they live a little longer.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

SERVING_THRESHOLDS = (20_000, 20, 20)
"""``gc.set_threshold`` while serving: young generation, then the ratios of the older two."""


@contextmanager
def tuned_for_serving() -> Iterator[None]:
    """While the block runs, what exists now is left out of collections and they run less
    often; afterwards both are as they were."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVING_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
