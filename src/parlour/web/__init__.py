"""Play in the browser: ``parlour serve``.

A FastAPI app on uvicorn (:mod:`parlour.web.app`) in front of a table
manager (:mod:`parlour.web.tables`) that is the only authority over every
game: moves are validated by the engine, committed to the database
(:mod:`parlour.web.store`) before they are broadcast, and each connection
sees only its own seat's observation (spectators: the public view of
:mod:`parlour.web.views`).  The protocol is in ``docs/web-protocol.md``.
"""
