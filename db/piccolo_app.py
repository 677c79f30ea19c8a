"""The Piccolo app holding our tables and migrations."""

from pathlib import Path

from piccolo.conf.apps import AppConfig

from db.tables import TABLES

APP_CONFIG = AppConfig(
    app_name="ticketing",
    migrations_folder_path=str(Path(__file__).parent / "migrations"),
    table_classes=TABLES,
    migration_dependencies=[],
    commands=[],
)
