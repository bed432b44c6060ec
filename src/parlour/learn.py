"""Guided first matches: a game's tutorial, walked one step at a time by every front end.

A tutorial is data beside its game (the registry entry's ``tutorial``, a JSON file): a fixed
deal the engine starts from, the options of a short practice round, the learner's seat, and
a list of steps.  Each step does one of three things:

- ``say``: tells the learner the rule that matters now (they read it and go on);
- ``ask``: asks the learner for one move (or one of a few), with ``say`` saying which and why;
  a move the rules forbid is explained by the engine's own reason, and an allowed move that
  is not the lesson's by the step's ``wrong`` (in the words of the rule);
- ``script``: a move made for a seat — the other players' moves, and the learner's own
  where the lesson has nothing to teach (each is told in the narrator's words).

When the steps are done the round is over, and :meth:`Lesson.scoring` works its score out
on the learner's own cards from the engine's scoring events and round scores (no second
implementation of any rule).  :class:`Lesson` is the runner the terminal (``parlour learn``)
and the browser (``/api/learn``) share; the browser holds no rules, it sends what was typed
or clicked and shows what comes back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour import games, narrate
from parlour.game import Deal, Game, Move, State
from parlour.match import resolve_shorthand

SAY, ASK, SCRIPT = "say", "ask", "script"
"""The three kinds of step."""

NEXT = "next"
"""What a learner answers to a ``say`` step (the terminal's Enter, the browser's Next button)."""


class TutorialError(ValueError):
    """A tutorial's data is not a tutorial of its game (a bad step, deal or move)."""


@dataclass(frozen=True)
class Step:
    """One step of a tutorial (see the module docstring)."""

    kind: str
    """``say``, ``ask`` or ``script``."""
    text: str = ""
    """What the learner is told at this step (for ``script``, said before the move is made)."""
    moves: tuple[str, ...] = ()
    """``ask``: the moves the lesson accepts, in notation; ``script``: the one move made."""
    wrong: str = ""
    """``ask``: why an allowed move that the lesson does not ask for is not the one wanted now."""


@dataclass(frozen=True)
class Tutorial:
    """A game's guided first match: a fixed deal and the steps through its round."""

    game: str
    """The game's id."""
    title: str
    options: Mapping[str, Any]
    """The options of the practice round (a short round of the real rules)."""
    first: int
    """The seat that plays first."""
    seat: int
    """The learner's seat."""
    names: tuple[str, ...]
    deal: Deal
    steps: tuple[Step, ...]
    ending: str
    """Said with the scoring, once the round is over."""


@dataclass(frozen=True)
class Reply:
    """What the lesson answers to what the learner did."""

    ok: bool
    """Whether it was what the step asked (the lesson has moved on)."""
    message: str = ""
    """Why not, in the words of the rule (empty when ``ok``)."""


def parse_tutorial(data: Any, game: Game) -> Tutorial:
    """Read a tutorial of ``game`` from its JSON data; :class:`TutorialError` with a reason."""
    if not isinstance(data, dict):
        raise TutorialError("a tutorial is a JSON object")
    try:
        steps = tuple(_step(item) for item in data["steps"])
        names = tuple(str(n) for n in data["names"])
        if len(names) != game.players:
            raise TutorialError(f"{game.name} needs {game.players} names, not {len(names)}")
        seat, first = int(data["seat"]), int(data.get("first", 0))
        if not (0 <= seat < game.players and 0 <= first < game.players):
            raise TutorialError("seat and first must be seats of the game")
        return Tutorial(
            game=game.id, title=str(data["title"]), options=dict(data.get("options", {})), first=first,
            seat=seat, names=names, deal=game.deal_from_json(data["deal"]), steps=steps,
            ending=str(data.get("ending", "")),
        )
    except KeyError as exc:
        raise TutorialError(f"a tutorial of {game.name} lacks {exc.args[0]!r}") from None


def _step(item: Any) -> Step:
    if not isinstance(item, dict):
        raise TutorialError(f"a step is an object, not {item!r}")
    if ASK in item:
        asked = item[ASK]
        moves = (asked,) if isinstance(asked, str) else tuple(asked)
        if not moves:
            raise TutorialError("an ask step names at least one move")
        return Step(ASK, str(item.get(SAY, "")), moves, str(item.get("wrong", "")))
    if SCRIPT in item:
        return Step(SCRIPT, str(item.get(SAY, "")), (str(item[SCRIPT]),))
    if SAY in item:
        return Step(SAY, str(item[SAY]))
    raise TutorialError(f"a step says, asks or scripts something: {item!r}")


def tutorial(game_id: str) -> Tutorial:
    """The tutorial of ``game_id``; :class:`ValueError` for an unknown game or one without."""
    entry = games.entry(game_id)
    return parse_tutorial(json.loads(entry.load_tutorial()), games.get(game_id))


def has_tutorial(game_id: str) -> bool:
    """Whether ``game_id`` (a registered game) has a tutorial."""
    return games.entry(game_id).tutorial is not None


