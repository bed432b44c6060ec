import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.names import MAX_MARKS, MAX_NAME, BadName, check_name, name_key, unique_name

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize(
    "name",
    ["Ann", "José", "李小龍", "Zoë-Ann O'Neil", "👩\u200d💻 Dev", "Ana María", "🏳\ufe0f\u200d🌈", "Nguyễn", "क्\u200dष"],
)
def test_ordinary_names_pass_unchanged(name: str) -> None:
    assert check_name(name) == name


def test_decomposed_input_gives_nfc() -> None:
    assert check_name("Jose\u0301") == "José" == unicodedata.normalize("NFC", "José")


def test_whitespace_collapses_and_strips() -> None:
    assert check_name(" \tAna\u00a0\u3000\n María\r\n") == "Ana María"


@pytest.mark.parametrize("blank", [None, "", "   ", "\t\n", "\u3000\u2003"])
def test_missing_or_blank_is_none(blank: str | None) -> None:
    assert check_name(blank) is None


@pytest.mark.parametrize("value", [42, b"Ann", ["Ann"]])
def test_non_text_is_refused(value: object) -> None:
    with pytest.raises(BadName, match="must be text"):
        check_name(value)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("A\x00nn", "U+0000", "control characters"),
        ("Ann\x1b[31m", "U+001B", "control characters"),
        ("Ann\x1c", "U+001C", "control characters"),
        ("A\ud800nn", "U+D800", "lone surrogate"),
        ("Ann\udfff", "U+DFFF", "lone surrogate"),
        ("\u202eAnn", "U+202E", "direction overrides"),
        ("Ann\u2066", "U+2066", "direction overrides"),
        ("A\u200bnn", "U+200B", "format characters"),
        ("Ann\ufeff", "U+FEFF", "format characters"),
        ("Ann\U000e0041", "U+E0041", "format characters"),
        ("\u200dAnn", "U+200D", "zero-width joiner"),
        ("Ann \u200d Bo", "U+200D", "zero-width joiner"),
        ("Ann\u200d", "U+200D", "zero-width joiner"),
        ("Ann\ue000", "U+E000", "private-use"),
        ("Ann\U000f0000", "U+F0000", "private-use"),
        ("Ann\u0378", "U+0378", "unassigned"),
        ("Ann\uffff", "U+FFFF", "unassigned"),
        ("Ann\u3164", "U+3164", "blank filler"),
        ("Ann\u2800", "U+2800", "blank filler"),
        ("\u0301Ann", "U+0301", "combining mark"),
        ("Ann \u0301", "U+0301", "combining mark"),
        ("Z" + "\u0336" * (MAX_MARKS + 1), "U+0336", f"more than {MAX_MARKS} combining marks"),
    ],
)
def test_refusals_name_the_code_point(text: str, code: str, words: str) -> None:
    with pytest.raises(BadName) as caught:
        check_name(text)
    message = str(caught.value)
    assert code in message and words in message
    assert "\n" not in message and message.isprintable()


@pytest.mark.parametrize("text", ["\u3164", "\u2800", "\u0301", "\u115f\u1160 \uffa0", "\u0301\u0302 \u20dd"])
def test_no_visible_character_is_refused(text: str) -> None:
    with pytest.raises(BadName, match=r"^a name needs at least one visible letter, digit or sign$"):
        check_name(text)


def test_messages_start_with_what() -> None:
    with pytest.raises(BadName, match=r"^a bot's name is at most 40 characters"):
        check_name("x" * 41, what="a bot's name")


@pytest.mark.parametrize("length", [MAX_NAME, MAX_NAME + 1, 5000])
def test_length_limit(length: int) -> None:
    if length <= MAX_NAME:
        assert check_name("é" * length) == "é" * length
    else:
        with pytest.raises(BadName, match=f"at most {MAX_NAME} characters"):
            check_name("é" * length)


def test_length_counts_after_normalization() -> None:
    assert check_name("e\u0301" * MAX_NAME) == "é" * MAX_NAME


def test_marks_up_to_the_limit_pass() -> None:
    assert check_name("Z" + "\u0336" * MAX_MARKS) == "Z" + "\u0336" * MAX_MARKS


def test_name_key_clashes() -> None:
    assert name_key("Hana") == name_key("ＨＡＮＡ") == name_key("hana") == name_key(" HANA ")
    assert name_key("Ana  María") == name_key("ana maría") == name_key("Ana Mari\u0301a")
    assert name_key("A\u200dnn") == name_key("Ann\ufe0f") == name_key("ann")
    assert name_key("Ann") != name_key("Anne")


