"""The play-then-draw machine and its advice at speed (issue 19), held to their plain readings.

What the machine keeps move by move (each own pile's figures, the cards put down) equals
what counting the piles afresh gives, through applies, undos, copies and determinizations;
``apply`` accepts exactly the legal moves in whatever form they come (the prebuilt moves,
their parsed twins, and not a number that equals a card's code); and the advice's fast
readings of a sampled state (the hand read in legal order, hands as codes, answers cached
per suit) choose and score as its reading of the legal moves and the piles does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from parlour import games
from parlour.bots.heuristic import best_draw, by_suit
from parlour.bots.heuristic import minus_twenty as mt_advice
from parlour.bots.heuristic import progression as pr_advice
from parlour.cards import ALL_CARDS, SUITS, Card
from parlour.game import IllegalMoveError, Move
from parlour.games._base import DRAW, TAKE, PlayThenDraw
from parlour.games.minus_twenty import MinusTwentyState
from parlour.games.progression import VALUE as PROGRESSION_VALUE
from parlour.games.progression import ProgressionState

GAMES = ("minus-twenty", "progression")
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "minus-twenty": [{}, {"stall_limit": 2}, {"hand_size": 3}],
    "progression": [{}, {"takeback": False}, {"stall_limit": 2}],
}


def wander(game_id: str, seed: int) -> Iterator[PlayThenDraw]:
    """The positions of one seeded match of random moves that now and then takes moves back or
    carries on in a copy, and now and then a determinization of a seat's view."""
    rng = random.Random(seed)
    options = OPTIONS[game_id][seed % len(OPTIONS[game_id])]
    state = games.get(game_id).new_match(seed=seed, options=options)
    assert isinstance(state, PlayThenDraw)
    while True:
        yield state
        legal = state.legal_moves()
        if not legal:
            if state.is_match_over():
                return
            state.next_round()
            continue
        roll = rng.random()
        if roll < 0.1 and state.moves:
            for _ in range(rng.randint(1, min(3, len(state.moves)))):
                state.undo()
            continue
        if roll < 0.15:
            copy = state.copy()
            assert isinstance(copy, PlayThenDraw)
            state = copy
        elif roll < 0.17:
            again = games.get(game_id).determinize(state.observation(state.to_move), random.Random(seed))
            assert isinstance(again, PlayThenDraw)
            yield again
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game_id", GAMES)
def test_the_figures_the_cards_put_down_and_the_known_cards_are_what_the_piles_say(game_id: str) -> None:
    checked = 0
    for seed in range(24):
        for state in wander(game_id, seed):
            assert state.figures == [[state.pile_figures(pile) for pile in seat] for seat in state.own]
            assert state.shown == state.shown_now()
            assert state.known_count == state.known_count_now()
            checked += 1
    assert checked > 5000


def test_the_figures_are_the_advices_summaries() -> None:
    """Each advice once counted its piles itself: the machine's figures are those counts."""
    for game_id, summary in (("minus-twenty", mt_advice.summary), ("progression", pr_advice.summary)):
        for state in wander(game_id, 1):
            assert state.figures == [[summary(pile) for pile in seat] for seat in state.own]


def twins(move: Move) -> list[tuple[Move, bool]]:
    """``move`` in the forms a client may send it, each with whether it is the move itself:
    parsed from its text, with a card made afresh (still a card), and with the card's code as
    a number (no card: never a move of the game)."""
    forms = [(move, True), (Move.parse(str(move)), True)]
    if move.args and isinstance(move.args[0], Card):
        card = move.args[0]
        forms += [(Move(move.verb, (Card(int(card)),)), True), (Move(move.verb, (int(card),)), False)]
    return forms


@pytest.mark.parametrize("game_id", GAMES)
def test_apply_takes_exactly_the_legal_moves_in_any_form(game_id: str) -> None:
    state_class = games.get(game_id).state_class
    assert issubclass(state_class, PlayThenDraw)
    every = [*state_class.play_moves, *state_class.pile_moves, DRAW, *TAKE,
             Move("take", ("C", "D")), Move("draw", ("C",)), Move("play", ()), Move("pass", (ALL_CARDS[8],))]
    checked = 0
    for seed in range(2):
        for number, state in enumerate(wander(game_id, seed)):
            if number % 15:
                continue
            legal = state.legal_moves()
            before = state.snapshot()
            for move in every:
                for form, itself in twins(move):
                    if itself and move in legal:
                        state.apply(form)
                        assert state.moves[-1] is form
                        state.undo()
                    else:
                        with pytest.raises(IllegalMoveError):
                            state.apply(form)
                    assert state.snapshot() == before
                    checked += 1
    assert checked > 10000


