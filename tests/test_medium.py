"""The ``medium`` level plays like a sound club player: it starts melds when the hand
supports them, rarely goes through a round without starting anything, and beats ``easy``.

Every figure here comes from seeded deals, so each test is deterministic: the bounds
leave room for the seeded set, not for chance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence

import pytest

from parlour import bots, games
from parlour.bots import Bot, Budget
from parlour.bots.heuristic import HeuristicBot, advice, softmax_choice
from parlour.game import Move, Observation, State
from parlour.lab.arena import deal_seed, play_deal, play_match, seatings, summarise
from parlour.match import bot_rng

SEED = 7
"""The seed of the deals every test here plays."""


class DrawPileBot(Bot):
    """A casual player: any play or discard, and always the top of the draw pile."""

    name = "draw-pile"

    def choose(
        self, observation: Observation, legal: Sequence[Move], rng: random.Random, budget: Budget | None = None
    ) -> Move:
        """A random play or discard; ``draw`` whenever it is legal."""
        return next((m for m in legal if m.verb == "draw"), None) or rng.choice(legal)


def opponent(spec: str) -> Bot:
    """A bot by spec, or the casual :class:`DrawPileBot`."""
    return DrawPileBot() if spec == "draw-pile" else bots.make(spec)


def first_meld_turn(seed: int, medium_seat: int, other: str) -> int | None:
    """Medium's turn (1, 2, …) in which it first puts a card on a meld in round 1 of
    Minus Twenty, or ``None`` if it never does."""
    state = games.get("minus-twenty").new_match(seed=seed)
    players = [opponent(other), bots.make("medium")] if medium_seat == 1 else [bots.make("medium"), opponent(other)]
    rngs = [bot_rng(seed, seat) for seat in range(2)]
    turn = 0
    while (seat := state.current_player()) is not None:
        move = players[seat].choose(state.observation(seat), state.legal_moves(), rngs[seat])
        if seat == medium_seat and move.verb in ("play", "discard"):
            turn += 1
            if move.verb == "play":
                return turn
        state.apply(move)
    return None


@pytest.mark.parametrize("other", ["draw-pile", "easy", "random", "medium"])
def test_minus_twenty_seed_3_medium_starts_a_meld_at_once(other: str) -> None:
    """The report: ``parlour play minus-twenty --seed 3 --players human,medium`` — medium
    discarded on all its turns of round 1.  Its hand (K♦ K♣ K♥ 3♥ 4♥ 8♥ 8♣) with the
    whole draw pile ahead supports a hearts meld: it starts one within three turns,
    whoever sits opposite (it used to wait until turn 7 to 16, or for ever).  Medium's
    judgement wavers (its club temperature): with these seeds it starts in time, as it did
    in 194 of 200 seedings against the random bot."""
    turn = first_meld_turn(3, 1, other)
    assert turn is not None and turn <= 3


def test_minus_twenty_medium_starts_melds_early() -> None:
    """Over seeded deals, medium has put a card on a meld by the middle of round 1 (its
    8th turn of about 17) in all but a few rounds (here all but 5%; the earlier medium
    had not in 36%)."""
    late = 0
    rounds = 0
    for deal in range(60):
        for seat in (0, 1):
            turn = first_meld_turn(deal_seed(SEED, deal), seat, "easy")
            rounds += 1
            late += turn is None or turn > 8
    assert late <= 0.15 * rounds


@pytest.mark.parametrize(("game_id", "deals", "other", "most"), [
    ("minus-twenty", 60, "easy", 0.05),
    ("minus-twenty", 60, "medium", 0.05),
    ("progression", 20, "easy", 0.02),
    ("silver-bars", 30, "easy", 0.02),
    ("twenty", 30, "easy", 0.02),
])
def test_medium_rarely_starts_nothing(game_id: str, deals: int, other: str, most: float) -> None:
    """The share of rounds in which medium starts no meld (stack, vault; in Twenty, scores
    nothing), over the first rounds of seeded duplicate deals, is small."""
    starts = advice(game_id).starts
    assert starts is not None
    specs = ["medium"] + [other] * (games.get(game_id).players - 1)
    rounds = none = 0
    for deal in range(deals):
        for seating in seatings(len(specs)):
            state = play_match(game_id, specs, deal_seed(SEED, deal), seating, rounds_only=True)
            rounds += 1
            none += starts(state, seating.index(0)) == 0
    assert none <= most * rounds


def test_medium_beats_easy_in_minus_twenty() -> None:
    """Twenty seeded duplicate deals, whole matches: medium wins at least 80% (it wins all)."""
    results = [r for deal in range(20) for r in play_deal("minus-twenty", ["medium", "easy"], SEED, deal,
                                                          None, False, None)]
    medium = summarise(["medium", "easy"], results)[0]
    assert medium.win_rate >= 0.8
    assert medium.mean_diff > 0


def decisions(game_id: str, seeds: range, play: Callable[[State, random.Random], Move],
              slip: float = 0.3) -> Iterator[tuple[State, int, list[Move]]]:
    """Every position of round 1 of each seeded match with more than one legal move (the state,
    the seat to move, its legal moves), played on by ``play`` or, with chance ``slip``, at random."""
    for seed in seeds:
        state: State = games.get(game_id).new_match(seed=seed)
        rng = random.Random(seed)
        while (seat := state.current_player()) is not None:
            legal = state.legal_moves()
            if len(legal) > 1:
                yield state, seat, legal
            state.apply(rng.choice(legal) if rng.random() < slip else play(state, rng))


@pytest.mark.parametrize("game_id", games.ids())
def test_rollout_policy_is_the_advice(game_id: str) -> None:
    """``rollout(state)`` (hard's search plays it) advises what ``choose(observation)`` does."""
    knowledge = advice(game_id)
    checked = 0
    for state, seat, legal in decisions(game_id, range(8), knowledge.rollout):
        assert knowledge.rollout(state, random.Random(0)) == knowledge.choose(
            state.observation(seat), legal, random.Random(0))
        checked += 1
    assert checked >= 150


@pytest.mark.parametrize("game_id", [g for g in games.ids() if advice(g).values is not None])
def test_the_advised_move_is_the_one_its_values_rank_first(game_id: str) -> None:
    """``values(observation, legal)`` scores every legal move, and its best is ``choose``'s move
    (the first of equals): weighing the values at a temperature wavers around the advice."""
    knowledge = advice(game_id)
    assert knowledge.values is not None
    checked = 0
    for state, seat, legal in decisions(game_id, range(12), knowledge.rollout):
        observation = state.observation(seat)
        scores = knowledge.values(observation, legal)
        assert len(scores) == len(legal)
        assert legal[scores.index(max(scores))] == knowledge.choose(observation, legal, random.Random(0))
        checked += 1
    assert checked >= 400


def test_a_temperature_weighs_moves_by_the_exponential_of_their_values() -> None:
    """Seeded draws: each move's share is close to exp(value / T) over the sum (the bounds hold
    for this seed); at T = 0 the best move every time; a huge T nearly uniform."""
    moves = [Move("play", (card,)) for card in range(4)]
    values = [3.0, 2.0, 0.0, -20.0]
    rng = random.Random(11)
    counts = {m: 0 for m in moves}
    for _ in range(20000):
        counts[softmax_choice(moves, values, 1.0, rng)] += 1
    expected = [math.exp(v - 3.0) for v in values]
    for move, weight in zip(moves, expected):
        assert abs(counts[move] / 20000 - weight / sum(expected)) < 0.01
    assert counts[moves[3]] == 0  # e^-23: a blunder is never chosen
    wide = {m: 0 for m in moves}
    for _ in range(4000):
        wide[softmax_choice(moves, values, 1e6, rng)] += 1
    assert min(wide.values()) > 900


def test_medium_is_the_advice_at_the_games_club_temperature() -> None:
    """``medium`` is ``heuristic:temperature=club``: each game's own temperature, the advice
    itself where the game gives none; a temperature is refused in one line where the advice has
    no values, and outside 0 or more."""
    medium = bots.make("medium")
    assert isinstance(medium, HeuristicBot) and medium.temperature == "club"
    state = games.get("twenty").new_match(seed=1)
    seat = state.current_player()
    assert seat is not None and advice("twenty").club_temperature == 0
    observation, legal = state.observation(seat), state.legal_moves()
    assert medium.choose(observation, legal, random.Random(1)) == advice("twenty").choose(
        observation, legal, random.Random(1))
    if advice("twenty").values is None:
        with pytest.raises(ValueError, match="gives no move values"):
            bots.make("heuristic:temperature=1").choose(observation, legal, random.Random(1))
    for bad in ("-1", "hot"):
        with pytest.raises(ValueError, match="temperature must be 0 or more"):
            bots.make(f"heuristic:temperature={bad}")
    assert advice("minus-twenty").club_temperature > 0


def test_medium_wavers_on_close_calls_only_in_minus_twenty() -> None:
    """Minus Twenty's medium makes the advised move in most decisions, and the moves it makes
    instead are close ones: over seeded rounds it gives up well under a point a decision by the
    advice's own reckoning, and never a move the advice rates 10 points worse."""
    knowledge = advice("minus-twenty")
    assert knowledge.values is not None
    medium = bots.make("medium")
    made = 0
    losses = []

    def play(state: State, rng: random.Random) -> Move:
        nonlocal made
        seat = state.current_player()
        assert seat is not None
        observation, legal = state.observation(seat), state.legal_moves()
        move = medium.choose(observation, legal, rng)
        if len(legal) > 1:
            scores = knowledge.values(observation, legal)
            losses.append(max(scores) - scores[legal.index(move)])
        made += 1
        return move

    for _ in decisions("minus-twenty", range(10), play, slip=0.0):
        pass
    assert made > 300
    assert sum(loss == 0 for loss in losses) > 0.5 * len(losses)
    assert sum(losses) / len(losses) < 0.5
    assert max(losses) < 10


def test_minus_twenty_evaluation_is_the_score_when_no_card_can_go_down() -> None:
    """Hard judges a rollout cut short by the advice's own reckoning of each seat's round
    (:func:`evaluate`): with the last card of the draw pile to be drawn, nobody can put another
    card down, so it is each seat's melds' score exactly; earlier it counts what may still come."""
    from parlour.bots.heuristic.minus_twenty import evaluate
    from parlour.games.minus_twenty import MinusTwentyState, meld_score

    checked = ahead = 0
    for state, _, _ in decisions("minus-twenty", range(12), advice("minus-twenty").rollout):
        assert isinstance(state, MinusTwentyState)
        left = len(state.stock) - state.stock_pos
        values = evaluate(state)
        exact = [sum(meld_score(meld) for meld in state.melds[seat] if meld) for seat in (0, 1)]
        if left == 1 and state.drawing:
            assert values == pytest.approx(exact)
            checked += 1
        elif left > 20:
            ahead += values != pytest.approx(exact)  # the cards to come count
    assert checked >= 6 and ahead > 100


def test_the_readme_gives_minus_twentys_club_temperature() -> None:
    """The README's level table states medium's temperature in Minus Twenty: the one the advice has."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert f"e^(value/{advice('minus-twenty').club_temperature:g})" in readme
