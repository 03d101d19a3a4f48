"""Wrapped mail keeps a rule cited, a time and its zone, a date and its time, a turn, a
record, a fort and its strength, a reader and a choice's note on one line
(render/unbroken.py): each sentence below was broken inside such a group at 72 columns
("(2.0" / "II.1)", "13:00" / "EST", "Wed 25 Nov" / "13:00"). The expected lines are
counted by hand: the group moves whole to the next line, every other break stays."""

from __future__ import annotations

import pytest

from referee.mail.refusal import prose, quoted_line
from referee.render.formats import render
from referee.render.record_text import wrap_lines
from referee.render.sections import Document, Items, Section, Span, para

# (the sentence, its lines at 72 columns)
KEPT = [
    # a rule with its step of the sequence of play: was "... phase (2.0" / "II.1), as ..."
    ("A card played this turn cannot be played again in the same phase (2.0 II.1), as the "
     "rules say.",
     ["A card played this turn cannot be played again in the same phase",
      "(2.0 II.1), as the rules say."]),
    # the word rule with its number: was "... and so rule" / "8.3.6 applies here."
    ("The attacker cannot advance into an area it could not enter, and so rule 8.3.6 "
     "applies here.",
     ["The attacker cannot advance into an area it could not enter, and so",
      "rule 8.3.6 applies here."]),
    # a time and its zone: was "... 19:00 CET (18:00" / "UTC), on Wednesday."
    ("Both sides were asked for orders by the same time, 19:00 CET (18:00 UTC), on "
     "Wednesday.",
     ["Both sides were asked for orders by the same time, 19:00 CET",
      "(18:00 UTC), on Wednesday."]),
    # a date, its time and its zone: was "... due on Wed 25 Nov 13:00" / "EST."
    ("The moderator gave more time to both: orders are due on Wed 25 Nov 13:00 EST.",
     ["The moderator gave more time to both: orders are due on",
      "Wed 25 Nov 13:00 EST."]),
    # a date and its time: was "... due by Wed 25 Nov" / "13:00 EST."
    ("The moderator gave more time to both sides: orders are due by Wed 25 Nov 13:00 EST.",
     ["The moderator gave more time to both sides: orders are due by",
      "Wed 25 Nov 13:00 EST."]),
    # a turn, its season and its year: was "... covers SUMMER" / "1914 and more."
    ("The German player's report for the game ttlm-1914-a471c2b4 covers SUMMER 1914 and "
     "more.",
     ["The German player's report for the game ttlm-1914-a471c2b4 covers",
      "SUMMER 1914 and more."]),
    # the last turn's two years: was "... up to WINTER" / "1919-20."
    ("The report for the game ttlm-1914-a471c2b4 covers the turns up to WINTER 1919-20.",
     ["The report for the game ttlm-1914-a471c2b4 covers the turns up to",
      "WINTER 1919-20."]),
    # a skirmish rule cited by its name: was "... after all (rule" / "Sequence of Play)."
    ("A raw figure fires in the last step of the fire phase, after all (rule Sequence of "
     "Play).",
     ["A raw figure fires in the last step of the fire phase, after all",
      "(rule Sequence of Play)."]),
    # a name with its own brackets: was "... the figure firing (rule Aimed" / "Fire (D20))."
    ("Each die is rolled against the quality of the figure firing (rule Aimed Fire (D20)).",
     ["Each die is rolled against the quality of the figure firing",
      "(rule Aimed Fire (D20))."]),
    # an order of a production plan: was "... entrench ge-1; build ge" / "infantry liege"
    ("German seals a production plan (7.0): buy 2; entrench ge-1; build ge infantry liege",
     ["German seals a production plan (7.0): buy 2; entrench ge-1;",
      "build ge infantry liege"]),
    # an order of a plan of placements (2.0 I): was "... place fr-9 verdun; place uk" /
    # "infantry england"
    ("Entente seals a plan: place fr-6 namur; place fr-9 verdun; place uk infantry england",
     ["Entente seals a plan: place fr-6 namur; place fr-9 verdun;",
      "place uk infantry england"]),
    # a choice's note and the place it is for: was "... Luxembourg [into" / "ge-4].", then
    # "... Metz, Luxembourg" / "[into ge-4]."
    ("Place each arriving unit in a supplied area: Metz, Luxembourg [into ge-4].",
     ["Place each arriving unit in a supplied area: Metz,",
      "Luxembourg [into ge-4]."]),
    # a run of records: was "... ttlm-1914-a471, records" / "1–15 and more."
    ("The report for the German player covers the game ttlm-1914-a471, records 1–15 and "
     "more.",
     ["The report for the German player covers the game ttlm-1914-a471,",
      "records 1–15 and more."]),
    # a fort, its place and its strength: was "... with Thionville fort" / "2 still ..."
    ("Entente: fr-5 5e Armée [3I+1C] and the forts there, with Thionville fort 2 still "
     "standing.",
     ["Entente: fr-5 5e Armée [3I+1C] and the forts there, with",
      "Thionville fort 2 still standing."]),
    # a reader as a title names him: was "... who is the German" / "player."
    ("Only the orders given so far are shown to the reader, who is the German player.",
     ["Only the orders given so far are shown to the reader, who is the",
      "German player."]),
    # a place of two words: was "... Galicia, Upper Hungary" / "[into au-2]."
    ("Place each arriving unit in a supplied area: Galicia, Upper Hungary [into au-2].",
     ["Place each arriving unit in a supplied area: Galicia,",
      "Upper Hungary [into au-2]."]),
    # an entry of the force pool, a name of two words and its count: was "... tank 1,
    # paris" / "gun 1, cavalry 2"
    ("Force pool, ge: infantry 12, stosstruppen 15, biplane 4, tank 1, paris gun 1, "
     "cavalry 2",
     ["Force pool, ge: infantry 12, stosstruppen 15, biplane 4, tank 1,",
      "paris gun 1, cavalry 2"]),
    # a skirmish rule cited by its name alone: was "... here a miss (Aimed" / "Fire (D20))."
    ("Each die is rolled against the quality of the figure: here a miss (Aimed Fire (D20)).",
     ["Each die is rolled against the quality of the figure: here a miss",
      "(Aimed Fire (D20))."]),
    # a die label with its rolls: was "... the fort fired F2" / "[5 3], a miss."
    ("In the defensive fire of the Liège battle (5.2.1 c), the fort fired F2 [5 3], a miss.",
     ["In the defensive fire of the Liège battle (5.2.1 c), the fort fired",
      "F2 [5 3], a miss."]),
]

