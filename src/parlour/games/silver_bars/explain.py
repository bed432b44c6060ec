"""100 Silver Bars in words: what a move does, why a move is malformed or
illegal, what a vault takes next, and the sentences of the round's events.

The rules (:mod:`parlour.games.silver_bars.rules`) decide; this module only
says.  Event sentences are templates that :mod:`parlour.narrate` fills in from
the reader's side of the table (``{player}``, ``{their}``, ``{other's}``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.cards import Card
from parlour.game import Move, MoveSyntaxError, Wrong
from parlour.games.silver_bars.cards import (
    BAR,
    BAR_VALUE,
    HI_THIEF,
    KIND,
    LO_THIEF,
    LOCK_CARD,
    MINER,
    RUBBLE,
    SHOVEL,
    STRIKE,
    VAULTS,
    vault_bars,
)
from parlour.games.silver_bars.tables import BAR_TOP, EMPTY, LOCKED, MINER_TOP, RUBBLED, bar_fits
from parlour.narrate import card_text, cards_text, plural, typed_text

if TYPE_CHECKING:
    from parlour.games.silver_bars.rules import SilverBarsState


def _value_word(value: int) -> str:
    return "an ace" if value == 1 else f"a {value}"


def vault_takes(cards: Sequence[Card], rubble: bool, locked: bool) -> tuple[str, str]:
    """What a vault takes next, in words, and which case that is (for the front ends to colour):
    ``locked`` (nothing), ``rubble`` (``needs a shovel``), ``empty`` (``any bar``), ``miner``
    (``bar > 2``: a miner takes only a higher bar than the one under it), ``bar`` (``miner or
    lock``)."""
    if locked:
        return "locked", "locked"
    if rubble:
        return "needs a shovel", "rubble"
    if not cards:
        return "any bar", "empty"
    if KIND[cards[-1]] == MINER:
        return f"bar > {BAR_VALUE[cards[-2]]}", "miner"
    return "miner or lock", "bar"


# -- the moves' forms --------------------------------------------------------------

_USAGE = {
    BAR: "A silver bar goes into one of your vaults: play {card} <vault>",
    MINER: "A miner goes on one of your vaults: play {card} <vault>",
    RUBBLE: "Rubble goes on one of your opponent's empty vaults: play {card} <their vault>",
    SHOVEL: "A shovel clears the rubble off one of your vaults: play {card} <vault>",
    STRIKE: "The worker's strike takes no vault: play {card}",
    LO_THIEF: "A lo thief takes from their vault into yours: play {card} <their vault> <your vault>",
    HI_THIEF: "A hi thief takes from their vault into yours: play {card} <their vault> <your vault>",
}
_ARITY = {BAR: 1, MINER: 1, RUBBLE: 1, SHOVEL: 1, STRIKE: 0, LO_THIEF: 2, HI_THIEF: 2}
"""The vaults ``play`` names for each kind of card."""


def check_form(move: Move) -> None:
    """The card's own form of a move (the shared forms are checked already): a miner
    needs one vault, a thief two, the worker's strike none; vaults are numbered 1–5;
    a lock is not a card of the hand.  :class:`MoveSyntaxError` says what was expected."""
    for arg in move.args:
        if type(arg) is int and not 1 <= arg <= VAULTS:
            raise MoveSyntaxError(f"Vaults are numbered 1 to {VAULTS} from your left, not {arg}")
    if move.verb in ("play", "discard"):
        card = move.card()
        kind = KIND[card]
        if kind == LOCK_CARD:
            raise MoveSyntaxError(
                f"{card_text(card)} is a lock: locks are kept apart from the hand; lock a vault with: lock <vault>"
            )
        if move.verb == "play" and len(move.args) - 1 != _ARITY[kind]:
            raise MoveSyntaxError(_USAGE[kind].format(card=card_text(card)))


# -- moves -------------------------------------------------------------------------

def move_words(state: SilverBarsState, move: Move, viewer: int | None) -> str:
    """The move itself in words, from ``viewer``'s side of the table (see
    :meth:`~parlour.games.silver_bars.rules.SilverBarsState.describe_move`)."""
    voice = state.voice(viewer)
    seat = voice.seat
    mine, theirs = voice.whose(seat), voice.whose(1 - seat)
    verb = move.verb
    numbers = move.numbers()  # vaults: the target, then a thief's own
    if verb == "resolve":
        return voice.says("spend", f"{mine} turn resolving the worker's strike")
    if verb == "lock":
        bars = vault_bars(state.vaults[seat][numbers[0] - 1])
        return voice.says("lock", f"{mine} vault {numbers[0]} ({plural(bars, 'silver bar')})")
    card = move.card()
    shown = card_text(card)
    if verb == "discard":
        return voice.says("discard", shown)
    kind = KIND[card]
    if kind == STRIKE:
        return voice.says("call", f"a worker's strike ({shown}) on {theirs} vaults")
    vault = numbers[0]
    if kind == BAR:
        return voice.says("put", f"{shown} into {mine} vault {vault}")
    if kind == MINER:
        return voice.says("put", f"a miner ({shown}) on {mine} vault {vault}")
    if kind == RUBBLE:
        return voice.says("put", f"rubble ({shown}) on {theirs} vault {vault}")
    if kind == SHOVEL:
        rubble = state.rubble[seat][vault - 1]
        assert rubble is not None
        return voice.says("shovel", f"the rubble ({card_text(rubble)}) off {mine} vault {vault} with {shown}")
    bar = card_text(state.vaults[1 - seat][vault - 1][-1])
    thief = f"a {'lo' if kind == LO_THIEF else 'hi'} thief ({shown})"
    return voice.says("steal", f"{bar} from {theirs} vault {vault} into {mine} vault {numbers[1]} with {thief}")


# -- illegal moves -----------------------------------------------------------------

def why_illegal(state: SilverBarsState, move: Move) -> Wrong | str:
    """Why the rules forbid ``move`` in this position, in the player's terms (as data the
    narrator words for each reader: ``{your}`` vaults are the mover's, ``{other's}`` the
    opponent's)."""
    try:  # a move built in code rather than parsed may not even have a form of the game
        state.check_syntax(move)
    except MoveSyntaxError as error:
        return str(error)
    seat = state.to_move
    verb, args = move
    # The syntax is checked: vault numbers are 1–5, and a play or discard names a card first.
    vaults = [a - 1 for a in args if type(a) is int]
    if state.strike_against == seat:
        return Wrong("must_resolve", "A worker's strike is pending against {you}: "
                     "this turn is spent resolving it ('resolve')")
    if verb == "resolve":
        return "There is no worker's strike to resolve"
    if verb == "lock":
        return Wrong("rule", _lock_reason(state.vstate[seat][vaults[0]], vaults[0]))
    card = args[0]
    assert isinstance(card, Card)
    if card not in state.hands[seat]:
        return Wrong.not_in_hand(card, state.hands[seat])
    kind = KIND[card]
    own = state.vstate[seat]
    if kind in (LO_THIEF, HI_THIEF):
        return Wrong("rule", _thief_reason(card, state.vstate[1 - seat], own, vaults[0], vaults[1]), other=1 - seat)
    where = f"{{your}} vault {vaults[0] + 1}" if vaults else ""
    if kind == BAR:
        return Wrong("rule", _bar_reason(own[vaults[0]], BAR_VALUE[card], where))
    if kind == MINER:
        return Wrong("rule", _miner_reason(own[vaults[0]], where))
    if kind == RUBBLE:
        theirs = f"{{other's}} vault {vaults[0] + 1}"
        if state.vstate[1 - seat][vaults[0]] == RUBBLED:
            return Wrong("rule", f"{theirs} is already under rubble", other=1 - seat)
        return Wrong("rule", f"{theirs} is not empty: rubble goes only on an empty vault", other=1 - seat)
    if kind == SHOVEL:
        return Wrong("rule", f"{where} has no rubble to shovel off")
    return f"{{player}} may not {typed_text(move)} here"


