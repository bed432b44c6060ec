"""One entry per game: the game and every part other layers plug in for it.

A :class:`GameEntry` names where each part lives, as ``module`` or
``module:attribute`` paths loaded on first use (so listing the games imports
no game, and a game's RL space is not imported by the terminal):

- ``game``: the :class:`~parlour.game.Game` (rules, views, notation);
- ``advice``: the :class:`~parlour.bots.heuristic.Advice` (``choose``, ``rollout``,
  ``evaluate``), which the ``heuristic`` bot plays and the search takes as its knowledge;
- ``terminal``: the module whose ``render(observation)`` draws a seat's view in the terminal;
- ``web``: the module whose ``layout(view, legal)`` describes a seat's view for the browser
  (see :mod:`parlour.web.layouts`);
- ``space``: the :class:`~parlour.envs.spaces.GameSpace` class for the RL adapters;
- ``levels``: search iterations per search level (``hard``, ``expert``);
- ``leaf``: where the levels search in batches, each leaf rolled out this many times
  (:mod:`parlour.batch.rollout`; the levels' iterations then count rollouts);
- ``reward_scale``: what the RL environments multiply points by (:mod:`parlour.envs.rewards`);
- ``inference``: how hard the search reads the others' hands from their moves
  (:mod:`parlour.bots.infer`; 0: it guesses the hidden cards uniformly);
- ``sparring``: how the sparring partner plays it (:class:`SparringPlan`, :mod:`parlour.bots.sparring`);
- ``order``: where parlour lists it among its own games;
- ``tutorial``: the game's guided first match, a JSON data file (:mod:`parlour.learn`).

Nothing else in parlour is keyed by a game id: a fifth game is one entry — a module in
:mod:`parlour.games.entries` for a game of parlour's own, ``parlour.games.register`` for a
plug-in's — and every front end, bot and adapter finds it.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.game import Game


def load(path: str) -> Any:
    """The object at ``module:attribute`` (or the module, without ``:``)."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


LOOKAHEAD = "ismcts:iterations=1,rollout=heuristic,depth=0,infer=0"
"""A sparring spec: a one-ply look-ahead on one determinized deal a halving round, judged by the
advice's evaluation (the smallest IS-MCTS there is)."""


@dataclass(frozen=True)
class SparringPlan:
    """How the sparring partner (:mod:`parlour.bots.sparring`) plays one game: the cheapest
    setting measured to beat ``medium`` on duplicate deals (``docs/strength-sparring.md``)."""

    spec: str
    """The bot spec it plays (:func:`parlour.bots.make`), e.g. :data:`LOOKAHEAD`."""
    share: float = 1.0
    """Where that bot costs too much to move every time: the share of its decisions (with a real
    choice, not left to the advice by ``advice_kinds``) it makes, drawn with the bot's RNG; the
    others are the advice's.  1: every such decision.  ``sparring:share=S`` sets one share for
    every game."""
    advice_kinds: frozenset[str] = frozenset()
    """Decisions the bot leaves to the advice: those in which a legal move is of one of these
    kinds (:meth:`parlour.game.Game.move_kind`)."""


