"""100 Silver Bars: the deck, every rule of RULINGS.md, the move notation and
its errors, golden records with hand-worked scores, invalid records, the
observation, determinize, and the shared conformance check."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from parlour import conformance, games, narrate, record
from parlour.cards import Card, card, cards
from parlour.game import IllegalMoveError, Move, MoveSyntaxError, OptionError, State
from parlour.games.silver_bars import (
    BAR,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCK_CARD,
    MINER,
    RUBBLE,
    SHOVEL,
    STRIKE,
    SilverBarsState,
    play_targets,
    vault_bars,
)

GAME = games.get("silver-bars")
NAMES = ["Ann", "Bo"]


# -- helpers -----------------------------------------------------------------------

def scripted_deal(
    moves: list[str], starter: int = 0, options: dict[str, Any] | None = None,
    final_hands: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """A deal under which ``moves`` (players alternating from ``starter``) can be
    played: each player receives the cards they play, in order, then their
    final hand (given, or the next cards of the deck in its order)."""
    deck = GAME.deck(GAME.check_options(options or {}))
    played: list[list[Card]] = [[], []]
    drawers = []
    for number, text in enumerate(moves):
        move = Move.parse(text)
        mover = (starter + number) % 2
        if move.verb in ("play", "discard"):
            played[mover].append(move.args[0])  # type: ignore[arg-type]
            drawers.append(mover)
    rest = Counter(deck)
    rest.subtract(played[0] + played[1])
    for given in final_hands or ():
        rest.subtract(cards(given))
    assert min(rest.values()) >= 0, "the script uses more copies of a card than the deck has"
    pool: list[Card] = []
    seen: Counter[Card] = Counter()
    for c in deck:
        seen[c] += 1
        if seen[c] <= rest[c]:
            pool.append(c)
    hands = []
    for seat in (0, 1):
        if final_hands:
            hands.append(cards(final_hands[seat]))
        else:
            hands.append(pool[:7])
            pool = pool[7:]
    received = [played[s] + hands[s] for s in (0, 1)]
    stock = []
    taken = [7, 7]
    for mover in drawers:
        stock.append(received[mover][taken[mover]])
        taken[mover] += 1
    return {"hands": [received[0][:7], received[1][:7]], "stock": stock + pool}


def new(
    moves: Sequence[str] = (), *, first: int = 0, final_hands: tuple[str, str] | None = None, **options: Any,
) -> SilverBarsState:
    """Ann (seat 0) and Bo, the deal scripted for ``moves``, which are then played."""
    deal = scripted_deal(list(moves), first, options, final_hands)
    state = GAME.new_match(deal=deal, first=first, options=options, names=NAMES)
    assert isinstance(state, SilverBarsState)
    play(state, *moves)
    return state


def play(state: State, *moves: str) -> None:
    for text in moves:
        state.apply(state.parse_move(text))


def texts(moves: list[Move]) -> list[str]:
    return sorted(str(m) for m in moves)


def plays_of(state: State, card_text: str) -> list[str]:
    return texts([m for m in state.legal_moves() if m.verb == "play" and str(m.args[0]) == card_text])


def vault(state: SilverBarsState, seat: int, number: int) -> list[str]:
    return [str(c) for c in state.vaults[seat][number - 1]]


def play_random(state: State, rng: random.Random, moves: int | None = None) -> None:
    count = 0
    while state.current_player() is not None and (moves is None or count < moves):
        state.apply(rng.choice(state.legal_moves()))
        count += 1


# -- the deck ----------------------------------------------------------------------------

def test_the_deck_is_95_cards_with_the_locks_set_aside() -> None:
    deck = GAME.deck({})
    assert len(deck) == 95
    kinds = Counter(KIND[c] for c in deck)
    assert kinds == {BAR: 40, MINER: 32, RUBBLE: 6, SHOVEL: 6, STRIKE: 2, LO_THIEF: 6, HI_THIEF: 3}
    counts = Counter(deck)
    assert counts[card("4H")] == 2 and counts[card("QS")] == 2 and counts[card("JK")] == 3
    assert counts[card("JS")] == 0  # the two J♠ are left out
    assert not [c for c in deck if c.rank == 5 or str(c) == "KS"]  # the locks are set aside
    assert {KIND[c] for c in cards("5C 5D 5H 5S KS")} == {LOCK_CARD}


def test_deck_composition_options() -> None:
    assert len(GAME.deck(GAME.check_options({"rubble": 0, "shovels": 0}))) == 83
    lots = Counter(GAME.deck(GAME.check_options({"lo_thieves": 8, "hi_thieves": 4})))
    assert lots[card("JS")] == 2 and lots[card("JK")] == 4
    three = Counter(GAME.deck(GAME.check_options({"rubble": 3})))
    assert three[card("KC")] == 2 and three[card("KD")] == 1 and three[card("KH")] == 0
    packs = GAME.deck(GAME.check_options({"mining_packs": 3}))
    assert len(packs) == 95 + 20 + 16 and Counter(packs)[card("AC")] == 3
    for name, bad in (("rubble", 7), ("strikes", 3), ("lo_thieves", -1), ("target_score", 0), ("mining_packs", 5)):
        with pytest.raises(OptionError):
            GAME.check_options({name: bad})


def test_seed_gives_the_same_deal_everywhere() -> None:
    """Pinned: a seed must give this deal on every machine and Python version."""
    state = GAME.new_match(seed=2026)
    deal = record.to_data(state)["rounds"][0]["deal"]
    assert state.first == 0
    assert deal["hands"] == [["4C", "AS", "KD", "7D", "AD", "3C", "8S"], ["8C", "2C", "2D", "JD", "KH", "3H", "7S"]]
    assert len(deal["stock"]) == 81 and deal["stock"][:3] == ["3S", "9H", "JD"]


# -- the deal ----------------------------------------------------------------------------

def check(deal: dict[str, Any]) -> str:
    state = new()
    with pytest.raises(ValueError) as info:
        GAME.check_deal(deal, state)
    return str(info.value)


def test_check_deal_names_the_offending_cards() -> None:
    good = scripted_deal([])
    GAME.check_deal(good, new())
    bad = {"hands": good["hands"], "stock": [*good["stock"][:-1], card("5H")]}
    assert "5H is a lock" in check(bad)
    bad = {"hands": good["hands"], "stock": [*good["stock"][:-1], card("KS")]}
    assert "KS is a lock" in check(bad)
    stock = list(good["stock"])
    stock[stock.index(card("4C"))] = card("QS")  # a third Q♠, one 4♣ missing
    assert "too many QS ×3 (the deck holds QS ×2)" in check({"hands": good["hands"], "stock": stock})
    assert f"missing {good['stock'][0]} ×1" in check({"hands": good["hands"], "stock": good["stock"][1:]})
    stock = [*good["stock"], card("JS")]
    assert "too many JS" in check({"hands": good["hands"], "stock": stock})
    short = {"hands": [good["hands"][0][:6], good["hands"][1]], "stock": [good["hands"][0][6], *good["stock"]]}
    assert "each hand must hold 7 cards" in check(short)


def test_random_deals_are_valid_and_seven_each() -> None:
    state = GAME.new_match(seed=1)
    assert isinstance(state, SilverBarsState)
    assert [len(h) for h in state.hands] == [7, 7] and len(state.stock) == 81
    GAME.check_deal(state.deal, state)  # type: ignore[arg-type]


def test_the_non_dealer_starts_and_the_deal_alternates() -> None:
    state = GAME.new_match(seed=5, first=1)
    rng = random.Random(3)
    starters = []
    while True:
        starters.append(state.current_player())
        assert state.observation(0)["dealer"] == 1 - starters[-1]
        play_random(state, rng)
        if state.is_match_over():
            break
        state.next_round()
    assert len(starters) >= 2 and starters == [1 - r % 2 for r in range(len(starters))]


# -- playing cards -----------------------------------------------------------------------

def test_silver_bars_go_into_empty_vaults_or_onto_higher_miners() -> None:
    state = new(["play 3C 1", "play 2D 1", "play 7C 1"], final_hands=("AH 4H 6H 8S 9S TS 3H", "AD 3D 4D 6D 8D 9D TD"))
    play(state, "discard TD")
    # Ann: vault 1 = 3 M; vaults 2–5 empty.
    assert plays_of(state, "4H") == ["play 4H 1", "play 4H 2", "play 4H 3", "play 4H 4", "play 4H 5"]
    assert plays_of(state, "AH") == ["play AH 2", "play AH 3", "play AH 4", "play AH 5"]
    assert plays_of(state, "3H") == ["play 3H 2", "play 3H 3", "play 3H 4", "play 3H 5"]  # not equal: higher
    higher = "The top card of Ann's vault 1 is a miner over a 3: a bar there must be higher than 3"
    with pytest.raises(IllegalMoveError, match=higher):
        state.parse_move("play AH 1")
    play(state, "play 6H 1", "discard 9D")  # gaps are allowed: 3 M 6
    assert vault(state, 0, 1) == ["3C", "7C", "6H"]
    with pytest.raises(IllegalMoveError, match=r"The top card of \w+'s vault 1 is a silver bar \(6\): a silver bar"):
        state.parse_move("play 4H 1")


def test_miners_go_only_onto_a_silver_bar() -> None:
    state = new(["play 2C 1", "play 2D 1"], final_hands=("7H 8H 9H TH 7S 8S 9S", "AD 3D 4D 6D 8D 9D TD"))
    assert plays_of(state, "7H") == ["play 7H 1"]
    with pytest.raises(IllegalMoveError, match="vault 2 is empty: a miner goes on a silver bar"):
        state.parse_move("play 7H 2")
    play(state, "play 7H 1", "discard TD")
    with pytest.raises(IllegalMoveError, match=r"The top card of \w+'s vault 1 is already a miner"):
        state.parse_move("play 8H 1")


def test_rubble_blocks_an_empty_vault_until_shovelled() -> None:
    state = new(["play 2C 1", "play 4D 2"], final_hands=("KH KD QC 3C 9C 9H 9S", "QD 2D 3D 6D 8D 9D TD"))
    # Rubble goes only on the opponent's empty vaults: Bo's 1, 3, 4, 5.
    assert plays_of(state, "KH") == ["play KH 1", "play KH 3", "play KH 4", "play KH 5"]
    with pytest.raises(IllegalMoveError, match=r"^\w+'s vault 2 is not empty"):
        state.parse_move("play KH 2")
    play(state, "play KH 3")
    assert state.rubble[1][2] == card("KH")
    # Bo's vault 3 now takes nothing: no bar, no miner, no lock; the shovel clears it.
    assert "play 2D 3" not in plays_of(state, "2D") and plays_of(state, "QD") == ["play QD 3"]
    with pytest.raises(IllegalMoveError, match=r"vault 3 is under rubble \(shovel it off first\)"):
        state.parse_move("play 2D 3")
    with pytest.raises(IllegalMoveError, match="vault 3 is under rubble: a lock goes only on a silver bar"):
        state.parse_move("lock 3")
    play(state, "discard TD")
    with pytest.raises(IllegalMoveError, match=r"^\w+'s vault 3 is already under rubble"):
        state.parse_move("play KD 3")
    with pytest.raises(IllegalMoveError, match="vault 2 has no rubble to shovel off"):
        state.parse_move("play QC 2")
    play(state, "discard 9H", "play QD 3")
    assert state.rubble[1][2] is None and [str(c) for c in state.discard_pile[-2:]] == ["KH", "QD"]
    play(state, "discard 9C")
    assert "play 2D 3" in plays_of(state, "2D")  # Bo's vault 3 takes bars again


def test_lo_thief_takes_the_lowest_top_bar_and_chooses_between_ties() -> None:
    state = new(
        ["play 6C 1", "play 2D 1", "play 7C 1", "play 3D 2", "discard 9H", "play 2S 4", "discard 8C", "play 8D 2"],
        final_hands=("JC JK AC AH 9C 9S TS", "4D 6D 7D 8D 9D TD TC"),
    )
    # Bo: vault 1 = 2, vault 2 = 3 M (out of reach), vault 4 = 2.  Ann: 6 M, then four empty vaults.
    # The lowest bar on top is a 2, in vaults 1 and 4; it fits Ann's empty vaults 2–5.
    assert plays_of(state, "JC") == [f"play JC {src} {dst}" for src in (1, 4) for dst in (2, 3, 4, 5)]
    with pytest.raises(IllegalMoveError, match=r"^\w+'s vault 2 has no silver bar on top"):
        state.parse_move("play JC 2 2")
    with pytest.raises(IllegalMoveError, match=r"the top card of \w+'s vault 1 is a miner over a 6"):
        state.parse_move("play JC 1 1")
    play(state, "play JC 4 3")
    assert vault(state, 1, 4) == [] and vault(state, 0, 3) == ["2S"]
    assert str(state.discard_pile[-1]) == "JC"
    assert state.events[-1].describe(NAMES) == "Ann's lo thief takes the 2♠ from Bo's vault 4 into their vault 3"
    assert state.events[-1].describe(NAMES, 0) == "Your lo thief takes the 2♠ from Bo's vault 4 into your vault 3"
    assert state.events[-1].describe(NAMES, 1) == "Ann's lo thief takes the 2♠ from your vault 4 into their vault 3"


def test_illegal_move_while_setting_up_is_rejected_with_a_reason() -> None:
    with pytest.raises(IllegalMoveError, match="vault 5 is empty: a miner goes on a silver bar"):
        new(["play 6C 1", "play 2D 1", "play 8C 5"])


def test_hi_thief_takes_the_highest_and_a_value_that_fits_nowhere_cannot_be_stolen() -> None:
    moves = [
        "play 3C 1", "play 2D 1", "play 7C 1", "play 6D 2", "play AC 2", "discard 9D",
        "play AH 3", "discard 9H", "play AS 4", "discard TD", "play AD 5", "discard TH",
    ]
    state = new(moves, final_hands=("JC JK 2C 2H 9C 9S TS", "4D 3D 7D 8D JH TC QD"))
    # Ann: 3 M | A | A | A | A — no empty vault; only vault 1 takes a bar, higher than 3.
    # Bo's lowest top bar is a 2: it fits nowhere, so the lo thief cannot be played,
    # though Bo's 6 would have fitted.
    assert plays_of(state, "JC") == []
    with pytest.raises(IllegalMoveError, match=r"The stolen 2 would fit none of \w+'s vaults, so the lo thief"):
        state.parse_move("play JC 1 1")
    assert "discard JC" in texts(state.legal_moves())
    assert plays_of(state, "JK") == ["play JK 2 1"]
    with pytest.raises(IllegalMoveError, match=r"The hi thief takes the highest silver bar .* a 6 .*not the 2"):
        state.parse_move("play JK 1 1")
    play(state, "play JK 2 1")
    assert vault(state, 0, 1) == ["3C", "7C", "6D"] and vault(state, 1, 2) == []


def test_thieves_cannot_reach_locked_vaults_or_bars_under_miners() -> None:
    state = new(["play 2C 1", "play AD 1", "play 3C 2", "lock 1", "play 4C 3", "play 6D 2", "play 9C 3",
                 "play 7D 2"], final_hands=("JC JK AH 9S TS 8S 8H", "4D 3D 2D 8D JH TC QD"))
    # Bo: vault 1 = A locked, vault 2 = 6 M: nothing within reach.
    assert plays_of(state, "JC") == [] and plays_of(state, "JK") == []
    with pytest.raises(IllegalMoveError, match=r"None of \w+'s unlocked vaults has a silver bar on top"):
        state.parse_move("play JC 1 4")


def test_a_strike_removes_top_miners_and_costs_the_next_turn() -> None:
    moves = ["play 2C 1", "play 3D 1", "play 7C 1", "play 8D 1", "play 4C 2", "play 2D 2", "play 9C 2",
             "play 4D 3", "play 6C 3", "lock 3"]
    state = new(moves, final_hands=("AC 3C 6S 8C 8S 9S TS", "QS 6D AD 9D TD TH 9H"))
    assert state.current_player() == 0
    play(state, "lock 3")  # Ann's vault 3 (6) is locked
    before = (list(state.hands[0]), state.stock_pos)
    play(state, "play QS")
    assert vault(state, 0, 1) == ["2C"] and vault(state, 0, 2) == ["4C"] and vault(state, 0, 3) == ["6C"]
    assert [str(c) for c in state.discard_pile[-2:]] == ["7C", "9C"]
    assert state.strike == card("QS") and state.strike_against == 0
    assert state.legal_moves() == [Move("resolve")]
    assert "Bo calls a worker's strike: 2 miners (7♣ and 9♣) go from Ann's vaults to the discard pile" in state.log()
    for text in ("play 8C 1", "discard 8C", "lock 1"):
        with pytest.raises(IllegalMoveError, match="A worker's strike is pending against Ann"):
            state.parse_move(text)
    stock_after_strike = state.stock_pos
    play(state, "resolve")
    # Resolving: the strike goes to the discard pile; no play, no draw.
    assert state.strike is None and str(state.discard_pile[-1]) == "QS"
    assert state.stock_pos == stock_after_strike == before[1] + 1
    assert state.hands[0] == before[0] and len(state.hands[0]) == 7
    assert state.current_player() == 1
    with pytest.raises(IllegalMoveError, match="There is no worker's strike to resolve"):
        state.parse_move("resolve")


def test_a_strike_with_no_miners_still_costs_a_turn() -> None:
    state = new(["play 2C 1"], final_hands=("AC 3C 6S 8C 8S 9S TS", "QS 6D AD 9D TD TH 9H"))
    play(state, "play QS")
    assert state.legal_moves() == [Move("resolve")]
    assert state.events[-1].describe(NAMES) == (
        "Bo calls a worker's strike: no miner goes from Ann's vaults to the discard pile")


def test_locks_need_a_bar_on_top_and_do_not_draw() -> None:
    state = new(["play 2C 1", "play 2D 1", "play 7C 1", "discard 9D"],
                final_hands=("AC 3C 6S 8C 8S 9S TS", "QS 6D AD 4D TD TH 9H"))
    with pytest.raises(IllegalMoveError, match=r"The top card of \w+'s vault 1 is a miner: a lock goes only"):
        state.parse_move("lock 1")
    with pytest.raises(IllegalMoveError, match="vault 2 is empty: a lock goes only on a silver bar"):
        state.parse_move("lock 2")
    play(state, "play 3C 1")
    hand, pos = list(state.hands[1]), state.stock_pos
    play(state, "lock 1")
    assert state.hands[1] == hand and state.stock_pos == pos and state.scores == [0, 2]
    play(state, "discard 8C")
    with pytest.raises(IllegalMoveError, match="vault 1 is already locked"):
        state.parse_move("lock 1")
    with pytest.raises(IllegalMoveError, match="vault 1 is locked"):
        state.parse_move("play 4D 1")
    assert state.observation(0)["locks_left"] == [5, 4]


def test_hands_hold_seven_after_every_turn() -> None:
    rng = random.Random(11)
    for seed in range(15):
        state = GAME.new_match(seed=seed)
        assert isinstance(state, SilverBarsState)
        while state.current_player() is not None:
            seat = state.current_player()
            state.apply(rng.choice(state.legal_moves()))
            assert seat is not None and len(state.hands[seat]) == 7


def test_every_card_names_its_own_moves_once() -> None:
    state = GAME.new_match(seed=4)
    rng = random.Random(4)
    for _ in range(200):
        if state.current_player() is None:
            break
        legal = state.legal_moves()
        assert len(set(legal)) == len(legal)
        seat = state.current_player()
        assert isinstance(state, SilverBarsState) and seat is not None
        if state.strike_against != seat:
            discards = {m.args[0] for m in legal if m.verb == "discard"}
            assert discards == set(state.hands[seat])  # any card may always be discarded
        state.apply(rng.choice(legal))


# -- the end of a round ---------------------------------------------------------------

def test_vault_scores_count_every_bar() -> None:
    assert vault_bars(cards("AC 7C 3C 8C 4C 9C 6C")) == 1 + 3 + 4 + 6 == 14
    assert vault_bars(cards("AC 7C 2C 8C 3C 9C 4C TC 6C")) == 16
    assert vault_bars([]) == 0


def test_fifth_lock_ends_the_round_at_once() -> None:
    moves = ["play 6C 1", "discard 9D", "play 4C 2", "discard 9H", "play 3C 3", "discard TD", "play 2C 4",
             "discard TH", "play AC 5", "discard 9S", "lock 1", "discard TS", "lock 2", "discard 8S",
             "lock 3", "discard 8H", "lock 4", "discard 8D"]
    state = new(moves)
    assert not state.is_round_over()
    play(state, "lock 5")
    assert state.is_round_over() and state.current_player() is None and state.legal_moves() == []
    assert state.scores == [6 + 4 + 3 + 2 + 1, 0]
    assert state.log()[-3:] == ["Ann has locked all five vaults: the round ends",
                               "Ann ships 16 silver bars from 5 locked vaults",
                               "Bo ships 0 silver bars from 0 locked vaults"]
    with pytest.raises(IllegalMoveError, match="The round is over"):
        state.parse_move("discard 9C")
    state.undo()
    assert not state.is_round_over() and len(state.events) == 0


def test_last_draw_ends_the_round_even_mid_turn_sequence() -> None:
    state = GAME.new_match(seed=3)
    assert isinstance(state, SilverBarsState)
    while state.current_player() is not None:
        seat = state.current_player()
        assert seat is not None
        discards = [m for m in state.legal_moves() if m.verb in ("discard", "resolve")]
        state.apply(discards[0])
    assert state.stock_pos == len(state.stock) == 81
    assert len([m for m in state.moves if m.verb == "discard"]) == 81
    assert state.log()[0] == "The last card of the draw pile is drawn: the round ends"


# -- the match ---------------------------------------------------------------------------

def test_match_runs_to_the_target_with_different_totals() -> None:
    rng = random.Random(2)
    for seed in range(12):
        state = GAME.new_match(seed=seed, options={"target_score": 30})
        while not state.is_match_over():
            if not state.advance():
                state.apply(rng.choice(state.legal_moves()))
            if state.is_round_over() and not state.is_match_over():
                totals = state.totals
                assert max(totals) < 30 or totals[0] == totals[1]
        totals = state.totals
        assert max(totals) >= 30 and totals[0] != totals[1]
        assert state.winners() == [totals.index(max(totals))]


def test_max_rounds_ends_a_match_nobody_plays_for() -> None:
    state = GAME.new_match(seed=1, options={"max_rounds": 3})
    while True:
        while state.current_player() is not None:
            state.apply(next(m for m in state.legal_moves() if m.verb in ("discard", "resolve")))
        if state.is_match_over():
            break
        state.next_round()
    assert state.round_index == 2 and state.totals == [0, 0] and state.winners() == [0, 1]
    endless = GAME.new_match(seed=1, options={"max_rounds": 0})
    for _ in range(3):
        while endless.current_player() is not None:
            endless.apply(next(m for m in endless.legal_moves() if m.verb in ("discard", "resolve")))
        assert not endless.is_match_over()
        endless.next_round()


# -- notation ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    ("play 8C", "A miner goes on one of your vaults: play 8♣ <vault>"),
    ("play 4h", "A silver bar goes into one of your vaults: play 4♥ <vault>"),
    ("play KH", "Rubble goes on one of your opponent's empty vaults: play K♥ <their vault>"),
    ("play QD 1 2", "A shovel clears the rubble off one of your vaults: play Q♦ <vault>"),
    ("play JC 2", "A lo thief takes from their vault into yours: play J♣ <their vault> <your vault>"),
    ("play JK", "A hi thief takes from their vault into yours: play Joker <their vault> <your vault>"),
    ("play QS 2", "The worker's strike takes no vault: play Q♠"),
    ("play 4H 6", "Vaults are numbered 1 to 5 from your left, not 6"),
    ("lock 0", "Vaults are numbered 1 to 5 from your left, not 0"),
    ("play 5H 2", "5♥ is a lock: locks are kept apart from the hand"),
    ("discard KS", "K♠ is a lock"),
    ("lock 4H", "Expected lock <vault>, not 'lock 4♥'"),
    ("resolve 2", "Expected resolve, not 'resolve 2'"),
    ("draw", "Unknown move 'draw'; 100 Silver Bars moves are: play <card>, play <card> <vault>"),
])
def test_syntax_errors_know_the_card(text: str, message: str) -> None:
    state = GAME.new_match(seed=1)
    with pytest.raises(MoveSyntaxError) as info:
        state.parse_move(text)
    assert message in str(info.value)


def test_moves_round_trip() -> None:
    for text in ("play 4H 2", "play KH 3", "play QD 3", "play JC 2 4", "play JK 1 5", "play QS", "discard 9C",
                 "lock 2", "resolve"):
        assert str(Move.parse(text)) == text


def test_card_not_in_hand() -> None:
    state = new([], final_hands=("AC 3C 6S 8C 8S 9S TS", "QS 6D AD 4D TD TH 9H"))
    with pytest.raises(IllegalMoveError, match=r"^4♥ is not in Ann's hand$") as info:
        state.parse_move("play 4H 1")
    assert narrate.illegal_text(info.value, 0) == "4♥ is not in your hand (you hold A♣, 3♣, 8♣, 6♠, 8♠, 9♠ and 10♠)"
    with pytest.raises(IllegalMoveError, match="4♥ is not in Ann's hand"):
        state.parse_move("discard 4H")
    # Moves built in code rather than parsed are checked as strictly.
    for odd in (Move("lock", ("H",)), Move("play", (2, 1)), Move("discard", ()), Move("play", (card("AC"), 9))):
        with pytest.raises(IllegalMoveError):
            state.apply(odd)
    assert state.moves == [] and state.current_player() == 0


# -- golden records ------------------------------------------------------------------

EXPECTED = {
    # Ann locks 2 + 3 + 4 + 6 + 1 = 16; Bo locked only vault 3, the 4C: 4.
    "rubble-shovel": [[16, 4]],
    # Ann: 2 (stolen 2S) + A + 4 + 3 = 10; her 6 M in vault 2 is unlocked: 0.
    # Bo: 2 + 3 + 6 + A + 4 = 16, locking out.
    "lo-thief-tie": [[10, 16]],
    # Ann: vault 1 = 2 M 6 (the stolen 6D) = 8, + A + 3 + 4 = 16; the 6C in vault 5 is unlocked.
    # Bo: 3 + 4 + 6 + A + 2 = 16.
    "hi-thief": [[16, 16]],
    # Ann (miners struck): 2 + 4 + 3 + 6 + A = 16.  Bo: vault 1 = 3 M 6 = 9, + 2 + 3 + 4 = 18.
    "strike": [[16, 18]],
    # Ann: vault 1 = A M 3 M 4 M 6 = 14, vault 2 (a 2) unlocked.  Bo: 2 + 3 + 4 + 6 + A = 16.
    "example-vault": [[14, 16]],
    # Ann: 6 + 4 + 3 + 2 + A = 16.  Bo's 4 M 6 is not locked: 0.
    "lockout": [[16, 0]],
    # Ann: 6 + 4 = 10; Bo: 6.  The draw pile runs out on Bo's strike.
    "draw-pile": [[10, 6]],
    # Five vaults of A M 2 M 3 M 4 M 6 = 5 × 16 = 80.
    "perfect-round": [[80, 0]],
    # Round 1: Ann 16 + 16 + 16 + 6 + 6 = 60, Bo 16 + 16 + 6 + 2 = 40.
    # Round 2: the other way round: 40, 60.  100–100: equal, so round 3:
    # Ann 6 + 4 + 3 + 2 + A = 16, Bo 0.  Ann wins 116–100.
    "tie-at-100": [[60, 40], [40, 60], [16, 0]],
}


def load(name: str, data_dir: Path) -> State:
    return record.replay(record.load(data_dir / f"silver-bars-{name}.json"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_records_replay_to_the_hand_worked_scores(name: str, data_dir: Path) -> None:
    state = load(name, data_dir)
    assert state.round_scores() == EXPECTED[name]
    assert state.totals == [sum(s[seat] for s in EXPECTED[name]) for seat in (0, 1)]
    assert state.is_round_over()
    shipped = [e.points for e in state.events if e.kind in ("Shipment", "Perfect Round")]
    assert shipped == EXPECTED[name][-1]


def test_golden_rubble_and_shovel(data_dir: Path) -> None:
    rec = record.load(data_dir / "silver-bars-rubble-shovel.json")
    state = GAME.new_match(deal=rec.rounds[0].deal, first=rec.first, names=rec.players)
    assert isinstance(state, SilverBarsState)
    play(state, *rec.rounds[0].moves[:1])
    assert state.rubble[1][2] == card("KH") and state.legal_moves().count(Move.parse("play QD 3")) == 1
    play(state, *rec.rounds[0].moves[1:2])
    assert state.rubble[1][2] is None and [str(c) for c in state.discard_pile] == ["KH", "QD"]
    play(state, *rec.rounds[0].moves[2:])
    assert state.log()[-3] == "Ann has locked all five vaults: the round ends"


def test_golden_lo_thief_chose_one_of_two_tied_vaults(data_dir: Path) -> None:
    rec = record.load(data_dir / "silver-bars-lo-thief-tie.json")
    state = GAME.new_match(deal=rec.rounds[0].deal, first=rec.first, names=rec.players)
    assert isinstance(state, SilverBarsState)
    play(state, *rec.rounds[0].moves[:6])
    assert plays_of(state, "JC") == [f"play JC {src} {dst}" for src in (1, 4) for dst in (1, 3, 4, 5)]
    play(state, rec.rounds[0].moves[6])
    assert vault(state, 1, 1) == ["2D"] and vault(state, 1, 4) == [] and vault(state, 0, 1) == ["2S"]


def test_golden_strike_is_resolved_and_the_draw_pile_can_end_on_one(data_dir: Path) -> None:
    state = load("strike", data_dir)
    assert "Bo calls a worker's strike: 2 miners (7♣ and 9♣) go from Ann's vaults to the discard pile" in [
        e.describe(state.names) for e in state.events]
    assert isinstance(state, SilverBarsState) and state.strike is None
    ended = load("draw-pile", data_dir)
    assert isinstance(ended, SilverBarsState)
    assert ended.strike == card("QS") and ended.strike_against == 0  # unresolved
    assert ended.stock_pos == len(ended.stock) and ended.log()[-3].startswith("The last card of the draw pile")
    assert vault(ended, 0, 3) == ["2C"]


def test_golden_perfect_round_is_an_event(data_dir: Path) -> None:
    state = load("perfect-round", data_dir)
    perfect = [e for e in state.events if e.kind == "Perfect Round"]
    assert len(perfect) == 1 and perfect[0].seat == 0 and perfect[0].points == 80
    assert perfect[0].describe(state.names) == "Ann ships 80 silver bars: a Perfect Round!"
    assert state.options["mining_packs"] == 3


def test_golden_tie_at_100_needs_another_round(data_dir: Path) -> None:
    rec = record.load(data_dir / "silver-bars-tie-at-100.json")
    state = GAME.new_match(deal=rec.rounds[0].deal, first=rec.first, names=rec.players)
    play(state, *rec.rounds[0].moves)
    state.next_round(rec.rounds[1].deal)
    assert state.current_player() == 1  # Bo starts round 2
    play(state, *rec.rounds[1].moves)
    assert state.totals == [100, 100] and not state.is_match_over()
    state.next_round(rec.rounds[2].deal)
    play(state, *rec.rounds[2].moves)
    assert state.is_match_over() and state.totals == [116, 100] and state.winners() == [0]


@pytest.mark.parametrize(("name", "where", "reason"), [
    ("thief-not-lowest", (1, 7), "The lo thief takes the lowest silver bar on top of Bo's unlocked vaults, "
                                 "a 2 (vault 1 or 4), not the 3 in vault 2"),
    ("bar-not-higher", (1, 9), "The top card of Ann's vault 1 is a miner over a 3: a bar there must be higher than 3"),
    ("play-during-strike", (1, 9), "A worker's strike is pending against Ann"),
    ("deal-with-a-five", (2, 0), "deal: 5H is a lock"),
])
def test_invalid_records_fail_at_the_exact_round_and_move(
    name: str, where: tuple[int, int], reason: str, data_dir: Path,
) -> None:
    with pytest.raises(record.RecordError) as info:
        record.replay(record.load(data_dir / f"silver-bars-invalid-{name}.json"))
    assert (info.value.round, info.value.move) == where
    assert reason in info.value.reason


# -- observation and determinize ----------------------------------------------------------

def test_observation_shows_the_table_and_hides_the_rest() -> None:
    state = new(["play 2C 1", "play KD 2", "play 7C 1", "play 4D 1", "discard 9S"],
                final_hands=("AC 3C 6S 8C 8S 9S TS", "QS 6D AD 4H TD TH 9H"))
    play(state, "lock 1")
    obs = state.observation(1)
    assert obs["hand"] == [str(c) for c in state.hands[1]] and "hands" not in obs
    assert obs["hand_sizes"] == [7, 7] and obs["stock_count"] == 81 - 5
    assert obs["vaults"][0][0] == {"cards": ["2C", "7C"], "rubble": None, "locked": False}
    assert obs["vaults"][0][1] == {"cards": [], "rubble": "KD", "locked": False}
    assert obs["vaults"][1][0] == {"cards": ["4D"], "rubble": None, "locked": True}
    assert obs["locks_left"] == [5, 4] and obs["discard_pile"] == ["9S"] and obs["strike"] is None
    assert obs["scores"] == [0, 4] and obs["to_move"] == 0 and obs["dealer"] == 1
    assert json.loads(json.dumps(obs)) == obs


def test_determinize_keeps_everything_public_and_varies_the_rest() -> None:
    rng = random.Random(8)
    state = GAME.new_match(seed=8)
    play_random(state, rng, 37)
    seat = state.current_player()
    assert seat is not None and isinstance(state, SilverBarsState)
    obs = state.observation(seat)
    samples = [GAME.determinize(json.loads(json.dumps(obs)), random.Random(i)) for i in range(12)]
    for sample in samples:
        assert isinstance(sample, SilverBarsState)
        assert sample.observation(seat) == obs
        assert sample.hands[seat] == state.hands[seat] and sample.vaults == state.vaults
        assert sample.discard_pile == state.discard_pile and sample.moves == state.moves
        unseen = Counter(GAME.deck({}))
        unseen.subtract(state.hands[seat] + state.discard_pile + [c for v in state.vaults for x in v for c in x]
                        + [c for r in state.rubble for c in r if c is not None])
        assert not Counter(sample.hands[1 - seat]) - unseen  # only unseen cards in the other hand
        play_random(sample, random.Random(1))
    assert len({tuple(s.hands[1 - seat]) for s in samples}) > 1


def test_determinize_after_the_round_is_over() -> None:
    state = GAME.new_match(seed=12)
    play_random(state, random.Random(12))
    for seat in (0, 1):
        obs = json.loads(json.dumps(state.observation(seat)))
        sample = GAME.determinize(obs, random.Random(seat))
        assert sample.is_round_over() and sample.observation(seat) == obs


def test_play_targets_from_the_observation_match_the_engine() -> None:
    rng = random.Random(6)
    checked = 0
    for seed in range(25):
        state = GAME.new_match(seed=seed, options={"lo_thieves": 8, "hi_thieves": 4})
        while state.current_player() is not None:
            seat = state.current_player()
            assert seat is not None
            obs = state.observation(seat)
            if obs["strike"] is None or obs["strike"]["against"] != seat:
                own, theirs = obs["vaults"][seat], obs["vaults"][1 - seat]
                expected = {m for m in state.legal_moves() if m.verb == "play"}
                found = {m for c in set(obs["hand"]) for m in play_targets(Card.parse(c), own, theirs)}
                assert found == expected
                checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 1000


# -- the terminal picture ------------------------------------------------------------

def picture(state: State, seat: int) -> str:
    from rich.console import Console

    from parlour.terminal.silver_bars import render

    console = Console(width=160, record=True, color_system=None)
    console.print(render(state.observation(seat)))
    return console.export_text()


def test_terminal_shows_vaults_piles_strike_and_targets() -> None:
    moves = ["play 2C 1", "play 2D 1", "play 7C 1", "play KD 2", "play 4C 3", "play 2S 4", "lock 3", "discard 9D"]
    state = new(moves, final_hands=("JC QD 3C 8S 9S TS QS", "QS 6D AD 4D TD TH 9H"))
    text = picture(state, 0)
    assert "Bo — locks left 5" in text and "Ann — locks left 4" in text
    assert "KD rubble" in text and "4C LOCKED" in text and "2C 7C" in text
    assert "bar > 2" in text and "needs a shovel" in text and "miner or lock" in text
    assert "Draw pile 74" in text and "Discard pile 9D (1 card)" in text and "Dealer Bo" in text
    # Bo's 2s do not go onto Ann's miner over a 2: only her empty vaults take them.
    assert "JC → from their vault 1, 4 into your vault 4, 5" in text
    assert "QD → vault 2" in text and "QS → strike" in text and "8S → discard only" in text
    assert "3C → vault 1, 4, 5" in text
    play(state, "play QS")
    text = picture(state, 1)
    assert "Worker's strike QS pending against Bo" in text
    assert "this turn is spent resolving it — type resolve" in text


# -- the contract ----------------------------------------------------------------------------

def hide_silver_bars(state: State, seat: int, rng: random.Random) -> State:
    """Re-deal what ``seat`` cannot see: the opponent's hand and the draw pile's order."""
    assert isinstance(state, SilverBarsState)
    other = state.copy()
    opponent = 1 - seat
    pool = list(other.hands[opponent]) + other.stock[other.stock_pos:]
    rng.shuffle(pool)
    size = len(other.hands[opponent])
    other.hands[opponent] = pool[:size]
    other.stock = other.stock[: other.stock_pos] + pool[size:]
    return other


@pytest.mark.parametrize(("options", "matches"), [
    ({}, 8),  # whole matches to 100 (about eight rounds each)
    ({"target_score": 15}, 1200),  # one or two rounds each
    ({"target_score": 15, "rubble": 0, "shovels": 0, "strikes": 0, "lo_thieves": 0, "hi_thieves": 0}, 250),
    ({"target_score": 15, "lo_thieves": 8, "hi_thieves": 4, "mining_packs": 1}, 350),  # thieves and strikes galore
    ({"target_score": 40, "mining_packs": 3}, 60),
])
def test_conformance(options: dict[str, Any], matches: int) -> None:
    report = conformance.run(GAME, hide_silver_bars, matches=matches, options=options, deep_every=40)
    assert report.matches == matches and report.deep_checks > matches


def test_conformance_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    original = SilverBarsState.observation

    def leaky(self: SilverBarsState, seat: int) -> dict[str, Any]:
        obs = original(self, seat)
        if self.stock_pos < len(self.stock):  # the next draw, shown as if on the discard pile
            obs["discard_pile"] = [*obs["discard_pile"], str(self.stock[self.stock_pos])]
        return obs

    monkeypatch.setattr(SilverBarsState, "observation", leaky)
    with pytest.raises(conformance.ConformanceError, match="hidden cards change"):
        conformance.run(GAME, hide_silver_bars, matches=3, options={"target_score": 10})