class Lesson:
    """One walk through a tutorial: the match, the step it is at, and what has been said.

    ``said`` grows with every sentence the learner is told: each step's text as it comes,
    and every move and event in the narrator's words for the learner's seat.
    """

    def __init__(self, tutorial: Tutorial) -> None:
        self.tutorial = tutorial
        game = games.get(tutorial.game)
        self.state: State = game.new_match(
            options=tutorial.options, first=tutorial.first, names=list(tutorial.names), deal=tutorial.deal
        )
        self.seat = tutorial.seat
        self.index = 0
        """The step the lesson is at (``len(steps)`` once they are done)."""
        self.said: list[str] = []
        self._events = 0
        self._arrive()

    # -- where the lesson is ---------------------------------------------------------
    @property
    def step(self) -> Step | None:
        """The step waiting for the learner (a ``say`` or an ``ask``), or None when done."""
        return self.tutorial.steps[self.index] if self.index < len(self.tutorial.steps) else None

    @property
    def done(self) -> bool:
        """Whether every step has been walked."""
        return self.step is None

    def asked(self) -> list[Move]:
        """The moves the current ``ask`` step accepts (none at a ``say`` step or the end)."""
        step = self.step
        if step is None or step.kind != ASK:
            return []
        return [self.state.parse_move(text) for text in step.moves]

    # -- the learner's answers ----------------------------------------------------------
    def answer(self, text: str) -> Reply:
        """What the learner typed or clicked: :data:`NEXT` at a ``say`` step, a move at an ``ask``."""
        step = self.step
        if step is None:
            return Reply(False, "The lesson is over.")
        if step.kind == SAY:
            if text.strip().lower() not in ("", NEXT):
                return Reply(False, "Read this, then go on to the next step.")
            self.index += 1
            self._arrive()
            return Reply(True)
        return self._try_move(step, text)

    def _try_move(self, step: Step, text: str) -> Reply:
        wanted = self.asked()
        if not text.strip() or text.strip().lower() == NEXT:
            return Reply(False, "Make your move: " + self.wanted_text(wanted) + ".")
        try:
            move = resolve_shorthand(self.state, text)
        except ValueError as exc:
            return Reply(False, self._redirect(str(exc), wanted))
        if move not in wanted:
            return Reply(False, self._redirect(step.wrong or "That is allowed, but not the move this lesson is about",
                                               wanted))
        self._make(move)
        self.index += 1
        self._arrive()
        return Reply(True)

    def _redirect(self, why: str, wanted: Sequence[Move]) -> str:
        """Why the learner's move is not the lesson's, and the move the lesson asks for."""
        return _sentence(why) + " " + _sentence("This lesson asks you to " + self.wanted_text(wanted))

    def wanted_text(self, wanted: Sequence[Move]) -> str:
        """The moves asked for, in the narrator's words to the learner (lower-case first word)."""
        return " or ".join(_lower_first(narrate.offer_text(self.state, m)) for m in wanted)

    # -- walking ----------------------------------------------------------------------
    def _arrive(self) -> None:
        """Say the step arrived at; make scripted moves until a step waits for the learner."""
        while self.index < len(self.tutorial.steps):
            step = self.tutorial.steps[self.index]
            if step.text:
                self.said.append(step.text)
            if step.kind != SCRIPT:
                return
            self._make(self.state.parse_move(step.moves[0]))
            self.index += 1
        if self.tutorial.ending:
            self.said.append(self.tutorial.ending)
        self.said.extend(self.scoring())

    def _make(self, move: Move) -> None:
        self.said.append(narrate.move_text(self.state, move, self.seat, made=True))
        self.state.apply(move)
        for event in self.state.events[self._events:]:
            self.said.append(event.describe(self.state.names, self.seat))
        self._events = len(self.state.events)

    # -- the end --------------------------------------------------------------------------
    def scoring(self) -> list[str]:
        """The round's score worked out on the learner's own cards: each of the learner's scoring
        events as the engine words it, then every seat's round score (the engine's own)."""
        state = self.state
        if not state.is_round_over():
            return []
        lines = ["How your round scored:"]
        end = len(state.moves)  # what the round's end scores comes after its last move
        mine = [e for e in state.events if e.seat == self.seat and (e.points or e.move == end)]
        lines += ["  " + e.describe(state.names, self.seat) for e in mine] or ["  Nothing of yours scored."]
        for seat, points in enumerate(state.scores):
            who = "You" if seat == self.seat else state.names[seat]
            verb = "score" if seat == self.seat else "scores"
            lines.append(f"{who} {verb} {_points(points)} this round.")
        return lines


def _points(points: int) -> str:
    sign = "−" if points < 0 else ""
    return f"{sign}{abs(points)} point{'' if abs(points) == 1 else 's'}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop."""
    text = narrate.sentence(text.strip())
    return text if not text or text.endswith((".", "!", "?")) else text + "."
