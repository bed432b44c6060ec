"""A guided first match in the terminal (``parlour learn GAME``): the lesson of
:mod:`parlour.learn`, drawn with the game's own terminal view and answered from the keyboard
(or a pipe: every answer is one line, so a test can walk a lesson with piped input)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from parlour import learn
from parlour.terminal.views import render_observation

HELP = """At a step that tells you something, press Enter to go on.
When the lesson asks for a move, type it ({forms}), or just its card where that names one move.
Other commands: [b]moves[/b] lists every move the rules allow now, [b]help[/b] shows this, [b]quit[/b] stops."""


class TerminalLesson:
    """One lesson at a terminal: ``read(prompt)`` gives each line the learner types."""

    def __init__(self, lesson: learn.Lesson, console: Console | None = None,
                 read: Callable[[str], str] | None = None) -> None:
        self.lesson = lesson
        self.console = console or Console(highlight=False)
        self.read = read or self.console.input
        self._told = 0

    def run(self) -> bool:
        """Walk the lesson to its end; whether the learner finished it (False: they quit)."""
        out = self.console
        out.print(Rule(escape(self.lesson.tutorial.title)))
        while True:
            step = self.lesson.step
            self._tell(step)
            if step is None:
                break
            text = self._ask("Press Enter to go on " if step.kind == learn.SAY else "Your move: ")
            if text is None:
                out.print("You left the lesson.")
                return False
            word = text.strip().lower()
            if word in ("help", "?"):
                out.print(HELP.format(forms=escape(self.lesson.state.describe_forms())))
                continue
            if word == "moves" and step.kind == learn.ASK:
                out.print("Moves the rules allow now: " + ", ".join(str(m) for m in self.lesson.state.legal_moves()))
                continue
            reply = self.lesson.answer(text)
            if not reply.ok:
                out.print(f"[red]{escape(reply.message)}[/red]", soft_wrap=True)
        game_id = self.lesson.tutorial.game
        out.print(f"[bold]You have finished the lesson.[/bold] Play a whole match: parlour play {game_id}",
                  soft_wrap=True)
        return True

    def _tell(self, step: learn.Step | None) -> None:
        """Print what the lesson has said since last time; arrived at a move to make, the table
        (drawn after what happened, and before what the step asks)."""
        said = self.lesson.said
        new = said[self._told:]
        if not new:
            return
        asking = step is not None and step.kind == learn.ASK
        ask_text = [new.pop()] if asking and step is not None and step.text and new[-1] == step.text else []
        for line in new:
            self.console.print(escape(line), soft_wrap=True)
        if asking:
            self.console.print(render_observation(self.lesson.state.observation(self.lesson.seat)))
        for line in ask_text:
            self.console.print(f"[bold]{escape(line)}[/bold]", soft_wrap=True)
        self._told = len(said)

    def _ask(self, prompt: str) -> str | None:
        """A line from the learner, or None when they quit (``quit``, end of input, Ctrl-C)."""
        try:
            text = self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return None
        return None if text.strip().lower() in ("quit", "exit", "q") else text