# (the text, a width narrower than some of its groups, its lines): a group longer than the
# width is wrapped at its spaces like any words; one that fits stays whole.
TOO_LONG = [
    ("See (2.0 II.1) now", 8, ["See (2.0", "II.1)", "now"]),
    ("Due: Wed 25 Nov 13:00 NZDT (Tue 24 Nov 23:59 UTC) (2.0 II.1)", 12,
     ["Due: Wed 25", "Nov 13:00", "NZDT (Tue 24", "Nov 23:59", "UTC)", "(2.0 II.1)"]),
    ("Fired (Unaimed Fire (D20, to pin)) now", 20,
     ["Fired (Unaimed Fire", "(D20, to pin)) now"]),
]

# A bracket of capitalized words longer than a rule's name (unbroken.NAME_MOST, 30
# letters) is prose, wrapped at its spaces: was it a name, a line would keep it whole and
# end short of the width by as much.
LONG_BRACKET = ("The referee reads this note as it stands in the mail, words and all (As Said "
                "By The Moderator Of This Game Himself) and goes on.")


def test_a_long_bracket_of_capitalized_words_is_wrapped_as_prose():
    assert prose(LONG_BRACKET).split("\n") == [
        "The referee reads this note as it stands in the mail, words and all (As",
        "Said By The Moderator Of This Game Himself) and goes on."]


# The article before a reader is a word of its own: "the" stays at a line's end when it
# fits there (the reveal's mail broke "... the game's log as" / "the German player may ..."
# at 62 columns).
ARTICLE = ("What now: the moderator has published the dice secret, so every die can be "
           "checked. Ask him for your side's export, the game's log as the German player may "
           "see it.")


def test_the_article_before_a_reader_stays_where_it_fits():
    lines = ["What now: the moderator has published the dice secret, so every die can",
             "be checked. Ask him for your side's export, the game's log as the",
             "German player may see it."]
    assert prose(ARTICLE).split("\n") == lines
    assert as_text(ARTICLE) == lines


def as_text(text: str, width: int = 72) -> list[str]:
    """text as a paragraph of a rendered document (reports, refusals) gives it."""
    return render(Document("", [Section("", [para(text)])]), "text", width).splitlines()


@pytest.mark.parametrize(("text", "lines"), KEPT)
def test_a_group_is_kept_on_one_line_in_prose_and_in_a_report(text, lines):
    assert prose(text).split("\n") == lines
    assert as_text(text) == lines


