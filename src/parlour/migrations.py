"""Bringing a database up to date: the lab's tables and the web server's each keep their
schema by Alembic migrations (``parlour/store/migrations``, ``parlour/web/migrations``),
each with its own version table, so that the two may share one database."""

from __future__ import annotations

from importlib.resources import files

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.engine import Engine


def upgrade(engine: Engine, package: str, version_table: str, first_release: str, marker: str) -> None:
    """Bring ``package``'s tables up to its newest revision.  A database made by a release before
    the migrations (its tables made with ``create_all``: ``marker`` is there but the version table
    is not) is stamped at ``first_release`` first; a new database is made by the migrations
    themselves, so that it is exactly what an upgraded one is."""
    config = Config()
    config.set_main_option("script_location", str(files(package).joinpath("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        names = set(inspect(connection).get_table_names())
        if marker in names and version_table not in names:
            command.stamp(config, first_release)
        command.upgrade(config, "head")
