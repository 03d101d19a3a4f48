"""upper_first (referee/base/plurals.py): words made for the middle of a sentence opening
one, their first letter a capital and the rest as written."""

from referee.base.plurals import a_or_an, upper_first


def test_the_first_letter_becomes_a_capital():
    assert upper_first("the German player") == "The German player"
    assert upper_first("your orders were due") == "Your orders were due"


def test_the_rest_stays_as_written():
    """Unlike str.capitalize, which would write 'An fr army' and 'The german player'."""
    assert upper_first("an FR army") == "An FR army"
    assert upper_first("the game ended at record #12: the German side won") == \
        "The game ended at record #12: the German side won"
    assert upper_first("Already a capital") == "Already a capital"


def test_an_empty_text_stays_empty():
    assert upper_first("") == ""


def test_a_or_an_opens_a_sentence_with_it():
    assert a_or_an("FR army", capital=True) == "An FR army"
    assert a_or_an("unit", capital=True) == "A unit"
