"""The leaderboard of each game and a player's page: their facts, read from the store and put in the
shapes the API answers, and the plot of a player's ratings (a PNG drawn with matplotlib's Agg canvas).

A player's page shows their name, their rating in each game they have played rated (with its history)
and their newest finished matches: the game, the opponents, the result and the date.  The result of a
match is worked out by replaying its stored moves.  Ratings are shown as :mod:`parlour.web.ratings`
says (``μ − 3σ``).
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from parlour import games
from parlour.bots import levels
from parlour.web import ratings
from parlour.web.mygames import MyGames, Outcome, outcome_of, result_for
from parlour.web.store import FinishedMatch, RatingChangeRow, TableParts, TableStore
from parlour.web.tables import TableError

RECENT_MATCHES = 10
"""The finished matches a player's page lists."""
LEADERS = 100
"""The people a leaderboard lists."""
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


@dataclass(frozen=True)
class Result:
    """How a finished match went for one seat."""

    word: str
    """``won``, ``shared the win``, ``drawn`` or ``lost``."""
    totals: list[int]


HANDLE = re.compile(r"[0-9a-f]{20}")
"""What a player page's handle looks like (:meth:`~parlour.web.store.TableStore.handle_of`)."""


def no_player(handle: str) -> TableError:
    return TableError(f"no player {handle[:40]!r}: a player has a page once they have played a rated match", 404)


def game_name(game_id: str) -> str:
    """A game's name (its id for a game this server no longer has)."""
    try:
        return games.get(game_id).name
    except ValueError:
        return game_id


SAID = {"won": "won", "lost": "lost", "shared": "shared the win", "drawn": "drawn"}
"""My games' results (:func:`~parlour.web.mygames.result_for`) as a player's page says them."""


def result_of(match: FinishedMatch, seat: int, read: Callable[[TableParts], Outcome | None] = outcome_of
              ) -> Result | None:
    """The result of a finished match for ``seat``, worked out as My games does (``read``: its reading of a
    match, remembered by :meth:`~parlour.web.mygames.MyGames.outcome`; None: its game is not installed any more)."""
    outcome = read(TableParts(match.table, match.seats, match.moves))
    if outcome is None:
        return None
    return Result(SAID[result_for(seat, len(match.seats), outcome.winners)], outcome.totals)


def rating_json(mu: float, sigma: float) -> dict[str, float]:
    """A rating as the API shows it: the number shown, and openskill's mean and uncertainty."""
    return {"rating": ratings.Standing(mu, sigma).shown, "mu": round(mu, 3), "sigma": round(sigma, 3)}


def change_json(change: RatingChangeRow) -> dict[str, Any]:
    """One rated match in a rating's history."""
    return {"table_id": change.table_id, "date": change.made.isoformat() + "Z", "place": change.place,
            "before": rating_json(change.mu_before, change.sigma_before),
            "after": rating_json(change.mu_after, change.sigma_after)}


PLOTS_KEPT = 256
"""Players' plots kept drawn (some 30 kB each)."""


