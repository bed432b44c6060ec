"""The narrator: every game's moves in words for each reader — second person
for the reader's own seat, names for the others, never a card the reader
cannot see — the round's move log, and golden sentences per game."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from parlour import games
from parlour.cards import Card, cards
from parlour.game import Deal, Game, Move, State
from parlour.narrate import (
    card_text,
    cards_text,
    move_log,
    move_text,
    plural,
    result_text,
    third_person,
)

NAMES = ("Ann", "Bo", "Cy")
POSITIONS = 500
"""Positions of seeded random playouts checked per game."""
_CARD_WORD = re.compile(r"Joker|(10|[2-9AJQK])([♣♦♥♠])")
_SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


# -- helpers -----------------------------------------------------------------------

def named_cards(text: str) -> set[Card]:
    """Every card a sentence names (``7♥``, ``10♠``, ``Joker``)."""
    found = set()
    for match in _CARD_WORD.finditer(text):
        if match.group(0) == "Joker":
            found.add(Card.parse("JK"))
        else:
            found.add(Card.parse(match.group(1) + _SUIT_LETTER[match.group(2)]))
    return found


def cards_in(data: Any) -> set[Card]:
    """Every card an observation shows, anywhere in it (moves included: they are public)."""
    if isinstance(data, dict):
        return set().union(*(cards_in(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(cards_in(v) for v in data))
    if isinstance(data, str):
        try:
            return {Card.parse(data)}
        except ValueError:
            try:
                return {a for a in Move.parse(data).args if isinstance(a, Card)}
            except ValueError:
                return set()
    return set()


def visible(state: State, viewer: int | None) -> set[Card]:
    """The cards ``viewer`` can see; a spectator sees what every seat sees."""
    if viewer is not None:
        return cards_in(state.observation(viewer))
    return set.intersection(*(cards_in(state.observation(s)) for s in range(state.num_players)))


def viewers(state: State) -> list[int | None]:
    return [*range(state.num_players), None]


def new_match(game_id: str, seed: int) -> State:
    game = games.get(game_id)
    return game.new_match(seed=seed, names=NAMES[:game.players])


def positions(game_id: str, count: int = POSITIONS) -> Iterator[State]:
    """``count`` positions of seeded random playouts (several rounds and matches)."""
    rng = random.Random(f"narrate {game_id}")
    seen = 0
    seed = 0
    while True:
        state = new_match(game_id, seed)
        seed += 1
        while not state.is_match_over():
            if state.is_round_over():
                state.next_round()
            yield state
            seen += 1
            if seen >= count:
                return
            state.apply(rng.choice(state.legal_moves()))


def hand_of(state: State, seat: int) -> Counter[Card]:
    return Counter(state.zones()[f"hand {seat}"])


def deal_with(game: Game, front: dict[str, list[str]], options: dict[str, Any] | None = None) -> Deal:
    """A valid deal: the given hands (and Twenty's revealed cards), then the rest
    of the deck in its order as the stock."""
    rest = Counter(game.deck(game.check_options(options)))
    deal: Deal = {}
    for zone, given in front.items():
        deal[zone] = [cards(h) for h in given] if zone == "hands" else cards(" ".join(given))
        rest.subtract(c for h in deal[zone] for c in (h if zone == "hands" else [h]))
    assert min(rest.values()) >= 0
    stock: list[Card] = []
    for c in game.deck(game.check_options(options)):
        if rest[c] > 0:
            stock.append(c)
            rest[c] -= 1
    deal["stock"] = stock
    return deal


def sentences(state: State, *moves: str) -> list[dict[int | None, str]]:
    """Play ``moves``; each one's sentence for every viewer, worded before it is made."""
    said = []
    for text in moves:
        move = state.parse_move(text)
        said.append({v: move_text(state, move, v) for v in viewers(state)})
        state.apply(move)
    return said


# -- the shared English ---------------------------------------------------------------

def test_cards_are_shown_with_suit_symbols() -> None:
    assert [card_text(c) for c in cards("7H TS KC AD JK")] == ["7♥", "10♠", "K♣", "A♦", "Joker"]
    assert cards_text([]) == ""
    assert cards_text(cards("7C")) == "7♣"
    assert cards_text(cards("7C 9C")) == "7♣ and 9♣"
    assert cards_text(cards("7C 8D 9C")) == "7♣, 8♦ and 9♣"


def test_plurals_and_verb_agreement() -> None:
    assert plural(1, "miner") == "1 miner" and plural(2, "miner") == "2 miners"
    assert plural(0, "silver bar") == "0 silver bars"
    assert plural(3, "thief", "thieves") == "3 thieves"
    words = ("play", "take", "draw", "steal", "shovel", "spend", "discard", "have", "go", "carry", "push", "say")
    assert [third_person(w) for w in words] == [
        "plays", "takes", "draws", "steals", "shovels", "spends", "discards", "has", "goes", "carries",
        "pushes", "says",
    ]


def test_the_default_wording_says_the_verb_and_its_arguments() -> None:
    state = games.get("twenty").new_match(deal=deal_with(games.get("twenty"), {
        "revealed": ["3C", "9D"], "hands": ["8S 5H 5C 4D 2H", "TC 9H 8D 2S AH"]}), first=0, names=NAMES[:2])
    assert State.describe_move(state, Move.parse("play 8S"), 0) == "You play 8♠"
    assert State.describe_move(state, Move.parse("play 8S"), 1) == "Ann plays 8♠"


def test_a_finished_round_or_an_unknown_seat_is_refused() -> None:
    state = new_match("twenty", 1)
    move = state.legal_moves()[0]
    with pytest.raises(ValueError, match="no seat 2"):
        move_text(state, move, 2)
    rng = random.Random(1)
    while not state.is_round_over():
        state.apply(rng.choice(state.legal_moves()))
    with pytest.raises(ValueError, match="round is over"):
        move_text(state, move, 0)


# -- every game, every legal move, every reader ---------------------------------------

@pytest.mark.parametrize("game_id", games.ids())
def test_every_legal_move_reads_right_for_every_reader(game_id: str) -> None:
    for state in positions(game_id):
        mover = state.current_player()
        assert mover is not None
        seen = {v: visible(state, v) for v in viewers(state)}
        for move in state.legal_moves():
            played = {a for a in move.args if isinstance(a, Card)}
            after = state.copy()
            after.apply(move)
            gained = set(hand_of(after, mover) - hand_of(state, mover))  # drawn or taken
            taken = gained if move.verb == "take" else set()
            if move.verb == "take":
                assert len(taken) == 1
            for viewer in viewers(state):
                offered = move_text(state, move, viewer)
                made = move_text(state, move, viewer, made=True)
                start = "You " if viewer == mover else f"{state.names[mover]} "
                for text in (offered, made):
                    assert text.startswith(start), (game_id, str(move), viewer, text)
                    assert played <= named_cards(text), (game_id, str(move), text)  # the card played is said
                    if taken:
                        assert taken <= seen[viewer] and taken <= named_cards(text), (game_id, str(move), text)
                # Offered (a hint, a button): nothing the reader cannot see now, not even the card to be drawn.
                assert named_cards(offered) <= seen[viewer] | played, (game_id, str(move), viewer, offered)
                # Made: the mover is also told what they drew; nobody else is.
                told = gained - taken if viewer == mover else set()
                assert named_cards(made) <= seen[viewer] | played | told, (game_id, str(move), viewer, made)
                assert told <= named_cards(made), (game_id, str(move), made)
                if viewer != mover:
                    assert made == offered, (game_id, str(move), viewer, made)


@pytest.mark.parametrize("game_id", games.ids())
def test_the_move_log_replays_the_round_without_touching_the_state(game_id: str) -> None:
    rng = random.Random(f"log {game_id}")
    state = new_match(game_id, 11)
    said: dict[int | None, list[str]] = {v: [] for v in viewers(state)}
    checkpoints = {0, 1, 7, 40}
    rounds = 0
    while rounds < 2:
        if len(state.moves) in checkpoints or state.is_round_over():
            for viewer, texts in said.items():
                before = state.snapshot()
                log = move_log(state, viewer)
                assert state.snapshot() == before
                assert [e["move"] for e in log] == [str(m) for m in state.moves]
                assert [e["text"] for e in log] == texts
                assert all(e["seat"] in range(state.num_players) for e in log)
        if state.is_round_over():
            rounds += 1
            if state.is_match_over():
                break
            state.next_round()
            said = {v: [] for v in viewers(state)}
            continue
        move = rng.choice(state.legal_moves())
        for viewer in said:
            said[viewer].append(move_text(state, move, viewer, made=True))
        state.apply(move)
    assert rounds == 2 or state.is_match_over()


def test_the_move_log_gives_the_mover_of_each_move() -> None:
    state = games.get("progression").new_match(seed=4, names=NAMES)
    rng = random.Random(4)
    movers = []
    for _ in range(12):
        movers.append(state.current_player())
        state.apply(rng.choice(state.legal_moves()))
    assert [e["seat"] for e in move_log(state, None)] == movers


# -- golden sentences -------------------------------------------------------------------

def test_twenty_says_what_the_tally_comes_to() -> None:
    game = games.get("twenty")
    deal = deal_with(game, {"revealed": ["3C", "9D"], "hands": ["8S 5H 5C 4D 2H", "TC 9H 8D 2S AH"]})
    state = game.new_match(deal=deal, first=0, names=NAMES[:2])
    said = sentences(state, "play 8S", "play TC", "play 2H", "play 9H", "play 5H", "play 8D")
    assert said[0] == {0: "You play 8♠: the tally is 8", 1: "Ann plays 8♠: the tally is 8",
                       None: "Ann plays 8♠: the tally is 8"}
    assert said[1][0] == "Bo plays 10♣: the tally is 18"
    assert said[1][1] == "You play 10♣: the tally is 18"
    assert said[2][0] == "You play 2♥: the tally makes exactly 20"
    assert said[3][0] == "Bo plays 9♥: the tally is 9"
    assert said[4][1] == "Ann plays 5♥: the tally is 14"
    assert said[5][1] == "You play 8♦: the tally goes to 22, beyond 20"


def test_minus_twenty_names_melds_piles_and_the_card_taken() -> None:
    game = games.get("minus-twenty")
    deal = deal_with(game, {"hands": ["6H JH 9S 2C 3C 4C 5C", "7C 9D TD 8S 2H 3H 4H"]})
    state = game.new_match(deal=deal, first=0, names=NAMES[:2])
    said = sentences(state, "play 6H", "draw", "discard 8S", "draw", "discard 2C", "take S", "play 7C", "take C")
    first, second = (card_text(c) for c in deal["stock"][:2])
    assert [e["text"] for e in move_log(state, 0)][1::2][:2] == [
        f"You draw {first} from the draw pile", "Bo draws a card from the draw pile"]
    assert [e["text"] for e in move_log(state, 1)][1::2][:2] == [
        "Ann draws a card from the draw pile", f"You draw {second} from the draw pile"]
    assert said[0] == {0: "You play 6♥ on your ♥ meld", 1: "Ann plays 6♥ on their ♥ meld",
                       None: "Ann plays 6♥ on their ♥ meld"}
    assert said[1] == {0: "You draw a card from the draw pile", 1: "Ann draws a card from the draw pile",
                       None: "Ann draws a card from the draw pile"}
    assert said[2][0] == "Bo discards 8♠ onto the ♠ discard pile"
    assert said[3][1] == "You draw a card from the draw pile"
    assert said[4][1] == "Ann discards 2♣ onto the ♣ discard pile"
    assert said[5][0] == "You take 8♠ from the ♠ discard pile"
    assert said[5][1] == "Ann takes 8♠ from the ♠ discard pile"
    assert said[6][0] == "Bo plays 7♣ on their ♣ meld"
    assert said[7] == {0: "Bo takes 2♣ from the ♣ discard pile", 1: "You take 2♣ from the ♣ discard pile",
                       None: "Bo takes 2♣ from the ♣ discard pile"}
    assert move_log(state, 1)[5] == {"seat": 0, "move": "take S", "text": "Ann takes 8♠ from the ♠ discard pile"}


def test_progression_names_private_and_public_stacks() -> None:
    game = games.get("progression")
    deal = deal_with(game, {"hands": ["9S 2C 3C 4C 5C", "7H 2D 3D 4D 5D", "7S 2H 3H 4H 5H"]})
    state = game.new_match(deal=deal, first=0, names=NAMES)
    said = sentences(state, "public 9S", "draw", "play 7H", "take S", "public 7S", "take S")
    assert said[0] == {0: "You play 9♠ on the public ♠ stack", 1: "Ann plays 9♠ on the public ♠ stack",
                       2: "Ann plays 9♠ on the public ♠ stack", None: "Ann plays 9♠ on the public ♠ stack"}
    assert said[1][2] == "Ann draws a card from the draw pile"
    assert move_log(state, 0)[1]["text"] == f"You draw {card_text(deal['stock'][0])} from the draw pile"
    assert move_log(state, 1)[1]["text"] == "Ann draws a card from the draw pile"
    assert said[2] == {0: "Bo plays 7♥ on their private ♥ stack", 1: "You play 7♥ on your private ♥ stack",
                       2: "Bo plays 7♥ on their private ♥ stack", None: "Bo plays 7♥ on their private ♥ stack"}
    assert said[3][0] == "Bo takes 9♠ from the public ♠ stack"
    assert said[3][1] == "You take 9♠ from the public ♠ stack"
    assert said[5][2] == "You take 7♠ from the public ♠ stack"  # takeback is on by default


def test_silver_bars_is_worded_from_the_readers_side_of_the_table() -> None:
    game = games.get("silver-bars")
    deal = deal_with(game, {"hands": ["2C 7C QC JC QS JK 4H", "3D KH 2D 8D 9S 6S 4S"]})
    state = game.new_match(deal=deal, first=0, names=NAMES[:2])
    said = sentences(
        state, "play 2C 1", "play 3D 1", "play 7C 1", "play KH 2", "play QC 2", "play 2D 3", "play JC 3 4",
        "play 8D 1", "play QS", "resolve", "lock 4", "discard 9S", "play JK 1 2",
    )
    assert said[0] == {0: "You put 2♣ into your vault 1", 1: "Ann puts 2♣ into their vault 1",
                       None: "Ann puts 2♣ into their vault 1"}
    assert said[2][0] == "You put a miner (7♣) on your vault 1"
    assert said[3] == {0: "Bo puts rubble (K♥) on your vault 2", 1: "You put rubble (K♥) on Ann's vault 2",
                       None: "Bo puts rubble (K♥) on Ann's vault 2"}
    assert said[4] == {0: "You shovel the rubble (K♥) off your vault 2 with Q♣",
                       1: "Ann shovels the rubble (K♥) off their vault 2 with Q♣",
                       None: "Ann shovels the rubble (K♥) off their vault 2 with Q♣"}
    assert said[6] == {0: "You steal 2♦ from Bo's vault 3 into your vault 4 with a lo thief (J♣)",
                       1: "Ann steals 2♦ from your vault 3 into their vault 4 with a lo thief (J♣)",
                       None: "Ann steals 2♦ from Bo's vault 3 into their vault 4 with a lo thief (J♣)"}
    assert said[8] == {0: "You call a worker's strike (Q♠) on Bo's vaults",
                       1: "Ann calls a worker's strike (Q♠) on your vaults",
                       None: "Ann calls a worker's strike (Q♠) on Bo's vaults"}
    assert said[9] == {0: "Bo spends their turn resolving the worker's strike",
                       1: "You spend your turn resolving the worker's strike",
                       None: "Bo spends their turn resolving the worker's strike"}
    assert said[10][0] == "You lock your vault 4 (2 silver bars)"
    assert said[11][0] == "Bo discards 9♠"
    assert said[12][1] == "Ann steals 3♦ from your vault 1 into their vault 2 with a hi thief (Joker)"
    assert move_log(state, 0)[0]["text"] == f"You put 2♣ into your vault 1 and draw {card_text(deal['stock'][0])}"
    assert move_log(state, 1)[0]["text"] == "Ann puts 2♣ into their vault 1"
    assert move_log(state, 0)[10]["text"] == "You lock your vault 4 (2 silver bars)"  # a lock draws nothing
    log = {viewer: state.log(viewer) for viewer in viewers(state)}
    assert "Your lo thief takes the 2♦ from Bo's vault 3 into your vault 4" in log[0]
    assert "Ann's lo thief takes the 2♦ from your vault 3 into their vault 4" in log[1]
    assert "Ann's lo thief takes the 2♦ from Bo's vault 3 into their vault 4" in log[None]
    assert "You call a worker's strike: 1 miner (8♦) goes from Bo's vaults to the discard pile" in log[0]
    assert "Ann calls a worker's strike: 1 miner (8♦) goes from your vaults to the discard pile" in log[1]
    assert "Ann's hi thief takes the 3♦ from your vault 1 into their vault 2" in log[1]


# -- events: every kind of every game, in the second and the third person -------------

EVENT_KINDS = {
    "minus-twenty": {"Meld", "Negative Meld", "Eight-Card Meld", "Stall rule"},
    "progression": {"Over Twelve", "Twelve or Under", "Face Cards Only", "Stall Rule"},
    "twenty": {"Exact Twenty", "Beyond Twenty", "Five Tally", "Six Tally", "Seven Tally", "Eight Tally",
               "End of Round Bonus", "New Hand"},  # and longer tallies, named alike
    "silver-bars": {"Theft", "Worker's Strike", "Lock-out", "Draw Pile Empty", "Shipment", "Perfect Round"},
}
"""What each game's rules call the things that happen (the kinds its events carry)."""

_PLAYOUT_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "minus-twenty": [{}, {"stall_limit": 2}], "progression": [{}, {"stall_limit": 1}], "twenty": [{}],
    "silver-bars": [{}],
}


