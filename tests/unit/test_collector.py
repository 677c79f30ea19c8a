"""The garbage collector tuned while serving (``app.runtime.collector``), and as it was after."""

from __future__ import annotations

import gc

from app.runtime.collector import SERVING_THRESHOLDS, tuned_for_serving


def _collected(thing: object) -> bool:
    """Whether ``thing`` is among the objects the collector walks."""
    return any(tracked is thing for tracked in gc.get_objects())


def test_serving_freezes_what_exists_and_collects_less_often_then_restores() -> None:
    before = gc.get_threshold()
    assert before != SERVING_THRESHOLDS
    made_before = [[]]  # a container, so tracked by the collector
    assert _collected(made_before)
    with tuned_for_serving():
        assert gc.get_threshold() == SERVING_THRESHOLDS
        assert not _collected(made_before)
        made_while = [[]]
        assert _collected(made_while)
    assert gc.get_threshold() == before
    assert _collected(made_before)
