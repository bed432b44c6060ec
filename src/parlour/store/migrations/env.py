"""Alembic's environment: run on the connection that :func:`parlour.store.migrate` hands over."""

from alembic import context

from parlour.store import VERSION_TABLE, Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, version_table=VERSION_TABLE,
                  render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
