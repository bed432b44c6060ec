"""Reading the opponent's hand from its moves (``parlour.bots.infer``).

Every position here comes from seeded matches of the advice (the ``heuristic`` bot: the
opponent model the chain scores moves with) against itself, so
each test is deterministic; the bounds leave room for the seeded set, not for chance.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from parlour import bots, games
from parlour.bots.heuristic import advice
from parlour.bots.infer import Chain, can_infer, inferred_sampler
from parlour.cards import Card
from parlour.game import State
from parlour.games.minus_twenty import MinusTwentyState

MINUS_TWENTY = games.get("minus-twenty")
POLICY = advice("minus-twenty").rollout


def position(seed: int, moves: int, game_id: str = "minus-twenty") -> State:
    """A round (of Minus Twenty unless said) after ``moves`` moves of players who follow the advice."""
    advised = bots.make("heuristic")
    state = games.get(game_id).new_match(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.current_player()
        assert seat is not None
        state.apply(advised.choose(state.observation(seat), state.legal_moves(), rng))
    return state


def test_exchange_swaps_the_places_of_two_cards() -> None:
    state = position(1, 0)
    assert isinstance(state, MinusTwentyState)
    other = state.copy()
    held, undrawn = state.hands[1][2], state.stock[5]
    other.exchange(held, undrawn)
    assert other.hands[1][2] == undrawn and other.stock[5] == held
    assert state.hands[1][2] == held and state.stock[5] == undrawn  # the copy's stock was not shared
    assert other.deal is None
    with pytest.raises(ValueError, match="not each in a hand or the stock"):
        other.exchange(held, Card.parse("AS"))  # no ace in Minus Twenty


@pytest.mark.parametrize("game_id", ["minus-twenty", "progression"])  # every play-then-draw game takes part
@pytest.mark.parametrize("seed", range(6))
def test_the_chain_only_visits_worlds_the_seat_cannot_tell_from_the_truth(seed: int, game_id: str) -> None:
    state = position(seed, 30, game_id)
    seat = state.current_player()
    assert seat is not None
    observation = state.observation(seat)
    seen = json.dumps(observation, sort_keys=True)
    game = games.get(game_id)
    chain = Chain(game.determinize(observation, random.Random(seed)), seat, advice(game_id).rollout, 0.2)
    rng = random.Random(seed)
    kept = 0
    for _ in range(60):
        kept += chain.step(rng)
        assert json.dumps(chain.world.observation(seat), sort_keys=True) == seen
        assert chain.world.snapshot() == chain.replay(chain.start)[0].snapshot()
    assert kept > 0


def test_inference_reads_the_opponents_hand_better_than_uniform_guesses() -> None:
    """On 12 seeded positions, the chain's worlds hold more of the opponent's true hidden
    cards than uniform samples of the same cards (seeded: the figures are fixed)."""
    inferred = uniform = 0.0
    for seed in range(12):
        state = position(seed, 30)
        seat = state.current_player()
        assert seat is not None and isinstance(state, MinusTwentyState)
        truth = set(state.hidden_cards(seat))
        observation = state.observation(seat)
        sample = inferred_sampler(MINUS_TWENTY, observation, POLICY, random.Random(seed))
        rng = random.Random(seed)
        worlds = [sample(rng) for _ in range(100)]
        inferred += sum(len(truth & set(w.hidden_cards(seat))) for w in worlds) / len(worlds) / len(truth)  # type: ignore[attr-defined]
        pool = len(truth) + observation["stock_count"]
        uniform += len(truth) / pool  # the chance that a uniform guess holds a given hidden card
    assert inferred / 12 > 1.25 * uniform / 12


def test_inference_needs_the_games_hooks_and_is_off_without_them() -> None:
    twenty = games.get("twenty")
    state = twenty.new_match(seed=3)
    assert not can_infer(state) and can_infer(position(3, 0))
    # 100 Silver Bars says which cards are hidden (for the search's re-deals), but two decks hold
    # each card twice, so its rounds cannot be replayed with two cards exchanged: it does not take part.
    silver = games.get("silver-bars").new_match(seed=3)
    assert silver.hidden_cards(0) == silver.hands[1] and not can_infer(silver)  # type: ignore[attr-defined]
    plain = games.get("silver-bars").sampler(silver.observation(0))(random.Random(2))
    sample = inferred_sampler(games.get("silver-bars"), silver.observation(0), POLICY, random.Random(1))
    assert sample(random.Random(2)).snapshot() == plain.snapshot()  # the uniform sampler's very worlds
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    seat = state.current_player()
    assert seat is not None
    sample = inferred_sampler(twenty, state.observation(seat), POLICY, random.Random(1))
    world = sample(random.Random(2))
    assert json.dumps(world.observation(seat), sort_keys=True) == json.dumps(state.observation(seat), sort_keys=True)


def test_a_search_that_infers_is_reproducible() -> None:
    state = position(4, 20)
    seat = state.current_player()
    assert seat is not None
    bot = bots.make("ismcts:iterations=200,rollout=heuristic,infer=60")
    choices = {bot.choose(state.observation(seat), state.legal_moves(), random.Random(9)) for _ in range(2)}
    assert len(choices) == 1


def test_the_games_entry_decides_how_hard_the_search_infers(monkeypatch: pytest.MonkeyPatch) -> None:
    from parlour.bots import infer

    real, asked = infer.inferred_sampler, []

    def counting(*args: object, **kwargs: object) -> object:
        asked.append((kwargs["steps"], kwargs["slip"]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(infer, "inferred_sampler", counting)
    entry = games.entry
    monkeypatch.setattr(games, "entry", lambda game_id: dataclasses.replace(entry(game_id), inference=25)
                        if game_id == "minus-twenty" else entry(game_id))
    state = position(2, 12)
    seat = state.current_player()
    assert seat is not None
    for spec in ("ismcts:iterations=50,rollout=heuristic", "ismcts:iterations=50,rollout=heuristic,infer=0",
                 "ismcts:iterations=50,rollout=heuristic,infer=40", "ismcts:iterations=50",
                 "ismcts:iterations=50,rollout=heuristic,infer=30,slip=0.25"):
        bots.make(spec).choose(state.observation(seat), state.legal_moves(), random.Random(1))
    # the entry's steps, none when told, the bot's own, none with random rollouts; the model's slip when given
    assert asked == [(25, infer.SLIP), (40, infer.SLIP), (30, 0.25)]
    twenty = games.get("twenty").new_match(seed=1)
    mover = twenty.current_player()
    assert mover is not None
    bots.make("hard").choose(twenty.observation(mover), twenty.legal_moves(), random.Random(1))
    assert len(asked) == 3 and games.entry("twenty").inference == 0


@pytest.mark.parametrize("slip", ["0", "1", "1.5", "-0.1"])
def test_a_slip_outside_zero_to_one_is_refused_in_one_line(slip: str) -> None:
    with pytest.raises(ValueError, match="slip must be between 0 and 1"):
        bots.make(f"ismcts:rollout=heuristic,infer=30,slip={slip}")
