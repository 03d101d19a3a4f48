"""A count and its noun read as plain English (referee/base/plurals.py): "1 card",
"5 cards", "0 cards", never "card(s)"."""

from referee.base.plurals import counted, noun


def test_one_is_singular_and_any_other_count_plural():
    assert counted(1, "card") == "1 card"
    assert counted(5, "card") == "5 cards"
    assert counted(0, "hit") == "0 hits"


def test_an_irregular_noun_names_its_plural():
    assert counted(1, "army", "armies") == "1 army"
    assert counted(2, "army", "armies") == "2 armies"
    assert counted(3, "die", "dice") == "3 dice"
    assert counted(1, "die", "dice") == "1 die"


def test_the_noun_alone_follows_the_same_count():
    assert noun(1, "message") == "message"
    assert noun(7, "message") == "messages"
    assert noun(2, "extension") + " left" == "extensions left"
