"""Twenty: every scoring case of RULINGS.md, the source's illustrative game,
the open-hands variation, and the shared conformance check."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour import conformance, games, record
from parlour.cards import Card, cards, standard_deck
from parlour.game import Bounds, CardRole, State
from parlour.games.twenty import TwentyState, end_of_round_bonus, tally_name, tally_points

TWENTY = games.get("twenty")


def make_deal(hand0: str, hand1: str, stock: str = "", revealed: str = "QS 8S") -> dict[str, list]:
    """A full, valid deal with the given cards in front; the rest of the pack follows."""
    used = cards(revealed) + cards(hand0) + cards(hand1) + cards(stock)
    rest = [c for c in standard_deck() if c not in used]
    return {"revealed": cards(revealed), "hands": [cards(hand0), cards(hand1)], "stock": cards(stock) + rest}


def play(state: State, *moves: str) -> None:
    for text in moves:
        state.apply(state.parse_move(text))


def new(deal: dict[str, list], first: int = 0, **options: object) -> TwentyState:
    state = TWENTY.new_match(deal=deal, first=first, options=options, names=["Albert", "Bertha"])
    assert isinstance(state, TwentyState)
    return state


# -- values and the bonus ---------------------------------------------------------

def test_card_values_and_bonus() -> None:
    assert end_of_round_bonus(cards("7D 3C")) == 4
    assert end_of_round_bonus(cards("KH JS")) == 10  # difference 0 gives 10
    assert end_of_round_bonus(cards("AC TD")) == 9
    assert end_of_round_bonus(cards("5C 5H")) == 10


def test_tally_points_double() -> None:
    assert [tally_points(n) for n in (4, 5, 6, 7, 8)] == [0, 15, 30, 60, 120]
    assert [tally_name(n) for n in (5, 6, 7)] == ["Five Tally", "Six Tally", "Seven Tally"]


# -- scoring after each card ------------------------------------------------------

def test_exact_twenty_scores_ten_and_clears_the_tally() -> None:
    state = new(make_deal("KC 2C 3C 4C 5C", "QD 6D 7D 8D 9D"))
    play(state, "play KC", "play QD")
    assert state.scores == [0, 10]
    assert state.tally == [] and state.tally_value == 0
    assert cards("KC QD") == state.set_aside
    assert state.events[-1].describe(state.names) == "Bertha scores 10 for Exact Twenty"


def test_beyond_twenty_scores_the_excess() -> None:
    state = new(make_deal("KC 2C 3C 4C 5C", "QD 6D 7D 8D 9D"))
    play(state, "play KC", "play 9D", "play 5C")
    assert state.scores == [4, 0]
    assert state.events[-1].kind == "Beyond Twenty" and state.tally_value == 0


def test_five_six_seven_tally() -> None:
    state = new(make_deal("AC 2C 3C 4C 5C", "AD 2D 3D 4D 5D"))
    play(state, "play AC", "play AD", "play 2C", "play 2D")  # tally 6, four cards
    assert state.scores == [0, 0]
    play(state, "play 3C")  # 9, five cards
    assert state.scores == [15, 0] and state.events[-1].kind == "Five Tally"
    play(state, "play 3D")  # 12, six cards
    assert state.scores == [15, 30] and state.events[-1].kind == "Six Tally"
    play(state, "play 4C")  # 16, seven cards
    assert state.scores == [75, 30] and state.events[-1].kind == "Seven Tally"
    play(state, "play 4D")  # 20: Exact Twenty ends the chain
    assert state.scores == [75, 40] and state.tally == []


def test_tally_reaching_twenty_on_fifth_card_is_exact_not_five_tally() -> None:
    state = new(make_deal("5C 5D 2C 3C 4C", "5H 5S 6D 7D 8D"))
    play(state, "play 5C", "play 5H", "play 5D", "play 5S")
    assert state.scores == [0, 10]


def test_tally_carries_over_between_hands() -> None:
    # After five plays each, the tally (2 3 2 3 ... ) stays on the table for the next hand.
    state = new(make_deal("AC 2C 3C 4C 6C", "AD 2D 3D 4D 6D", stock="7C 8C 9C TC JC 7D 8D 9D TD JD"))
    play(state, "play AC", "play AD", "play 2C", "play 2D", "play 3C", "play 3D", "play 4C")
    # 1+1+2+2+3+3+4 = 16 with seven cards: Five (15) to Albert, Six (30) to Bertha, Seven (60) to Albert.
    assert state.tally_value == 16
    assert state.scores == [75, 30]
    play(state, "play 4D")  # 20 exactly
    assert state.scores == [75, 40] and state.tally_value == 0
    play(state, "play 6C", "play 6D")
    assert state.tally_value == 12 and len(state.tally) == 2
    assert state.hands == [cards("7C 8C 9C TC JC"), []]
    play(state, "play 7C")  # new hand dealt to Albert first; tally carried: 19, three cards
    assert state.tally_value == 19 and len(state.tally) == 3
    assert state.hands[1] == cards("7D 8D 9D TD JD")


def test_new_hand_goes_to_the_player_due_first() -> None:
    state = new(make_deal("AC 2C 3C 4C 6C", "AD 2D 3D 4D 6D", stock="7C 8C 9C TC JC 7D 8D 9D TD JD"), first=1)
    for _ in range(10):
        state.apply(state.legal_moves()[0])
    assert state.current_player() == 1
    assert state.hands[1] == cards("7C 8C 9C TC JC") and state.hands[0] == []
    state.apply(state.legal_moves()[0])
    assert state.hands[0] == cards("7D 8D 9D TD JD")


def test_round_end_bonus_to_last_scorer_and_not_carried() -> None:
    rng = random.Random(5)
    state = TWENTY.new_match(seed=5)
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))
    assert len(state.moves) == 50 and all(h == [] for h in state.hands)
    scorers = [e for e in state.events if e.points and e.kind != "End of Round Bonus"]
    bonus = state.events[-1]
    assert bonus.kind == "End of Round Bonus" and bonus.seat == scorers[-1].seat
    assert bonus.points == end_of_round_bonus(state.revealed)
    state.next_round()
    assert state.tally == [] and state.tally_value == 0 and state.scores == [0, 0]


def test_round_two_is_started_by_the_other_player() -> None:
    state = TWENTY.new_match(seed=9, first=1)
    assert state.current_player() == 1
    rng = random.Random(1)
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))
    assert not state.is_match_over()
    state.next_round()
    assert state.current_player() == 0
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))
    assert state.is_match_over()
    with pytest.raises(ValueError, match="match is over"):
        state.next_round()


def test_winners_and_draws() -> None:
    state = record.replay(record.load(Path(__file__).parent / "data" / "twenty-illustrative.json"))
    assert state.winners() == [1]


def test_seed_gives_the_same_deal_everywhere() -> None:
    """Pinned: a seed must give this match on every machine and Python version."""
    state = TWENTY.new_match(seed=2026)
    deal = record.to_data(state)["rounds"][0]["deal"]
    assert state.first == 0
    assert deal["revealed"] == ["6S", "AS"]
    assert deal["hands"] == [["8H", "3D", "KD", "9H", "8D"], ["QD", "5D", "9D", "5S", "2C"]]


# -- the source's illustrative game ---------------------------------------------------

RUNNING = [(0, 11), (11, 15), (21, 16), (55, 48), (60, 59), (60, 82), (65, 93), (71, 106), (73, 110), (82, 110)]
"""The match score printed after each hand of five in twenty.source.txt."""


def test_illustrative_game_replays_to_the_source_scores(data_dir: Path) -> None:
    rec = record.load(data_dir / "twenty-illustrative.json")
    state = record.replay(rec)
    assert [list(r.scores) for r in state.history] + [state.scores] == [[60, 59], [22, 51]]
    assert state.totals == [82, 110]
    assert state.is_match_over() and state.winners() == [1]


def test_illustrative_game_running_scores_per_hand(data_dir: Path) -> None:
    rec = record.load(data_dir / "twenty-illustrative.json")
    state = TWENTY.new_match(deal=rec.rounds[0].deal, first=rec.first, names=rec.players)
    seen = []
    for number, rnd in enumerate(rec.rounds):
        if number:
            state.next_round(rnd.deal)
        carried = state.totals if number == 0 else [sum(x) for x in zip(*[r.scores for r in state.history])]
        for index, text in enumerate(rnd.moves, 1):
            state.apply(state.parse_move(text))
            if index % 10 == 0:
                seen.append(tuple(c + s for c, s in zip(carried, state.scores)))
    assert seen == RUNNING


def test_illustrative_game_names_the_scores_as_the_rules_do(data_dir: Path) -> None:
    state = record.replay(record.load(data_dir / "twenty-illustrative.json"))
    first_round = state.history[0]
    kinds = {e.kind for e in first_round.events}
    assert {"Exact Twenty", "Beyond Twenty", "Five Tally", "Six Tally", "End of Round Bonus"} <= kinds
    texts = [e.describe(state.names) for e in first_round.events if e.points]
    assert texts[0] == "Bertha scores 10 for Exact Twenty"
    assert "Bertha takes the End of Round Bonus of 6" == texts[-1]
    assert "Albert scores 30 for Six Tally" in texts


# -- open hands -------------------------------------------------------------------------

def test_open_hands_shows_both_hands_and_exchanges_them_in_round_two() -> None:
    state = TWENTY.new_match(seed=3, options={"open_hands": True})
    obs = state.observation(0)
    assert obs["hands"][1] == [str(c) for c in state.hands[1]]
    closed = TWENTY.new_match(seed=3).observation(0)
    assert closed["hands"][1] is None
    first_deal = state.deal
    assert first_deal is not None
    rng = random.Random(0)
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))
    state.next_round()
    assert state.deal is not None
    assert state.deal["hands"] == [first_deal["hands"][1], first_deal["hands"][0]]
    assert state.deal["stock"] == first_deal["stock"]


def test_open_hands_record_must_exchange_hands() -> None:
    state = TWENTY.new_match(seed=3, options={"open_hands": True})
    rng = random.Random(0)
    while not state.is_match_over():
        if not state.advance():
            state.apply(rng.choice(state.legal_moves()))
    data = record.to_data(state)
    data["rounds"][1]["deal"] = data["rounds"][0]["deal"]
    with pytest.raises(record.RecordError, match=r"round 2, move 0: .*hands exchanged"):
        record.replay(record.from_data(json.loads(json.dumps(data))))


# -- contract ---------------------------------------------------------------------------

def hide_twenty(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: the other hand (unless open) and the stock."""
    assert isinstance(state, TwentyState)
    other = state.copy()
    assert isinstance(other, TwentyState)
    opponent = 1 - seat
    hidden = [] if state.options["open_hands"] else list(other.hands[opponent])
    pool = hidden + other.stock[other.stock_pos:]
    rng.shuffle(pool)
    if hidden:
        other.hands[opponent] = pool[: len(hidden)]
    other.stock = other.stock[: other.stock_pos] + pool[len(hidden):]
    return other