def _bar_reason(state: int, value: int, where: str) -> str:
    if state == LOCKED:
        return f"{where} is locked"
    if state == RUBBLED:
        return f"{where} is under rubble (shovel it off first)"
    if BAR_TOP <= state < MINER_TOP:
        return (f"the top card of {where} is a silver bar ({state - BAR_TOP}): "
                "a silver bar goes into an empty vault or onto a miner")
    under = state - MINER_TOP
    return f"the top card of {where} is a miner over {_value_word(under)}: a bar there must be higher than {under}"


def _miner_reason(state: int, where: str) -> str:
    if state == LOCKED:
        return f"{where} is locked"
    if state == RUBBLED:
        return f"{where} is under rubble (shovel it off first)"
    if state == EMPTY:
        return f"{where} is empty: a miner goes on a silver bar"
    return f"the top card of {where} is already a miner: a miner goes on a silver bar"


def _lock_reason(state: int, i: int) -> str:
    where = f"{{your}} vault {i + 1}"
    if state == LOCKED:
        return f"{where} is already locked"
    if state == RUBBLED:
        return f"{where} is under rubble: a lock goes only on a silver bar"
    if state == EMPTY:
        return f"{where} is empty: a lock goes only on a silver bar"
    return f"the top card of {where} is a miner: a lock goes only on a silver bar"