class Players:
    """The leaderboards and players' pages of a server over ``store`` (read in ``executor``, the
    database's thread)."""

    def __init__(self, store: TableStore, executor: Executor, my_games: MyGames) -> None:
        self.store = store
        self.executor = executor
        self.my_games = my_games
        """Whose remembered reading of finished matches the recent matches use (a page asked for again and
        again replays nothing)."""
        self._plots: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        """Plots drawn, by player and rated matches so far: a plot changes only with a new rated match, so
        asking for it again (anyone may, as often as they like) costs no drawing."""

    async def _run_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def leaderboard(self, game_id: str) -> dict[str, Any]:
        """The best ratings of a game, with the bot levels' fixed ratings beside them."""
        try:
            game = games.get(game_id)
        except ValueError as exc:
            raise TableError(str(exc), 404) from None
        rows = await self._run_db(self.store.leaderboard, game.id, LEADERS)
        anchors = ratings.anchors()
        return {
            "game": game.id, "name": game.name,
            "players": [{"rank": rank, "player": handle, "name": name or "Anonymous player",
                         "matches": row.matches, **rating_json(row.mu, row.sigma)}
                        for rank, (row, name, handle) in enumerate(rows, 1)],
            "bots": [{"level": level.name, "name": f"{level.name.capitalize()} bot",
                      **rating_json(*_pair(anchors.of(game.id, level.name)))} for level in levels.LEVELS
                     if anchors.measured(game.id, level.name)],
            "anchors": ({"command": measure.command, "made": measure.made}
                        if (measure := anchors.measures.get(game.id)) is not None else None),
        }

    async def player_of(self, handle: str) -> str:
        """The identity behind a page's handle (404 if there is none)."""
        player = await self._run_db(self.store.player_of_handle, handle) if HANDLE.fullmatch(handle) else None
        if player is None:
            raise no_player(handle)
        found: str = player
        return found

    async def page_of(self, player: str | None) -> str | None:
        """The address of ``player``'s page (``/player/HANDLE``), once they have one (a rated match played)."""
        if player is None:
            return None
        handle = self.store.handle_of(player)
        return f"/player/{handle}" if await self._run_db(self.store.player_of_handle, handle) == player else None

    async def page(self, handle: str) -> dict[str, Any]:
        """A player's page: their name, ratings per game with their history, their newest finished matches."""
        player = await self.player_of(handle)
        page: dict[str, Any] = await self._run_db(self._page, handle, player)
        return page

    def _page(self, handle: str, player_id: str) -> dict[str, Any]:
        handles = self.store.handles()
        rows, changes = self.store.player_ratings(player_id)
        by_game: dict[str, list[RatingChangeRow]] = {}
        for row in changes:
            by_game.setdefault(row.game, []).append(row)
        matches = []
        for match in self.store.finished_matches(player_id, RECENT_MATCHES):
            mine = next(s.seat for s in match.seats if s.owner == player_id)
            result = result_of(match, mine, self.my_games.outcome)
            if result is None:  # a game this server no longer has
                continue
            change = next((c for c in match.changes if c.player == player_id), None)
            matches.append({
                "table_id": match.table.id, "game": match.table.game, "name": game_name(match.table.game),
                "date": match.table.updated.isoformat() + "Z", "rated": bool(match.table.rated),
                "seat": mine, "result": result.word, "totals": result.totals,
                "opponents": [{"name": s.name, "kind": s.kind, "level": s.level,
                               "player": handles.get(s.owner) if s.owner else None}
                              for s in match.seats if s.seat != mine],
                "rating": change_json(change) if change is not None else None,
            })
        return {
            "player": handle, "name": self.store.player_name(player_id) or "Anonymous player",
            "ratings": [{"game": row.game, "name": game_name(row.game), "matches": row.matches,
                         **rating_json(row.mu, row.sigma),
                         "history": [change_json(c) for c in by_game.get(row.game, [])]} for row in rows],
            "matches": matches,
        }

    async def plot(self, handle: str) -> bytes:
        """A PNG of the player's ratings (``μ − 3σ``) after each rated match, a line per game."""
        player = await self.player_of(handle)
        _rows, changes = await self._run_db(self.store.player_ratings, player)
        key = (player, len(changes))
        png = self._plots.get(key)
        if png is None:
            png = self._plots[key] = await asyncio.get_running_loop().run_in_executor(None, draw_history, changes)
            while len(self._plots) > PLOTS_KEPT:
                self._plots.popitem(last=False)
        self._plots.move_to_end(key)
        return png


def _pair(standing: ratings.Standing) -> tuple[float, float]:
    return standing.mu, standing.sigma


def draw_history(changes: list[RatingChangeRow]) -> bytes:
    """The plot of a rating history: each game's rating before its first rated match and after each."""
    figure = Figure(figsize=(6.4, 3.2), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    by_game: dict[str, list[RatingChangeRow]] = {}
    for change in changes:
        by_game.setdefault(change.game, []).append(change)
    for colour, (game_id, rows) in zip(_COLOURS * 4, sorted(by_game.items())):
        shown = [ratings.Standing(rows[0].mu_before, rows[0].sigma_before).shown,
                 *(ratings.Standing(r.mu_after, r.sigma_after).shown for r in rows)]
        ax.plot(range(len(shown)), shown, marker="o", color=colour, label=game_name(game_id))
    if by_game:
        ax.legend(loc="best", fontsize=9)
    else:
        ax.text(0.5, 0.5, "No rated match yet", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("rated matches")
    ax.set_ylabel("rating (μ − 3σ)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=100)
    return out.getvalue()