def reference_states(game_id: str, count: int) -> list[PlayThenDraw]:
    """Positions met by the advice's own rollouts in sampled deals of seeded matches."""
    advice = {"minus-twenty": mt_advice, "progression": pr_advice}[game_id]
    game = games.get(game_id)
    rng = random.Random(5)
    found: list[PlayThenDraw] = []
    seed = 0
    while len(found) < count:
        state = game.new_match(seed=seed)
        seed += 1
        for _ in range(rng.randrange(60)):
            state.apply(advice.rollout(state, rng))
        seat = state.current_player()
        assert seat is not None
        sample = game.sampler(state.observation(seat))
        world = sample(rng)
        assert isinstance(world, PlayThenDraw)
        for _ in range(24):
            if world.current_player() is None:
                break
            copy = world.copy()
            assert isinstance(copy, PlayThenDraw)
            found.append(copy)
            world.apply(advice.rollout(world, rng))
    return found


def test_minus_twentys_rollout_is_the_advice_read_from_the_legal_moves() -> None:
    """The rollout reads its play from the hand and its take from the hand's code; read from
    the legal moves and the cards (best_play over legal_moves, best_draw with the outlook), the
    advice makes the same choice."""
    for state in reference_states("minus-twenty", 600):
        assert isinstance(state, MinusTwentyState)
        seat = state.to_move
        legal = state.legal_moves()
        seen = [*state.hands[seat], *(c for c in state.hands[1 - seat] if state.was_on_pile[c]),
                *(c for m in state.melds for p in m for c in p), *(c for p in state.discard_piles for c in p)]
        known = sum(1 for c in state.hands[1 - seat] if state.was_on_pile[c])
        outlook = mt_advice.outlook_for(seen, len(state.stock) - state.stock_pos,
                                        len(state.hands[1 - seat]) - known, state.drawing)
        if state.drawing:
            legal = mt_advice.takes_that_fit(legal, state.tops[seat], state.discard_piles)
            tops = {s: (p[-1] if p else None) for s, p in zip(SUITS, state.discard_piles)}
            want = legal[0] if len(legal) == 1 else best_draw(state.melds[seat], state.hands[seat], tops, legal,
                                                              outlook, mt_advice.DRAW_PILE_WORTH)
        else:
            figures = [[mt_advice.summary(m) for m in melds] for melds in state.melds]
            want = mt_advice.best_play(figures[seat], figures[1 - seat], mt_advice.hand_code(state.hands[seat]),
                                       legal, outlook)
        assert mt_advice.rollout(state, random.Random(0)) == want


def test_progressions_rollout_is_the_advice_read_from_the_legal_moves() -> None:
    for state in reference_states("progression", 600):
        assert isinstance(state, ProgressionState)
        seat = state.to_move
        legal = state.legal_moves()
        if state.drawing:
            tops = {s: (p[-1] if p else None) for s, p in zip(SUITS, state.public)}
            want = best_draw(state.private[seat], state.hands[seat], tops, legal, pr_advice.outlook,
                             pr_advice.DRAW_PILE_WORTH)
        else:
            figures = [[pr_advice.summary(s) for s in stacks] for stacks in state.private]
            others = [figures[(seat + k) % 3] for k in (1, 2)]
            want = pr_advice.best_play(figures[seat], pr_advice.hand_code(state.hands[seat]), others, legal)
        assert pr_advice.rollout(state, random.Random(0)) == want


def test_minus_twentys_cached_answers_are_the_reckoning_of_every_card() -> None:
    """``worth`` and ``suit_moves`` set aside what cannot go on the meld and remember their
    answers; reckoned card by card from every card in hand (as the advice reads), they are the same."""
    rng = random.Random(11)
    for _ in range(3000):
        top = rng.choice([0, 0, 0, *range(2, 11)])
        numbers = rng.randint(top, 54) if top else 0
        investments = rng.randint(0, 3)
        count = investments + (rng.randint(1, 6) if top else 0)
        meld = (numbers, investments, count, top)
        mask = sum(1 << v for v in rng.sample(range(2, 11), rng.randint(0, 6)))
        spare = rng.randint(0, 3 - investments)
        unseen = rng.getrandbits(11) & mt_advice.NUMBERS & ~mask
        chance = rng.choice([0.0, 0.05, 0.12, 0.3])
        plays = rng.randint(0, 9)
        values = mt_advice.DESCENDING[mask]
        fitting = tuple(v for v in values if v > top) if top else values
        assert mt_advice.worth(unseen, chance, meld, mask, spare, plays) == mt_advice._reckon(
            unseen, chance, meld, fitting, 0 if top else spare, plays)
        played, kept = mt_advice.suit_moves(unseen, chance, meld, mask, spare, plays)
        want_played, want_kept = reckon_suit(unseen, chance, meld, values, spare, plays)
        assert {v: played[v] for v in want_played} == want_played
        assert [kept[v] for v in want_kept] == list(want_kept.values())


