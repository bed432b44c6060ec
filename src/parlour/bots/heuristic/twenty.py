"""Twenty, as a sound club player plays it.

* Count the cards: every card played this round is public, so the values
  still unseen (the opponent's hand and the stock) are known in number.
* Take what is there: an Exact Twenty (10), a big Beyond Twenty, a Five
  Tally (15) and better.
* Never leave an easy score: after each candidate card, consider what the
  opponent could do with the tally — an exact 20, a large excess, a Six
  Tally — weighted by the chance that they hold a card of the right value
  (from the count), and subtract the best of it.
* Keep the ten cards: a ten answers a tally of 10 with an Exact Twenty, so
  do not spend one for nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.heuristic import Advice
from parlour.cards import Card
from parlour.game import Move, Observation, State
from parlour.games.twenty import GAME, HAND, MAX_TALLY, MOST_MOVES, PACK_VALUES, PLAY, VALUE, TwentyState, tally_points

ROLLOUT_DEPTH = 6
"""Search rollouts play this many moves: Twenty scores as it goes, so the
scores a few moves ahead judge a position with far less noise than a whole
round played out at random."""
TEN_KEEP = 1.5
"""What holding on to a ten card is worth, in points."""


def points(tally_value: int, tally_cards: int, value: int) -> tuple[int, int, int]:
    """Points for adding ``value`` to the tally, and the tally (value, cards) after."""
    total = tally_value + value
    if total == 20:
        return 10, 0, 0
    if total > 20:
        return total - 20, 0, 0
    return tally_points(tally_cards + 1), total, tally_cards + 1


def holds_chance(unseen: int, of_value: int, hand: int) -> float:
    """Chance that a hand of ``hand`` unseen cards holds at least one of ``of_value`` such cards."""
    if of_value <= 0 or hand <= 0:
        return 0.0
    if unseen - of_value < hand:
        return 1.0
    none = 1.0
    for i in range(hand):
        none *= (unseen - of_value - i) / (unseen - i)
    return 1.0 - none


_UNSEEN_MOST = MOST_MOVES - HAND
"""The most cards a player can have unseen: all but the revealed two and their own hand."""
_CHANCE = [[[holds_chance(unseen, of_value, hand) for of_value in range(max(PACK_VALUES) + 1)]
            for unseen in range(_UNSEEN_MOST + 1)] for hand in range(HAND + 1)]
"""``_CHANCE[hand][unseen][of_value]``: :func:`holds_chance`, computed once for every count a
round can have (the advice asks it for the values of the replies to every card it weighs)."""
_FACE_UP = [0.0] + [1.0] * HAND
"""By how many cards of a value a face-up hand holds: whether it holds one, as a chance."""


def chance_table(unseen: int, hand: int) -> Sequence[float]:
    """By how many of ``unseen`` cards have a value: the chance that a hand of ``hand`` of
    them holds one (:func:`holds_chance`)."""
    if hand <= HAND and unseen <= _UNSEEN_MOST:
        return _CHANCE[hand][unseen]
    return [holds_chance(unseen, of_value, hand) for of_value in range(unseen + 1)]


def _replies(tally_value: int, tally_cards: int) -> list[tuple[int, int]]:
    """The scoring replies to a tally, best first, as (points, card value)."""
    replies = sorted(((points(tally_value, tally_cards, v)[0], v) for v in range(1, 11)), reverse=True)
    return [(gain, value) for gain, value in replies if gain > 0]


_REPLIES = [[_replies(value, cards) for cards in range(MAX_TALLY + 2)] for value in range(20)]
"""``_REPLIES[tally value][cards on the tally]``: :func:`_replies`, for every tally below 20
(up to one card more than a tally can hold, for the tables below)."""
_OUTCOMES = [[[(gain, _REPLIES[after_value][after_cards])
               for gain, after_value, after_cards in (points(value, cards, card) for card in range(11))]
              for cards in range(MAX_TALLY + 1)] for value in range(20)]
"""``_OUTCOMES[tally value][cards on the tally][card value]``: what the card scores, and the
scoring replies to the tally it leaves (from :func:`points` and :func:`_replies`)."""


def best_card(hand: Sequence[Card], tally_value: int, tally_cards: int, counts: Sequence[int],
              opponent_hand: int, known: Sequence[int] | None) -> Card:
    """The card the advice plays from ``hand``: the most it scores less nine tenths of
    the threat it leaves, and a ten card kept unless it scores.

    The threat of a tally is the opponent's expected best reply to it, from the card
    count: ``counts[v]`` unseen cards have value v, ``opponent_hand`` of them in the
    opponent's hand (or ``known``, the values in that hand when it is face up).  Each
    scoring reply, best first, counts with the chance that the opponent holds its card
    and none of a better one's."""
    # By value, how many cards the opponent's hand may hold; by that many, the chance it holds one.
    if known is None:
        many, chance = counts, chance_table(sum(counts), opponent_hand)
    else:
        many, chance = [0] * 11, _FACE_UP
        for value in known:
            many[value] += 1
    outcomes = _OUTCOMES[tally_value][tally_cards]
    best = hand[0]
    best_score = -1e9
    for card in hand:
        value = VALUE[card]
        gain, replies = outcomes[value]
        threat = 0.0
        none_better = 1.0
        for reply, of_value in replies:
            p = chance[many[of_value]]
            threat += reply * p * none_better
            none_better *= 1.0 - p
        score = gain - 0.9 * threat
        if value == 10 and gain == 0:
            score -= TEN_KEEP
        if score > best_score:
            best, best_score = card, score
    return best


