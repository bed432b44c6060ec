"""Post-game review (parlour.review): known-losing moves of hand-made positions are flagged with the
better move, the hidden cards play no part, and random play reviews worse than the search's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from parlour import bots, games, record, review
from parlour.match import play_bots

ANALYST = "ismcts:iterations=300,rollout=heuristic"
"""A small search, so that the tests stay fast (the review's default is the hint level)."""
DECK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


def twenty_record(hands: list[list[str]], revealed: list[str], moves: list[str],
                  stock_order: random.Random | None = None) -> dict[str, Any]:
    """A one-round Twenty record of a hand-made deal (the rest of the deck is the stock)."""
    used = {c for hand in hands for c in hand} | set(revealed)
    stock = [c for c in DECK if c not in used]
    if stock_order is not None:
        stock_order.shuffle(stock)
    return {"format": record.FORMAT, "game": "twenty", "players": ["Ann", "Bo"], "first": 0,
            "rounds": [{"deal": {"revealed": revealed, "hands": hands, "stock": stock}, "moves": moves}]}


# Ann plays 2♣, Bo 3♥, Ann 5♣: the tally is 10 with three cards.  Bo's K♦ makes exactly 20 (10 points,
# the tally set aside); Bo's 2♦ leaves four cards at 12, and any card up to 7 gives Ann a Five Tally (15).
TWENTY_HANDS = [["2C", "5C", "9C", "7C", "8C"], ["3H", "KD", "2D", "4H", "6S"]]
TWENTY_MOVES = ["play 2C", "play 3H", "play 5C", "play 2D"]


def test_giving_a_five_tally_in_twenty_is_a_mistake_and_exact_twenty_preferred() -> None:
    match = record.from_data(twenty_record(TWENTY_HANDS, ["4S", "9S"], TWENTY_MOVES))
    result = review.review(match, 1, ANALYST)
    judged = {j.move: j for j in result.judgements}
    gift = judged[4]
    assert gift.played == "play 2D" and gift.mistake
    assert gift.preferred == "play KD"
    assert gift.loss > gift.margin
    assert review.mistake_text(gift).startswith("Round 1, move 4: you played “Play 2♦")
    assert "the computer preferred “Play K♦" in review.mistake_text(gift)


def test_the_better_move_played_is_no_mistake() -> None:
    match = record.from_data(twenty_record(TWENTY_HANDS, ["4S", "9S"], [*TWENTY_MOVES[:3], "play KD"]))
    judged = {j.move: j for j in review.review(match, 1, ANALYST).judgements}
    assert judged[4].preferred == "play KD" and judged[4].loss == 0 and not judged[4].mistake


# Ann has started spades with Q♠ 3♠ 6♠ (an investment: each number counts double).  Bo, whose melds are
# hearts, discards 10♠ — the very card Ann needs (20 points to her spades) — instead of a card nobody wants.
MINUS_HANDS = [["QS", "3S", "6S", "9C", "KC", "5D", "JD"], ["TS", "2H", "3H", "4H", "5H", "7H", "8H"]]
MINUS_MOVES = ["play QS", "draw", "play 2H", "draw", "play 3S", "draw", "play 3H", "draw", "play 6S", "draw",
               "discard TS", "draw"]


def test_discarding_the_card_the_opponent_needs_in_minus_twenty_is_a_mistake() -> None:
    deck = [rank + suit for suit in "DCHS" for rank in "23456789TJQK"]
    used = {c for hand in MINUS_HANDS for c in hand}
    data = {"format": record.FORMAT, "game": "minus-twenty", "options": {"rounds": 1}, "players": ["Ann", "Bo"],
            "first": 0, "rounds": [{"deal": {"hands": MINUS_HANDS, "stock": [c for c in deck if c not in used]},
                                    "moves": MINUS_MOVES}]}
    result = review.review(record.from_data(data), 1, "ismcts:iterations=600,rollout=heuristic")
    judged = {j.move: j for j in result.judgements}
    gift = judged[11]
    assert gift.played == "discard TS" and gift.mistake
    assert gift.preferred == "discard 3D"  # a diamond Bo drew, of no use to either
    assert [j.move for j in result.mistakes] == [11]  # the hearts Bo played were sound


def test_cards_the_seat_could_not_see_change_nothing() -> None:
    """Ann's unplayed cards and the stock's order differ; Bo's review is the same, move for move."""
    first = twenty_record(TWENTY_HANDS, ["4S", "9S"], TWENTY_MOVES)
    other_hands = [["2C", "5C", "AS", "QH", "JC"], TWENTY_HANDS[1]]
    second = twenty_record(other_hands, ["4S", "9S"], TWENTY_MOVES, stock_order=random.Random(7))
    assert first["rounds"][0]["deal"] != second["rounds"][0]["deal"]
    reviews = [review.review(record.from_data(data), 1, ANALYST) for data in (first, second)]
    assert reviews[0] == reviews[1]
    assert reviews[0].judgements  # something was judged


def test_forced_moves_are_not_judged() -> None:
    """Bo's last card of a hand is forced: the review counts it, but does not judge it."""
    match = record.from_data(twenty_record(TWENTY_HANDS, ["4S", "9S"], [
        "play 2C", "play 3H", "play 5C", "play KD", "play 9C", "play 2D", "play 7C", "play 4H", "play 8C",
        "play 6S"]))
    result = review.review(match, 1, ANALYST)
    assert [j.move for j in result.judgements] == [2, 4, 6, 8]
    assert result.forced == 1


def test_random_play_reviews_worse_than_the_search() -> None:
    match = record.loads(record.dumps(play_bots(games.get("twenty"), [bots.make("hard"), bots.make("random")],
                                                seed=5)))
    told: list[tuple[int, int]] = []
    searched = review.review(match, 0, ANALYST, progress=lambda done, total: told.append((done, total)))
    random_play = review.review(match, 1, ANALYST)
    assert random_play.mistakes
    assert random_play.accuracy < searched.accuracy
    assert random_play.mean_loss > searched.mean_loss
    assert told == [(n, len(searched.judgements)) for n in range(1, len(searched.judgements) + 1)]


def test_a_review_is_reproducible_and_round_trips_through_json() -> None:
    match = record.from_data(twenty_record(TWENTY_HANDS, ["4S", "9S"], TWENTY_MOVES))
    once, again = (review.review(match, 1, ANALYST) for _ in range(2))
    assert once == again
    data = json.loads(json.dumps(once.to_data()))
    assert review.Review.from_data(data) == once
    assert data["accuracy"] == round(once.accuracy, 1)


def test_a_seat_the_match_does_not_have_is_refused() -> None:
    match = record.from_data(twenty_record(TWENTY_HANDS, ["4S", "9S"], TWENTY_MOVES))
    with pytest.raises(ValueError, match="there is no seat 2; the seats are 0 \\(Ann\\), 1 \\(Bo\\)"):
        review.review(match, 2, ANALYST)
    with pytest.raises(ValueError, match="cannot judge moves"):
        review.review(match, 1, "random")
