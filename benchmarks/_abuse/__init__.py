"""Helpers of ``benchmarks/web_abuse.py``: the abuses, each run in a process of its own (:mod:`.attacks`)."""
