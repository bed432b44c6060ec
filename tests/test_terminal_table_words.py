"""The terminal table's small words (issue 33): who leads each round, computers told apart,
``undo`` by the web's rule (never past a draw that showed a hidden card, and saying so),
and a refused move said to the person in the second person."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

from rich.console import Console

from parlour import games, record
from parlour.game import NO_UNDO_PAST_A_DRAW, State, undo_reach
from parlour.terminal import TerminalTable


def table(game_id: str, seats: list[str], typed: Callable[[TerminalTable], Iterator[str]],
          save: Path | None = None) -> tuple[TerminalTable, str]:
    """A real terminal table, the person's keyboard fed by ``typed`` (which sees the table)."""
    buffer = io.StringIO()
    keys: list[Iterator[str]] = []
    made = TerminalTable(games.get(game_id), seats, seed=3, save=save,
                         console=Console(file=buffer, width=200, color_system=None),
                         read=lambda prompt: next(keys[0], "quit"))
    keys.append(typed(made))
    made.run()
    return made, buffer.getvalue()


def test_two_computers_have_names_of_their_own_in_the_records_too(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    made, _ = table("progression", ["human", "medium", "medium"], lambda t: iter(["quit"]), save=path)
    assert made.names == ["You", "Computer 1 (medium)", "Computer 2 (medium)"]
    assert record.load(path).players == ["You", "Computer 1 (medium)", "Computer 2 (medium)"]
    alone, _ = table("twenty", ["human", "random"], lambda t: iter(["quit"]))
    assert alone.names == ["You", "Computer (random)"]


def test_who_leads_the_round_is_said_plainly() -> None:
    made, out = table("minus-twenty", ["human", "random"], lambda t: iter(["quit"]))
    leader = made.state.current_player()
    said = "You lead this round." if leader == 0 else "Computer (random) leads this round."
    assert said in out
    assert "Round 1 of 3. " + said in out
    assert "started this round" not in out


def test_undo_takes_back_the_persons_turn_and_the_computers_reply() -> None:
    seen: dict[str, list[str]] = {}

    def typed(t: TerminalTable) -> Iterator[str]:
        yield "undo"  # nothing yet
        move = str(sorted(t.state.legal_moves(), key=str)[0])
        yield move
        seen["before"] = [str(m) for m in t.state.moves]
        yield "undo"
        seen["after"] = [str(m) for m in t.state.moves]

    made, out = table("twenty", ["human", "random"], typed)
    assert "Nothing to take back yet this round" in out
    assert "Took back 2 moves." in out or "Took back 1 move." in out
    assert len(seen["after"]) < len(seen["before"])
    assert made.state.current_player() == 0


def test_undo_stops_at_a_draw_and_says_why() -> None:
    def discard(t: TerminalTable) -> str:
        return str(min((m for m in t.state.legal_moves() if m.verb == "discard"), key=str))

    def typed(t: TerminalTable) -> Iterator[str]:
        yield discard(t)
        yield "undo"  # a discard not yet followed by a draw can be taken back
        yield discard(t)
        yield "draw"
        yield "undo"  # the draw showed a hidden card (and the computer's too)

    _, out = table("minus-twenty", ["human", "random"], typed)
    assert "Took back 1 move." in out
    assert NO_UNDO_PAST_A_DRAW in out


def test_undo_reach_is_the_webs_rule() -> None:
    state: State = games.get("minus-twenty").new_match(seed=3, first=0)
    assert undo_reach(state, 0).moves == 0
    state.apply(next(m for m in state.legal_moves() if m.verb == "discard"))
    assert undo_reach(state, 0).moves == 1
    assert undo_reach(state, 0, against_bots=False).moves == 0
    state.apply(next(m for m in state.legal_moves() if m.verb == "draw"))
    assert undo_reach(state, 1) == undo_reach(state, 0)
    assert undo_reach(state, 0).why_not == NO_UNDO_PAST_A_DRAW


def test_a_refused_move_is_said_to_the_person() -> None:
    def typed(t: TerminalTable) -> Iterator[str]:
        hand = set(t.state.hands[0])
        absent = next(c for c in sorted(games.get("twenty").deck({})) if c not in hand)
        yield f"play {absent}"

    _, out = table("twenty", ["human", "random"], typed)
    assert "is not in your hand (you hold " in out
    assert "You's" not in out and "is not allowed" not in out
