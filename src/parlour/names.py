"""Display names of people and bots: the one place a name is checked.

A name is what other players see at the table, so it must be text that shows
as itself: no control characters, no direction overrides that flip the rest
of a line, no invisible characters that make two names look alike, and at
least one visible letter, digit or sign.

>>> check_name("  Zoë \\t Ann ")
'Zoë Ann'
>>> check_name("   ") is None
True
>>> name_key("ＨＡＮＡ") == name_key("hana")
True
>>> unique_name("Hana", ["hana", "Hana 2"])
'Hana 3'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_NAME = 40
"""Most characters (code points, after normalization) a name may hold; the database column is varchar(40)."""

MAX_MARKS = 4
"""Most combining marks one letter may carry: enough for Vietnamese, Indic and Tibetan, too few for "Zalgo" text."""

_MAX_INPUT = 1000
"""Longer input is refused before any work is done on it, whatever its spacing."""

_SPACES = frozenset("\t\n\v\f\r")
"""Whitespace control characters that collapse to a space; other controls (NUL, U+001C, U+0085, ...) are refused."""

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_JOINERS = frozenset("\u200c\u200d")
"""ZERO WIDTH NON-JOINER and JOINER: needed inside emoji sequences, Persian and Indic words."""

_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing: Hangul fillers and the blank Braille pattern."""

_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges: they draw nothing, so name_key drops them."""


class BadName(ValueError):
    """A display name that cannot be used; the message says why in one line."""


def _code(ch: str) -> str:
    """The code point of ``ch`` as U+XXXX, since the character itself may be invisible."""
    return f"U+{ord(ch):04X}"


def _is_space(ch: str) -> bool:
    return ch in _SPACES or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def _collapse(text: str) -> str:
    """Turn every run of whitespace into one ASCII space and strip both ends."""
    spaced = "".join(" " if _is_space(ch) else ch for ch in text)
    return " ".join(word for word in spaced.split(" ") if word)


def _is_visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _FILLERS


def _refusal(name: str, at: int, what: str) -> str | None:
    """Why the character at ``at`` may not be in a name at all, or None when it may."""
    ch = name[at]
    cp = _code(ch)
    category = unicodedata.category(ch)
    before = name[at - 1] if at > 0 else " "
    if category == "Cs":
        return f"{what} may not hold a lone surrogate ({cp}): it is not valid Unicode"
    if category == "Cc":
        return f"{what} may not hold control characters ({cp})"
    if ch in _BIDI_CONTROLS:
        return f"{what} may not hold right-to-left or other direction overrides ({cp})"
    if ch in _JOINERS:
        after = name[at + 1] if at + 1 < len(name) else " "
        if (_is_visible(before) or unicodedata.category(before)[0] == "M") and _is_visible(after):
            return None
        return f"{what} may hold a zero-width joiner or non-joiner ({cp}) only between two visible characters"
    if category == "Cf":
        return f"{what} may not hold invisible format characters ({cp})"
    if category == "Co":
        return f"{what} may not hold private-use characters ({cp})"
    if category == "Cn":
        return f"{what} may not hold unassigned code points ({cp})"
    return None


def _misplaced(name: str, at: int, marks: int, what: str) -> str | None:
    """Why the character at ``at``, after ``marks`` combining marks in a row, draws wrongly; None when it is fine."""
    ch = name[at]
    before = name[at - 1] if at > 0 else " "
    if ch in _FILLERS:
        return f"{what} may not hold blank filler characters ({_code(ch)})"
    if unicodedata.category(ch)[0] != "M":
        return None
    if marks == 0 and not _is_visible(before):
        return f"{what} may not start a word with a combining mark ({_code(ch)})"
    if marks >= MAX_MARKS:
        return f"{what} may not stack more than {MAX_MARKS} combining marks on one letter ({_code(ch)})"
    return None


def check_name(value: object, *, what: str = "a name") -> str | None:
    """Return ``value`` as a clean display name, None when it is missing or blank, or raise :class:`BadName`.

    Whitespace runs become one space, the ends are stripped and the text is
    put in Unicode NFC form.  ``what`` starts every message ("a bot's name").
    Whether a name is required is the caller's decision.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadName(f"{what} must be text, not {type(value).__name__}")
    if len(value) > _MAX_INPUT:
        raise BadName(f"{what} is at most {MAX_NAME} characters (this one has {len(value)})")
    collapsed = _collapse(value)
    if not collapsed:
        return None
    name = unicodedata.normalize("NFC", collapsed)
    for at in range(len(name)):
        reason = _refusal(name, at, what)
        if reason is not None:
            raise BadName(reason)
    # Checked before fillers and stray marks, so that a name of only those gets the plainer message.
    if not any(_is_visible(ch) for ch in name):
        raise BadName(f"{what} needs at least one visible letter, digit or sign")
    marks = 0
    for at, ch in enumerate(name):
        reason = _misplaced(name, at, marks, what)
        if reason is not None:
            raise BadName(reason)
        marks = marks + 1 if unicodedata.category(ch)[0] == "M" else 0
    if len(name) > MAX_NAME:
        raise BadName(f"{what} is at most {MAX_NAME} characters (this one has {len(name)})")
    return name


def _ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


def name_key(name: str) -> str:
    """The key under which two names count as the same: "Hana", "ＨＡＮＡ" and "hana" share one.

    Compatibility forms are folded (NFKC), case is folded, characters that
    draw nothing (joiners, variation selectors, ...) are dropped and
    whitespace is collapsed.
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return _collapse("".join(ch for ch in folded if not _ignorable(ch)))


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with the smallest suffix " 2", " 3", ... whose key clashes with none of ``taken``.

    The base is cut short when needed so that the result keeps within
    :data:`MAX_NAME`.  ``name`` should already have passed :func:`check_name`;
    the result then passes it too.
    """
    taken_keys = {name_key(other) for other in taken}
    if name_key(name) not in taken_keys:
        return name
    number = 1
    while True:
        number += 1
        suffix = f" {number}"
        base = name[: MAX_NAME - len(suffix)]
        # A cut may leave a joiner or space with nothing after it.
        while base and (base[-1] in _JOINERS or _is_space(base[-1])):
            base = base[:-1]
        candidate = f"{base}{suffix}".lstrip()
        if name_key(candidate) not in taken_keys:
            return candidate
