"""Alembic migrations of the web server's tables (``web_*``).

:func:`parlour.web.store.TableStore` brings any database up to date when it
opens it: a database made by the first release (tables made with
``create_all``, no version table) is stamped at ``0001`` and upgraded.
"""
