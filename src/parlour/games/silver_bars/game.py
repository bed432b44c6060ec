"""100 Silver Bars' metadata, options, deals, bounds and determinization: the
game as the rest of parlour sees it (the rules are in
:mod:`~parlour.games.silver_bars.rules`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from parlour.cards import Card
from parlour.game import (
    Bounds,
    CardRole,
    Deal,
    Game,
    Move,
    Observation,
    Option,
    OptionError,
    RoundEnding,
    State,
    restore_base,
)
from parlour.games.silver_bars.cards import (
    BAR,
    BAR_VALUE,
    DEFAULT_COUNTS,
    HAND,
    KIND,
    LOCK_CARD,
    MINER,
    STRIKE,
    VAULTS,
    role_of,
    silver_bars_deck,
    vault_bars,
)
from parlour.games.silver_bars.rules import SilverBarsObservation, SilverBarsState


class SilverBars(Game):
    """100 Silver Bars' metadata, deck, deals and determinization."""

    id = "silver-bars"
    name = "100 Silver Bars"
    players = 2
    version = "1.0"
    summary = "fill five vaults with silver bars and lock them; thieves, rubble, strikes; first to 100"
    observation_type = SilverBarsObservation
    options = (
        Option("target_score", 100, "the match ends after a round that leaves a player at this score or more, "
               "with the totals different", int, minimum=1),
        Option("max_rounds", 50, "safety: the match ends after this many rounds even short of the target "
               "(0: no limit)", int, minimum=0, designer=True),
        Option("mining_packs", DEFAULT_COUNTS["mining_packs"],
               "packs the silver bars and miners come from (2: 40 bars and 32 miners)", int, minimum=1, maximum=4,
               designer=True),
        Option("suits", DEFAULT_COUNTS["suits"],
               "suits the silver bars and miners come from, ♣ ♦ ♥ ♠ in that order (4: every suit; suits "
               "do not matter in play, so fewer suits means fewer copies of each bar and miner)",
               int, minimum=1, maximum=4, designer=True),
        Option("bar_ranks", DEFAULT_COUNTS["bar_ranks"],
               "silver-bar ranks in the deck, the lowest of A 2 3 4 6 (3: A 2 3; 5: all)", int, minimum=1, maximum=5,
               designer=True),
        Option("miner_ranks", DEFAULT_COUNTS["miner_ranks"],
               "miner ranks in the deck, the lowest of 7 8 9 T (1: only 7s; 0: no miners, so every vault "
               "holds one bar)", int, minimum=0, maximum=4, designer=True),
        Option("rubble", DEFAULT_COUNTS["rubble"], "rubble cards (K♣ K♦ K♥, twins together) in the draw pile",
               int, minimum=0, maximum=6, designer=True),
        Option("shovels", DEFAULT_COUNTS["shovels"], "shovels (Q♣ Q♦ Q♥, twins together) in the draw pile",
               int, minimum=0, maximum=6, designer=True),
        Option("strikes", DEFAULT_COUNTS["strikes"], "worker's strikes (Q♠) in the draw pile",
               int, minimum=0, maximum=2, designer=True),
        Option("lo_thieves", DEFAULT_COUNTS["lo_thieves"],
               "lo thieves (J♣ J♦ J♥ J♠, twins together) in the draw pile", int, minimum=0, maximum=8,
               designer=True),
        Option("hi_thieves", DEFAULT_COUNTS["hi_thieves"], "hi thieves (jokers) in the draw pile",
               int, minimum=0, maximum=4, designer=True),
        Option("hand_size", HAND, "cards in each hand, at the deal and at the end of every turn",
               int, minimum=1, maximum=HAND, designer=True),
    )
    micro_options: ClassVar[Mapping[str, Any]] = MappingProxyType({
        "mining_packs": 1, "suits": 1, "bar_ranks": 3, "miner_ranks": 1, "hand_size": 1,
        "rubble": 0, "shovels": 0, "strikes": 0, "lo_thieves": 1, "hi_thieves": 0, "max_rounds": 1,
    })
    """The micro variant: one round with a five-card deck (A 2 3 of clubs, a miner 7♣ and a lo
    thief J♣), one card in each hand and three in the draw pile — when to lock a bar, and
    whether the thief takes it first (``docs/research.md``)."""
    event_kinds = ("Theft", "Worker's Strike", "Lock-out", "Draw Pile Empty", "Shipment", "Perfect Round")
    told_by_moves = ("Theft",)
    endings = (RoundEnding("Lock-out", "Lock-out"), RoundEnding("Draw pile empty", "Draw Pile Empty"))
    deal_zones = ("hands", "stock")

    @property
    def state_class(self) -> type[State]:
        return SilverBarsState

    def deck(self, options: Any = None) -> list[Card]:
        """The draw pile's cards: 40 bars, 32 miners and the special cards the
        options ask for (95 by default); the ten locks are not in it."""
        return silver_bars_deck(options)

    def card_universe(self) -> tuple[Card, ...]:
        """Every card of the deck with each deck option at its largest."""
        largest = {option.name: option.maximum for option in self.options if option.name in DEFAULT_COUNTS}
        return tuple(sorted(set(silver_bars_deck(largest))))

    def display_values(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The silver bars in each vault (those of locked vaults are shipped)."""
        return {"vaults": [[vault_bars(list(map(Card.parse, v["cards"]))) for v in seat] for seat in view["vaults"]]}

    def _check_option_combination(self, values: dict[str, Any]) -> None:
        """The deck must deal both hands and leave a draw pile: every play and discard draws."""
        size, hand = len(silver_bars_deck(values)), values["hand_size"]
        if size <= 2 * hand:
            raise OptionError(
                f"a deck of {size} card{'s' if size != 1 else ''} cannot deal two hands of {hand} and leave "
                "a draw pile: use a smaller hand_size or a larger deck (mining_packs, suits, bar_ranks, "
                "miner_ranks, the special cards)"
            )

    def bounds(self, options: Mapping[str, Any]) -> Bounds:
        """How long a round can last and how far one player can lead, from the deck.

        ``moves``: with a draw pile of S cards, at most S plays and discards (the S-th draw
        ends the round).  Each lock needs a play before it that put a bar into that vault,
        each resolved strike a play of the strike, and no play follows the last: so locks
        and resolves together are fewer than S, and at most 8 locks (a ninth would be
        someone's fifth), at most the deck's silver bars, and at most its strikes
        resolved.  A lock-out allows one lock more (4 + 5) but one play fewer (the S-th
        draw never comes).

        ``points``: the most a seat can lead by is the most it can ship, the other shipping
        nothing.  A vault's bars rise strictly, one miner between each two, so it ships
        each value at most once: K bars in V = min(5, K) vaults need K − V miners and
        2K − V plays of the seat's, all before its last lock.  Up to that lock, before which
        at most S − 1 cards were drawn, the opponent moved at least once for each of the
        seat's moves but one, and each of its moves is a play, a lock (after a play of its
        own) or a strike resolved (after a play of the seat's): so 3 (2K − V) + V − 1 ≤
        2 (S − 1).  The seat ships at most the K highest bars that these limits and the
        deck's copies of each value (at most five each) allow: 80, a Perfect Round, with
        the whole deck.  ``points`` is one more, as :class:`~parlour.game.Bounds` asks: more
        than a difference can be."""
        if options["max_rounds"] == 0:
            raise ValueError("a match need not end without a round limit: max_rounds must be at least 1")
        deck = silver_bars_deck(options)
        stock = len(deck) - 2 * options["hand_size"]
        bars = sorted((BAR_VALUE[c] for c in deck if KIND[c] == BAR), reverse=True)
        miners = sum(1 for c in deck if KIND[c] == MINER)
        strikes = sum(1 for c in deck if KIND[c] == STRIKE)
        drawn_out = stock + min(min(2 * (VAULTS - 1), len(bars)) + strikes, stock - 1)
        locked_out = stock - 1 + min(stock - 1, min(2 * VAULTS - 1, len(bars)) + strikes)
        moves = max(drawn_out, locked_out if len(bars) >= VAULTS else 0)
        shippable = [v for v, n in sorted(Counter(bars).items(), reverse=True) for _ in range(min(VAULTS, n))]
        most = 0
        for k in range(1, len(shippable) + 1):
            vaults = min(VAULTS, k)
            if k - vaults > miners or 3 * (2 * k - vaults) + vaults - 1 > 2 * (stock - 1):
                break
            most = sum(shippable[:k])
        return Bounds(options["max_rounds"], moves, most + 1)

    def capped(self, options: Mapping[str, Any], rounds: int, totals: Sequence[int]) -> bool:
        """Stopped by ``max_rounds`` with no player at the target, or with the totals level."""
        limit = options["max_rounds"]
        reached = max(totals) >= options["target_score"] and len(set(totals)) == len(totals)
        return bool(limit) and rounds >= limit and not reached

    def card_role(self, card: Card) -> CardRole | None:
        """Every card is of a kind: a silver bar (with its value), a miner, rubble, a shovel,
        the worker's strike, a lo or hi thief, or a lock."""
        return role_of(card)

    def hand_size(self, options: Mapping[str, Any]) -> int:
        """Option ``hand_size`` (7 by default)."""
        return int(options["hand_size"])

    def random_deal(self, rng: random.Random, state: State) -> Deal:
        """Shuffle the deck; 7 (``hand_size``) to each player, the rest is the draw pile."""
        deck = self.deck(state.options)
        rng.shuffle(deck)
        hand = state.options["hand_size"]
        return {"hands": [deck[:hand], deck[hand:2 * hand]], "stock": deck[2 * hand:]}

    def check_deal(self, deal: Deal, state: State) -> None:
        """Exactly the deck (twins counted): 7 (``hand_size``) in each hand, the rest in the draw pile."""
        hands, stock = deal["hands"], deal["stock"]
        if (
            not isinstance(hands, list) or len(hands) != 2
            or not all(isinstance(h, list) and all(isinstance(c, Card) for c in h) for h in hands)
        ):
            raise ValueError("deal: hands must be two lists of cards")
        if not isinstance(stock, list) or not all(isinstance(c, Card) for c in stock):
            raise ValueError("deal: stock must be a list of cards")
        every = Counter([*hands[0], *hands[1], *stock])
        locks = sorted({str(c) for c in every if KIND[c] == LOCK_CARD})
        if locks:
            raise ValueError(
                f"deal: {' '.join(locks)} {'is a lock' if len(locks) == 1 else 'are locks'} "
                "(the 5s and K♠ are kept apart from the deck, five to each player)"
            )
        deck = self.deck(state.options)
        want = Counter(deck)
        size = len(deck)
        extra = every - want
        if extra:
            described = " ".join(
                f"{c} ×{every[c]}" if want[c] else str(c) for c in sorted(extra, key=str)
            )
            raise ValueError(
                f"deal: not the {size}-card deck: too many {described} "
                f"(the deck holds {', '.join(f'{c} ×{want[c]}' for c in sorted(extra, key=str))})"
            )
        missing = want - every
        if missing:
            described = " ".join(f"{c} ×{n}" for c, n in sorted(missing.items(), key=lambda x: str(x[0])))
            raise ValueError(f"deal: not the {size}-card deck: missing {described}")
        hand = state.options["hand_size"]
        if any(len(h) != hand for h in hands):
            raise ValueError(f"deal: each hand must hold {hand} cards, not {[len(h) for h in hands]}")

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """Rebuild the round from what the seat saw; deal the unseen cards at random.

        Every card played or discarded is face up, and the moves say who
        played it; the seat's own hand is known.  The opponent's hand and the
        draw pile's order are drawn from the unseen cards.  A deal that
        replays the moves exactly: each player receives the cards they played,
        in order, then their current hand.
        """
        return self.sampler(observation)(rng)

    def sampler(self, observation: Observation) -> Callable[[random.Random], State]:
        """:meth:`determinize`, many times over: the round is replayed once, and each sample
        only deals the unseen cards again — the same draws from the RNG, so each sample is
        the very state :meth:`determinize` gives with that RNG.

        Nothing of the replay depends on which unseen card is where: the moves name the
        cards they play, and the opponent plays the cards it received in order, so each
        is the first of its kind in their hand.  A sample is a copy of the replay with
        the opponent's hand, the draw pile and the deal of the new cards."""
        options = dict(observation["options"])
        seat = observation["seat"]
        moves = [Move.parse(m) for m in observation["moves"]]
        played: list[list[Card]] = [[], []]
        drawers: list[int] = []
        replay = SilverBarsState(options, observation["first"], tuple(observation["names"]), None)
        restore_base(replay, observation)
        starter = replay.round_starter(replay.round_index)
        for number, move in enumerate(moves):
            mover = (starter + number) % 2
            if move.verb in ("play", "discard"):
                played[mover].append(move.card())
                drawers.append(mover)
        own = [Card.parse(c) for c in observation["hand"]]
        unseen = Counter(silver_bars_deck(options))
        unseen.subtract([*played[0], *played[1], *own])
        pool = sorted(unseen.elements())
        size = observation["hand_sizes"][1 - seat]
        dealt = options["hand_size"]

        def deal(cards: list[Card]) -> Deal:
            """The deal under which the moves replay, the unseen ``cards`` dealt in order."""
            hands: list[list[Card]] = [[], []]
            hands[seat] = own
            hands[1 - seat] = cards[:size]
            received = [played[s] + hands[s] for s in (0, 1)]
            stock: list[Card] = []
            taken = [dealt, dealt]
            for mover in drawers:
                stock.append(received[mover][taken[mover]])
                taken[mover] += 1
            stock.extend(cards[size:])
            return {"hands": [received[0][:dealt], received[1][:dealt]], "stock": stock}

        first = deal(pool)
        replay.deal = first
        replay._start_round(first)
        for move in moves:
            replay.apply(move)

        def sample(rng: random.Random) -> State:
            cards = pool[:]
            rng.shuffle(cards)
            state = replay.copy()
            state.deal = dealt = deal(cards)
            state.hands[1 - seat] = cards[:size]
            state.stock = list(dealt["stock"])
            return state

        return sample


GAME = SilverBars()
SilverBarsState.game = GAME