def _thief_reason(card: Card, theirs: Sequence[int], own: Sequence[int], src: int, dst: int) -> str:
    thief = "lo thief" if KIND[card] == LO_THIEF else "hi thief"
    tops = {i: s - BAR_TOP for i, s in enumerate(theirs) if BAR_TOP <= s < MINER_TOP}
    if not tops:
        return f"none of {{other's}} unlocked vaults has a silver bar on top for the {thief} to take"
    value = min(tops.values()) if KIND[card] == LO_THIEF else max(tops.values())
    if theirs[src] == LOCKED:
        return f"{{other's}} vault {src + 1} is locked: a thief cannot take from it"
    if src not in tops:
        return f"{{other's}} vault {src + 1} has no silver bar on top"
    if tops[src] != value:
        where = " or ".join(str(i + 1) for i, v in tops.items() if v == value)
        lowest = "lowest" if KIND[card] == LO_THIEF else "highest"
        return (f"the {thief} takes the {lowest} silver bar on top of {{other's}} unlocked vaults, "
                f"{_value_word(value)} (vault {where}), not the {tops[src]} in vault {src + 1}")
    if not any(bar_fits(s, value) for s in own):
        return (f"the stolen {value} would fit none of {{your}} vaults, so the {thief} cannot be played "
                "(it can still be discarded)")
    return f"the stolen {value} cannot go into {{your}} vault {dst + 1}: " + _bar_reason(
        own[dst], value, f"{{your}} vault {dst + 1}")


# -- the events' sentences -----------------------------------------------------------

def strike_text(lost: Sequence[Card]) -> str:
    """A worker's strike, and the miners it sent to the discard pile."""
    if lost:
        what = f"{plural(len(lost), 'miner')} ({cards_text(lost)}) {'goes' if len(lost) == 1 else 'go'}"
    else:
        what = "no miner goes"
    return f"{{player}} {{call}} a worker's strike: {what} from {{other's}} vaults to the discard pile"


def theft_text(thief: Card, bar: Card, src: int, dst: int) -> str:
    """A thief took ``bar`` from the opponent's vault ``src`` into the thief's vault ``dst`` (0–4)."""
    kind = "lo" if KIND[thief] == LO_THIEF else "hi"
    return (f"{{player's}} {kind} thief takes the {card_text(bar)} from {{other's}} vault {src + 1} "
            f"into {{their}} vault {dst + 1}")


LOCK_OUT_TEXT = "{player} {have} locked all five vaults: the round ends"
DRAW_PILE_EMPTY_TEXT = "The last card of the draw pile is drawn: the round ends"
PERFECT_ROUND_TEXT = "{player} {ship} 80 silver bars: a Perfect Round!"


def shipment_text(points: int, vaults: int) -> str:
    """What a player ships at the round's end: ``points`` silver bars from ``vaults`` locked vaults."""
    return f"{{player}} {{ship}} {plural(points, 'silver bar')} from {plural(vaults, 'locked vault')}"
