"""Playing in the terminal: a table of humans and bots, drawn with Rich.

Humans see only their own seat's observation; bots get only theirs.  The
table here is the referee: it holds the state and validates every move.
A match a person quits is kept on disk (its record) and can be gone on with
(:meth:`TerminalTable.go_on`): :mod:`parlour.play_command` does that and asks
"Play again?" at the end.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.rule import Rule

from parlour import bots, narrate, record
from parlour.game import Game, IllegalMoveError, MissingRulesError, Move, State, undo_reach
from parlour.match import bot_rng, discard_question, face_card_thrown_away, resolve_shorthand
from parlour.terminal.views import render_observation, render_round_end

HUMAN = "human"

"""Jack, Queen, King: cards not to throw away by a slip of the keyboard."""

HELP = """Type a move in notation ({forms}), or just its card where that names one move.
Other commands: [b]moves[/b] lists your legal moves, [b]hint[/b] asks the computer for its best moves,
[b]rules[/b] shows how a turn works ([b]rules all[/b]: the full rules),
[b]undo[/b] takes back your last turn (against the computer, until a draw shows a hidden card),
[b]help[/b] shows this,
[b]quit[/b] stops (the match is saved so that you can go on with it later)."""


class Quit(Exception):
    """A person asked to leave the table."""


class TerminalTable:
    """One match at a terminal: each seat is ``human`` or a bot name."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        names: Sequence[str] | None = None,
        save: Path | None = None,
        console: Console | None = None,
        read: Callable[[str], str] | None = None,
        keep: Path | None = None,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError(f"{game.name} needs {game.players} players, got {len(seats)}: {','.join(seats)}")
        self.game = game
        self.seats = [s.strip().lower() for s in seats]
        self.bots = {i: bots.make(s) for i, s in enumerate(self.seats) if s != HUMAN}
        self.humans = [i for i, s in enumerate(self.seats) if s == HUMAN]
        #: Whose side of the table the log is told from: the one person playing, or nobody (hot-seat).
        self.reader = self.humans[0] if len(self.humans) == 1 else None
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.seed = seed
        self.names = list(names) if names else self._default_names()
        self.state = game.new_match(seed=seed, options=options, names=self.names)
        self.rngs = [bot_rng(seed, seat) for seat in range(game.players)]
        self.save = save
        self.console = console or Console(highlight=False)
        self.read = read or self.console.input
        self._markup = read is None  # Rich's input reads its prompt as markup: "[y/N]" must be escaped
        self._last_human: int | None = None
        self._seen_events = 0
        #: Why the last attempt to write the record failed (None: the record on disk is up to date).
        self.save_error: str | None = None
        #: Where a match quit without ``save`` is kept, to be gone on with (None: it is not kept).
        self.keep = keep
        #: Whether the match went on from a record (:meth:`go_on`).
        self.resumed = False

    def _default_names(self) -> list[str]:
        if len(self.humans) == 1:
            # Two computers are told apart by number ("Computer 2 (medium) wins the match").
            numbers = {seat: f" {n}" if len(self.bots) > 1 else "" for n, seat in enumerate(sorted(self.bots), 1)}
            return ["You" if s == HUMAN else f"Computer{numbers[i]} ({s})" for i, s in enumerate(self.seats)]
        return [
            f"Player {i + 1}" + ("" if s == HUMAN else f" ({s})") for i, s in enumerate(self.seats)
        ]

    # -- the loop ----------------------------------------------------------
    def run(self) -> State:
        """Play until the match ends or a person quits; save the record if asked.

        With ``save``, the record is written at the start, after every move and at every new
        round, so a match cut short by anything (even SIGKILL) leaves every move made on disk.
        """
        out = self.console
        out.print(Rule(f"{self.game.name} — seed {self.seed}"))
        try:
            self._save()
            if self.resumed:
                out.print(f"Going on with the match: round {self.state.round_index + 1}, "
                          f"{narrate.plural(len(self.state.moves), 'move')} made in it.")
            else:
                self._announce_lead()
            while True:
                seat = self.state.current_player()
                if seat is None:
                    self._announce_events()
                    out.print(render_round_end(self.state))
                    if self.state.is_match_over():
                        break
                    self.state.next_round()
                    self._save()
                    self._seen_events = 0
                    out.print(Rule(f"Round {self.state.round_index + 1}"))
                    self._announce_lead()
                    continue
                if seat in self.bots:
                    move = self.bots[seat].choose(
                        self.state.observation(seat), self.state.legal_moves(), self.rngs[seat]
                    )
                    self._make(move, self.reader)
                else:
                    self._human_turn(seat)
        except Quit:
            out.print("You left the table.")
            self._keep_unfinished()
        except KeyboardInterrupt:
            out.print()
            out.print("Stopped.")
            self._keep_unfinished()
        finally:
            if self._save(final=True):
                out.print(f"Record saved to {escape(str(self.save))}", soft_wrap=True)
                if not self.state.is_match_over():
                    again = f"parlour play {self.game.id} --resume {shlex.quote(str(self.save))}"
                    out.print(f"To go on with this match later: {escape(again)}", soft_wrap=True)
        if self.state.is_match_over():
            out.print(f"[bold]{escape(narrate.result_text(self.state, self.reader))}[/bold]", soft_wrap=True)
        return self.state

    def _keep_unfinished(self) -> None:
        """A person left a match before its end without ``save``: keep its record in ``keep`` (when given
        and something was played) so that they can go on with it later."""
        if self.save is not None or self.keep is None or not (self.state.moves or self.state.history):
            return
        try:
            self.keep.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.console.print(f"[yellow]could not keep the match in {escape(str(self.keep))} "
                               f"({escape(exc.strerror or str(exc))})[/yellow]", soft_wrap=True)
            return
        self.save = self.keep / f"{self.game.id}-{self.seed}.json"

    def go_on(self, match: record.Record) -> None:
        """Start from where ``match`` (a record of this table's seed, seats and options, replayed already)
        stopped: its moves are made again here, the bots' random numbers drawn as they were, so that the
        match goes on as it would have without the stop.  ``ValueError`` if its deals are not this seed's."""
        game = self.game
        if match.first != self.state.first:
            raise ValueError("its first player is not the one its seed gives")
        for number, played in enumerate(match.rounds):
            if number:
                self.state.next_round()
            assert self.state.deal is not None
            if game.deal_to_json(self.state.deal) != game.deal_to_json(played.deal):
                raise ValueError(f"the deal of round {number + 1} is not the one its seed gives")
            for text in played.moves:
                seat = self.state.current_player()
                move = self.state.parse_move(text)
                if seat in self.bots:  # the bot's random numbers, drawn as when it chose
                    self.bots[seat].choose(self.state.observation(seat), self.state.legal_moves(), self.rngs[seat])
                self.state.apply(move)
        self._seen_events = len(self.state.events)
        self.resumed = True

    def ask_yes(self, question: str) -> bool:
        """Ask a yes-or-no ``question`` (no by default); no when the input has ended."""
        try:
            answer = self._ask(question + " [y/N] ")
        except Quit:
            return False
        return answer.strip().lower() in ("y", "yes")

    def _save(self, *, final: bool = False) -> bool:
        """Write the record if asked; on failure say so once (in one line) and play on.

        Returns whether the record on disk is now complete and up to date.
        """
        if self.save is None:
            return False
        try:
            record.save(self.state, self.save, meta={"seed": self.seed, "seats": self.seats})
        except OSError as exc:
            failing = self.save_error is not None
            self.save_error = exc.strerror or str(exc)
            if not failing and not final:
                self.console.print(
                    f"[yellow]could not save the record to {escape(str(self.save))} "
                    f"({escape(self.save_error)}); playing on, trying again after every move[/yellow]",
                    soft_wrap=True,
                )
            return False
        if self.save_error is not None and not final:
            self.console.print(f"[green]record saved again to {escape(str(self.save))}[/green]", soft_wrap=True)
        self.save_error = None
        return True

    def _make(self, move: Move, viewer: int | None) -> None:
        """Make ``move``, save the record, and say what happened as ``viewer`` may hear it."""
        text = narrate.move_text(self.state, move, viewer, made=True)
        self.state.apply(move)
        self._save()
        self.console.print(f"{escape(text)}  [dim]({move})[/dim]", soft_wrap=True)
        self._announce_events()

    def _announce_lead(self) -> None:
        seat = self.state.current_player()
        if seat is not None:
            self.console.print(escape(narrate.lead_text(self.names, seat, self.reader)) + ".", soft_wrap=True)

    def _announce_events(self) -> None:
        for event in narrate.told_events(self.state, self.state.events[self._seen_events:]):
            text = escape(event.describe(self.names, self.reader))
            self.console.print(f"  [yellow]{text}[/yellow]", soft_wrap=True)
        self._seen_events = len(self.state.events)

    def _human_turn(self, seat: int) -> None:
        out = self.console
        if len(self.humans) > 1 and self._last_human != seat:
            out.clear()
            self._ask(f"Pass the keyboard to {self.names[seat]} and press Enter ")
            out.clear()
        self._last_human = seat
        out.print(render_observation(self.state.observation(seat)))
        prompt = "Your move: " if self.names[seat] == "You" else f"{self.names[seat]}, your move: "
        while True:
            text = self._ask(prompt).strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("help", "?"):
                out.print(HELP.format(forms=self.state.describe_forms()))
                continue
            if word == "hint":
                self._hint(seat)
                continue
            if word.split() in (["rules"], ["rules", "all"]):
                self._rules(full=word.split() == ["rules", "all"])
                continue
            if word == "undo":
                if self._undo(seat):
                    return
                continue
            if word == "moves":
                out.print("Legal moves: " + ", ".join(str(m) for m in self.state.legal_moves()))
                continue
            try:
                move = resolve_shorthand(self.state, text)
            except IllegalMoveError as exc:
                out.print(f"[red]{escape(narrate.illegal_text(exc, seat))}[/red]", soft_wrap=True)
                continue
            except ValueError as exc:
                out.print(f"[red]{escape(str(exc))}[/red]", soft_wrap=True)
                continue
            if not self._confirm_discard(text, move):
                continue
            self._make(move, seat)
            return

    def _confirm_discard(self, text: str, move: Move) -> bool:
        """A card typed alone that can only be discarded: ask first if it is a face card
        (a King thrown away by a slip of the keyboard is not taken back)."""
        card = face_card_thrown_away(text, move)
        if card is None:
            return True
        answer = self._ask(discard_question(card) + " [y/N] ").strip().lower()
        if answer in ("y", "yes"):
            return True
        self.console.print("Kept.")
        return False

    def _rules(self, *, full: bool) -> None:
        """How a turn of this game works (``full``: the whole rules), then the table is asked for again."""
        try:
            text = self.game.rules() if full else self.game.turn()
        except MissingRulesError as exc:
            self.console.print(f"[red]{escape(str(exc))}[/red]", soft_wrap=True)
            return
        self.console.print(Markdown(text))
        if not full:
            self.console.print("[dim]Type [b]rules all[/b] for the full rules.[/dim]")

    def _undo(self, seat: int) -> bool:
        """Take back ``seat``'s last turn and the moves made since, as the web's undo does
        (:func:`~parlour.game.undo_reach`); say why not when it cannot.  Returns whether anything was undone."""
        count = undo_reach(self.state, seat, against_bots=len(self.humans) == 1)
        if count.moves == 0:
            self.console.print(f"[yellow]{escape(count.why_not)}[/yellow]", soft_wrap=True)
            return False
        for _ in range(count.moves):
            self.state.undo()
        self._seen_events = len(self.state.events)
        self._save()
        self.console.print(f"Took back {narrate.plural(count.moves, 'move')}.")
        return True

    def _hint(self, seat: int) -> None:
        self.console.print(f"[dim]thinking ({bots.HINT_LEVEL} bot)…[/dim]")
        rng = random.Random(f"parlour-hint:{self.seed}:{self.state.round_index}:{len(self.state.moves)}")
        legal = self.state.legal_moves()
        for estimate in bots.hint(self.state.observation(seat), legal, rng):
            said = bots.format_estimate(estimate, players=self.game.players, only=len(legal) == 1)
            self.console.print("  " + escape(said), soft_wrap=True)
        self.console.print(f"[dim]{bots.HINT_LEGEND}[/dim]")

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(escape(prompt) if self._markup else prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise Quit from None