@pytest.mark.parametrize("open_hands", [False, True])
def test_conformance(open_hands: bool) -> None:
    report = conformance.run(TWENTY, hide_twenty, matches=1000, options={"open_hands": open_hands})
    assert report.matches == 1000 and report.moves == 100_000
    assert report.deep_checks > 1000


def test_conformance_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    original = TwentyState.observation

    def leaky(self: TwentyState, seat: int) -> dict:
        obs = original(self, seat)
        obs["hands"] = [[str(c) for c in hand] for hand in self.hands]  # the other hand too
        return obs

    monkeypatch.setattr(TwentyState, "observation", leaky)
    with pytest.raises(conformance.ConformanceError, match="hidden cards change"):
        conformance.run(TWENTY, hide_twenty, matches=20)


@pytest.mark.parametrize(("change", "message"), [
    (lambda obs: obs.update(stock_top="5H"), r"not declared \['stock_top'\]"),
    (lambda obs: obs.pop("bonus"), r"missing \['bonus'\]"),
    (lambda obs: obs.update(tally_value=str(obs["tally_value"])), "is not a TwentyObservation.*tally_value"),
    (lambda obs: obs.update(hands=[["5H"], "5H"]), "is not a TwentyObservation.*hands"),
])
def test_conformance_holds_every_observation_to_its_declared_type(
        monkeypatch: pytest.MonkeyPatch, change: Callable[[dict], object], message: str) -> None:
    original = TwentyState.observation

    def changed(self: TwentyState, seat: int) -> dict:
        obs = original(self, seat)
        change(obs)
        return obs

    monkeypatch.setattr(TwentyState, "observation", changed)
    with pytest.raises(conformance.ConformanceError, match=message):
        conformance.run(TWENTY, hide_twenty, matches=1)


