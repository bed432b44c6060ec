"""Worker processes that never outlive the process that started them.

The lab's runs and the web server hand work to pools of worker processes; if the parent is killed,
its workers must stop too, instead of playing on for nobody.  :func:`die_with_parent` is the pools'
initializer that sees to it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

PARENT_WATCH_SECONDS = 1.0
"""How often a worker checks that the process that started it is still there."""


def die_with_parent() -> None:
    """Worker initializer: if the run (or server) is killed, its workers stop too,
    instead of playing on for nobody.

    Linux's parent-death signal covers a parent that dies later; a worker whose
    parent died while it was still starting (a server killed just after it
    asked for a worker) has been handed to init before it can ask, and would
    wait for work for ever.  So the worker also watches for its parent to be
    gone, from the moment it starts, and leaves at once."""
    origin = multiprocessing.parent_process()
    parent = origin.pid if origin is not None else os.getppid()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parlour-parent-watch", daemon=True).start()
    # Ctrl-C is the parent's to handle: it writes what has finished, then stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
