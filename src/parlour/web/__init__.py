"""Play in the browser: ``parlour serve``.

A FastAPI app on uvicorn (:mod:`parlour.web.app`) in front of a table
manager (:mod:`parlour.web.manager`) that coordinates the only authority over
every game (:mod:`parlour.web.tables`): moves are validated by the engine,
committed to the database (:mod:`parlour.web.store`) before they are
broadcast (:mod:`parlour.web.broadcast`), and each connection sees only its
own seat's observation (spectators: the public view of
:mod:`parlour.web.views`).  Every WebSocket message is a model of
:mod:`parlour.web.protocol`; bots, turn timers and hints run in worker
processes (:mod:`parlour.web.scheduler`).  The protocol is in
``docs/web-protocol.md``.
"""
