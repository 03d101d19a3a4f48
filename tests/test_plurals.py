"""A count and its noun read as plain English (referee/base/plurals.py): "1 card",
"5 cards", "0 cards", never "card(s)"."""

from referee.base.plurals import counted, noun, plain_plurals


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


def test_a_recorded_text_reads_with_plain_plurals_when_shown():
    """An event's reason keeps its words in the journal (verify compares it with a
    replay); it reads plainly when shown."""
    assert plain_plurals("1 card(s) bought (7.1)") == "1 card bought (7.1)"
    assert plain_plurals("3 card(s) bought (7.1)") == "3 cards bought (7.1)"
    assert plain_plurals("the german player had only 1 eligible unit(s) on the map") == \
        "the german player had only 1 eligible unit on the map"
    assert plain_plurals("the german player had only 0 eligible unit(s) on the map") == \
        "the german player had only 0 eligible units on the map"
    assert plain_plurals("x-1 removes 2 pin(s), 0 left") == "x-1 removes 2 pins, 0 left"
    assert plain_plurals("2 die(s)") == "2 dice"
    assert plain_plurals("starting hand (scenario set-up)") == "starting hand (scenario set-up)"


def test_a_count_no_record_would_hold_is_left_as_written():
    """A hostile record's count of thousands of digits (past what int() reads) or of other
    scripts' digits is left as it is, never raising."""
    huge = "9" * 5000 + " card(s) bought"
    assert plain_plurals(huge) == huge
    assert plain_plurals("\u0663 card(s)") == "\u0663 card(s)"
