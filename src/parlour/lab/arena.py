"""Duplicate tournaments: every deal played once for every seating.

With two players each deal is played both ways round; with three, in every
rotation.  The cards are the same in every seating (the deals come from the
deal's seed, not from the play), so the luck of the cards cancels out and
what is left is the players' skill.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parlour import bots, games, record
from parlour.game import State
from parlour.lab.stats import mean_and_margin, wilson_interval
from parlour.match import play_out


def seatings(players: int) -> list[tuple[int, ...]]:
    """Who sits where in each replay of a deal: ``seating[seat] = player``.

    Two players: both ways round; three: every rotation.
    """
    return [tuple((seat + shift) % players for seat in range(players)) for shift in range(players)]


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` in a tournament seeded with ``seed``."""
    return random.Random(f"parlour-arena:{seed}:{deal}").randrange(2**62)


@dataclass
class MatchResult:
    """One match of a tournament, by seat."""

    deal: int
    seating: tuple[int, ...]
    totals: list[int]
    winners: list[int]
    rounds: int
    moves: int


def play_match(
    game_id: str,
    specs: Sequence[str],
    seed: int,
    seating: Sequence[int],
    *,
    options: dict[str, Any] | None = None,
    rounds_only: bool = False,
    noise: float = 0.0,
) -> State:
    """Play one match (or only its first round) with players seated as ``seating``; with
    ``noise``, every bot slips that often (:func:`parlour.bots.slipping`).

    The bots' RNGs are the arena's own (:func:`arena_bot_rng`); the loop is
    :func:`parlour.match.play_out`."""
    game = games.get(game_id)
    names = player_labels(specs)
    players = [bots.make(specs[p]) for p in seating]
    if noise:
        players = [bots.slipping(player, noise) for player in players]
    state = game.new_match(seed=seed, options=options, names=[names[p] for p in seating])
    rngs = [arena_bot_rng(seed, seating, seat) for seat in range(len(seating))]
    return play_out(state, players, rngs, rounds_only=rounds_only)


def arena_bot_rng(seed: int, seating: Sequence[int], seat: int) -> random.Random:
    """The RNG the bot in ``seat`` uses in the lab's match played from ``seed`` with ``seating``
    (seeded otherwise than :func:`parlour.match.bot_rng`, which the lab's stored results keep)."""
    return random.Random(arena_bot_seed(seed, seating, seat))


def arena_bot_seed(seed: int, seating: Sequence[int], seat: int) -> str:
    """The text :func:`arena_bot_rng` seeds its RNG with."""
    return f"parlour-arena-bot:{seed}:{','.join(map(str, seating))}:{seat}"


def outcome(state: State, rounds_only: bool) -> tuple[list[int], list[int]]:
    """(totals, winning seats) of a finished match — or of its first round alone."""
    if not rounds_only:
        return state.totals, state.winners()
    totals = list(state.scores)
    best = max(totals)
    return totals, [seat for seat, t in enumerate(totals) if t == best]


def player_labels(specs: Sequence[str]) -> list[str]:
    """How the lab names the players of ``specs``: by their spec, numbered when a spec repeats
    (``random#1``, ``random#2``), in the records, the tournament's results and the report."""
    return [spec if list(specs).count(spec) == 1 else f"{spec}#{i + 1}" for i, spec in enumerate(specs)]


def play_deal(
    game_id: str,
    specs: Sequence[str],
    seed: int,
    deal: int,
    options: dict[str, Any] | None,
    rounds_only: bool,
    save: str | None,
) -> list[MatchResult]:
    """Play deal number ``deal`` in every seating."""
    results = []
    dseed = deal_seed(seed, deal)
    for seating in seatings(len(specs)):
        state = play_match(game_id, specs, dseed, seating, options=options, rounds_only=rounds_only)
        totals, winners = outcome(state, rounds_only)
        moves = sum(len(r.moves) for r in state.history) + len(state.moves)
        results.append(MatchResult(deal, tuple(seating), totals, winners, state.round_index + 1, moves))
        if save is not None:
            name = f"deal{deal:05d}-seating{''.join(map(str, seating))}.json"
            meta = {"arena_seed": seed, "deal": deal, "deal_seed": dseed,
                    "bots": [specs[p] for p in seating], "rounds_only": rounds_only}
            record.save(state, Path(save) / name, meta=meta)
    return results


@dataclass
class SeatStats:
    """One player's results from one seat."""

    seat: int
    matches: int
    win_rate: float
    mean_diff: float


