"""Twenty's options for smaller games and its micro variant: the options are checked, the
defaults are the full game, the micro variant plays through with every bot and passes the
conformance checks, and the bounds hold (and are nearly reached) under both."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlour import bots, conformance, games, record
from parlour.cards import Card, standard_deck
from parlour.game import OptionError, State
from parlour.games.twenty import VALUE, TwentyState, margin_bound, most_margin, pack_values
from test_twenty import hide_twenty as hide

TWENTY = games.get("twenty")
MICRO = dict(TWENTY.micro_options)




def margin(state: State) -> int:
    return abs(state.scores[0] - state.scores[1])


# -- options -----------------------------------------------------------------------------

@pytest.mark.parametrize(("given", "message"), [
    ({"suits": 0}, "'suits' must be at least 1"),
    ({"suits": 5}, "'suits' must be at most 4"),
    ({"ranks": 14}, "'ranks' must be at most 13"),
    ({"hand_size": 6}, "'hand_size' must be at most 5"),
    ({"hands": 0}, "'hands' must be at least 1"),
    ({"rounds": 0}, "'rounds' must be at least 1"),
    ({"rounds": "two"}, "'rounds' must be a whole number"),
    ({"hands": 6}, "need 62 cards, but 4 suit(s) of 13 rank(s) make a pack of 52"),
    ({"suits": 1, "ranks": 5, "hand_size": 2, "hands": 1}, "need 6 cards, but 1 suit(s) of 5 rank(s)"),
    ({"hand_size": 4}, "leaves 42 cards in the stock after the deal; at most 40"),
])
def test_bad_options_are_refused_with_what_was_wrong(given: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        TWENTY.check_options(given)


def test_the_defaults_are_the_full_game() -> None:
    options = TWENTY.check_options()
    assert {k: options[k] for k in ("suits", "ranks", "hand_size", "hands", "rounds")} == {
        "suits": 4, "ranks": 13, "hand_size": 5, "hands": 5, "rounds": 2}
    assert TWENTY.deck(options) == standard_deck()
    assert TWENTY.deal_layout(options) == [("revealed", -1)] * 2 + [("hands", 0)] * 5 + [("hands", 1)] * 5
    assert TWENTY.bounds(options)[:2] == (2, 50)
    # Saying every default aloud plays the same match as saying nothing.
    plain = TWENTY.new_match(seed=11)
    spelled = TWENTY.new_match(seed=11, options={"suits": 4, "ranks": 13, "hand_size": 5, "hands": 5, "rounds": 2})
    for state in (plain, spelled):
        rng = random.Random(5)
        while not state.is_match_over():
            if state.is_round_over():
                state.next_round()
            state.apply(rng.choice(state.legal_moves()))
    assert record.to_data(plain) == record.to_data(spelled)
    assert "suits" not in record.to_data(plain).get("options", {})


def test_the_micro_pack_is_the_highest_ranks_of_one_suit() -> None:
    options = TWENTY.check_options(MICRO)
    assert [str(c) for c in TWENTY.deck(options)] == ["7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    assert TWENTY.hand_size(options) == 2
    assert TWENTY.bounds(options)[:2] == (1, 4)
    two_suits = TWENTY.deck(TWENTY.check_options({"suits": 2, "ranks": 3, "hand_size": 1, "hands": 2}))
    assert sorted(map(str, two_suits)) == ["JC", "JD", "KC", "KD", "QC", "QD"]


# -- playing the micro variant -----------------------------------------------------------

@pytest.mark.parametrize(("options", "matches"), [
    (MICRO, 150), ({**MICRO, "open_hands": True, "rounds": 3}, 150),
    ({"suits": 2, "ranks": 13, "hand_size": 3, "hands": 3, "rounds": 3}, 40)])
def test_conformance(options: dict[str, object], matches: int) -> None:
    report = conformance.run(TWENTY, hide, matches=matches, options=options, deep_every=3)
    assert report.matches == matches and report.deep_checks > 100


@pytest.mark.parametrize("spec", ["random", "medium", "hard"])
def test_every_bot_plays_micro_rounds_through(spec: str) -> None:
    for seed in range(30 if spec != "hard" else 3):
        state = TWENTY.new_match(seed=seed, options=MICRO)
        players = [bots.make(spec), bots.make("random")]
        rng = random.Random(seed)
        while not state.is_match_over():
            seat = state.current_player()
            assert seat is not None
            state.apply(players[seat].choose(state.observation(seat), state.legal_moves(), rng))
        assert len(state.moves) == 4 and len(state.set_aside) + len(state.tally) == 4


def test_micro_records_round_trip_through_the_notation() -> None:
    for seed in range(20):
        state = TWENTY.new_match(seed=seed, options={**MICRO, "rounds": 2})
        rng = random.Random(seed)
        while not state.is_match_over():
            if state.is_round_over():
                state.next_round()
            move = rng.choice(state.legal_moves())
            assert state.parse_move(str(move)) == move
            state.apply(move)
        text = record.dumps(state)
        replayed = record.replay(record.loads(text))
        assert replayed.totals == state.totals and record.dumps(replayed) == text


def test_a_short_round_leaves_the_rest_of_the_stock_unplayed() -> None:
    state = TWENTY.new_match(seed=3, options={"hands": 2})
    rng = random.Random(3)
    while not state.is_round_over():
        state.apply(rng.choice(state.legal_moves()))
    assert isinstance(state, TwentyState)
    assert len(state.moves) == 20 and state.hands_dealt == [2, 2]
    assert len(state.stock) - state.stock_pos == 30


# -- bounds ------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "rounds"), [({}, 400), (MICRO, 3000)])
@pytest.mark.parametrize("specs", [("random", "random"), ("medium", "random")])
def test_play_stays_inside_the_bounds(options: dict[str, object], rounds: int, specs: tuple[str, str]) -> None:
    bounds = TWENTY.bounds(TWENTY.check_options(options))
    players = [bots.make(s) for s in specs]
    rng = random.Random(f"{options} {specs}")
    widest = 0
    for seed in range(rounds if specs[0] == "random" else rounds // 4):
        state = TWENTY.new_match(seed=seed, options={**options, "rounds": 1})
        while not state.is_round_over():
            seat = state.current_player()
            assert seat is not None
            state.apply(players[seat].choose(state.observation(seat), state.legal_moves(), rng))
        assert len(state.moves) <= bounds.moves
        widest = max(widest, margin(state))
    assert widest < bounds.points


def _best_margin(state: TwentyState) -> int:
    """The most seat 0's score can exceed seat 1's from here, both playing for it (the hands
    face up to the search)."""
    if state.is_round_over():
        return state.scores[0] - state.scores[1]
    best = -10**9
    for move in state.legal_moves():
        state.apply(move)
        best = max(best, _best_margin(state))
        state.undo()
    return best


def test_the_micro_bound_is_reached() -> None:
    """The micro pack is small enough for :func:`most_margin` to be exact: some seeded deal,
    played for the biggest margin, reaches it (the bound is one more)."""
    options = TWENTY.check_options(MICRO)
    points = TWENTY.bounds(options).points
    best = 0
    for seed in range(600):  # seed 578 deals the widest
        state = TWENTY.new_match(seed=seed, options=MICRO)
        assert isinstance(state, TwentyState)
        best = max(best, _best_margin(state))
    assert best == points - 1 == 22


def _big_round() -> tuple[dict[str, list[Card]], list[Card]]:
    """A deal of the full game and the order of play that give seat 0 a big margin: seat 1
    leads; the ten lowest cards make a Ten Tally whose top (480) is seat 0's; seat 1 closes
    it; then, greedily, the fewest points' worth of cards that let seat 0 close each tally
    with an Exact Twenty, and the rest."""
    left = Counter(VALUE[c] for c in standard_deck())
    plays = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]  # the Ten Tally (18), closed by seat 1's 3
    left.subtract(plays)
    # Seat 0 to play, on an empty tally: three cards to 20, seat 0 last; then seat 1 leads pairs.
    plan = [(4, 6, 10)] + [(10, 10)] * 7 + [(5, 5, 5, 5), (4, 4, 6, 6), (7, 3, 6, 4)]
    for tally in plan:
        plays += tally
        left.subtract(tally)
    rest = sorted(left.elements())
    revealed, plays = rest[-2:], plays + rest[:-2]
    assert len(plays) == 50 and all(n >= 0 for n in left.values())
    pool = {v: [c for c in standard_deck() if VALUE[c] == v] for v in range(1, 11)}
    order = [pool[v].pop() for v in plays]
    hands = [order[1::2], order[0::2]]  # seat 1 plays first
    stock: list[Card] = []
    for k in range(1, 5):
        stock += hands[1][5 * k:5 * k + 5] + hands[0][5 * k:5 * k + 5]
    deal = {"revealed": [pool[v].pop() for v in revealed], "hands": [hands[0][:5], hands[1][:5]], "stock": stock}
    return deal, order


def test_the_full_bound_is_nearly_reached() -> None:
    """A round built for a big margin reaches 85% of the proven bound (420 of 481)."""
    deal, order = _big_round()
    state = TWENTY.new_match(deal=deal, first=1)
    for card in order:
        state.apply(state.parse_move(f"play {card}"))
    assert state.is_round_over()
    points = TWENTY.bounds(TWENTY.check_options()).points
    assert state.scores[0] - state.scores[1] >= 0.85 * points


@pytest.mark.parametrize(("suits", "ranks", "hand_size", "hands"), [
    (1, 6, 2, 1), (1, 7, 2, 1), (1, 8, 3, 1), (1, 13, 2, 2), (1, 13, 5, 1), (2, 6, 1, 2), (1, 12, 1, 5)])
def test_the_bound_is_never_below_the_exact_most(suits: int, ranks: int, hand_size: int, hands: int) -> None:
    """For packs small enough to search every order of play, the bound big packs get is at
    least the exact most margin (and the micro variant's exact most is 22)."""
    counts = tuple(pack_values({"suits": suits, "ranks": ranks}))
    exact = most_margin(suits, ranks, hand_size, hands)
    assert margin_bound(counts, 2 * hand_size * hands) >= exact > 0
    if (suits, ranks, hand_size, hands) == (1, 7, 2, 1):
        assert exact == 22