def play_out(state: State, rng: random.Random, *moves: str) -> State:
    """Make ``moves``, then random moves to the end of the round."""
    for text in moves:
        state.apply(state.parse_move(text))
    while not state.is_round_over():
        state.apply(rng.choice(state.legal_moves()))
    return state


def rare_events(game_id: str) -> list[tuple[State, list[Any]]]:
    """Rounds (and their events) made to show what seeded random play seldom does."""
    game = games.get(game_id)
    rng = random.Random(7)
    if game_id == "minus-twenty":  # eight clubs in one meld
        deal = deal_with(game, {"hands": ["2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"]})
        deal["stock"].remove(cards("9C")[0])
        deal["stock"].insert(0, cards("9C")[0])
        state = game.new_match(deal=deal, first=0, names=NAMES[:2])
        moves = [m for n in range(2, 10) for m in (f"play {n}C", "draw", f"discard {min(n, 8)}D", "draw")]
        return [(state, play_out(state, rng, *moves[:-2]).events)]
    if game_id == "twenty":  # a tally of seven cards, none reaching 20
        deal = deal_with(game, {"revealed": ["KS", "QS"], "hands": ["AC 2C 3C AS 5C", "AD 2D AH 2H 4D"]})
        state = game.new_match(deal=deal, first=0, names=NAMES[:2])
        play_out(state, rng, "play AC", "play AD", "play 2C", "play 2D", "play 3C", "play AH", "play AS")
        return [(state, state.events)]
    if game_id == "silver-bars":  # a perfect round (80 silver bars), worded as the round's end words it
        state = new_match(game_id, 1)
        state.scores = [80, 7]  # type: ignore[attr-defined]
        state.locked = [5, 2]  # type: ignore[attr-defined]
        state.events = []
        state._end_round(0)  # type: ignore[attr-defined]
        return [(state, state.events)]
    return []


