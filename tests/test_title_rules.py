"""The rule under a title is as wide as the title shows on a fixed-width screen (its
display width, render/columns.py), never its count of characters, and no wider than the
text: a title of wide characters is underlined whole, one with combining accents is not
overrun, and the rule stays one hard line in a flowed mail."""

from __future__ import annotations

import unicodedata

from referee.mail.flowed import flowed
from referee.render.columns import columns
from referee.render.formats import to_text
from referee.render.sections import Document, Section


def _rules(text: str) -> list[tuple[str, str]]:
    lines = text.split("\n")
    return [(lines[i - 1], ln) for i, ln in enumerate(lines) if ln and set(ln) <= {"=", "-"}]


def test_a_title_of_wide_characters_is_underlined_across_its_columns():
    title = "東京の報告"                    # five characters, ten columns
    ((shown, rule),) = _rules(to_text(Document(title)))
    assert shown == title and rule == "=" * 10


def test_a_title_with_combining_accents_is_underlined_no_further_than_it_shows():
    title = unicodedata.normalize("NFD", "Résumé du général")   # 21 characters, 17 columns
    text = to_text(Document(title, [Section(unicodedata.normalize("NFD", "Armée"))]))
    assert _rules(text) == [(title, "=" * 17), (unicodedata.normalize("NFD", "Armée"),
                                                "-" * 5)]


def test_a_long_title_s_rule_is_its_widest_line_and_one_hard_line_when_flowed():
    title = "TO THE LAST MAN! — report for the German player: game siege, records 2–16"
    text = to_text(Document(title), width=40)
    ((last, rule),) = _rules(text)
    widest = max(columns(ln.rstrip()) for ln in text.split("\n")[:text.split("\n").index(rule)])
    assert len(rule) == widest <= 40
    sent = flowed(text).split("\n")        # hard: no soft break joins it to another line
    assert [ln for ln in sent if set(ln.rstrip()) == {"="}] == [rule]


def test_a_rule_is_no_longer_than_a_phone_s_line():
    """A title of 53 to 69 columns fits a 72-column mail line, and its rule did too: a phone
    showing 40 columns reflows the title but breaks the hard rule, leaving a stray line of
    '=' under it. The rule stops at RULE_MOST; a short title's is as long as the title."""
    title = "What the German player did since your last mail (records 3–9)"
    text = to_text(Document(title, [Section("Since your last mail (record 17)")]))
    assert _rules(text) == [(title, "=" * 40), ("Since your last mail (record 17)", "-" * 32)]


def test_columns():
    assert columns("abc") == 3 and columns("ｗｉｄｅ") == 8 and columns("e\u0301") == 1
    assert columns("a\u200db") == 2 and columns("—") == 1


def test_the_width_without_the_unicode_tables_is_the_width_with_them():
    """columns() spares the Unicode tables for Latin-1 and the common dashes and quotes (a
    cold read loads none): there it must count as the tables do."""
    import unicodedata

    from referee.render import columns as widths
    for c in [chr(i) for i in range(0x400)] + sorted(widths._ONE):
        full = 0 if unicodedata.category(c) in widths._NONE else \
            2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
        assert widths.columns(c * 3) == 3 * full, (hex(ord(c)), widths.columns(c * 3))