def test_unique_name() -> None:
    assert unique_name("Hana", []) == "Hana"
    assert unique_name("Hana", ["Bo"]) == "Hana"
    assert unique_name("Hana", ["ＨＡＮＡ"]) == "Hana 2"
    assert unique_name("Hana", ["hana", "Hana 2"]) == "Hana 3"
    assert unique_name("Hana", ["hana", "HANA 3"]) == "Hana 2"
    assert unique_name("Hana", ["hana", *(f"hana {n}" for n in range(2, 10))]) == "Hana 10"


def test_unique_name_truncates_long_names() -> None:
    long = "x" * MAX_NAME
    assert unique_name(long, [long]) == "x" * (MAX_NAME - 2) + " 2"
    taken = [long, *("x" * (MAX_NAME - 2) + f" {n}" for n in range(2, 10))]
    assert unique_name(long, taken) == "x" * (MAX_NAME - 3) + " 10"


def test_unique_name_does_not_leave_a_dangling_joiner() -> None:
    name = "y" * (MAX_NAME - 3) + "👩\u200d💻"
    assert check_name(name) == name
    result = unique_name(name, [name])
    assert result == "y" * (MAX_NAME - 3) + "👩 2"
    assert check_name(result) == result


# Characters worth trying more often than a uniform draw would.
AWKWARD = list(BIDI + "\u200b\u200c\u200d\ufeff\u00ad\u3164\u115f\u1160\uffa0\u2800\ue000\u0378\x00\x1c\x85")
AWKWARD += ["\t", "\n", " ", "\u00a0", "\u3000", "\u0301", "\u0336", "\ufe0f", "e", "Ａ", "👩", "💻", "\ud800"]
PLAUSIBLE = st.one_of(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E), st.characters(categories=["L", "M", "N", "P", "S", "Z"])
)
ANYTHING = st.one_of(PLAUSIBLE, st.sampled_from(AWKWARD), st.characters(exclude_categories=()))
TEXT = st.one_of(st.text(PLAUSIBLE, max_size=50), st.text(ANYTHING, max_size=50))
VISIBLE_CATEGORIES = re.compile("[LNPS]")


@settings(derandomize=True, max_examples=2000, deadline=None)
@given(TEXT)
def test_check_name_returns_clean_names_or_refuses(text: str) -> None:
    try:
        name = check_name(text)
    except BadName as refusal:
        assert "\n" not in str(refusal)
        return
    if name is None:
        assert all(unicodedata.category(ch).startswith("Z") or ch in "\t\n\v\f\r" for ch in text)
        return
    assert unicodedata.is_normalized("NFC", name)
    assert 0 < len(name) <= MAX_NAME
    assert name == name.strip() and "  " not in name
    assert not any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or ch in BIDI for ch in name)
    assert any(VISIBLE_CATEGORIES.match(unicodedata.category(ch)) for ch in name)
    assert check_name(name) == name


NAME_LETTERS = st.sampled_from(list("HhaNnＨａ 23é\u0301👩\u200d💻"))
NAME_PARTS = st.one_of(
    st.text(NAME_LETTERS, min_size=1, max_size=8), st.text(NAME_LETTERS, min_size=MAX_NAME - 4, max_size=MAX_NAME)
)


def _checked(text: str) -> str | None:
    try:
        return check_name(text)
    except BadName:
        return None


NAMES = NAME_PARTS.map(_checked).filter(lambda name: name is not None).map(str)


@settings(derandomize=True, max_examples=1000, deadline=None)
@given(NAMES, st.lists(st.one_of(NAMES, NAME_PARTS), max_size=12))
def test_unique_name_never_clashes(name: str, taken: list[str]) -> None:
    result = unique_name(name, taken)
    taken_keys = {name_key(other) for other in taken}
    assert len(result) <= MAX_NAME
    assert name_key(result) not in taken_keys
    assert check_name(result) == result
    if name_key(name) not in taken_keys:
        assert result == name


@settings(derandomize=True, max_examples=300, deadline=None)
@given(NAMES, st.integers(min_value=1, max_value=15))
def test_unique_name_seats_many_players_of_one_name(name: str, players: int) -> None:
    seated = [name]
    for _ in range(players):
        seated.append(unique_name(name, seated))
    assert len({name_key(one) for one in seated}) == len(seated)
    assert all(len(one) <= MAX_NAME and check_name(one) == one for one in seated)