@pytest.mark.parametrize(("text", "lines"), KEPT)
def test_a_group_is_kept_on_one_line_in_a_journal_line_and_a_list(text, lines):
    hang = ["    " + lines[0], *("        " + line for line in lines[1:])]
    assert wrap_lines(["    " + text], 76) == hang
    listed = render(Document("", [Section("", [Items([[Span(text)]])])]), "text", 74)
    assert listed.splitlines() == ["- " + lines[0], *("  " + line for line in lines[1:])]


@pytest.mark.parametrize(("text", "width", "lines"), TOO_LONG)
def test_a_group_longer_than_the_width_is_wrapped_at_its_spaces(text, width, lines):
    assert wrap_lines([text], width, hang=0) == lines
    assert as_text(text, width) == lines
    assert all(len(line) <= width for line in lines)


# Hostile texts (a player's line, quoted): long, and holding the start of a group that
# never ends. Each is read in time linear in its length, a few tens of milliseconds: a
# note's place tried at every letter of a run of marks read the rest of the run again each
# time, 15 s for a quarter of these lengths, and so minutes for these. The bound is only
# there to fail such a case rather than hang.
HOSTILE = [
    "!" * 400_000 + " x [into ge-4]",
    "(rule A" + "!" * 400_000 + " x",
    "German seals a production plan (7.0): buy" + " a" * 200_000 + " (",
    "Entente seals a plan: place" + " a" * 200_000 + " (",
    "A" + "b" * 400_000 + " fort",
    "the " + "A" * 400_000 + " x",
    "Force pool, ge:" + " a" * 200_000 + " 1",
    "Force pool, ge: " + "a, " * 130_000 + "a 1",
    "(A" + " b" * 200_000 + " (c",
    "(A (" * 100_000,
    "F2 [" + "1 " * 200_000 + "x",
    "F1 [1 " * 70_000,
]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_long_hostile_text_is_bound_in_little_time(text):
    import time

    start = time.perf_counter()
    assert " ".join(wrap_lines([text], 72, hang=0)).split() == text.split()
    assert time.perf_counter() - start < 30


def test_a_quoted_line_keeps_its_groups_whole():
    text = "extend 24h please, I am away on long home leave until Wed 25 Nov 13:00 EST, sorry"
    # was "... until Wed 25 Nov 13:00" / "  EST, sorry"
    assert quoted_line(text) == ["extend 24h please, I am away on long home leave until",
                                 "  Wed 25 Nov 13:00 EST, sorry"]


@pytest.mark.parametrize(("text", "lines"), KEPT)
def test_the_wrapped_text_holds_plain_spaces_only(text, lines):
    for out in (prose(text), "\n".join(as_text(text)), "\n".join(wrap_lines([text], 40)),
                "\n".join(quoted_line(text, 40))):
        assert "\u00a0" not in out
        assert " ".join(out.split()) == text


# A space the wrappers of plain text never break at (textwrap breaks at ASCII spaces only):
# an em space, an ideographic space. A player's line may hold them (mail reading makes only
# the no-break spaces plain: mail/message.py).
@pytest.mark.parametrize("space", ["\u2003", "\u3000"])
def test_a_group_glued_by_a_space_no_wrapper_breaks_at_is_measured_with_it(space):
    """"(2.0 II.1)" glued to a long word by an em space: the word it makes with it is too
    long for a line, so the group is wrapped at its spaces and the quoted line stays within
    the mail's 72 columns, as it did before groups were kept whole: the word and "(2.0"
    make 63 letters, within the 70 of a quoted line's continuation; with " II.1)" 69."""
    text = f"move {'a' * 58}{space}(2.0 II.1) and then some more words"
    lines = quoted_line(text)
    assert all(len("  " + line) <= 72 for line in lines), lines
    assert all(len(line) <= 72 for line in wrap_lines([text], 72, hang=0))


@pytest.mark.parametrize(("text", "lines"), [
    ("\u00a0" + "a" * 80, ["a" * 80]),
    ("a" * 70 + "\u00a0" * 4 + "b", ["a" * 70 + " b"]),
    ("b " + "a" * 80 + "\u00a0" * 3, ["b", "a" * 80]),
])
def test_a_no_break_space_of_the_text_itself_at_a_word_s_edge_is_a_space(text, lines):
    """A word too long for a line is wrapped at its no-break spaces, those the text held
    (a name in a data file, a pasted phrase) as well as those of a group kept whole: one at
    the word's edge is a space there, never an empty line nor a line begun by a space."""
    assert as_text(text) == lines