def events_of(game_id: str) -> dict[str, tuple[State, Any]]:
    """One event of each kind the game shows, with a state whose names it reads."""
    game = games.get(game_id)
    found: dict[str, tuple[State, Any]] = {}
    for options in _PLAYOUT_OPTIONS[game_id]:
        for seed in range(12):
            state = game.new_match(seed=seed, options=options, names=NAMES[:game.players])
            for event in play_out(state, random.Random(seed)).events:
                found.setdefault(event.kind, (state, event))
    for state, events in rare_events(game_id):
        for event in events:
            found.setdefault(event.kind, (state, event))
    return found


_WRONG_PLURAL = re.compile(r"(?<![\d.])1 (cards|miners|silver bars|locked vaults|vaults|turns|points)\b")


@pytest.mark.parametrize("game_id", games.ids())
def test_every_event_kind_reads_right_in_the_second_and_third_person(game_id: str) -> None:
    found = events_of(game_id)
    assert set(found) == EVENT_KINDS[game_id]
    declared = set(games.get(game_id).event_kinds)  # the game's own list, which the lab's report reads
    assert set(found) <= declared and declared - set(found) <= {"Nine Tally", "Ten Tally"}
    for kind, (state, event) in found.items():
        names = state.names
        for viewer in viewers(state):
            text = event.describe(names, viewer)
            what = (game_id, kind, viewer, text)
            assert "{" not in text and "}" not in text, what
            assert not _WRONG_PLURAL.search(text), what
            assert text[0].isupper(), what
            if event.seat is None or "{player" not in event.text:  # of no one seat: how the round ended
                assert text.startswith("The "), what
            elif viewer == event.seat:
                assert text.startswith(("You ", "Your ")), what
                assert not re.match(r"You \w+s\b", text), what  # "You score", never "You scores"
                assert "their" not in text and "You's" not in text, what
            else:
                name = names[event.seat]
                assert text.startswith(f"{name}'s ") or re.match(rf"{re.escape(name)} \w+s\b", text), what
            if viewer is None or viewer not in (event.seat, event.other):
                assert "your" not in text.lower().split(), what


