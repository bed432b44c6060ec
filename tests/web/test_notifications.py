"""The words the server processes tell each other through PostgreSQL's NOTIFY (:mod:`parlour.web.cluster`):
what one process writes, another reads back exactly, a move with it, in payloads PostgreSQL takes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from parlour.web.cluster import parse
from parlour.web.store import NOTIFY_BYTES, MoveWrite, changed_payloads, read_told_move, told_move

ids = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", min_size=1, max_size=32)
moves = st.text(min_size=1, max_size=40).filter(lambda m: m.strip() == m)


@given(seq=st.integers(0, 10**6), seat=st.none() | st.integers(0, 2), move=moves)
def test_a_told_move_reads_back_whatever_its_notation_holds(seq: int, seat: int | None, move: str) -> None:
    told = told_move(MoveWrite("t", seq, seat, move, seq + 1, "playing", seat is not None))
    assert " " not in told and told.count(":") == 2, "one word of three parts, whatever the move says"
    assert read_told_move(told) == (seq, seat, move)


@given(items=st.lists(st.tuples(ids, st.integers(0, 10**9), st.none() | moves), max_size=300),
       kind=st.sampled_from("musc"), node=ids)
def test_every_change_is_read_back_from_payloads_that_fit(items: list[tuple[str, int, str | None]], kind: str,
                                                         node: str) -> None:
    written = [(t, v) if m is None else (t, v, told_move(MoveWrite(t, v, 0, m, v + 1, "playing", True)))
               for t, v, m in items]
    payloads = changed_payloads(kind, written, node)
    assert all(len(p.encode()) <= NOTIFY_BYTES for p in payloads)
    read = [change for payload in payloads for change in parse(payload)]
    assert read == [(kind, w[0], w[1], node, w[2] if len(w) == 3 else "") for w in written]


def test_a_word_that_is_not_a_change_is_skipped() -> None:
    assert parse("m:t1:3:node x:y m:t2:x:node m:t3:4:node:0:1:play%207h") == [
        ("m", "t1", 3, "node", ""), ("m", "t3", 4, "node", "0:1:play%207h")]
