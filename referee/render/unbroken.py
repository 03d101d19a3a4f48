"""The groups of words a wrapped line keeps on one line: a rule cited with its sub-parts
(2.0 II.1, rule 8.3.6) or by its name (rule Sequence of Play, or in brackets alone: Aimed
Fire (D20)), a clock time with its zone (13:00 UTC), a date with its time (Mon 30 Nov
08:00 EST), a turn (SUMMER 1914), a record (records 1–15), a fort's strength (fort 2), a
reader after "the" (German player), a choice's note with the place it is for (Luxembourg
[into ge-4]), a die label with its rolls (F2 [5 3]), an entry of the force pool (paris gun
1) and each order of a production plan or a plan of placements (build ge infantry liege,
place uk infantry england). On a phone, "(2.0" at
the end of one line and "II.1)" at the start of the next, or "(13:00" and "UTC)", or
"Luxembourg" and "[into ge-4]", or "(rule Sequence" and "of Play)", or "Entente" and
"player", or "F2" and "[5 3]", or "paris" and "gun 1", or "build ge" and "infantry liege",
or "place uk" and "infantry england", read as two things.

A wrapper binds such a group's spaces with NO_BREAK before it wraps (the group is then one
word to it) and gives the lines back with plain spaces (unbound): mail stays plain text,
with no U+00A0 a mail program might show as something else. A group that does not fit the
room a line has is left unbound: it is wrapped at its spaces, never run past the width.

The patterns most text needs are compiled when the module is imported; one that only a
text holding certain words needs (a note or dice, in brackets; a rule cited by its name;
a production plan's orders, the force pool's entries: no `status` holds one) is compiled
the first time a text holds them, and kept compiled by re. Each pattern starts only where
its lookbehind allows (after a bracket, a colon or a comma, or at a word's start) and can
match a text in one way only, so that a hostile text is read in time linear in its length
(tests/test_wrap_groups.py).
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0"

_DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
# A zone as base/clock.for_players names it: its abbreviation (CET, NZDT) or, for a zone
# without one, its offset (+03, -0330).
_ZONE = r"(?:[A-Z]{2,6}|[+-]\d{2}(?:\d{2})?)"
_WHEN = rf"(?:{_DAY} \d{{1,2}} {_MONTH} )?\d{{1,2}}:\d{{2}}(?: {_ZONE}(?![\w:+-]))?"
# A rule number with its sub-parts: 8.3.6, 2.0 II.1, 2.0 II.3b (the steps of the sequence
# of play, rule 2.0, are Roman numerals), with the word "rule" before it when there is one.
_RULE = r"(?:[Rr]ules? )?\d+(?:\.\d+)+[a-z]?(?: [IVX]+(?:\.\d+[a-z]?)*(?![\w]))?"
# A turn as the game data names it: its season in capitals and its year (SUMMER 1914,
# WINTER 1919-20).
_TURN = r"[A-Z]{3,} \d{4}(?:-\d{2})?(?![\w-])"
# A record or a run of them (record 15, records 1–15), a fort and its strength (fort 2,
# fort 3/4) and a reader as a title names him (German player), after "the": the article
# stays free, as any other word ("the" at a line's end, "German player" at the next line's
# start read as one reader, as "Entente" / "player" do not).
_RECORD = r"records? \d+(?:[–-]\d+)?(?![\w–-])"
_FORT = r"(?:[A-Z][\w’-]* )?fort \d+(?:/\d+)?(?![\w/])"
_READER = r"(?<=the )[A-Z][\w-]* player(?![\w-])"
_GROUP = re.compile(rf"(?<![\w.:+-])(?:{_WHEN}|{_RULE}|{_TURN}|{_RECORD}|{_FORT}|{_READER})")
# A rule cited by its name alone in brackets, as a skirmish's test line ends: (Movement),
# (Aimed Fire (D20)), (Unaimed Fire (D20, to pin)), (Hand-to-Hand Combat): words of
# letters, the first capitalized, and a bracket of its own last. Kept whole up to
# NAME_MOST letters (a longer bracket of capitalized words is prose, wrapped as such).
NAME_MOST = 30
_NAMED = re.compile(r"(?<=\()[A-Z][^\W\d_]*(?:[ -][^\W\d_]+)*(?: \([^()\n]*\))?(?=\))")
# A choice's note in brackets of two or three words, with the place before it when the note
# is of words (Luxembourg [into ge-4], Upper Hungary [into au-2], not the dice F2 [5 3]): the
# place's name, one word, or two when the first is capitalized. The place starts a word (a
# match tried inside a long one would read the rest of it again at each of its letters).
# Read only in a text that holds a bracket.
_PLACE = r"(?<!\S)(?:[A-Z][^\s\[\],;:]* )?[^\s\[\],;:]+ (?=\[[a-z])"
_NOTE = rf"(?:{_PLACE}|(?<![\w.:+-]))\[[^\[\]\s]+(?: [^\[\]\s]+){{1,2}}\]"
# A rule cited by its name in brackets, as a skirmish's card names its rules: (rule
# Sequence of Play), (rule Aimed Fire (D20)), (rule Movement; record 12). Read only in a
# text that holds "(rule " (a rule cited by number has lost that space to _GROUP).
_NAMED_RULE = r"(?<=\()[Rr]ule [A-Z][^()\n;]*(?:\([^()\n]*\))?(?=[);])"
# An order of a production plan (7.0) or of a sealed plan of placements (2.0 I) as the
# plan's line lists them, after its colon and each after a semicolon, to the next or the
# line's end: buy 2; build ge infantry verdun into ge-5; rebuild ge-3 metz; entrench ge-1
# ge-2; upgrade ge-2:infantry; place uk infantry england. Read only in a text with a colon
# before one of these words (_plan).
_PLAN_ORDER = r"(?<=[:;] )(?:build|rebuild|buy|entrench|upgrade|place)(?: [\w:-]+)+(?=;|$)"
# A die label with its rolls, as a fire's dice are told: F2 [5 3], F1 [1 3 1 4] (the
# firepower, then every die it rolled). Read only in a text that holds a bracket, before
# a note (_NOTE, which would take the rolls alone).
_DICE = r"(?<![\w.:+-])F\d+ \[\d+(?: \d+)*\]"
# An entry of the force pool (11.1), a unit type's name of one to three words with its
# count, after the line's colon or a comma: infantry 12, paris gun 1. Read only in a text
# that names the pool.
_POOL_ENTRY = r"(?<=[:,] )[a-z]+(?: [a-z]+){0,2} \d+(?![\w.:/-])"
# Where the wrappers given a room (textwrap) break a line: at ASCII white space only. An em
# space or an ideographic space is inside a word to them, so it is counted in the word.
_BREAKS = frozenset(" \t\n\r\x0b\x0c")


def bound(text: str, room: int | None = None) -> str:
    """text with the spaces inside each group kept whole made NO_BREAK, but in a group
    that would make a word longer than room (None: any length) with what is glued to it
    ("(13:00 UTC),")."""
    if " " not in text:             # nothing to bind (most spans of a document: a word)
        return text
    text = _bind(_GROUP, text, room)
    if "[" in text:
        text = _bind(re.compile(_NOTE), _bind(re.compile(_DICE), text, room), room)
    if "(rule " in text or "(Rule " in text:
        text = _bind(re.compile(_NAMED_RULE), text, room)
    if "(" in text:
        text = _bind(_NAMED, text, room, NAME_MOST)
    if _plan(text):
        text = _bind(re.compile(_PLAN_ORDER), text, room)
    if "pool" in text:
        text = _bind(re.compile(_POOL_ENTRY), text, room)
    return text


def _plan(text: str) -> bool:
    """Whether text may list a production plan's orders (_PLAN_ORDER): a colon, then one."""
    return ": buy " in text or ": build " in text or ": rebuild " in text or \
        ": entrench " in text or ": upgrade " in text or ": place " in text


def _bind(pattern: re.Pattern, text: str, room: int | None, longest: int | None = None
          ) -> str:
    """text with the spaces of each match of pattern made NO_BREAK, as bound says, but in a
    match longer than `longest` letters (None: any length)."""
    def bind(m: re.Match) -> str:
        group = m.group()
        if longest is not None and len(group) > longest:
            return group
        if room is not None and _word_length(text, m.start(), m.end(), room) > room:
            return group
        return group.replace(" ", NO_BREAK)
    return pattern.sub(bind, text)


def _word_length(text: str, start: int, end: int, most: int) -> int:
    """The length of text[start:end] with what is glued to it on either side, up to a
    space a wrapper breaks at (_BREAKS): the word it makes, counted no further than past
    most (so that a long text of many groups glued together costs no more than most a
    group)."""
    before, edge = start, max(0, end - most - 1)
    while before > edge and text[before - 1] not in _BREAKS:
        before -= 1
    after, edge = end, min(len(text), before + most + 1)
    while after < edge and text[after] not in _BREAKS:
        after += 1
    return after - before


def unbound(text: str) -> str:
    """text with every NO_BREAK a plain space again: what a wrapped line is sent as."""
    return text.replace(NO_BREAK, " ")