@dataclass
class PlayerStats:
    """One player's results over the tournament."""

    player: str
    matches: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    mean_diff: float
    mean_diff_margin: float
    per_seat: list[SeatStats] = field(default_factory=list)


def diff_for(totals: Sequence[int], seat: int) -> float:
    """A seat's score minus the mean of the other seats' scores."""
    others = [t for s, t in enumerate(totals) if s != seat]
    return totals[seat] - sum(others) / len(others)


def summarise(specs: Sequence[str], results: Sequence[MatchResult]) -> list[PlayerStats]:
    """Per-player results: a win counts 1, a draw (shared best total) ½.

    The interval of the mean score difference is computed over deals (each
    deal's seatings averaged first), as duplicate play makes the seatings
    of one deal dependent.
    """
    names = player_labels(specs)
    stats = []
    deals = sorted({r.deal for r in results})
    for player, name in enumerate(names):
        wins = draws = losses = 0
        per_deal: dict[int, list[float]] = {d: [] for d in deals}
        per_seat: dict[int, list[tuple[float, float]]] = {}
        for r in results:
            seat = r.seating.index(player)
            if seat in r.winners:
                if len(r.winners) == 1:
                    wins += 1
                    points = 1.0
                else:
                    draws += 1
                    points = 0.5
            else:
                losses += 1
                points = 0.0
            diff = diff_for(r.totals, seat)
            per_deal[r.deal].append(diff)
            per_seat.setdefault(seat, []).append((points, diff))
        matches = wins + draws + losses
        rate = (wins + 0.5 * draws) / matches if matches else 0.0
        deal_means = [sum(v) / len(v) for v in per_deal.values() if v]
        mean, margin = mean_and_margin(deal_means)
        seats = [
            SeatStats(seat, len(v), sum(p for p, _ in v) / len(v), sum(d for _, d in v) / len(v))
            for seat, v in sorted(per_seat.items())
        ]
        stats.append(PlayerStats(name, matches, wins, draws, losses, rate,
                                 wilson_interval(wins + 0.5 * draws, matches), mean, margin, seats))
    return stats


@dataclass
class Tournament:
    """A finished duplicate tournament."""

    game: str
    players: list[str]
    deals: int
    seed: int
    options: dict[str, Any]
    rounds_only: bool
    results: list[MatchResult]
    stats: list[PlayerStats]

    def as_json(self) -> dict[str, Any]:
        """Everything, as JSON-ready data."""
        data = asdict(self)
        data["results"] = [asdict(r) for r in self.results]
        plain: dict[str, Any] = json.loads(json.dumps(data))
        return plain


def check(
    game_id: str,
    specs: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    save: str | Path | None = None,
) -> dict[str, Any]:
    """Check a tournament before its first match (and make the folder for its records):
    the game, one player per seat, every bot, the options.  Returns all options with
    defaults filled in; raises :class:`ValueError` saying what is wrong.
    """
    game = games.get(game_id)
    if len(specs) != game.players:
        raise ValueError(f"{game.name} needs {game.players} players, got {len(specs)}: {','.join(specs)}")
    for spec in specs:
        bots.make(spec)
    values = game.check_options(options)
    if save is not None:
        folder = Path(save)
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"cannot save the records in {folder}: it is a file, not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValueError(f"cannot make the folder {folder} for the records: {exc.strerror or exc}") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ValueError(f"cannot save the records in {folder}: the folder is not writable")
    return values


def run(
    game_id: str,
    specs: Sequence[str],
    deals: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    rounds_only: bool = False,
    save: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tournament:
    """Play ``deals`` duplicate deals; ``progress(n)`` is called as matches finish.

    Results do not depend on ``jobs``: each deal depends only on its seed.
    """
    game = games.get(game_id)
    values = check(game_id, specs, options=options, save=save)
    save_dir = str(save) if save is not None else None
    results: list[MatchResult] = []
    args = (game_id, list(specs), seed)
    if jobs <= 1:
        for d in range(deals):
            batch = play_deal(*args, d, options, rounds_only, save_dir)
            results.extend(batch)
            if progress:
                progress(len(batch))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_deal, *args, d, options, rounds_only, save_dir) for d in range(deals)]
            for future in as_completed(futures):
                batch = future.result()
                results.extend(batch)
                if progress:
                    progress(len(batch))
    results.sort(key=lambda r: (r.deal, r.seating))
    return Tournament(game_id, list(specs), deals, seed, game.non_default_options(values), rounds_only,
                      results, summarise(specs, results))