def test_events_read_as_golden_sentences() -> None:
    twenty = events_of("twenty")
    said = {kind: {v: e.describe(s.names, v) for v in viewers(s)} for kind, (s, e) in twenty.items()}
    dealt = twenty["New Hand"][1].seat
    assert said["New Hand"][dealt] == "You are dealt a new hand of five"
    assert said["New Hand"][None] == f"{NAMES[dealt]} is dealt a new hand of five"
    bonus = twenty["End of Round Bonus"][1]
    assert said["End of Round Bonus"][bonus.seat] == f"You take the End of Round Bonus of {bonus.points}"
    assert said["End of Round Bonus"][None] == f"{NAMES[bonus.seat]} takes the End of Round Bonus of {bonus.points}"
    seven = said["Seven Tally"]
    assert seven[0] == "You score 60 for Seven Tally" and seven[1] == seven[None] == "Ann scores 60 for Seven Tally"
    meld = {v: e.describe(s.names, v) for s, e in [events_of("minus-twenty")["Eight-Card Meld"]] for v in viewers(s)}
    assert meld[0].startswith("You score ") and " for your clubs meld: " in meld[0]
    assert meld[1].startswith("Ann scores ") and " for their clubs meld: " in meld[1]
    state, perfect = events_of("silver-bars")["Perfect Round"]
    assert perfect.describe(state.names, 0) == "You ship 80 silver bars: a Perfect Round!"
    assert perfect.describe(state.names, 1) == "Ann ships 80 silver bars: a Perfect Round!"
    shipment = next(e for e in state.events if e.kind == "Shipment")
    assert shipment.describe(state.names, 1) == "You ship 7 silver bars from 2 locked vaults"


def test_two_of_three_who_tie_win_together_in_the_terminal() -> None:
    """A real tie of the engine: a seeded one-round Progression match of random moves where Ann and Cy end level."""
    state = games.get("progression").new_match(seed=4, options={"rounds": 1}, names=["Ann", "Bo", "Cy"])
    rng = random.Random(4)
    while state.current_player() is not None:
        state.apply(rng.choice(state.legal_moves()))
    assert state.winners() == [0, 2] and state.totals == [14, 0, 14]
    assert result_text(state, 0) == "You and Cy win the match (14 – 0 – 14)."
    assert result_text(state, 2) == "You and Ann win the match (14 – 0 – 14)."
    assert result_text(state, 1) == "Ann and Cy win the match (14 – 0 – 14)."