@dataclass(frozen=True)
class GameEntry:
    """Where each part of one game lives (see the module docstring)."""

    id: str
    """The game's id, as in notation records and on the command line: ``minus-twenty``."""
    game: str
    """``module:attribute`` of the :class:`~parlour.game.Game`."""
    advice: str | None = None
    """``module:attribute`` of the heuristic :class:`~parlour.bots.heuristic.Advice`."""
    terminal: str | None = None
    """Module of the terminal view (``render(observation)``)."""
    web: str | None = None
    """Module of the web layout (``layout(view, legal)``: see :mod:`parlour.web.layouts`); without
    one the browser shows the hands and the draw pile only."""
    space: str | None = None
    """``module:attribute`` of the RL :class:`~parlour.envs.spaces.GameSpace` class."""
    levels: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    """Search iterations per search level: ``{"hard": 600, "expert": 2400}``."""
    leaf: int = 0
    """How many times the search levels roll out each leaf, in batches (``ismcts:leaf=…``: see
    :mod:`parlour.bots.ismcts`), where the game's batched rollouts pay: its ``levels`` then count
    rollouts, not simulations.  0: the levels search one rollout a simulation.  The game's states
    must say which cards are hidden (``hidden_cards``); a compiled plug-in
    (:data:`parlour.batch.rollout.COMPILED`) is what makes it pay, and without numba the same
    rollouts are played in Python, to the same decisions."""
    reward_scale: float = 1.0
    """What the RL environments multiply points by when not told (:mod:`parlour.envs.rewards`):
    one that puts a typical match margin within about ±1; 1 (raw points) unless the game gives one."""
    inference: int = 0
    """Chain steps a search decision spends reading the others' hidden cards from their
    moves this round (:mod:`parlour.bots.infer`); 0: the hidden cards are sampled
    uniformly.  The game's states must offer ``hidden_cards`` and ``exchange``."""
    sparring: SparringPlan | None = None
    """How the sparring partner plays the game; ``None``: it plays the advice (``heuristic``)."""
    order: int = 0
    """Where parlour lists the game among its own (discovered entries are registered by it);
    a plug-in's game is listed after them, in the order it was registered."""
    tutorial: str | None = None
    """``package:file`` of the game's tutorial, a JSON data file inside that package (the deal and
    the steps of a guided first match: :mod:`parlour.learn`); ``None``: the game has none."""

    @property
    def camel_name(self) -> str:
        """The id in CamelCase, for names other libraries register: ``MinusTwenty``."""
        return self.id.title().replace("-", "").replace("_", "")

    def load_game(self) -> Game:
        game: Game = load(self.game)
        if game.id != self.id:
            raise ValueError(f"the game at {self.game} has id {game.id!r}, registered as {self.id!r}")
        return game

    def load_advice(self) -> Any:
        if self.advice is None:
            raise ValueError(f"there is no heuristic advice for {self.id!r}")
        return load(self.advice)

    def load_terminal(self) -> ModuleType:
        if self.terminal is None:
            raise ValueError(f"{self.id!r} has no terminal view")
        module: ModuleType = load(self.terminal)
        return module

    def load_web(self) -> ModuleType | None:
        """The web layout module, or ``None`` when the game has none."""
        if self.web is None:
            return None
        module: ModuleType = load(self.web)
        return module

    def load_tutorial(self) -> str:
        """The text of the tutorial's JSON file."""
        if self.tutorial is None:
            raise ValueError(f"{self.id!r} has no tutorial")
        package, _, name = self.tutorial.partition(":")
        return importlib.resources.files(package).joinpath(name).read_text(encoding="utf-8")

    def load_space(self) -> Any:
        if self.space is None:
            raise ValueError(f"{self.id!r} has no RL space")
        return load(self.space)


class Registry:
    """Game entries by id, in the order they were registered; each game loaded once.

    ``plugins``: module names imported when the registry is first asked for a game (their
    import registers their games).  Not before: a plug-in imports parts of parlour, which
    may be half imported while the module that imported the registry is itself importing.
    """

    def __init__(self, plugins: Sequence[str] = ()) -> None:
        self._entries: dict[str, GameEntry] = {}
        self._games: dict[str, Game] = {}
        self._plugins = list(plugins)

    def _load_plugins(self) -> None:
        """Import the plug-ins not imported yet (each once, even when one asks the registry)."""
        while self._plugins:
            importlib.import_module(self._plugins.pop(0))

    def register(self, entry: GameEntry) -> None:
        """Add a game (or replace the entry of the same id)."""
        self._entries[entry.id] = entry
        self._games.pop(entry.id, None)

    def unregister(self, game_id: str) -> None:
        """Forget a game (a plug-in's, for a test that registers it for a while)."""
        self.entry(game_id)
        del self._entries[game_id]
        self._games.pop(game_id, None)

    def entry(self, game_id: str) -> GameEntry:
        """The entry of ``game_id``; :class:`ValueError` listing the known ids."""
        self._load_plugins()
        found = self._entries.get(game_id)
        if found is None:
            raise ValueError(f"unknown game {game_id!r} (known: {', '.join(self.ids())})")
        return found

    def get(self, game_id: str) -> Game:
        """The game called ``game_id``; :class:`ValueError` listing the known ids."""
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = self.entry(game_id).load_game()
        return game

    def ids(self) -> list[str]:
        """Every registered game id."""
        self._load_plugins()
        return list(self._entries)

    def entries(self) -> list[GameEntry]:
        """Every entry, in registry order."""
        self._load_plugins()
        return list(self._entries.values())

    def all(self) -> list[Game]:
        """Every registered game."""
        return [self.get(i) for i in self.ids()]
