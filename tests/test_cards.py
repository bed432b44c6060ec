import pytest

from parlour.cards import ALL_CARDS, JOKER, Card, cards, deck_of, sort_hand, standard_deck


def test_parse_ten_and_lower_case() -> None:
    assert str(Card.parse("10h")) == "TH"
    assert Card.parse("10h") == Card.parse("TH") == Card.parse("th")


def test_every_card_round_trips() -> None:
    for c in ALL_CARDS:
        assert Card.parse(str(c)) is c
        assert eval(repr(c), {"Card": Card}) is c


def test_rank_suit_and_names() -> None:
    seven = Card.parse("7H")
    assert (seven.rank, seven.suit) == (7, "H")
    assert seven.name() == "Seven of Hearts"
    assert Card.parse("AS").rank == 1 and Card.parse("KC").rank == 13
    assert JOKER.is_joker and str(JOKER) == "JK" and JOKER.rank == 0
    assert Card.of(10, "D") == Card.parse("TD")


@pytest.mark.parametrize("bad", ["", "1H", "7X", "H7", "11C", "J", "7HH", "joker"])
def test_bad_cards_say_what_was_expected(bad: str) -> None:
    with pytest.raises(ValueError, match="expected a rank"):
        Card.parse(bad)


def test_decks() -> None:
    assert len(standard_deck()) == 52 and len(set(standard_deck())) == 52
    assert len(deck_of("A2346", copies=2)) == 40
    assert cards("7h TS") == [Card.parse("7H"), Card.parse("TS")]
    assert [str(c) for c in sort_hand(cards("KS 2C JK 9H 3C"))] == ["2C", "3C", "9H", "KS", "JK"]