def _counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 11
    for c in cards:
        counts[VALUE[c]] += 1
    return counts


def choose(observation: Observation, legal: Sequence[Move], rng: random.Random) -> Move:
    """The advised move for the observing seat."""
    seat = observation["seat"]
    other = 1 - seat
    hand = [Card.parse(c) for c in observation["hand"]]
    seen = set(hand)
    for key in ("revealed", "tally", "set_aside"):
        seen.update(Card.parse(c) for c in observation[key])
    known_hand = observation["hands"][other]
    known = [VALUE[Card.parse(c)] for c in known_hand] if known_hand is not None else None
    if known_hand is not None:
        seen.update(Card.parse(c) for c in known_hand)
    options = observation["options"]
    unseen = [c for c in GAME.deck(options) if c not in seen]
    more = observation["hands_dealt"][other] < options["hands"]  # a new hand is due when it is empty
    size = observation["hand_sizes"][other] or (options["hand_size"] if more else 0)
    # Only the cards among ``legal``: a restricted bot (parlour.bots.Restricted) offers fewer than the hand.
    offered = {m.args[0] for m in legal}
    playable = [card for card in hand if card in offered]
    card = best_card(playable, observation["tally_value"], len(observation["tally"]), _counts(unseen), size, known)
    return next(m for m in legal if m.args[0] == card)


def rollout(state: State, rng: random.Random) -> Move:
    """The same advice on a sampled state, using only what the mover could count: the
    values not yet played (the state keeps them, :attr:`~parlour.games.twenty.TwentyState.unplayed`)
    less the mover's own hand are what the other hand and the stock hold."""
    assert isinstance(state, TwentyState)
    seat = state.to_move
    hand = state.hands[seat]
    opponent = state.hands[1 - seat]
    counts = state.unplayed[:]
    for card in hand:
        counts[VALUE[card]] -= 1
    known = [VALUE[c] for c in opponent] if state.options["open_hands"] else None
    size = len(opponent) or (state.hand_size if state.hands_dealt[1 - seat] < state.hands_a_round else 0)
    return PLAY[best_card(hand, state.tally_value, len(state.tally), counts, size, known)]


START = "score"
"""What :func:`starts` counts, in the game's own word."""


def starts(state: State, seat: int) -> int:
    """How many times ``seat`` has scored this round, the End of Round Bonus aside.  Twenty has
    nothing to start: the measure of a player who never engages is a round without a score."""
    assert isinstance(state, TwentyState)
    return sum(1 for e in state.events if e.seat == seat and e.points > 0 and e.kind != "End of Round Bonus")


ADVICE = Advice(choose=choose, rollout=rollout, rollout_depth=ROLLOUT_DEPTH, starts=starts, start=START)
"""This game's advice, as its registry entry names it."""
