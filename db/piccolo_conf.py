"""Piccolo's configuration: the engine for ``DATABASE_URL`` and the app registry."""

from piccolo.conf.apps import AppRegistry

from app.settings import get_settings
from db.engine import create_engine

DB = create_engine(get_settings())

APP_REGISTRY = AppRegistry(apps=["db.piccolo_app"])
