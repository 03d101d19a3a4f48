"""A count and its noun as plain English: "1 card", "5 cards", "0 hits".

Reports, mails and messages are read by players, moderators and forum readers: a number
known when the text is made is followed by its noun in the singular for one and the plural
otherwise, never "card(s)". Texts kept in journal records (an event's reason, a skirmish
test's result) keep the words they were written with: a journal stays the same bytes for
the same play, and verify compares them with a replay. plain_plurals reads such a text as
a person reads it, when it is shown.
"""

from __future__ import annotations

import re

# The plurals of the nouns a recorded text may count that do not take an "s".
IRREGULAR = {"die": "dice", "army": "armies"}

# A count, at most one word between, and a noun written with "(s)": "2 eligible unit(s)"
# (a count of at most 9 ASCII digits: whatever a record holds, int() reads it at once).
_WRITTEN = re.compile(r"\b([0-9]{1,9}) ((?:[a-z-]+ )?)([a-z]+)\(s\)")


def a_or_an(words: str) -> str:
    """words with the article its first sound takes: 'an impulse', 'a player turn'."""
    return f"{'an' if words[:1].lower() in 'aeiou' else 'a'} {words}"


def joined(words: list[str]) -> str:
    """Words as a sentence lists them: 'B', 'B and C', 'B, C and D'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """'1 card', '5 cards', '0 cards'; an irregular noun names its plural: 1 army, 2 armies."""
    return f"{n} {noun(n, singular, plural)}"


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """The noun alone for a count of n: 'card' for 1, 'cards' for any other count."""
    return singular if n == 1 else plural or singular + "s"


def plain_plurals(text: str) -> str:
    """A recorded text as it reads shown: '1 card(s) bought' as '1 card bought', 'only 2
    eligible unit(s)' as 'only 2 eligible units'; the rest of the text as it was."""
    return _WRITTEN.sub(lambda m: f"{m[1]} {m[2]}"
                                  f"{noun(int(m[1]), m[3], IRREGULAR.get(m[3]))}", text)
