"""Piccolo's configuration module (``PICCOLO_CONF``), where Piccolo's tooling finds the engine.

``DB`` is the engine the composition root bound (``db.engine.bind_engine``): the service never
builds one here. Only Piccolo's own command line, run by a developer with nothing bound, gets one
built from the environment.
"""

from typing import Any

from piccolo.conf.apps import AppRegistry
from piccolo.engine.base import Engine

APP_REGISTRY = AppRegistry(apps=["db.piccolo_app"])


def __getattr__(name: str) -> Engine[Any]:
    if name != "DB":
        raise AttributeError(name)
    from db.engine import bind_engine, bound_engine, create_engine

    engine = bound_engine()
    if engine is None:
        from app.settings import load_settings

        engine = create_engine(load_settings())
        bind_engine(engine)
    return engine
