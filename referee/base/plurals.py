"""A count and its noun as plain English: "1 card", "5 cards", "0 hits".

Reports, mails and messages are read by players, moderators and forum readers: a number
known when the text is made is followed by its noun in the singular for one and the plural
otherwise, never "card(s)". Texts kept in journal records (an event's reason, a skirmish
test's result) keep the words they were written with: a journal stays the same bytes for
the same play, and verify compares them with a replay. plain_plurals reads such a text as
a person reads it, when it is shown.
"""

from __future__ import annotations

from .lazyre import LazyPattern

# The plurals of the nouns a recorded text may count that do not take an "s".
IRREGULAR = {"die": "dice", "army": "armies"}

# A count, at most one word between, and a noun written with "(s)": "2 eligible unit(s)"
# (a count of at most 9 ASCII digits: whatever a record holds, int() reads it at once).
_WRITTEN = LazyPattern(r"\b([0-9]{1,9}) ((?:[a-z-]+ )?)([a-z]+)\(s\)")


# Words whose first vowel is said as a consonant ('a unit', 'a usual', 'a European', 'a one').
_SAID_Y_OR_W = ("uni", "use", "usu", "uti", "ura", "eu", "one", "once")
# The capital letters whose names begin with a vowel: 'an FR army', 'an SMG', 'a UK army'.
_LETTERS_AN = "AEFHILMNORSX"


def a_or_an(words: str, capital: bool = False) -> str:
    """words with the article its first sound takes: 'an impulse', 'a player turn', 'a unit',
    'a UK army', 'an FR army' (a word in capitals said letter by letter); capital: 'A', 'An'
    (a sentence's first word). The one helper wherever an article goes before a word that
    is not known when the code is written (a unit type, a card title, a name from data)."""
    first = words.split(" ", 1)[0].strip("\"'(")
    if len(first) > 1 and first.isalpha() and first.isupper():
        an = first[0] in _LETTERS_AN
    else:
        low = first.lower()
        an = low[:1] in "aeiou" and not low.startswith(_SAID_Y_OR_W)
    article = "an" if an else "a"
    return f"{upper_first(article) if capital else article} {words}"


def upper_first(words: str) -> str:
    """words with their first letter a capital, the rest as written: a sentence's opening
    ('the German player' as 'The German player', 'an FR army' as 'An FR army', never
    'An fr army' as str.capitalize makes it); '' as it is. The one helper wherever
    words made for the middle of a sentence open one."""
    return words[:1].upper() + words[1:]


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
