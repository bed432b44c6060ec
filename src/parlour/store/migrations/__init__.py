"""Alembic migrations of the lab's tables (experiments, matches, rounds, events, ratings).

:class:`parlour.store.Store` brings any database up to date when it opens it:
a database made by a release before migrations (tables made with
``create_all``, no version table) is stamped at ``0001`` and upgraded.
"""