def reckon_suit(unseen: int, chance: float, meld: Any, values: tuple[int, ...], spare: int,
                plays: int) -> tuple[dict[int, float], dict[int, float]]:
    """What each card of a suit in hand scores, played (the cards that fit) or discarded,
    reckoned card by card from every card of the suit in hand, as the advice reads."""
    reckon = mt_advice._reckon
    numbers, investments, count, top = meld
    cards = [*values, *[0] * spare]
    fitting = [v for v in cards if (v > top if v else not top)]
    before = reckon(unseen, chance, meld, tuple(v for v in fitting if v), fitting.count(0), plays) if fitting else 0.0
    played: dict[int, float] = {}
    kept: dict[int, float] = {}
    for value in dict.fromkeys(cards):
        rest = list(fitting)
        if value in rest:
            rest.remove(value)
            if value:  # the higher cards follow it
                after = reckon(unseen, chance, (numbers + value, investments, count + 1, value),
                               tuple(v for v in rest if v > value), 0, plays)
            else:
                after = reckon(unseen, chance, (numbers, investments + 1, count + 1, 0),
                               tuple(v for v in rest if v), rest.count(0), plays)
            score = after - before
            played[value] = score + (mt_advice.TEMPO - value / 40) if after > 0 else score
            if count or before:
                kept[value] = reckon(unseen, chance, meld, tuple(v for v in rest if v), rest.count(0), plays) - before
                continue
        kept[value] = before - before
    return played, kept


def test_progressions_cached_answers_are_the_reckoning_of_every_card() -> None:
    """Progression's per-suit answers (a card played, put public, taken) and prospects, against
    the outlook of the cards themselves."""
    rng = random.Random(12)
    deck = [c for c in ALL_CARDS[:52] if c & 3 == 0]
    for _ in range(2000):
        cards = rng.sample(deck, rng.randint(0, 8))
        stack = sorted(cards[:rng.randint(0, len(cards))], key=lambda c: PROGRESSION_VALUE[c])
        hand = [c for c in cards if c not in stack]
        figures = pr_advice.summary(stack)
        mask, spare = pr_advice.suit_in(pr_advice.hand_code(hand), 0)
        played, kept = pr_advice.suit_moves(figures, mask, spare)
        before = plain_outlook(stack, hand)
        for card in hand:
            value = PROGRESSION_VALUE[card]
            rest = [c for c in hand if c != card]
            assert kept[value] == plain_outlook(stack, rest) - before
            if value >= figures[3]:
                after = plain_outlook([*stack, card], rest)
                assert played[value] == (after - before + (pr_advice.TEMPO - value / 20) if after > 0
                                         else after - before)
        gains = pr_advice.take_gains(figures, mask, spare)
        for card in deck:
            if card not in cards:
                assert gains[PROGRESSION_VALUE[card]] == plain_outlook(stack, [*hand, card]) - before
        limit = rng.randint(0, 6)
        entries, first, best = pr_advice.prospects_of(figures, mask, spare, limit)
        assert best == entries[-1][0] and entries[first][0] == best
        assert all(entries[j][0] < best for j in range(first))


def plain_outlook(stack: list[Card], hand: list[Card]) -> int:
    """A suit's outlook counted card by card: the stack and every card in hand that is not
    lower than any card on it (faces only on a stack of faces)."""
    value = PROGRESSION_VALUE
    floor = max((value[c] for c in stack), default=0)
    cards = stack + [c for c in hand if value[c] >= floor]
    total = sum(value[c] for c in cards)
    faces = sum(1 for c in cards if not value[c])
    if total == 0:
        score = -10 * (faces + 1) if faces else 0
    else:
        score = (total - 12) * (faces + 1) if total > 12 else 0
    return score if stack or score > 0 else 0


def test_progressions_turns_left_are_counted_turn_by_turn() -> None:
    for state in wander("progression", 2):
        if state.current_player() is None:
            continue
        plays = [0, 0, 0]
        for turn in range(1 if state.drawing else 0, len(state.stock) - state.stock_pos):
            plays[(state.to_move + turn) % 3] += 1
        assert pr_advice.plays_left(state)[0] == plays  # type: ignore[arg-type]


def test_by_suit_reads_the_hand_as_the_codes_do() -> None:
    rng = random.Random(3)
    for _ in range(500):
        hand = rng.sample(list(ALL_CARDS[:52]), rng.randint(0, 12))
        suits = by_suit(hand)
        code = pr_advice.hand_code(hand)
        for suit in range(4):
            mask, faces = pr_advice.suit_in(code, suit)
            assert sum(1 << PROGRESSION_VALUE[c] for c in suits[suit] if PROGRESSION_VALUE[c]) == mask
            assert sum(1 for c in suits[suit] if not PROGRESSION_VALUE[c]) == faces