@pytest.mark.parametrize(("bounds", "message"), [
    (Bounds(2, 49, 5000), "moves, beyond the game's bound of 49"),  # every round plays 50 cards
    (Bounds(1, 50, 5000), "round 2, beyond the game's bound of 1"),
    (Bounds(2, 50, 5), "differ by the game's bound of 5 or more"),
])
def test_conformance_holds_the_game_to_its_bounds(monkeypatch: pytest.MonkeyPatch, bounds: Bounds,
                                                   message: str) -> None:
    monkeypatch.setattr(TWENTY, "bounds", lambda options: bounds)
    with pytest.raises(conformance.ConformanceError, match=message):
        conformance.run(TWENTY, hide_twenty, matches=20)


def test_conformance_checks_card_roles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TWENTY, "card_role", lambda card: CardRole("", "value"))
    with pytest.raises(conformance.ConformanceError, match="not a CardRole with a tag and a kind"):
        conformance.run(TWENTY, hide_twenty, matches=1)


def test_determinize_keeps_what_was_seen_and_varies_the_rest() -> None:
    rng = random.Random(8)
    state = TWENTY.new_match(seed=8)
    for _ in range(23):
        state.apply(rng.choice(state.legal_moves()))
    seat = state.current_player()
    assert seat is not None
    obs = state.observation(seat)
    samples = [TWENTY.determinize(obs, random.Random(i)) for i in range(20)]
    for sample in samples:
        assert isinstance(sample, TwentyState)
        assert sample.hands[seat] == state.hands[seat]
        assert sample.moves == state.moves and sample.scores == state.scores
    assert len({tuple(s.hands[1 - seat]) for s in samples}) > 1
    assert all(Card.parse(c) not in s.hands[1 - seat] for s in samples for c in obs["hand"])
